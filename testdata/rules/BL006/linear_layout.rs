//! The `Vec<Linear>` layout, defined in this file and without module enums: any difference
//! between the `PytorchStore` and a PyTorch-facing `SafetensorsStore` counts (BL006), and the
//! note says whether the loaded layout depends on it today (`skip_enum_variants` does not).

use std::path::Path;

use anyhow::Result;
use burn::nn::{Linear, LinearConfig, Relu};
use burn::prelude::*;
use burn_store::{ModuleSnapshot, PyTorchToBurnAdapter, PytorchStore, SafetensorsStore};

use crate::data::Batch;
use crate::train::{evaluate, optimizer_step, train_epoch};

#[derive(Module, Debug)]
pub struct Mlp<B: Backend> {
    net: Vec<Linear<B>>,
    activation: Relu,
}

impl<B: Backend> Mlp<B> {
    pub fn new(device: &B::Device) -> Self {
        let net = vec![LinearConfig::new(4, 8).init(device), LinearConfig::new(8, 2).init(device)];
        Self { net, activation: Relu::new() }
    }
}

/// The `.pt` side relies on the defaults (true/true), which are right for this layout.
pub fn load_pt<B: Backend>(device: &B::Device, path: &Path) -> Result<Mlp<B>> {
    let mut model = Mlp::new(device);
    model.load_from(&mut PytorchStore::from_file(path))?;
    Ok(model)
}

/// The write-up's fix; `skip_enum_variants` differs from the `PytorchStore`'s (BL006, with no
/// enum to skip today).
pub fn load_st<B: Backend>(device: &B::Device, path: &Path) -> Result<Mlp<B>> {
    let mut model = Mlp::new(device);
    let mut store = SafetensorsStore::from_file(path) // expect: BL006
        .with_from_adapter(PyTorchToBurnAdapter)
        .map_indices_contiguous(true)
        .skip_enum_variants(false);
    model.load_from(&mut store)?;
    Ok(model)
}

/// `map_indices_contiguous(true)` written; `skip_enum_variants` left false, unlike the
/// `PytorchStore`'s (BL006, harmless today).
pub fn load_st_contiguous<B: Backend>(device: &B::Device, path: &Path) -> Result<Mlp<B>> {
    let mut model = Mlp::new(device);
    let mut store = SafetensorsStore::from_file(path) // expect: BL006
        .with_from_adapter(PyTorchToBurnAdapter)
        .map_indices_contiguous(true);
    model.load_from(&mut store)?;
    Ok(model)
}

/// `map_indices_contiguous` differs: `net.1` is not found (the write-up's first failure).
pub fn load_st_gapped<B: Backend>(device: &B::Device, path: &Path) -> Result<Mlp<B>> {
    let mut model = Mlp::new(device);
    let mut store = SafetensorsStore::from_file(path) // expect: BL006
        .with_from_adapter(PyTorchToBurnAdapter)
        .map_indices_contiguous(false)
        .skip_enum_variants(true);
    model.load_from(&mut store)?;
    Ok(model)
}

/// The README loader followed by fine-tuning: implicit, and `map_indices_contiguous` differs.
pub fn import_and_finetune<B: Backend>(
    device: &B::Device,
    weights: &Path,
    batches: &[Batch<B>],
    epochs: usize,
) -> Result<Mlp<B>> {
    let mut model = Mlp::new(device);
    let mut store = SafetensorsStore::from_file(weights).with_from_adapter(PyTorchToBurnAdapter); // expect: BL006
    let result = model.load_from(&mut store)?;
    println!("imported {} tensors", result.applied.len());
    for epoch in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
            optimizer_step(&mut model, 1e-4);
        }
        println!("epoch {epoch}: loss {:.4}", evaluate(&model, batches));
    }
    Ok(model)
}
