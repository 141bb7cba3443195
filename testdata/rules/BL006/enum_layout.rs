//! The write-up's mirror layout (`Vec<Layer>` of a module enum), defined in this file: here
//! `skip_enum_variants` decides whether `net.0.Linear.weight` finds `net.0.weight`. A
//! `SafetensorsStore` that runs it false mis-maps the mirror for certain (BL012, not BL006).
//! The Pytorch loader is the write-up's fix (false/true).

use std::path::Path;

use anyhow::Result;
use burn::nn::{Linear, LinearConfig, Relu};
use burn::prelude::*;
use burn_store::{ModuleSnapshot, PyTorchToBurnAdapter, PytorchStore, SafetensorsStore};

#[derive(Module, Debug)]
pub enum Layer<B: Backend> {
    Linear(Linear<B>),
    Relu(Relu),
}

#[derive(Module, Debug)]
pub struct MirrorMlp<B: Backend> {
    net: Vec<Layer<B>>, // [Linear, Relu, Linear]
}

impl<B: Backend> MirrorMlp<B> {
    pub fn new(device: &B::Device) -> Self {
        let net = vec![
            Layer::Linear(LinearConfig::new(4, 8).init(device)),
            Layer::Relu(Relu::new()),
            Layer::Linear(LinearConfig::new(8, 2).init(device)),
        ];
        Self { net }
    }
}

/// `.pt` + `map_indices_contiguous(false)`: the write-up's working setting.
pub fn load_pt<B: Backend>(device: &B::Device, path: &Path) -> Result<MirrorMlp<B>> {
    let mut model = MirrorMlp::new(device);
    let mut store = PytorchStore::from_file(path)
        .map_indices_contiguous(false)
        .skip_enum_variants(true);
    model.load_from(&mut store)?;
    Ok(model)
}

/// `skip_enum_variants` differs: the enum variant names stay in the paths.
pub fn load_st_variants_kept<B: Backend>(device: &B::Device, path: &Path) -> Result<MirrorMlp<B>> {
    let mut model = MirrorMlp::new(device);
    let mut store = SafetensorsStore::from_file(path) // expect: BL012
        .with_from_adapter(PyTorchToBurnAdapter)
        .map_indices_contiguous(false)
        .skip_enum_variants(false);
    model.load_from(&mut store)?;
    Ok(model)
}

/// `skip_enum_variants` left at the Safetensors default: same difference, and implicit.
pub fn load_st_default_skip<B: Backend>(device: &B::Device, path: &Path) -> Result<MirrorMlp<B>> {
    let mut model = MirrorMlp::new(device);
    let mut store = SafetensorsStore::from_file(path) // expect: BL012
        .with_from_adapter(PyTorchToBurnAdapter)
        .map_indices_contiguous(false);
    model.load_from(&mut store)?;
    Ok(model)
}

/// Clean: the write-up's fix on the Safetensors side too.
pub fn load_st<B: Backend>(device: &B::Device, path: &Path) -> Result<MirrorMlp<B>> {
    let mut model = MirrorMlp::new(device);
    let mut store = SafetensorsStore::from_file(path)
        .with_from_adapter(PyTorchToBurnAdapter)
        .map_indices_contiguous(false)
        .skip_enum_variants(true);
    model.load_from(&mut store)?;
    Ok(model)
}

/// Clean: remapped keys with the same values.
pub fn load_st_remapped<B: Backend>(device: &B::Device, path: &Path) -> Result<MirrorMlp<B>> {
    let mut model = MirrorMlp::new(device);
    let mut store = SafetensorsStore::from_file(path)
        .with_key_remapping(r"^seq\.", "net.")
        .skip_enum_variants(true)
        .map_indices_contiguous(false);
    model.load_from(&mut store)?;
    Ok(model)
}
