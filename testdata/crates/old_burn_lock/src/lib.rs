//! The mirror layout of `layout_mirror`, in a crate locked to burn-store 0.19.1 (`Cargo.lock`):
//! 0.19 has neither `map_indices_contiguous` nor `skip_enum_variants` (both came with 0.20),
//! so there is nothing to write out and no BL005 or BL006.

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

#[derive(Module, Debug)]
pub struct MirrorMlp<B: Backend> {
    net: Vec<Layer<B>>,
}

/// Clean: no option to write in 0.19.
pub fn from_torch<B: Backend>(device: &B::Device, path: &Path) -> Result<MirrorMlp<B>> {
    let mut model = MirrorMlp::new(device);
    model.load_from(&mut PytorchStore::from_file(path))?;
    Ok(model)
}

/// Clean: nor here.
pub fn from_safetensors<B: Backend>(device: &B::Device, path: &Path) -> Result<MirrorMlp<B>> {
    let mut model = MirrorMlp::new(device);
    let mut store = SafetensorsStore::from_file(path).with_from_adapter(PyTorchToBurnAdapter);
    model.load_from(&mut store)?;
    Ok(model)
}
