//! Fallible store helpers.

use std::io;
use std::path::{Path, PathBuf};

use anyhow::{ensure, Context, Result};
use burn_store::{BurnpackStore, SafetensorsStore};

/// A lenient store, bound and returned in `Ok(store)`.
pub fn lenient_store(path: &Path) -> Result<SafetensorsStore> {
    ensure!(path.exists(), "no checkpoint at {}", path.display());
    let store = SafetensorsStore::from_file(path).allow_partial(true);
    Ok(store)
}

/// The path read from a file with `?`, the store built in the `Ok(..)`.
pub fn store_from_pointer(pointer: &Path) -> Result<BurnpackStore> {
    let target = std::fs::read_to_string(pointer).context("reading the pointer file")?;
    Ok(BurnpackStore::from_file(PathBuf::from(target.trim())).allow_partial(true))
}

/// Through another fallible helper.
pub fn lenient_store_again(path: &Path) -> Result<SafetensorsStore> {
    let store = lenient_store(path)?;
    Ok(store)
}

/// A strict store with an `io::Error`.
pub fn strict_store(path: &Path) -> Result<SafetensorsStore, io::Error> {
    std::fs::metadata(path)?;
    Ok(SafetensorsStore::from_file(path))
}

/// A store for saving, its directory created first: no overwrite.
pub fn checkpoint_store(path: &Path) -> io::Result<SafetensorsStore> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    Ok(SafetensorsStore::from_file(path))
}

/// Not fallible: the store as is.
pub fn plain_checkpoint_store(path: &Path) -> SafetensorsStore {
    SafetensorsStore::from_file(path)
}

/// The same, replacing the file.
pub fn replacing_store(path: &Path) -> io::Result<SafetensorsStore> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    Ok(SafetensorsStore::from_file(path).overwrite(true))
}
