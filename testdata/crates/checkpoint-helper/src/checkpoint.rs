//! Checkpoint helpers shared by the binaries.

use std::path::Path;

use burn_store::{ModuleSnapshot, SafetensorsStore, SafetensorsStoreError};

/// Writes `m` to `path`, replacing an earlier checkpoint.
pub fn save_checkpoint<M: ModuleSnapshot>(m: &M, path: &Path) -> Result<(), SafetensorsStoreError> {
    m.save_into(&mut SafetensorsStore::from_file(path).overwrite(true))
}

/// Writes `best.safetensors` into `dir`.
pub fn save_best<M: ModuleSnapshot>(m: &M, dir: &Path) -> Result<(), SafetensorsStoreError> {
    let mut store = SafetensorsStore::from_file(dir.join("best.safetensors")).overwrite(true);
    m.save_into(&mut store)?;
    Ok(())
}
