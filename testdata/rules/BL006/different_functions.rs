//! Initialise from PyTorch once, then train and resume from Burn's own Safetensors
//! checkpoints. The checkpoints carry Burn's key names: those loaders are not PyTorch-facing,
//! and their false/false defaults are not inconsistent with the Pytorch loader's true/true.
//! `Mlp` mirrors PyTorch's Sequential layer by layer, so both options matter here.

use std::path::Path;

use anyhow::{Context, Result};
use burn::nn::{Linear, Relu};
use burn::prelude::*;
use burn_store::{HalfPrecisionAdapter, ModuleSnapshot, PytorchStore, SafetensorsStore};

use crate::data::Batch;
use crate::train::{evaluate, optimizer_step, train_epoch};

/// `nn.Sequential(nn.Linear, nn.ReLU, nn.Linear)` copied layer by layer.
#[derive(Module, Debug)]
pub enum Layer<B: Backend> {
    Linear(Linear<B>),
    Relu(Relu),
}

#[derive(Module, Debug)]
pub struct Mlp<B: Backend> {
    net: Vec<Layer<B>>,
}

/// The Pytorch side relies on its defaults, whose renumbering breaks the mirror: BL005,
/// nothing to compare.
pub fn init_from_torch(device: &Device, weights: &Path) -> Result<Mlp> {
    let mut model = Mlp::new(device);
    let mut store = PytorchStore::from_file(weights); // expect: BL005, BL012
    model
        .load_from(&mut store)
        .with_context(|| format!("initialising from {}", weights.display()))?;
    Ok(model)
}

/// A plain resume.
pub fn resume(device: &Device, checkpoint: &Path) -> Result<Mlp> {
    let mut model = Mlp::new(device);
    model.load_from(&mut SafetensorsStore::from_file(checkpoint))?;
    Ok(model)
}

/// A half-precision resume: an adapter, but not the PyTorch one.
pub fn resume_half(device: &Device, checkpoint: &Path) -> Result<Mlp> {
    let mut model = Mlp::new(device);
    let mut store = SafetensorsStore::from_file(checkpoint).with_from_adapter(HalfPrecisionAdapter::default());
    model.load_from(&mut store)?;
    Ok(model)
}

/// The training run: Burn checkpoints in and out, a fresh model when there is none yet.
pub fn run(device: &Device, dir: &Path, batches: &[Batch], epochs: usize) -> Result<Mlp> {
    let latest = dir.join("latest.safetensors");
    let mut model = if latest.is_file() {
        let mut store = SafetensorsStore::from_file(&latest).allow_partial(false);
        let mut model = Mlp::new(device);
        model.load_from(&mut store)?;
        model
    } else {
        Mlp::new(device)
    };
    for epoch in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
            optimizer_step(&mut model, 1e-3);
        }
        println!("epoch {epoch}: loss {:.4}", evaluate(&model, batches));
        model.save_into(&mut SafetensorsStore::from_file(&latest).overwrite(true))?;
    }
    Ok(model)
}
