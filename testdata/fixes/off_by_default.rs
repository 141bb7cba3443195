//! `--fix --unsafe-fixes` with the default rules: BL004 is off, so single saves keep their
//! implicit overwrite; only the stale checkpoint in the loop (BL003) is fixed.

use std::path::Path;

use anyhow::Result;
use burn_store::{BurnpackStore, ModuleSnapshot, SafetensorsStore};

use crate::data::Batch;
use crate::model::Mlp;
use crate::train::train_epoch;

pub fn save_model(model: &Mlp, path: &Path) -> Result<()> {
    model.save_into(&mut SafetensorsStore::from_file(path))?;
    Ok(())
}

pub fn save_tagged(model: &Mlp, path: &Path) -> Result<()> {
    let mut store = BurnpackStore::from_file(path)
        .metadata("producer", "trainer");
    model.save_into(&mut store)?;
    Ok(())
}

pub fn train(mut model: Mlp, batches: &[Batch], latest: &Path, epochs: usize) -> Result<Mlp> {
    for _ in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
        }
        model.save_into(&mut BurnpackStore::from_file(latest))?; // expect: BL003
    }
    Ok(model)
}
