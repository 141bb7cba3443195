//! The same helpers as `torch-helpers` for a `Vec<Linear>` model: `PytorchStore`'s defaults
//! are right for it and nothing is reported; a `SafetensorsStore` with `PyTorchToBurnAdapter`
//! keeps PyTorch's index gaps, so its helper is reported, once, at its constructor.

pub mod import;
pub mod import_safetensors;
pub mod model;
pub mod stores;
pub mod stores_safetensors;
