//! A save hook that refuses to overwrite.

use std::path::Path;

use anyhow::Result;
use burn_store::{ModuleSnapshot, SafetensorsStore};

use crate::model::Mlp;

pub fn save_epoch(model: &Mlp, path: &Path) -> Result<()> {
    model.save_into(&mut SafetensorsStore::from_file(path))?;
    Ok(())
}
