//! PyTorch stores built by helpers and loaded by their callers, for the mirrored MLP (a `Vec`
//! of a module enum with a parameter-free variant): BL005 is reported once, on the helper's
//! constructor, never again at each load. The lib is renamed: its code is `torch_import`.

pub mod import;
pub mod import_safetensors;
pub mod model;
pub mod stores;
pub mod stores_safetensors;
