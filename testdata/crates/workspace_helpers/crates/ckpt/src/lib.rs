//! A workspace crate of checkpoint helpers, reached by the crates that declare it as a path
//! dependency (`crates/app`, `crates/viewer`), under its `[lib] name`.

use std::path::Path;

use anyhow::{ensure, Result};
use burn::prelude::*;
use burn_store::{ApplyResult, ModuleSnapshot, SafetensorsStore};

/// Saves to a fixed file; the store has no `.overwrite(..)`.
pub fn save_latest<B: Backend, M: Module<B>>(model: &M, dir: &Path) -> Result<()> {
    let mut store = SafetensorsStore::from_file(dir.join("latest.safetensors"));
    model.save_into(&mut store)?;
    Ok(())
}

/// Hands the `ApplyResult` of a lenient load back to its caller.
pub fn load_lenient<B: Backend, M: Module<B>>(model: &mut M, path: &Path) -> Result<ApplyResult> {
    let mut store = SafetensorsStore::from_file(path).allow_partial(true);
    Ok(model.load_from(&mut store)?)
}

/// Checks what it loads itself: its callers have nothing left to check.
pub fn load_checked<B: Backend, M: Module<B>>(model: &mut M, path: &Path) -> Result<()> {
    let mut store = SafetensorsStore::from_file(path).allow_partial(true);
    let result = model.load_from(&mut store)?;
    ensure!(result.missing.is_empty(), "missing: {:?}", result.missing);
    Ok(())
}

pub mod io {
    use super::*;

    /// Saves into a path its caller gives.
    pub fn save_to<B: Backend, M: Module<B>>(model: &M, path: &Path) -> Result<()> {
        let mut store = SafetensorsStore::from_file(path);
        model.save_into(&mut store)?;
        Ok(())
    }
}
