//! Saves that refuse to replace a file (the stores' default).

use std::path::Path;

use anyhow::Result;
use burn_store::{BurnpackStore, ModuleSnapshot};

use crate::model::Mlp;

pub fn save_latest(model: &Mlp, path: &Path) -> Result<()> {
    model.save_into(&mut BurnpackStore::from_file(path))?;
    Ok(())
}
