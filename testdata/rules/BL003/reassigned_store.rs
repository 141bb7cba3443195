//! Stores re-assigned (`store = store.overwrite(true);`) between their `let` and their saves:
//! each save sees the re-assignments before it, none after it.

use std::path::Path;

use anyhow::Result;
use burn_store::{BurnpackStore, ModuleSnapshot, SafetensorsStore};

use crate::data::Batch;
use crate::model::Mlp;
use crate::train::train_epoch;

/// Clean: the overwrite is re-assigned before the loop.
pub fn train_reassigned(mut model: Mlp, batches: &[Batch], dir: &Path, epochs: usize) -> Result<Mlp> {
    let mut store = SafetensorsStore::from_file(dir.join("latest.safetensors"));
    store = store.validate(true);
    store = store.overwrite(true);
    for _ in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
        }
        model.save_into(&mut store)?;
    }
    Ok(model)
}

/// The overwrite comes after the loop: too late for its saves.
pub fn train_reassigned_after(mut model: Mlp, batches: &[Batch], dir: &Path, epochs: usize) -> Result<Mlp> {
    let mut store = BurnpackStore::from_file(dir.join("latest.bpk")); // expect: BL003
    store = store.validate(true);
    for _ in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
        }
        model.save_into(&mut store)?;
    }
    store = store.overwrite(true);
    model.save_into(&mut store)?;
    Ok(model)
}

/// Two loops: the first saves before the overwrite, the second after it.
pub fn train_two_stages(mut model: Mlp, batches: &[Batch], dir: &Path, epochs: usize) -> Result<Mlp> {
    let mut store = SafetensorsStore::from_file(dir.join("stage.safetensors")); // expect: BL003
    store = store.validate(true);
    for _ in 0..epochs {
        model = train_epoch(model, &batches[0]);
        model.save_into(&mut store)?;
    }
    store = store.validate(false);
    store = store.overwrite(true);
    store = store.validate(true);
    for _ in 0..epochs {
        model = train_epoch(model, &batches[1]);
        model.save_into(&mut store)?;
    }
    Ok(model)
}

/// Clean: re-assigned on one path only, the overwrite may be set.
pub fn train_maybe_forced(mut model: Mlp, batches: &[Batch], dir: &Path, force: bool, epochs: usize) -> Result<Mlp> {
    let mut store = BurnpackStore::from_file(dir.join("maybe.bpk"));
    if force {
        store = store.overwrite(true);
    }
    for _ in 0..epochs {
        model = train_epoch(model, &batches[0]);
        model.save_into(&mut store)?;
    }
    Ok(model)
}
