//! Crate-local helpers that build a file store and save into it: the finding is on the call
//! inside the loop, when the helper's path is the same on every iteration.

use std::path::{Path, PathBuf};

use anyhow::Result;
use burn_store::{BurnpackStore, ModuleSnapshot, SafetensorsStore, SafetensorsStoreError};

use crate::clock::timestamp;
use crate::data::Batch;
use crate::model::Mlp;
use crate::train::{evaluate, optimizer_step, train_epoch};

/// Path as a parameter; the helper returns the operation's `Result` as is.
fn save_checkpoint(model: &Mlp, path: &Path) -> Result<(), SafetensorsStoreError> {
    model.save_into(&mut SafetensorsStore::from_file(path))
}

/// Fixed path; the error is propagated with `?`.
fn save_latest(model: &Mlp) -> Result<()> {
    model.save_into(&mut BurnpackStore::from_file("checkpoints/latest.bpk"))?;
    Ok(())
}

/// Path derived from the parameter, store bound first.
fn save_in_dir(model: &Mlp, dir: &Path) -> Result<()> {
    let mut store = BurnpackStore::from_file(dir.join("latest.bpk"));
    model.save_into(&mut store)?;
    Ok(())
}

/// Explicit overwrite: safe to call in a loop.
fn save_replacing(model: &Mlp, path: &Path) -> Result<()> {
    model.save_into(&mut SafetensorsStore::from_file(path).overwrite(true))?;
    Ok(())
}

/// The helper makes every file name unique itself.
fn save_stamped(model: &Mlp, dir: &Path) -> Result<()> {
    let path = dir.join(format!("ckpt-{}.bpk", timestamp()));
    model.save_into(&mut BurnpackStore::from_file(&path))?;
    Ok(())
}

pub fn train_with_helper(mut model: Mlp, batches: &[Batch], dir: &Path, epochs: usize) -> Result<Mlp> {
    let latest = dir.join("latest.safetensors");
    for epoch in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
            optimizer_step(&mut model, 1e-3);
        }
        println!("epoch {epoch}: loss {:.4}", evaluate(&model, batches));
        save_checkpoint(&model, &latest)?; // expect: BL003
    }
    Ok(model)
}

/// The interprocedural twin of the write-up's loop: logged only (BL002) and stale (BL003).
pub fn train_with_helper_logged(mut model: Mlp, batches: &[Batch], latest: &Path, epochs: usize) -> Mlp {
    for epoch in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
        }
        if let Err(e) = save_checkpoint(&model, latest) { // expect: BL002, BL003
            eprintln!("epoch {epoch}: save failed: {e}");
        }
    }
    model
}

pub fn train_fixed_path_helper(mut model: Mlp, batches: &[Batch], epochs: usize) -> Result<Mlp> {
    for _ in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
        }
        save_latest(&model)?; // expect: BL003
    }
    Ok(model)
}

pub fn train_dir_helper(mut model: Mlp, batches: &[Batch], out: PathBuf, epochs: usize) -> Result<Mlp> {
    let mut epoch = 0;
    loop {
        for batch in batches {
            model = train_epoch(model, batch);
        }
        save_in_dir(&model, &out).expect("checkpoint"); // expect: BL003
        epoch += 1;
        if epoch == epochs {
            break;
        }
    }
    Ok(model)
}

/// Clean: the helper is called with a new path every epoch.
pub fn train_helper_per_epoch(mut model: Mlp, batches: &[Batch], dir: &Path, epochs: usize) -> Result<Mlp> {
    for epoch in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
        }
        save_checkpoint(&model, &dir.join(format!("epoch-{epoch}.safetensors")))?;
    }
    Ok(model)
}

/// Clean: the helper is called once, after training.
pub fn train_then_helper(mut model: Mlp, batches: &[Batch], dir: &Path, epochs: usize) -> Result<Mlp> {
    for _ in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
        }
    }
    save_checkpoint(&model, &dir.join("final.safetensors"))?;
    save_latest(&model)?;
    Ok(model)
}

/// Clean: the helper sets the overwrite itself.
pub fn train_replacing_helper(mut model: Mlp, batches: &[Batch], latest: &Path, epochs: usize) -> Result<Mlp> {
    for _ in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
        }
        save_replacing(&model, latest)?;
    }
    Ok(model)
}

/// Clean: the helper's file name varies by itself.
pub fn train_stamped_helper(mut model: Mlp, batches: &[Batch], dir: &Path, epochs: usize) -> Result<Mlp> {
    for _ in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
        }
        save_stamped(&model, dir)?;
    }
    Ok(model)
}
