//! `load_file` is a common name: without burn's `Module` in scope it is someone else's.

use std::path::Path;

use burn_store::SafetensorsStore;

use crate::assets::{Atlas, Loader};

pub fn store_for(path: &Path) -> SafetensorsStore {
    SafetensorsStore::from_file(path).overwrite(true)
}

pub fn warm_cache(loader: &Loader, path: &Path, device: &str) {
    let _ = loader.load_file(path, &Atlas::default(), device);
}
