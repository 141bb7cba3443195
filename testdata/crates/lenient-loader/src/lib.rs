//! Loading checkpoints written before the classifier head existed.

pub mod model;

use std::path::Path;

use burn_store::SafetensorsStore;

/// Old checkpoints have no `head.*` tensors: accept a partial load.
pub fn lenient_store(p: &Path) -> SafetensorsStore {
    SafetensorsStore::from_file(p).allow_partial(true)
}

/// Checkpoints written by the current code must be complete.
pub fn strict_store(p: &Path) -> SafetensorsStore {
    SafetensorsStore::from_file(p).allow_partial(false)
}
