//! Loaders for the PyTorch exports of the mirrored MLP, as first written. The mirror needs
//! `map_indices_contiguous(false)` and `skip_enum_variants(true)`: `PytorchStore`'s default
//! renumbering and `SafetensorsStore`'s default variant names mis-map it (BL012), the other two
//! defaults are right (BL005 notes). The fixes write the values out, which also makes the two
//! store types agree.

use std::path::Path;

use anyhow::{bail, Result};
use burn::prelude::*;
use burn_store::{ModuleSnapshot, ModuleStore, PyTorchToBurnAdapter, PytorchStore, SafetensorsStore};

use crate::model::MirrorMlp;

/// `.pt` on the defaults: `net.2` is renumbered to `net.1` and not found.
pub fn from_torch<B: Backend>(device: &B::Device, path: &Path) -> Result<MirrorMlp<B>> {
    let mut model = MirrorMlp::new(device);
    model.load_from(&mut PytorchStore::from_file(path))?; // expect: BL012
    Ok(model)
}

/// Following the summary's hint (`skip_enum_variants(true)`, already the default).
pub fn from_torch_hinted<B: Backend>(device: &B::Device, path: &Path) -> Result<MirrorMlp<B>> {
    let mut model = MirrorMlp::new(device);
    let mut store = PytorchStore::from_file(path).skip_enum_variants(true); // expect: BL012
    model.load_from(&mut store)?;
    Ok(model)
}

/// Clean: the index option right, the enum option at its right default.
pub fn from_torch_checkpoint<B: Backend>(device: &B::Device, path: &Path) -> Result<MirrorMlp<B>> {
    let mut model = MirrorMlp::new(device);
    let mut store = PytorchStore::from_file(path)
        .with_top_level_key("model")
        .map_indices_contiguous(false);
    model.load_from(&mut store)?;
    Ok(model)
}

/// `.safetensors` on the defaults: `net.0.Linear.weight` does not find `net.0.weight`.
pub fn from_safetensors<B: Backend>(device: &B::Device, path: &Path) -> Result<MirrorMlp<B>> {
    let mut model = MirrorMlp::new(device);
    let mut store = SafetensorsStore::from_file(path).with_from_adapter(PyTorchToBurnAdapter); // expect: BL005, BL012
    model.load_from(&mut store)?;
    Ok(model)
}

/// The adapter through a binding, the enum option written; the index option at its right
/// default, which differs from the `PytorchStore` loaders' (BL006 only).
pub fn from_safetensors_bound<B: Backend>(device: &B::Device, path: &Path) -> Result<MirrorMlp<B>> {
    let mut model = MirrorMlp::new(device);
    let adapter = PyTorchToBurnAdapter;
    let mut store = SafetensorsStore::from_file(path) // expect: BL005
        .with_from_adapter(adapter)
        .skip_enum_variants(true);
    store.apply_to(&mut model)?;
    Ok(model)
}

/// Either export, by extension; the Safetensors branch reads the same keys.
pub fn from_either<B: Backend>(device: &B::Device, path: &Path) -> Result<MirrorMlp<B>> {
    let mut model = MirrorMlp::new(device);
    match path.extension().and_then(|e| e.to_str()) {
        Some("pt") => {
            let mut store = PytorchStore::from_file(path)
                .map_indices_contiguous(false)
                .skip_enum_variants(true);
            model.load_from(&mut store)?;
        }
        Some("safetensors") => {
            model.load_from(&mut SafetensorsStore::from_file(path))?; // expect: BL005, BL006
        }
        _ => bail!("unsupported weights {}", path.display()),
    }
    Ok(model)
}
