//! Explicit values that are not literals: the Pytorch loader's effective values are unknown,
//! so nothing is provably inconsistent, although `Net` mirrors a Sequential (both options
//! matter). Both options are written, so BL005 is quiet too.

use std::path::Path;

use anyhow::Result;
use burn::nn::{Linear, Relu};
use burn::prelude::*;
use burn_store::{ModuleSnapshot, PyTorchToBurnAdapter, PytorchStore, SafetensorsStore};

use crate::config::ImportOptions;

/// `nn.Sequential(nn.Linear, nn.ReLU, nn.Linear)` copied layer by layer.
#[derive(Module, Debug)]
pub enum Layer<B: Backend> {
    Linear(Linear<B>),
    Relu(Relu),
}

#[derive(Module, Debug)]
pub struct Net<B: Backend> {
    net: Vec<Layer<B>>,
}

/// Values from the import configuration, on the Pytorch side.
pub fn load_pt(device: &Device, path: &Path, opts: &ImportOptions) -> Result<Net> {
    let mut model = Net::new(device);
    let mut store = PytorchStore::from_file(path)
        .map_indices_contiguous(opts.contiguous)
        .skip_enum_variants(opts.skip_enum_variants);
    model.load_from(&mut store)?;
    Ok(model)
}

/// Literal values on the Safetensors side.
pub fn load_st(device: &Device, path: &Path) -> Result<Net> {
    let mut model = Net::new(device);
    let mut store = SafetensorsStore::from_file(path)
        .with_from_adapter(PyTorchToBurnAdapter)
        .map_indices_contiguous(false)
        .skip_enum_variants(true);
    model.load_from(&mut store)?;
    Ok(model)
}

/// The same configuration on both sides.
pub fn load_st_configured(device: &Device, path: &Path, opts: &ImportOptions) -> Result<Net> {
    let mut model = Net::new(device);
    let mut store = SafetensorsStore::from_file(path)
        .with_from_adapter(PyTorchToBurnAdapter)
        .map_indices_contiguous(opts.contiguous)
        .skip_enum_variants(opts.skip_enum_variants);
    model.load_from(&mut store)?;
    Ok(model)
}
