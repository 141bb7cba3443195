//! `SafetensorsStore` helpers for PyTorch exports, in a file of their own (BL006 compares the
//! loaders of one file).

use std::path::Path;

use burn_store::{PyTorchToBurnAdapter, SafetensorsStore};

/// The default keeps the gap at `net.2`, which the `Vec` does not have.
pub fn safetensors_torch_store(path: &Path) -> SafetensorsStore {
    SafetensorsStore::from_file(path).with_from_adapter(PyTorchToBurnAdapter) // expect: BL005
}

/// The same, renumbered: clean.
pub fn safetensors_torch_store_renumbered(path: &Path) -> SafetensorsStore {
    SafetensorsStore::from_file(path) // expect: BL005
        .with_from_adapter(PyTorchToBurnAdapter)
        .map_indices_contiguous(true)
}
