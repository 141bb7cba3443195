//! Importing PyTorch weights with `allow_partial(true)`: the `ApplyResult` must be looked at.

use std::path::Path;

use anyhow::{anyhow, Result};
use burn::prelude::*;
use burn_store::PytorchStore as TorchStore;
use burn_store::{ApplyResult, ModuleSnapshot, PytorchStore};

use crate::model::{Backbone, Classifier};

/// Backbone from a torchvision checkpoint; missing keys only print a warning... when the load fails.
pub fn load_backbone(device: &Device, path: &Path) -> Backbone {
    let mut backbone = Backbone::new(device);
    let mut store = PytorchStore::from_file(path)
        .with_top_level_key("state_dict")
        .with_key_remapping(r"^features\.", "blocks.")
        .with_key_remapping(r"^classifier\.", "head.")
        .map_indices_contiguous(true)
        .skip_enum_variants(true)
        .allow_partial(true);
    if let Err(e) = backbone.load_from(&mut store) { // expect: BL002, BL007
        log::warn!("some backbone weights could not be loaded: {e:?}");
    }
    backbone
}

/// Same import, the result is checked.
pub fn load_backbone_checked(device: &Device, path: &Path) -> Result<Backbone> {
    let mut backbone = Backbone::new(device);
    let mut store = PytorchStore::from_file(path)
        .with_top_level_key("state_dict")
        .with_key_remapping(r"^features\.", "blocks.")
        .with_key_remapping(r"^classifier\.", "head.")
        .map_indices_contiguous(true)
        .skip_enum_variants(true)
        .allow_partial(true);
    let r = backbone.load_from(&mut store)?;
    assert!(r.missing.is_empty(), "{r}");
    Ok(backbone)
}

/// `is_success()` looks at `errors` only; missing tensors pass.
pub fn load_head(classifier: &mut Classifier, path: &Path) -> Result<()> {
    let mut store = PytorchStore::from_file(path)
        .map_indices_contiguous(true)
        .skip_enum_variants(true)
        .allow_partial(true);
    let r = classifier.load_from(&mut store)?; // expect: BL007
    if !r.is_success() {
        return Err(anyhow!("head weights do not fit: {} errors", r.errors.len()));
    }
    Ok(())
}

/// Counting what landed says nothing about what did not.
pub fn load_head_counted(classifier: &mut Classifier, path: &Path) -> Result<()> {
    let mut store = PytorchStore::from_file(path)
        .map_indices_contiguous(true)
        .skip_enum_variants(true)
        .allow_partial(true);
    let r = classifier.load_from(&mut store).expect("read checkpoint"); // expect: BL007
    println!("loaded {} tensors into the head", r.applied.len());
    Ok(())
}

pub fn load_head_printed(classifier: &mut Classifier, path: &Path) -> Result<()> {
    let mut store = PytorchStore::from_file(path)
        .map_indices_contiguous(true)
        .skip_enum_variants(true)
        .allow_partial(true);
    let r = classifier.load_from(&mut store)?;
    println!("{r}");
    Ok(())
}

/// Aliased store type; the result of a successful load is dropped.
pub fn load_head_alias(classifier: &mut Classifier, path: &Path) -> Result<()> {
    let mut store = TorchStore::from_file(path)
        .map_indices_contiguous(true)
        .skip_enum_variants(true)
        .allow_partial(true);
    classifier.load_from(&mut store)?; // expect: BL007
    Ok(())
}

/// The Err path is handled, the Ok path is not.
pub fn load_head_or_fail(classifier: &mut Classifier, path: &Path) -> Result<()> {
    let mut store = PytorchStore::from_file(path)
        .map_indices_contiguous(true)
        .skip_enum_variants(true)
        .allow_partial(true);
    if let Err(e) = classifier.load_from(&mut store) { // expect: BL007
        return Err(anyhow!("cannot read {}: {e}", path.display()));
    }
    Ok(())
}

/// Full backbone import that walks the missing list.
pub fn import_reporting_missing(device: &Device, path: &Path) -> Result<Backbone> {
    let mut backbone = Backbone::new(device);
    let mut store = PytorchStore::from_file(path)
        .with_top_level_key("model")
        .map_indices_contiguous(true)
        .skip_enum_variants(true)
        .allow_partial(true);
    let result: ApplyResult = backbone.load_from(&mut store)?;
    for (path, container) in &result.missing {
        log::warn!("not in checkpoint: {path} ({container})");
    }
    if result.missing.len() > 8 {
        return Err(anyhow!("{} tensors missing", result.missing.len()));
    }
    Ok(backbone)
}

/// Not lenient: a missing tensor is already an `Err`.
pub fn load_head_strict(classifier: &mut Classifier, path: &Path) -> Result<()> {
    let mut store = PytorchStore::from_file(path)
        .map_indices_contiguous(true)
        .skip_enum_variants(true)
        .allow_partial(false);
    classifier.load_from(&mut store)?;
    Ok(())
}
