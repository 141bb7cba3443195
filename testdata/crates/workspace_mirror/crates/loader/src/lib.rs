//! Generic loaders in a crate of their own: the module type is a parameter, so the layout
//! that counts is everything this crate sees, the path dependency `mirror_model` included,
//! and it holds a mirror.

use std::path::Path;

use anyhow::Result;
use burn::prelude::*;
use burn_store::{ModuleSnapshot, ModuleStore, PyTorchToBurnAdapter, PytorchStore, SafetensorsStore};

/// The default renumbering turns `norm.1` into `norm.0`: the BatchNorm is not found.
pub fn load_pytorch<B: Backend, M: Module<B> + ModuleSnapshot<B>>(mut model: M, path: &Path) -> Result<M> {
    let mut store = PytorchStore::from_file(path); // expect: BL005
    store.apply_to::<B, _>(&mut model)?;
    Ok(model)
}

/// The variant names skipped and the gaps kept: right for the mirror, but not what the
/// `PytorchStore` above does.
pub fn load_safetensors<B: Backend, M: Module<B> + ModuleSnapshot<B>>(mut model: M, path: &Path) -> Result<M> {
    let mut store = SafetensorsStore::from_file(path) // expect: BL006
        .skip_enum_variants(true)
        .with_from_adapter(PyTorchToBurnAdapter);
    store.apply_to::<B, _>(&mut model)?;
    Ok(model)
}
