//! BL004 next to BL003: a stale checkpoint in a loop gets both on the same constructor; a
//! save in a loop that BL003 exempts still has no explicit overwrite.
// burnlint-test: select = BL004

use std::fs;
use std::path::Path;

use anyhow::Result;
use burn_store::{BurnpackStore, ModuleSnapshot, SafetensorsStore};

use crate::data::Batch;
use crate::model::Mlp;
use crate::train::{evaluate, optimizer_step, train_epoch};

fn save_checkpoint(model: &Mlp, path: &Path) -> Result<()> {
    model.save_into(&mut BurnpackStore::from_file(path))?; // expect: BL004
    Ok(())
}

/// The write-up's loop.
pub fn train_latest(mut model: Mlp, batches: &[Batch], out: &Path, epochs: usize) -> Result<Mlp> {
    let file = out.join("last.safetensors");
    for epoch in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
            optimizer_step(&mut model, 1e-3);
        }
        println!("epoch {epoch}: loss {:.4}", evaluate(&model, batches));
        model.save_into(&mut SafetensorsStore::from_file(&file))?; // expect: BL003, BL004
    }
    Ok(model)
}

/// Built before the loop.
pub fn train_one_store(mut model: Mlp, batches: &[Batch], out: &Path, epochs: usize) -> Result<Mlp> {
    let mut store = BurnpackStore::from_file(out.join("latest.bpk")); // expect: BL003, BL004
    for _ in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
        }
        model.save_into(&mut store)?;
    }
    Ok(model)
}

/// Through a helper: BL003 on the call, BL004 in the helper.
pub fn train_helper(mut model: Mlp, batches: &[Batch], latest: &Path, epochs: usize) -> Result<Mlp> {
    for _ in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
        }
        save_checkpoint(&model, latest)?; // expect: BL003
    }
    Ok(model)
}

/// One file per epoch: not stale within the run, but a second run fails on epoch 0.
pub fn train_per_epoch(mut model: Mlp, batches: &[Batch], out: &Path, epochs: usize) -> Result<Mlp> {
    for epoch in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
        }
        let path = out.join(format!("epoch-{epoch}.safetensors"));
        model.save_into(&mut SafetensorsStore::from_file(&path))?; // expect: BL004
    }
    Ok(model)
}

/// Saved once, then `break`.
pub fn train_to_target(mut model: Mlp, batches: &[Batch], out: &Path, target: f32) -> Result<Mlp> {
    loop {
        for batch in batches {
            model = train_epoch(model, batch);
        }
        if evaluate(&model, batches) < target {
            model.save_into(&mut BurnpackStore::from_file(out.join("done.bpk")))?; // expect: BL004
            break;
        }
    }
    Ok(model)
}

/// The bench shape: removed right after the save.
pub fn bench_save(model: &Mlp, dir: &Path, iterations: usize) {
    let path = dir.join("bench.safetensors");
    for _ in 0..iterations {
        model.save_into(&mut SafetensorsStore::from_file(&path)).expect("save"); // expect: BL004
        let _ = fs::remove_file(&path);
    }
}

/// Clean: the bench with an explicit overwrite.
pub fn bench_save_overwrite(model: &Mlp, dir: &Path, iterations: usize) {
    let path = dir.join("bench.bpk");
    for _ in 0..iterations {
        model
            .save_into(&mut BurnpackStore::from_file(&path).overwrite(true))
            .expect("save");
        let _ = fs::remove_file(&path);
    }
}

/// Clean: per-epoch files with an explicit choice.
pub fn train_per_epoch_explicit(mut model: Mlp, batches: &[Batch], out: &Path, epochs: usize) -> Result<Mlp> {
    for epoch in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
        }
        let path = out.join(format!("epoch-{epoch}.bpk"));
        model.save_into(&mut BurnpackStore::from_file(&path).overwrite(false))?;
    }
    Ok(model)
}
