//! `PytorchStore` loaders: both key-mapping options must be written out (the defaults are
//! true/true, the opposite of `SafetensorsStore`'s). Only Pytorch loaders in this file, so
//! BL006 has nothing to compare.

use std::path::Path;

use anyhow::{bail, Context, Result};
use burn::prelude::*;
use burn_store::PytorchStore as Pt;
use burn_store::{BurnpackStore, KeyRemapper, ModuleSnapshot, ModuleStore, PyTorchToBurnAdapter, PytorchStore};

use crate::config::ImportOptions;
use crate::data::Batch;
use crate::model::{Backbone, Mlp};
use crate::train::{evaluate, optimizer_step, train_epoch};

/// The example's loader: nothing explicit.
pub fn load_torch(device: &Device, path: &Path) -> Mlp {
    let mut model = Mlp::new(device);
    model
        .load_from(&mut PytorchStore::from_file(path)) // expect: BL005
        .expect("Should decode state successfully");
    model
}

/// Import, check, fine-tune: a whole function around a bound store.
pub fn import_and_finetune(device: &Device, weights: &Path, batches: &[Batch], epochs: usize) -> Result<Mlp> {
    let mut model = Mlp::new(device);
    let mut store = PytorchStore::from_file(weights); // expect: BL005
    let result = model
        .load_from(&mut store)
        .with_context(|| format!("importing {}", weights.display()))?;
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

/// Only `map_indices_contiguous` is written.
pub fn load_mirror_layout(device: &Device, path: &Path) -> Result<Mlp> {
    let mut model = Mlp::new(device);
    let mut store = PytorchStore::from_file(path).map_indices_contiguous(false); // expect: BL005
    model.load_from(&mut store)?;
    Ok(model)
}

/// Only `skip_enum_variants` is written (the afine/dists shape).
pub fn load_backbone(device: &Device, path: &Path) -> Result<Backbone> {
    let mut model = Backbone::new(device);
    let mut store = PytorchStore::from_file(path) // expect: BL005
        .with_top_level_key("state_dict")
        .skip_enum_variants(true)
        .allow_partial(false);
    model.load_from(&mut store)?;
    Ok(model)
}

/// Remapped keys, partial load with the missing list checked.
pub fn load_vgg_features(device: &Device, path: &Path) -> Result<Backbone> {
    let mut model = Backbone::new(device);
    let mut store = PytorchStore::from_file(path) // expect: BL005
        .with_key_remapping(r"^features\.(\d+)\.", "blocks.$1.")
        .with_key_remapping(r"^classifier\..*", "")
        .allow_partial(true);
    let result = model.load_from(&mut store)?;
    if !result.missing.is_empty() {
        bail!("VGG weights do not cover the backbone:\n{result}");
    }
    Ok(model)
}

/// A `use .. as` alias.
pub fn load_alias(device: &Device, path: &Path) -> Result<Mlp> {
    let mut model = Mlp::new(device);
    model.load_from(&mut Pt::from_file(path))?; // expect: BL005
    Ok(model)
}

/// The full path.
pub fn load_full_path(device: &Device, path: &Path) -> Result<Mlp> {
    let mut model = Mlp::new(device);
    let mut store = burn_store::PytorchStore::from_file(path).validate(true); // expect: BL005
    model.load_from(&mut store)?;
    Ok(model)
}

/// Store-side `apply_to`.
pub fn load_store_side(device: &Device, path: &Path) -> Result<Mlp> {
    let mut model = Mlp::new(device);
    let mut store = PytorchStore::from_file(path).remap(KeyRemapper::new()); // expect: BL005
    store.apply_to(&mut model)?;
    Ok(model)
}

/// One loader per pretrained variant (the lpips shape): one finding per constructor.
pub fn load_variant(device: &Device, variant: &str, dir: &Path) -> Result<Backbone> {
    let mut model = Backbone::new(device);
    match variant {
        "alex" => {
            let mut store = PytorchStore::from_file(dir.join("alex.pth")).with_top_level_key("net"); // expect: BL005
            model.load_from(&mut store)?;
        }
        "vgg" => {
            let mut store = PytorchStore::from_file(dir.join("vgg.pth")); // expect: BL005
            model.load_from(&mut store)?;
        }
        other => bail!("unknown variant {other}"),
    }
    Ok(model)
}

/// Several PyTorch checkpoints averaged into one model (a loop over files).
pub fn import_ensemble(device: &Device, paths: &[std::path::PathBuf]) -> Result<Vec<Mlp>> {
    let mut members = Vec::with_capacity(paths.len());
    for path in paths {
        let mut member = Mlp::new(device);
        let mut store = PytorchStore::from_file(path).with_top_level_key("model_state_dict"); // expect: BL005
        let result = member
            .load_from(&mut store)
            .with_context(|| format!("member {}", path.display()))?;
        log::info!("{}: {} tensors", path.display(), result.applied.len());
        members.push(member);
    }
    if members.is_empty() {
        bail!("no checkpoints given");
    }
    Ok(members)
}

/// A crate-local helper returns the store; the constructor in it is reported.
fn torch_store(path: &Path) -> PytorchStore {
    PytorchStore::from_file(path).with_top_level_key("model") // expect: BL005
}

pub fn load_through_helper(device: &Device, path: &Path) -> Result<Mlp> {
    let mut model = Mlp::new(device);
    model.load_from(&mut torch_store(path))?;
    Ok(model)
}

/// Clean: both written.
pub fn load_explicit(device: &Device, path: &Path) -> Result<Mlp> {
    let mut model = Mlp::new(device);
    let mut store = PytorchStore::from_file(path)
        .map_indices_contiguous(true)
        .skip_enum_variants(true);
    model.load_from(&mut store)?;
    Ok(model)
}

/// Clean: both written, values from the configuration.
pub fn load_configured(device: &Device, path: &Path, opts: &ImportOptions) -> Result<Mlp> {
    let mut model = Mlp::new(device);
    let mut store = PytorchStore::from_file(path)
        .skip_enum_variants(opts.skip_enum_variants)
        .map_indices_contiguous(opts.contiguous);
    model.load_from(&mut store)?;
    Ok(model)
}

/// Clean: the second option is set on a re-binding.
pub fn load_rebound(device: &Device, path: &Path) -> Result<Mlp> {
    let mut model = Mlp::new(device);
    let store = PytorchStore::from_file(path).map_indices_contiguous(true);
    let mut store = store.skip_enum_variants(true);
    model.load_from(&mut store)?;
    Ok(model)
}

/// Clean: a helper that writes both.
fn explicit_torch_store(path: &Path) -> PytorchStore {
    PytorchStore::from_file(path)
        .map_indices_contiguous(true)
        .skip_enum_variants(true)
}

pub fn load_explicit_helper(device: &Device, path: &Path) -> Result<Mlp> {
    let mut model = Mlp::new(device);
    model.load_from(&mut explicit_torch_store(path))?;
    Ok(model)
}

/// Clean: Burnpack has no such options, even with the PyTorch adapter.
pub fn load_burnpack(device: &Device, path: &Path) -> Result<Mlp> {
    let mut model = Mlp::new(device);
    let mut store = BurnpackStore::from_file(path)
        .with_from_adapter(PyTorchToBurnAdapter)
        .with_remap_pattern(r"^layers\.", "net.");
    model.load_from(&mut store)?;
    Ok(model)
}
