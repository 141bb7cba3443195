//! A plain `SafetensorsStore` loaded in the same function as a PyTorch loader reads the same
//! PyTorch keys, so its options are PyTorch-facing too (BL005 when implicit). Every effective
//! value in this file is false/false (the Pytorch loaders say so explicitly), so BL006 stays
//! quiet.

use std::path::Path;

use anyhow::{bail, Result};
use burn::nn::{Linear, Relu};
use burn::prelude::*;
use burn_store::{BurnpackStore, ModuleSnapshot, ModuleStore, PyTorchToBurnAdapter, PytorchStore, SafetensorsStore};

use crate::data::Batch;
use crate::train::{evaluate, optimizer_step, train_epoch};

/// `nn.Sequential(nn.Linear, nn.ReLU, nn.Linear)` with the ReLU kept apart.
#[derive(Module, Debug)]
pub struct Mlp<B: Backend> {
    net: Vec<Linear<B>>,
    act: Relu,
}

/// Either export of the same PyTorch model, by extension.
pub fn load_any(device: &Device, path: &Path) -> Result<Mlp> {
    let mut model = Mlp::new(device);
    match path.extension().and_then(|e| e.to_str()) {
        Some("pt" | "pth") => {
            let mut store = PytorchStore::from_file(path)
                .map_indices_contiguous(false)
                .skip_enum_variants(false);
            model.load_from(&mut store)?;
        }
        Some("safetensors") => {
            let mut store = SafetensorsStore::from_file(path); // expect: BL005
            model.load_from(&mut store)?;
        }
        _ => bail!("unsupported weights file {}", path.display()),
    }
    Ok(model)
}

/// `if`/`else` and the store-side API.
pub fn load_either(device: &Device, path: &Path, torch: bool) -> Result<Mlp> {
    let mut model = Mlp::new(device);
    if torch {
        PytorchStore::from_file(path)
            .map_indices_contiguous(false)
            .skip_enum_variants(false)
            .apply_to(&mut model)?;
    } else {
        SafetensorsStore::from_file(path).apply_to(&mut model)?; // expect: BL005
    }
    Ok(model)
}

/// Backbone from a `.pt`, head from a `.safetensors` of the same PyTorch project, then
/// fine-tuning.
pub fn import_backbone_and_head(
    device: &Device,
    backbone: &Path,
    head: &Path,
    batches: &[Batch],
    epochs: usize,
) -> Result<Mlp> {
    let mut model = Mlp::new(device);
    let mut torch = PytorchStore::from_file(backbone)
        .with_top_level_key("state_dict")
        .map_indices_contiguous(false)
        .skip_enum_variants(false);
    model.load_from(&mut torch)?;
    let mut head_store = SafetensorsStore::from_file(head).skip_enum_variants(false); // expect: BL005
    model.load_from(&mut head_store)?;
    for epoch in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
            optimizer_step(&mut model, 1e-4);
        }
        println!("epoch {epoch}: loss {:.4}", evaluate(&model, batches));
    }
    Ok(model)
}

/// Base weights through the adapter, then an overlay file (fine-tuned head, saved by the
/// same PyTorch project) with no adapter of its own.
pub fn load_with_overlay(device: &Device, base: &Path, overlay: &Path) -> Result<Mlp> {
    let mut model = Mlp::new(device);
    let mut base_store = SafetensorsStore::from_file(base).with_from_adapter(PyTorchToBurnAdapter); // expect: BL005
    let base_result = model.load_from(&mut base_store)?;
    println!("base: {} tensors", base_result.applied.len());
    let mut overlay_store = SafetensorsStore::from_file(overlay); // expect: BL005
    let overlay_result = model.load_from(&mut overlay_store)?;
    println!("overlay: {} tensors", overlay_result.applied.len());
    if overlay_result.applied.is_empty() {
        bail!("{} changed nothing", overlay.display());
    }
    Ok(model)
}

/// Clean: the Safetensors loader next to the Pytorch one says both values.
pub fn load_any_explicit(device: &Device, path: &Path, torch: bool) -> Result<Mlp> {
    let mut model = Mlp::new(device);
    if torch {
        let mut store = PytorchStore::from_file(path)
            .map_indices_contiguous(false)
            .skip_enum_variants(false);
        model.load_from(&mut store)?;
    } else {
        let mut store = SafetensorsStore::from_file(path)
            .map_indices_contiguous(false)
            .skip_enum_variants(false);
        model.load_from(&mut store)?;
    }
    Ok(model)
}

/// Clean: the Safetensors store next to the Pytorch loader is written, not read.
pub fn convert(device: &Device, input: &Path, output: &Path) -> Result<()> {
    let mut model = Mlp::new(device);
    let mut torch = PytorchStore::from_file(input)
        .map_indices_contiguous(false)
        .skip_enum_variants(false);
    model.load_from(&mut torch)?;
    model.save_into(&mut SafetensorsStore::from_file(output).overwrite(true))?;
    Ok(())
}

/// Clean: Burnpack next to a Pytorch loader.
pub fn load_torch_or_burnpack(device: &Device, path: &Path, torch: bool) -> Result<Mlp> {
    let mut model = Mlp::new(device);
    if torch {
        let mut store = PytorchStore::from_file(path)
            .map_indices_contiguous(false)
            .skip_enum_variants(false);
        model.load_from(&mut store)?;
    } else {
        model.load_from(&mut BurnpackStore::from_file(path))?;
    }
    Ok(model)
}

/// Clean: a plain Safetensors resume in a function of its own.
pub fn resume(device: &Device, checkpoint: &Path) -> Result<Mlp> {
    let mut model = Mlp::new(device);
    model.load_from(&mut SafetensorsStore::from_file(checkpoint))?;
    Ok(model)
}
