//! Only the `SafetensorsStore` half of another pair.

use burn_store::{PyTorchToBurnAdapter, SafetensorsStore};

pub fn st_strict(path: &str) -> SafetensorsStore {
    SafetensorsStore::from_file(path).with_from_adapter(PyTorchToBurnAdapter) // expect: BL005
}
