//! `validate(false)`: shape mismatches end up in `result.errors` instead of an `Err`.

use std::path::Path;

use anyhow::{anyhow, Result};
use burn::prelude::*;
use burn_store::{BurnpackStore, ModuleSnapshot, SafetensorsStore};

use crate::data::Batch;
use crate::model::Mlp;
use crate::train::{evaluate, optimizer_step, train_epoch};

pub fn load_unvalidated_checked(model: &mut Mlp, path: &Path) -> Result<()> {
    let mut store = SafetensorsStore::from_file(path).validate(false);
    let r = model.load_from(&mut store)?;
    if !r.is_success() {
        return Err(anyhow!("shape mismatches in {}", path.display()));
    }
    Ok(())
}

pub fn load_unvalidated_listed(model: &mut Mlp, path: &Path) -> Result<()> {
    let mut store = BurnpackStore::from_file(path).validate(false);
    let r = model.load_from(&mut store)?;
    for err in &r.errors {
        log::error!("{err:?}");
    }
    Ok(())
}

/// Reading `missing` does not cover the shape errors.
pub fn load_unvalidated_missing(model: &mut Mlp, path: &Path) -> Result<()> {
    let mut store = SafetensorsStore::from_file(path).validate(false);
    let r = model.load_from(&mut store)?; // expect: BL007
    if !r.missing.is_empty() {
        return Err(anyhow!("{} tensors missing", r.missing.len()));
    }
    Ok(())
}

/// Fine-tune from a checkpoint of a slightly different architecture.
pub fn finetune(device: &Device, batches: &[Batch], epochs: usize, dir: &Path) -> Mlp {
    let mut model = Mlp::new(device);
    let mut store = BurnpackStore::from_file(dir.join("pretrained")).validate(false);
    model.load_from(&mut store).expect("read pretrained weights"); // expect: BL007
    for epoch in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
            optimizer_step(&mut model, 1e-4);
        }
        println!("epoch {epoch}: val loss {:.4}", evaluate(&model, batches));
    }
    model
}

/// Both options: `missing` and the errors must be read; here only `missing` is.
pub fn load_lenient_missing_only(model: &mut Mlp, path: &Path) -> Result<()> {
    let mut store = SafetensorsStore::from_file(path).allow_partial(true).validate(false);
    let r = model.load_from(&mut store)?; // expect: BL007
    assert!(r.missing.is_empty());
    Ok(())
}

/// Both options, both checked.
pub fn finetune_checked(device: &Device, batches: &[Batch], epochs: usize, dir: &Path) -> Result<Mlp> {
    let mut model = Mlp::new(device);
    let mut store = BurnpackStore::from_file(dir.join("pretrained"))
        .allow_partial(true)
        .validate(false);
    let r = model.load_from(&mut store)?;
    if !r.is_success() || !r.missing.is_empty() {
        return Err(anyhow!("pretrained weights do not match"));
    }
    for epoch in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
            optimizer_step(&mut model, 1e-4);
        }
        println!("epoch {epoch}: val loss {:.4}", evaluate(&model, batches));
    }
    Ok(model)
}

/// `validate(true)` is the default behaviour: mismatches are an `Err`.
pub fn load_validated(model: &mut Mlp, path: &Path) -> Result<()> {
    let mut store = SafetensorsStore::from_file(path).validate(true);
    model.load_from(&mut store)?;
    Ok(())
}
