//! `PytorchStore` loaders, most of modules that mirror PyTorch's `nn.Sequential` layer by layer
//! (a `Vec` of a module enum with parameter-free variants): the default or a written
//! `map_indices_contiguous(true)` renumbers `net.0, net.2` to `net.0, net.1` and breaks them
//! (BL012, where the loaded type is stated and no remap intervenes). Every option left to its
//! default is a BL005 note, whatever the layout: flat structs and `Vec`s of blocks too. Only
//! Pytorch loaders in this file, so BL006 has nothing to compare.

use std::path::Path;

use anyhow::{bail, Context, Result};
use burn::nn::conv::Conv2d;
use burn::nn::pool::MaxPool2d;
use burn::nn::{Dropout, LayerNorm, Linear, Relu};
use burn::prelude::*;
use burn_store::PytorchStore as Pt;
use burn_store::{BurnpackStore, KeyRemapper, ModuleSnapshot, ModuleStore, PyTorchToBurnAdapter, PytorchStore};

use crate::config::ImportOptions;
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

/// torchvision's VGG `features`: convolutions, ReLUs and poolings in one Sequential.
#[derive(Module, Debug)]
pub enum VggLayer<B: Backend> {
    Conv(Conv2d<B>),
    Relu(Relu),
    Pool(MaxPool2d),
}

#[derive(Module, Debug)]
pub struct Backbone<B: Backend> {
    features: Vec<VggLayer<B>>,
}

/// Named fields only: no index for either option to change.
#[derive(Module, Debug)]
pub struct Classifier<B: Backend> {
    fc1: Linear<B>,
    dropout: Dropout,
    fc2: Linear<B>,
}

/// A `ModuleList` of transformer blocks: `blocks.0, blocks.1, ...` without gaps.
#[derive(Module, Debug)]
pub struct Block<B: Backend> {
    attn: Linear<B>,
    mlp: Linear<B>,
    norm: LayerNorm<B>,
}

#[derive(Module, Debug)]
pub struct Encoder<B: Backend> {
    blocks: Vec<Block<B>>,
    norm: LayerNorm<B>,
}

/// The example's loader: nothing explicit.
pub fn load_torch(device: &Device, path: &Path) -> Mlp {
    let mut model = Mlp::new(device);
    model
        .load_from(&mut PytorchStore::from_file(path)) // expect: BL005, BL012
        .expect("Should decode state successfully");
    model
}

/// Import, check, fine-tune: a whole function around a bound store.
pub fn import_and_finetune(device: &Device, weights: &Path, batches: &[Batch], epochs: usize) -> Result<Mlp> {
    let mut model = Mlp::new(device);
    let mut store = PytorchStore::from_file(weights); // expect: BL005, BL012
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

/// The mirror's `map_indices_contiguous(false)` is written; `skip_enum_variants` is left to
/// its default `true`, which the mirror needs (a note all the same).
pub fn load_mirror_layout(device: &Device, path: &Path) -> Result<Mlp> {
    let mut model = Mlp::new(device);
    let mut store = PytorchStore::from_file(path).map_indices_contiguous(false); // expect: BL005
    model.load_from(&mut store)?;
    Ok(model)
}

/// Only `skip_enum_variants` is written (the afine/dists shape): the renumbering stays.
pub fn load_backbone(device: &Device, path: &Path) -> Result<Backbone> {
    let mut model = Backbone::new(device);
    let mut store = PytorchStore::from_file(path) // expect: BL012
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
    model.load_from(&mut Pt::from_file(path))?; // expect: BL005, BL012
    Ok(model)
}

/// The full path.
pub fn load_full_path(device: &Device, path: &Path) -> Result<Mlp> {
    let mut model = Mlp::new(device);
    let mut store = burn_store::PytorchStore::from_file(path).validate(true); // expect: BL005, BL012
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
            let mut store = PytorchStore::from_file(dir.join("alex.pth")).with_top_level_key("net"); // expect: BL005, BL012
            model.load_from(&mut store)?;
        }
        "vgg" => {
            let mut store = PytorchStore::from_file(dir.join("vgg.pth")); // expect: BL005, BL012
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
        let mut store = PytorchStore::from_file(path).with_top_level_key("model_state_dict"); // expect: BL005, BL012
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
    model.load_from(&mut torch_store(path))?; // expect: BL012
    Ok(model)
}

/// Both written, to values of the author's choosing: the index value mis-maps the mirror.
pub fn load_explicit(device: &Device, path: &Path) -> Result<Mlp> {
    let mut model = Mlp::new(device);
    let mut store = PytorchStore::from_file(path) // expect: BL012
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

/// The second option is set on a re-binding; the first renumbers the mirror.
pub fn load_rebound(device: &Device, path: &Path) -> Result<Mlp> {
    let mut model = Mlp::new(device);
    let store = PytorchStore::from_file(path).map_indices_contiguous(true); // expect: BL012
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
    model.load_from(&mut explicit_torch_store(path))?; // expect: BL012
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

/// A generic module: the loaded type is not known here, so every module of the target counts,
/// and the target holds mirrors.
pub fn load_any_module<B: Backend, M: Module<B> + ModuleSnapshot<B>>(mut model: M, path: &Path) -> Result<M> {
    let mut store = PytorchStore::from_file(path); // expect: BL005
    model.load_from(&mut store)?;
    Ok(model)
}

/// A flat module has no index to renumber: harmless today, still implicit.
pub fn load_classifier(device: &Device, path: &Path) -> Result<Classifier> {
    let mut model = Classifier::new(device);
    model.load_from(&mut PytorchStore::from_file(path))?; // expect: BL005
    Ok(model)
}

/// Transformer blocks are a `ModuleList` in PyTorch, numbered without gaps: implicit all the same.
pub fn load_encoder(device: &Device, path: &Path) -> Result<Encoder> {
    let mut model: Encoder = Encoder::new(device);
    let mut store = PytorchStore::from_file(path).with_top_level_key("model"); // expect: BL005
    model.load_from(&mut store)?;
    Ok(model)
}

/// A store-side load of a flat module: implicit all the same.
pub fn load_classifier_store_side(device: &Device, path: &Path) -> Result<Classifier> {
    let mut model = Classifier::new(device);
    let mut store = PytorchStore::from_file(path); // expect: BL005
    store.apply_to(&mut model)?;
    Ok(model)
}
