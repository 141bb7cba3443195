//! Both loaders of the pair, built here.

use burn_store::{PyTorchToBurnAdapter, PytorchStore, SafetensorsStore};

pub fn pt(path: &str) -> PytorchStore {
    PytorchStore::from_file(path).map_indices_contiguous(false).skip_enum_variants(true)
}

pub fn st(path: &str) -> SafetensorsStore {
    SafetensorsStore::from_file(path).with_from_adapter(PyTorchToBurnAdapter) // expect: BL005, BL006
}
