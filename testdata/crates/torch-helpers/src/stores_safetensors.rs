//! `SafetensorsStore` helpers for PyTorch exports, in a file of their own (BL006 compares
//! the loaders of one file). The mirror needs `skip_enum_variants(true)`; the index default
//! (`false`) is right for it.

use std::path::Path;

use burn_store::{PyTorchToBurnAdapter, SafetensorsStore};

/// A Safetensors export of the PyTorch model, the variant names kept: reported.
pub fn safetensors_torch_store(path: &Path) -> SafetensorsStore {
    SafetensorsStore::from_file(path).with_from_adapter(PyTorchToBurnAdapter) // expect: BL005
}

/// The same with the variant names skipped: clean (its index default is right).
pub fn safetensors_torch_store_skipping(path: &Path) -> SafetensorsStore {
    SafetensorsStore::from_file(path) // expect: BL005
        .with_from_adapter(PyTorchToBurnAdapter)
        .skip_enum_variants(true)
}
