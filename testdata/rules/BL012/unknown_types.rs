//! Loaders whose loaded type the code does not state (a generic model, a store whose keys only
//! are read): no BL012, whatever the crate declares, and BL006 compares them with every other
//! PyTorch-facing loader of the file: here it takes both options of the `PytorchStore`s, so
//! BL005 has nothing left to say of them.

use std::path::Path;

use anyhow::Result;
use burn::nn::{Linear, Relu};
use burn::prelude::*;
use burn_store::{ModuleSnapshot, PyTorchToBurnAdapter, PytorchStore, SafetensorsStore};

#[derive(Module, Debug)]
pub enum Layer<B: Backend> {
    Linear(Linear<B>),
    Relu(Relu),
}

/// A mirror: the only module here, and still no BL012 for a loader that does not name it.
#[derive(Module, Debug)]
pub struct Mirror<B: Backend> {
    net: Vec<Layer<B>>,
}

/// A generic model: which layout it fills is not stated.
pub fn pt_generic<B: Backend, M: Module<B>>(mut model: M, path: &Path) -> Result<M> {
    let mut store = PytorchStore::from_file(path);
    model.load_from(&mut store)?;
    Ok(model)
}

/// Keys only: `skip_enum_variants` acts when tensors are applied, so only the index option.
pub fn pt_keys(path: &Path) -> Vec<String> {
    let mut store = PytorchStore::from_file(path);
    store.keys().unwrap_or_default()
}

/// The adapter loader of the same generic model: the `PytorchStore`s above run `true`/`true`,
/// this one `false`/`false`, and neither says which type it fills.
pub fn st_generic<B: Backend, M: Module<B>>(mut model: M, path: &Path) -> Result<M> {
    let mut store = SafetensorsStore::from_file(path).with_from_adapter(PyTorchToBurnAdapter); // expect: BL006
    model.load_from(&mut store)?;
    Ok(model)
}
