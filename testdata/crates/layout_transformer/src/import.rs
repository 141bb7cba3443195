//! PyTorch checkpoints of the transformer, loaded on every store's defaults: BL005 notes, and
//! BL006 where a `SafetensorsStore` disagrees with a `PytorchStore` (harmless for this layout).

use std::path::Path;

use anyhow::{bail, Result};
use burn::prelude::*;
use burn_store::{ModuleSnapshot, PyTorchToBurnAdapter, PytorchStore, SafetensorsStore};

use crate::model::{CausalLm, Encoder};

/// The Hugging Face `model.safetensors`, prefix stripped; its defaults differ from the
/// `PytorchStore`'s (BL006, harmless for this layout).
pub fn from_hub<B: Backend>(device: &B::Device, path: &Path) -> Result<CausalLm<B>> {
    let mut model = CausalLm::new(device);
    let mut store = SafetensorsStore::from_file(path) // expect: BL006
        .with_from_adapter(PyTorchToBurnAdapter)
        .with_key_remapping(r"^model\.", "");
    model.load_from(&mut store)?;
    Ok(model)
}

/// Either export of the same checkpoint; the defaults differ (BL006), but no key of this
/// layout has an index gap or an enum variant, so both map the same today.
pub fn from_either<B: Backend>(device: &B::Device, path: &Path) -> Result<CausalLm<B>> {
    let mut model = CausalLm::new(device);
    match path.extension().and_then(|e| e.to_str()) {
        Some("pth") => {
            model.load_from(&mut PytorchStore::from_file(path).with_top_level_key("model"))?;
        }
        Some("safetensors") => {
            model.load_from(&mut SafetensorsStore::from_file(path).with_from_adapter(PyTorchToBurnAdapter))?; // expect: BL006
        }
        _ => bail!("unsupported weights {}", path.display()),
    }
    Ok(model)
}

/// per-stage norms are a `ModuleList` (`norms.0`, `norms.1`, ...), not a Sequential.
pub fn encoder_from_safetensors<B: Backend>(device: &B::Device, path: &Path) -> Result<Encoder<B>> {
    let mut model: Encoder<B> = Encoder::new(device);
    let mut store = SafetensorsStore::from_file(path).with_from_adapter(PyTorchToBurnAdapter); // expect: BL006
    model.load_from(&mut store)?;
    Ok(model)
}

/// Clean: the same from a `.pt` file.
pub fn encoder_from_torch<B: Backend>(model: &mut Encoder<B>, path: &Path) -> Result<()> {
    let mut store = PytorchStore::from_file(path);
    model.load_from(&mut store)?;
    Ok(())
}
