//! Each helper saves once per call; whether a file is written twice is the callers' doing.

use std::path::Path;

use anyhow::Result;
use burn_store::{ModuleSnapshot, SafetensorsStore};

use crate::model::Mlp;

/// Saves to `path`; refuses to replace a file (the store's default).
pub fn save(model: &Mlp, path: &Path) -> Result<()> {
    model.save_into(&mut SafetensorsStore::from_file(path))?;
    Ok(())
}

/// Saves `latest.safetensors` in `dir`, through `save`.
pub fn save_in(model: &Mlp, dir: &Path) -> Result<()> {
    save(model, &dir.join("latest.safetensors"))
}

/// Saves to `path` through `save`, with a line on stdout.
pub fn save_logged(model: &Mlp, path: &Path) -> Result<()> {
    println!("saving {}", path.display());
    save(model, path)?;
    Ok(())
}

/// Saves to `path`, replacing it.
pub fn save_replacing(model: &Mlp, path: &Path) -> Result<()> {
    model.save_into(&mut SafetensorsStore::from_file(path).overwrite(true))?;
    Ok(())
}
