//! A mirror layout whose `Cargo.toml` asks for burn 0.22, while `burnlint.toml` says
//! `burn-version = "0.19.1"`. The fixture harness runs without the configuration (0.22 from
//! `Cargo.toml`), so the findings below are expected there; with the configuration, 0.19 has
//! neither option and nothing is reported (`tests/test_config.py`).

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

pub fn from_torch<B: Backend>(device: &B::Device, path: &Path) -> Result<MirrorMlp<B>> {
    let mut model = MirrorMlp::new(device);
    model.load_from(&mut PytorchStore::from_file(path))?; // expect: BL005, BL012
    Ok(model)
}

pub fn from_safetensors<B: Backend>(device: &B::Device, path: &Path) -> Result<MirrorMlp<B>> {
    let mut model = MirrorMlp::new(device);
    let mut store = SafetensorsStore::from_file(path).with_from_adapter(PyTorchToBurnAdapter); // expect: BL005, BL012
    model.load_from(&mut store)?;
    Ok(model)
}
