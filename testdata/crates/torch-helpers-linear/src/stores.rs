//! `PytorchStore` helpers for the `Vec<Linear>` model: the defaults renumber, as it needs.

use std::path::Path;

use anyhow::Result;
use burn_store::PytorchStore;

/// On the defaults: clean.
pub fn torch_store(path: &Path) -> PytorchStore {
    PytorchStore::from_file(path) // expect: BL005
}

/// The same inside `Ok(..)`: clean.
pub fn torch_store_checked(path: &Path) -> Result<PytorchStore> {
    anyhow::ensure!(path.exists(), "no weights at {}", path.display());
    Ok(PytorchStore::from_file(path)) // expect: BL005
}
