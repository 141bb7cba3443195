//! Every kind of repetition: `while`, `while let`, `loop`, labels, nested loops and closures
//! passed to iterator adapters. A condition around the save does not make it run once.

use std::path::{Path, PathBuf};

use anyhow::Result;
use burn_store::{BurnpackStore, ModuleSnapshot, SafetensorsStore};

use crate::data::{Batch, Loader};
use crate::model::Mlp;
use crate::train::{evaluate, optimizer_step, train_epoch, train_step};

/// `while` with a loss target.
pub fn train_until(mut model: Mlp, batches: &[Batch], dir: &Path, max_epochs: usize) -> Result<Mlp> {
    let mut epoch = 0;
    let mut loss = f32::INFINITY;
    while epoch < max_epochs && loss > 0.05 {
        for batch in batches {
            model = train_epoch(model, batch);
            optimizer_step(&mut model, 1e-3);
        }
        loss = evaluate(&model, batches);
        let mut store = SafetensorsStore::from_file(dir.join("latest.safetensors")); // expect: BL003
        model.save_into(&mut store)?;
        epoch += 1;
    }
    Ok(model)
}

/// `while let` over a data loader, saving every `every` steps.
pub fn train_steps(mut model: Mlp, mut loader: Loader, dir: &Path, every: usize) -> Result<Mlp> {
    let latest = dir.join("latest.bpk");
    let mut step = 0usize;
    while let Some(batch) = loader.next() {
        model = train_step(model, &batch);
        optimizer_step(&mut model, 1e-3);
        step += 1;
        if step % every == 0 {
            let mut store = BurnpackStore::from_file(&latest); // expect: BL003
            model.save_into(&mut store)?;
        }
    }
    Ok(model)
}

/// `loop` with the exit test after the save: the save runs on every pass.
pub fn train_loop_break_after(mut model: Mlp, batches: &[Batch], dir: &Path, target: f32) -> Result<Mlp> {
    loop {
        for batch in batches {
            model = train_epoch(model, batch);
            optimizer_step(&mut model, 1e-3);
        }
        let loss = evaluate(&model, batches);
        model.save_into(&mut BurnpackStore::from_file(dir.join("latest.bpk")))?; // expect: BL003
        if loss < target {
            break;
        }
    }
    Ok(model)
}

/// Labelled outer loop; the save sits in the outer body, `continue 'epochs` skips nothing of it.
pub fn train_labelled(mut model: Mlp, batches: &[Batch], latest: &Path, epochs: usize) -> Result<Mlp> {
    'epochs: for epoch in 0..epochs {
        for batch in batches {
            if batch.is_empty() {
                continue 'epochs;
            }
            model = train_epoch(model, batch);
        }
        println!("epoch {epoch} done");
        model.save_into(&mut SafetensorsStore::from_file(latest))?; // expect: BL003
    }
    Ok(model)
}

/// Best-model checkpoint: the `if` does not exempt, the second improvement fails.
pub fn train_keep_best(mut model: Mlp, batches: &[Batch], dir: &Path, epochs: usize) -> Result<Mlp> {
    let best_path = dir.join("best.safetensors");
    let mut best = f32::INFINITY;
    for epoch in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
            optimizer_step(&mut model, 1e-3);
        }
        let loss = evaluate(&model, batches);
        if loss < best {
            best = loss;
            model.save_into(&mut SafetensorsStore::from_file(&best_path))?; // expect: BL003
            println!("epoch {epoch}: new best {best:.4}");
        }
    }
    Ok(model)
}

/// `for_each` on a range.
pub fn train_for_each(model: &mut Mlp, batches: &[Batch], dir: &Path, epochs: usize) {
    (0..epochs).for_each(|epoch| {
        for batch in batches {
            optimizer_step(model, 1e-3);
            println!("epoch {epoch}: loss {:.4}", evaluate(model, std::slice::from_ref(batch)));
        }
        let mut store = BurnpackStore::from_file(dir.join("latest.bpk")); // expect: BL003
        model.save_into(&mut store).expect("checkpoint");
    });
}

/// `try_for_each` with `?` inside the closure.
pub fn train_try_for_each(model: &mut Mlp, batches: &[Batch], latest: PathBuf, epochs: usize) -> Result<()> {
    (0..epochs).try_for_each(|epoch| -> Result<()> {
        for batch in batches {
            optimizer_step(model, 1e-3);
        }
        log::info!("epoch {epoch} done");
        model.save_into(&mut SafetensorsStore::from_file(&latest))?; // expect: BL003
        Ok(())
    })
}

/// `iter().map(..)` over ensemble members, all written to one file.
pub fn export_members(members: &[Mlp], out: &Path) -> Result<Vec<()>> {
    let saved = members
        .iter()
        .map(|member| member.save_into(&mut SafetensorsStore::from_file(out.join("member.safetensors")))) // expect: BL003
        .collect::<Result<Vec<()>, _>>()?;
    Ok(saved)
}

/// `chunks(..).enumerate().for_each(..)`.
pub fn train_in_chunks(model: &mut Mlp, batches: &[Batch], dir: &Path) {
    let latest = dir.join("latest.safetensors");
    batches.chunks(64).enumerate().for_each(|(i, chunk)| {
        for _batch in chunk {
            optimizer_step(model, 1e-3);
        }
        println!("chunk {i} done");
        let mut store = SafetensorsStore::from_file(&latest); // expect: BL003
        model.save_into(&mut store).expect("chunk checkpoint");
    });
}

/// A path that changes per run but not per epoch: invariant for the inner loop.
pub fn sweep_runs(models: Vec<Mlp>, batches: &[Batch], dir: &Path, epochs: usize) -> Result<()> {
    for (run, mut model) in models.into_iter().enumerate() {
        let run_latest = dir.join(format!("run-{run}")).join("latest.bpk");
        for _epoch in 0..epochs {
            for batch in batches {
                model = train_epoch(model, batch);
            }
            model.save_into(&mut BurnpackStore::from_file(&run_latest))?; // expect: BL003
        }
    }
    Ok(())
}

/// A store built per run in the outer loop and saved into by the inner loop.
pub fn sweep_runs_store_outside(models: Vec<Mlp>, batches: &[Batch], dir: &Path, epochs: usize) -> Result<()> {
    for (run, mut model) in models.into_iter().enumerate() {
        let mut store = SafetensorsStore::from_file(dir.join(format!("run-{run}.safetensors"))); // expect: BL003
        for _epoch in 0..epochs {
            for batch in batches {
                model = train_epoch(model, batch);
            }
            model.save_into(&mut store)?;
        }
    }
    Ok(())
}

/// Nested per-run loop, but each epoch gets its own file: clean.
pub fn sweep_runs_per_epoch(models: Vec<Mlp>, batches: &[Batch], dir: &Path, epochs: usize) -> Result<()> {
    for (run, mut model) in models.into_iter().enumerate() {
        for epoch in 0..epochs {
            for batch in batches {
                model = train_epoch(model, batch);
            }
            let path = dir.join(format!("run-{run}-epoch-{epoch}.bpk"));
            model.save_into(&mut BurnpackStore::from_file(&path))?;
        }
    }
    Ok(())
}
