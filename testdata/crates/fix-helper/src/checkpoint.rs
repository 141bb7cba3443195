//! The helpers, each building its store without `.overwrite(..)`.

use std::path::Path;

use anyhow::Result;
use burn_store::{BurnpackStore, ModuleSnapshot, SafetensorsStore};

use crate::model::Mlp;

/// Saves into a store built here.
pub fn save(model: &Mlp, path: &Path) -> Result<()> {
    model.save_into(&mut SafetensorsStore::from_file(path))?;
    Ok(())
}

/// Saves through `save`: its fix is `save`'s.
pub fn save_in(model: &Mlp, dir: &Path) -> Result<()> {
    save(model, &dir.join("latest.safetensors"))
}

/// Returns a store for the caller to save into.
pub fn store_for(path: &Path) -> BurnpackStore {
    BurnpackStore::from_file(path)
}
