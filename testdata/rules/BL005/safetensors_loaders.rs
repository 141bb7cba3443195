//! `SafetensorsStore` loaders that read PyTorch-named tensors (the adapter, or remapped keys)
//! and leave the key-mapping options at `SafetensorsStore`'s false/false: BL005 notes. For a
//! module enum the default `skip_enum_variants(false)` is a certain mis-map (BL012: the keys
//! must name its variants). For a `Vec<Linear>` it depends on the PyTorch side, which the code
//! does not show (a gapped `nn.Sequential` needs renumbering, an `nn.ModuleList` does not): the
//! note says so. No `PytorchStore` in this file.

use std::path::Path;

use anyhow::{bail, Result};
use burn::nn::conv::Conv2d;
use burn::nn::{Embedding, LayerNorm, Linear, Relu};
use burn::prelude::*;
use burn_store::SafetensorsStore as St;
use burn_store::{
    BurnToPyTorchAdapter, BurnpackStore, ChainAdapter, HalfPrecisionAdapter, KeyRemapper, ModuleSnapshot, ModuleStore,
    PyTorchToBurnAdapter, SafetensorsStore,
};

use crate::data::Batch;
use crate::train::{evaluate, optimizer_step, train_epoch};

/// `nn.Sequential(nn.Linear, nn.ReLU, nn.Linear)` with the ReLU kept apart.
#[derive(Module, Debug)]
pub struct Mlp<B: Backend> {
    net: Vec<Linear<B>>,
    act: Relu,
}

/// A head that is one of two layer kinds: burn's paths name the variant (`head.Conv.weight`).
#[derive(Module, Debug)]
pub enum Head<B: Backend> {
    Linear(Linear<B>),
    Conv(Conv2d<B>),
}

#[derive(Module, Debug)]
pub struct Tagger<B: Backend> {
    embed: Embedding<B>,
    head: Head<B>,
}

/// A Hugging Face style transformer: `layers.N` and the per-stage norms are `ModuleList`s.
#[derive(Module, Debug)]
pub struct DecoderLayer<B: Backend> {
    q_proj: Linear<B>,
    k_proj: Linear<B>,
    v_proj: Linear<B>,
    o_proj: Linear<B>,
    input_layernorm: LayerNorm<B>,
}

#[derive(Module, Debug)]
pub struct Decoder<B: Backend> {
    embed_tokens: Embedding<B>,
    layers: Vec<DecoderLayer<B>>,
    stage_norms: Vec<LayerNorm<B>>,
    norm: LayerNorm<B>,
}

/// The README / MIGRATION loader.
pub fn load_safetensors(device: &Device, path: &Path) -> Mlp {
    let mut model = Mlp::new(device);
    let mut store = SafetensorsStore::from_file(path).with_from_adapter(PyTorchToBurnAdapter); // expect: BL005
    model.load_from(&mut store).expect("Should load PyTorch weights");
    model
}

/// The adapter inside a chain (half precision on top).
pub fn load_half(device: &Device, path: &Path) -> Result<Mlp> {
    let mut model = Mlp::new(device);
    let mut store = SafetensorsStore::from_file(path) // expect: BL005
        .with_from_adapter(ChainAdapter::new(PyTorchToBurnAdapter, HalfPrecisionAdapter::default()));
    model.load_from(&mut store)?;
    Ok(model)
}

/// The adapter through a binding, in a whole import-and-train function.
pub fn import_then_train(device: &Device, path: &Path, batches: &[Batch], epochs: usize) -> Result<Mlp> {
    let mut model = Mlp::new(device);
    let adapter = PyTorchToBurnAdapter;
    let mut store = SafetensorsStore::from_file(path) // expect: BL005
        .with_from_adapter(adapter)
        .validate(true);
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

/// Optional pretrained init from a PyTorch export, then training.
pub fn train_from_pretrained(device: &Device, pretrained: Option<&Path>, batches: &[Batch], epochs: usize) -> Result<Mlp> {
    let mut model = Mlp::new(device);
    if let Some(path) = pretrained {
        let mut store = SafetensorsStore::from_file(path) // expect: BL005
            .with_from_adapter(PyTorchToBurnAdapter)
            .with_regex(r"^(encoder|head)\.");
        let result = model.load_from(&mut store)?;
        log::info!("pretrained: {} tensors applied", result.applied.len());
    }
    for epoch in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
            optimizer_step(&mut model, 1e-3);
        }
        println!("epoch {epoch}: loss {:.4}", evaluate(&model, batches));
    }
    Ok(model)
}

/// Foreign key names through `with_key_remapping`, without the adapter.
pub fn load_remapped(device: &Device, path: &Path) -> Result<Mlp> {
    let mut model = Mlp::new(device);
    let mut store = SafetensorsStore::from_file(path) // expect: BL005
        .with_key_remapping(r"^model\.layers\.(\d+)\.", "net.$1.");
    model.load_from(&mut store)?;
    Ok(model)
}

/// Foreign key names through a `KeyRemapper`.
pub fn load_with_remapper(device: &Device, path: &Path) -> Result<Mlp> {
    let mut model = Mlp::new(device);
    let remapper = KeyRemapper::new()
        .add_pattern(r"^encoder\.", "backbone.")?
        .add_pattern(r"^head\.", "classifier.")?;
    let mut store = SafetensorsStore::from_file(path).remap(remapper); // expect: BL005
    model.load_from(&mut store)?;
    Ok(model)
}

/// The adapter and the index option written; `skip_enum_variants` is left implicit.
pub fn load_contiguous_only(device: &Device, path: &Path) -> Result<Mlp> {
    let mut model = Mlp::new(device);
    let mut store = SafetensorsStore::from_file(path) // expect: BL005
        .with_from_adapter(PyTorchToBurnAdapter)
        .map_indices_contiguous(true);
    model.load_from(&mut store)?;
    Ok(model)
}

/// The adapter and the other option: `map_indices_contiguous`, the one that matters, implicit.
pub fn load_enum_only(device: &Device, path: &Path) -> Result<Mlp> {
    let mut model = Mlp::new(device);
    let mut store = SafetensorsStore::from_file(path) // expect: BL005
        .skip_enum_variants(true)
        .with_from_adapter(PyTorchToBurnAdapter);
    model.load_from(&mut store)?;
    Ok(model)
}

/// Store-side `apply_to`, alias of the type, partial load with the missing list checked.
pub fn load_partial(device: &Device, path: &Path) -> Result<Mlp> {
    let mut model = Mlp::new(device);
    let mut store = St::from_file(path).with_from_adapter(PyTorchToBurnAdapter).allow_partial(true); // expect: BL005
    let result = store.apply_to(&mut model)?;
    if !result.missing.is_empty() {
        bail!("missing tensors: {:?}", result.missing);
    }
    Ok(model)
}

/// Through the `burn` facade.
pub fn load_facade(device: &Device, path: &Path) -> Result<Mlp> {
    let mut model = Mlp::new(device);
    model.load_from(
        &mut burn::store::SafetensorsStore::from_file(path).with_from_adapter(PyTorchToBurnAdapter), // expect: BL005
    )?;
    Ok(model)
}

/// Bytes exported by `safetensors.torch.save`, in memory.
pub fn load_from_bytes(device: &Device, bytes: Vec<u8>) -> Result<Mlp> {
    let mut model = Mlp::new(device);
    let mut store = SafetensorsStore::from_bytes(Some(bytes)).with_from_adapter(PyTorchToBurnAdapter); // expect: BL005
    model.load_from(&mut store)?;
    Ok(model)
}

/// Clean: a plain Burn-written safetensors file.
pub fn resume(device: &Device, path: &Path) -> Result<Mlp> {
    let mut model = Mlp::new(device);
    model.load_from(&mut SafetensorsStore::from_file(path))?;
    Ok(model)
}

/// Clean: an adapter that is not the PyTorch one.
pub fn resume_half(device: &Device, path: &Path) -> Result<Mlp> {
    let mut model = Mlp::new(device);
    let mut store = SafetensorsStore::from_file(path).with_from_adapter(HalfPrecisionAdapter::default());
    model.load_from(&mut store)?;
    Ok(model)
}

/// Clean: the adapter with both options.
pub fn load_explicit(device: &Device, path: &Path) -> Result<Mlp> {
    let mut model = Mlp::new(device);
    let mut store = SafetensorsStore::from_file(path)
        .with_from_adapter(PyTorchToBurnAdapter)
        .map_indices_contiguous(true)
        .skip_enum_variants(false);
    model.load_from(&mut store)?;
    Ok(model)
}

/// Clean: remapped keys with both options, one set on a re-binding.
pub fn load_remapped_explicit(device: &Device, path: &Path) -> Result<Mlp> {
    let mut model = Mlp::new(device);
    let store = SafetensorsStore::from_file(path)
        .with_key_remapping(r"^model\.", "")
        .map_indices_contiguous(true);
    let mut store = store.skip_enum_variants(false);
    model.load_from(&mut store)?;
    Ok(model)
}

/// Clean: saving for PyTorch is not loading (the book's export).
pub fn export_for_torch(model: &Mlp, path: &Path) -> Result<()> {
    let mut store = SafetensorsStore::from_file(path)
        .overwrite(true)
        .with_to_adapter(BurnToPyTorchAdapter)
        .with_key_remapping(r"^net\.1\.", "net.2.");
    model.save_into(&mut store)?;
    Ok(())
}

/// Clean: Burnpack has no key-mapping options.
pub fn load_burnpack(device: &Device, path: &Path) -> Result<Mlp> {
    let mut model = Mlp::new(device);
    let mut store = BurnpackStore::from_file(path).with_from_adapter(PyTorchToBurnAdapter);
    model.load_from(&mut store)?;
    Ok(model)
}

/// Clean: only the key names are read.
pub fn list_keys(path: &Path) -> Result<Vec<String>> {
    let mut store = SafetensorsStore::from_file(path);
    Ok(store.keys()?)
}

/// A module enum: `skip_enum_variants` is implicit, `map_indices_contiguous` does not matter.
pub fn load_tagger(device: &Device, path: &Path) -> Result<Tagger> {
    let mut model = Tagger::new(device);
    let mut store = SafetensorsStore::from_file(path) // expect: BL012
        .with_from_adapter(PyTorchToBurnAdapter)
        .map_indices_contiguous(false);
    model.load_from(&mut store)?;
    Ok(model)
}

/// The enum's variant names skipped; the index option is left implicit.
pub fn load_tagger_skipping(device: &Device, path: &Path) -> Result<Tagger> {
    let mut model: Tagger = Tagger::new(device);
    let mut store = SafetensorsStore::from_file(path) // expect: BL005
        .with_from_adapter(PyTorchToBurnAdapter)
        .skip_enum_variants(true);
    model.load_from(&mut store)?;
    Ok(model)
}

/// A Hugging Face checkpoint; its `layers.N` and norms are numbered without gaps: implicit.
pub fn load_decoder(device: &Device, path: &Path) -> Result<Decoder> {
    let mut model = Decoder::new(device);
    let mut store = SafetensorsStore::from_file(path) // expect: BL005
        .with_from_adapter(PyTorchToBurnAdapter)
        .with_key_remapping(r"^model\.", "");
    model.load_from(&mut store)?;
    Ok(model)
}

/// The same checkpoint into a typed parameter: implicit.
pub fn reload_decoder(model: &mut Decoder, path: &Path) -> Result<()> {
    let mut store = SafetensorsStore::from_file(path).with_from_adapter(PyTorchToBurnAdapter); // expect: BL005
    model.load_from(&mut store)?;
    Ok(())
}
