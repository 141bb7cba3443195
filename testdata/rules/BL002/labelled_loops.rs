//! Labelled loops, `continue` after logging, `while let` and `loop`.

use std::path::Path;

use burn_store::{BurnpackStore, ModuleSnapshot, ModuleStore};
use log::warn;

use crate::data::{Batch, Loader};
use crate::model::Mlp;
use crate::train::{evaluate, optimizer_step, train_epoch, train_step};

pub fn train_labelled(mut model: Mlp, batches: &[Batch], start: usize, epochs: usize, dir: &Path) -> Mlp {
    let latest = dir.join("latest");
    'epochs: for epoch in start..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
            optimizer_step(&mut model, 1e-3);
        }
        match model.save_into(&mut BurnpackStore::from_file(&latest).overwrite(true)) { // expect: BL002
            Ok(()) => {}
            Err(e) => {
                eprintln!("epoch {epoch}: save failed: {e}");
                continue 'epochs;
            }
        }
        let loss = evaluate(&model, batches);
        if loss < 0.01 {
            break 'epochs;
        }
    }
    model
}

pub fn train_continue(mut model: Mlp, batches: &[Batch], epochs: usize, dir: &Path) -> Mlp {
    for epoch in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
            optimizer_step(&mut model, 1e-3);
        }
        let path = dir.join(format!("epoch-{epoch}"));
        let mut store = BurnpackStore::from_file(&path).overwrite(true);
        if let Err(e) = model.save_into(&mut store) { // expect: BL002
            log::warn!("epoch {epoch}: {e}");
            continue;
        }
        let loss = evaluate(&model, batches);
        println!("epoch {epoch}: val loss {loss:.4}, saved {}", path.display());
    }
    model
}

/// Store-side save every `every` steps, bare `warn!`.
pub fn train_steps(mut model: Mlp, mut loader: Loader, dir: &Path, every: usize) -> Mlp {
    let mut step = 0usize;
    while let Some(batch) = loader.next() {
        model = train_step(model, &batch);
        optimizer_step(&mut model, 1e-3);
        step += 1;
        if step % every == 0 {
            let mut store = BurnpackStore::from_file(dir.join("latest")).overwrite(true);
            if let Err(e) = store.collect_from(&model) { // expect: BL002
                warn!("step {step}: checkpoint failed: {e}");
            }
        }
    }
    model
}

/// `loop` with a manual exit; the save's Err arm prints and falls through.
pub fn train_loop(mut model: Mlp, batches: &[Batch], dir: &Path, patience: usize) -> Mlp {
    let mut best = f32::INFINITY;
    let mut bad_epochs = 0;
    loop {
        for batch in batches {
            model = train_epoch(model, batch);
            optimizer_step(&mut model, 1e-3);
        }
        let loss = evaluate(&model, batches);
        let mut store = BurnpackStore::from_file(dir.join("latest")).overwrite(true);
        match model.save_into(&mut store) { // expect: BL002
            Ok(()) => print!("."),
            Err(e) => print!("\nsave failed: {e}\n"),
        }
        if loss < best {
            best = loss;
            bad_epochs = 0;
        } else {
            bad_epochs += 1;
        }
        if bad_epochs >= patience {
            break;
        }
    }
    model
}

/// The Err arm leaves the labelled loop: training stops at a failed save.
pub fn train_labelled_stop(mut model: Mlp, batches: &[Batch], epochs: usize, dir: &Path) -> Mlp {
    let latest = dir.join("latest");
    'epochs: for epoch in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
            optimizer_step(&mut model, 1e-3);
        }
        match model.save_into(&mut BurnpackStore::from_file(&latest).overwrite(true)) {
            Ok(()) => println!("epoch {epoch}: saved"),
            Err(e) => {
                eprintln!("epoch {epoch}: save failed, stopping: {e}");
                break 'epochs;
            }
        }
    }
    model
}

/// Nested loops; a failed save returns what has been trained so far.
pub fn train_nested_return(mut model: Mlp, stages: &[Vec<Batch>], dir: &Path) -> Mlp {
    for (stage, batches) in stages.iter().enumerate() {
        for epoch in 0..10 {
            for batch in batches {
                model = train_epoch(model, batch);
                optimizer_step(&mut model, 1e-3);
            }
            let path = dir.join(format!("stage-{stage}-epoch-{epoch}"));
            if let Err(e) = model.save_into(&mut BurnpackStore::from_file(&path).overwrite(true)) {
                eprintln!("stage {stage} epoch {epoch}: {e}");
                return model;
            }
        }
    }
    model
}
