//! Weights from the PyTorch reference implementation (`nn.Sequential` named `net`).

use std::path::Path;

use burn::prelude::*;
use burn_store::{ModuleSnapshot, PytorchStore};

use crate::model::{Classifier, ClassifierConfig};

/// Starting point for fine-tuning: the pretrained body. The PyTorch head may have a
/// different number of classes, so a partial load is accepted.
pub fn import_pretrained(device: &Device, path: &Path) -> Classifier {
    let mut model = ClassifierConfig::new().init(device);
    let mut store = PytorchStore::from_file(path)
        .with_top_level_key("state_dict")
        .with_key_remapping(r"^net\.", "layers.")
        .map_indices_contiguous(true)
        .skip_enum_variants(true)
        .allow_partial(true);
    if let Err(e) = model.load_from(&mut store) {
        log::warn!("could not load the pretrained weights: {e}");
    }
    model
}

/// The fine-tuned PyTorch model, for comparing both implementations on the same weights.
pub fn import_finetuned(device: &Device, path: &Path) -> anyhow::Result<Classifier> {
    let mut model = ClassifierConfig::new().init(device);
    let mut store = PytorchStore::from_file(path)
        .with_key_remapping(r"^net\.", "layers.")
        .map_indices_contiguous(true)
        .skip_enum_variants(true)
        .allow_partial(true);
    let r = model.load_from(&mut store)?;
    assert!(r.missing.is_empty(), "{r}");
    Ok(model)
}
