//! Loaders for the PyTorch exports of the MLP, a `Vec<Linear>`. Every `SafetensorsStore` loader
//! that disagrees with the `PytorchStore`s' true/true is BL006; the options left implicit
//! elsewhere are BL005 notes.

use std::path::Path;

use anyhow::{Context, Result};
use burn::prelude::*;
use burn_store::{
    ChainAdapter, HalfPrecisionAdapter, ModuleSnapshot, PyTorchToBurnAdapter, PytorchStore, SafetensorsStore,
};

use crate::model::Mlp;

/// Clean: `torch.save(model.state_dict())`, on the defaults, which renumber `net.2` to `net.1`.
pub fn from_torch<B: Backend>(device: &B::Device, path: &Path) -> Result<Mlp<B>> {
    let mut model = Mlp::new(device);
    let mut store = PytorchStore::from_file(path);
    model
        .load_from(&mut store)
        .with_context(|| format!("loading {}", path.display()))?;
    Ok(model)
}

/// Clean: a training checkpoint with the weights under `state_dict`; one option written.
pub fn from_torch_checkpoint<B: Backend>(device: &B::Device, path: &Path) -> Result<Mlp<B>> {
    let mut model = Mlp::new(device);
    let mut store = PytorchStore::from_file(path)
        .with_top_level_key("state_dict")
        .skip_enum_variants(true);
    model.load_from(&mut store)?;
    Ok(model)
}

/// `safetensors.torch.save_file` output, the README loader: `net.1` is not found.
pub fn from_safetensors<B: Backend>(device: &B::Device, path: &Path) -> Result<Mlp<B>> {
    let mut model = Mlp::new(device);
    let mut store = SafetensorsStore::from_file(path).with_from_adapter(PyTorchToBurnAdapter); // expect: BL006
    model.load_from(&mut store)?;
    Ok(model)
}

/// Half precision on top of the adapter; `skip_enum_variants` written, the index option not.
pub fn from_safetensors_half<B: Backend>(device: &B::Device, path: &Path) -> Result<Mlp<B>> {
    let mut model = Mlp::new(device);
    let mut store = SafetensorsStore::from_file(path) // expect: BL006
        .with_from_adapter(ChainAdapter::new(PyTorchToBurnAdapter, HalfPrecisionAdapter::default()))
        .skip_enum_variants(false);
    model.load_from(&mut store)?;
    Ok(model)
}

/// Either export; the Safetensors branch reads the same PyTorch keys.
pub fn from_either<B: Backend>(device: &B::Device, path: &Path) -> Result<Mlp<B>> {
    let mut model = Mlp::new(device);
    if path.extension().is_some_and(|e| e == "safetensors") {
        model.load_from(&mut SafetensorsStore::from_file(path))?; // expect: BL006
    } else {
        let mut store = PytorchStore::from_file(path)
            .map_indices_contiguous(true)
            .skip_enum_variants(true);
        model.load_from(&mut store)?;
    }
    Ok(model)
}

/// A hub export with a prefix on every key.
pub fn from_hub_export<B: Backend>(device: &B::Device, path: &Path) -> Result<Mlp<B>> {
    let mut model = Mlp::new(device);
    let mut store = SafetensorsStore::from_file(path) // expect: BL006
        .with_key_remapping(r"^model\.net\.", "net.")
        .validate(true);
    let result = model.load_from(&mut store)?;
    println!("{} tensors from {}", result.applied.len(), path.display());
    Ok(model)
}

/// The write-up's fix, both options written; `skip_enum_variants(false)` differs from the
/// `PytorchStore`s' true (BL006, harmless for this layout).
pub fn from_safetensors_fixed<B: Backend>(device: &B::Device, path: &Path) -> Result<Mlp<B>> {
    let mut model = Mlp::new(device);
    let mut store = SafetensorsStore::from_file(path) // expect: BL006
        .with_from_adapter(PyTorchToBurnAdapter)
        .map_indices_contiguous(true)
        .skip_enum_variants(false);
    model.load_from(&mut store)?;
    Ok(model)
}

/// Clean: Burn's own checkpoint, in a function of its own.
pub fn resume<B: Backend>(device: &B::Device, path: &Path) -> Result<Mlp<B>> {
    let mut model = Mlp::new(device);
    model.load_from(&mut SafetensorsStore::from_file(path))?;
    Ok(model)
}
