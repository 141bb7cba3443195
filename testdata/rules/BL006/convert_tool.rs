//! A weights converter that reads both exports of a PyTorch model. `Net` has a `Vec<Linear>`
//! for a Sequential with activations and a module enum. The file's Pytorch loaders all end up
//! with true/true (implicitly or explicitly); a PyTorch-facing Safetensors loader that ends up
//! elsewhere loads the same keys differently (BL006), unless its difference is a certain
//! mis-map of the enum (BL012 then, which BL006 does not repeat).

use std::path::Path;

use anyhow::{bail, Context, Result};
use burn::nn::conv::Conv2d;
use burn::nn::Linear;
use burn::prelude::*;
use burn_store::{
    BurnToPyTorchAdapter, BurnpackStore, ChainAdapter, HalfPrecisionAdapter, ModuleSnapshot, PyTorchToBurnAdapter,
    PytorchStore, SafetensorsStore,
};

/// One of two head kinds: burn's paths name the variant (`head.Linear.weight`).
#[derive(Module, Debug)]
pub enum Head<B: Backend> {
    Linear(Linear<B>),
    Conv(Conv2d<B>),
}

/// `features` stands for `nn.Sequential(Linear, ReLU, Linear, ReLU, Linear)`.
#[derive(Module, Debug)]
pub struct Net<B: Backend> {
    features: Vec<Linear<B>>,
    head: Head<B>,
}

/// The usual shape: nothing explicit on either side.
pub fn load_weights(device: &Device, path: &Path) -> Result<Net> {
    let mut model = Net::new(device);
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or_default();
    let result = match ext {
        "pt" | "pth" => model
            .load_from(&mut PytorchStore::from_file(path))
            .with_context(|| format!("loading {}", path.display()))?,
        "safetensors" => model
            .load_from(&mut SafetensorsStore::from_file(path).with_from_adapter(PyTorchToBurnAdapter)) // expect: BL006, BL012
            .with_context(|| format!("loading {}", path.display()))?,
        other => bail!("unsupported extension {other:?}"),
    };
    println!("loaded {} tensors from {}", result.applied.len(), path.display());
    Ok(model)
}

/// Both sides explicit, `map_indices_contiguous` differs.
pub fn load_explicit(device: &Device, path: &Path, torch: bool) -> Result<Net> {
    let mut model = Net::new(device);
    if torch {
        let mut store = PytorchStore::from_file(path)
            .map_indices_contiguous(true)
            .skip_enum_variants(true);
        model.load_from(&mut store)?;
    } else {
        let mut store = SafetensorsStore::from_file(path) // expect: BL006
            .with_from_adapter(PyTorchToBurnAdapter)
            .map_indices_contiguous(false)
            .skip_enum_variants(true);
        model.load_from(&mut store)?;
    }
    Ok(model)
}

/// `skip_enum_variants` differs (counts: `Net` holds a module enum).
pub fn load_half(device: &Device, path: &Path) -> Result<Net> {
    let mut model = Net::new(device);
    let mut store = SafetensorsStore::from_file(path) // expect: BL012
        .with_from_adapter(ChainAdapter::new(PyTorchToBurnAdapter, HalfPrecisionAdapter::default()))
        .map_indices_contiguous(true)
        .skip_enum_variants(false);
    model.load_from(&mut store)?;
    Ok(model)
}

/// PyTorch-facing through remapped keys; the Pytorch loaders are in other functions.
pub fn load_hf_export(device: &Device, path: &Path) -> Result<Net> {
    let mut model = Net::new(device);
    let mut store = SafetensorsStore::from_file(path) // expect: BL006
        .with_key_remapping(r"^model\.", "")
        .map_indices_contiguous(false)
        .skip_enum_variants(false);
    model.load_from(&mut store)?;
    Ok(model)
}

/// PyTorch-facing because it sits next to a Pytorch loader.
pub fn load_pair(device: &Device, pt: &Path, st: &Path) -> Result<(Net, Net)> {
    let mut a = Net::new(device);
    let mut b = Net::new(device);
    a.load_from(&mut PytorchStore::from_file(pt).map_indices_contiguous(true).skip_enum_variants(true))?;
    b.load_from(&mut SafetensorsStore::from_file(st))?; // expect: BL006
    Ok((a, b))
}

/// Two Safetensors loaders, one finding each.
pub fn load_sharded(device: &Device, body: &Path, head: &Path) -> Result<Net> {
    let mut model = Net::new(device);
    let mut body_store = SafetensorsStore::from_file(body) // expect: BL006, BL012
        .with_from_adapter(PyTorchToBurnAdapter)
        .map_indices_contiguous(false)
        .skip_enum_variants(false);
    model.load_from(&mut body_store)?;
    let mut head_store = SafetensorsStore::from_file(head) // expect: BL006
        .with_from_adapter(PyTorchToBurnAdapter)
        .skip_enum_variants(true)
        .map_indices_contiguous(false);
    model.load_from(&mut head_store)?;
    Ok(model)
}

/// A sharded export, one loader per shard in a loop; the missing list is checked at the end.
pub fn load_shards(device: &Device, shards: &[std::path::PathBuf]) -> Result<Net> {
    let mut model = Net::new(device);
    let mut missing = Vec::new();
    for shard in shards {
        let mut store = SafetensorsStore::from_file(shard) // expect: BL006
            .with_from_adapter(PyTorchToBurnAdapter)
            .map_indices_contiguous(false)
            .skip_enum_variants(true)
            .allow_partial(true);
        let result = model.load_from(&mut store)?;
        missing.extend(result.missing);
    }
    if !missing.is_empty() {
        bail!("{} tensors in no shard", missing.len());
    }
    Ok(model)
}

/// The adapter through a binding, nothing explicit.
pub fn load_bound_adapter(device: &Device, path: &Path) -> Result<Net> {
    let mut model = Net::new(device);
    let adapter = PyTorchToBurnAdapter;
    let mut store = SafetensorsStore::from_file(path).with_from_adapter(adapter); // expect: BL006, BL012
    model.load_from(&mut store)?;
    Ok(model)
}

/// Half explicit: `map_indices_contiguous` agrees, the implicit `skip_enum_variants` does not.
pub fn load_contiguous(device: &Device, path: &Path) -> Result<Net> {
    let mut model = Net::new(device);
    let mut store = SafetensorsStore::from_file(path) // expect: BL012
        .with_from_adapter(PyTorchToBurnAdapter)
        .map_indices_contiguous(true);
    model.load_from(&mut store)?;
    Ok(model)
}

/// Clean: the Safetensors side matches the Pytorch defaults.
pub fn load_matching(device: &Device, path: &Path) -> Result<Net> {
    let mut model = Net::new(device);
    let mut store = SafetensorsStore::from_file(path)
        .with_from_adapter(PyTorchToBurnAdapter)
        .map_indices_contiguous(true)
        .skip_enum_variants(true);
    model.load_from(&mut store)?;
    Ok(model)
}

/// Clean for BL006: a plain Safetensors resume in its own function is not PyTorch-facing.
pub fn resume(device: &Device, checkpoint: &Path) -> Result<Net> {
    let mut model = Net::new(device);
    model.load_from(&mut SafetensorsStore::from_file(checkpoint))?;
    Ok(model)
}

/// Clean: exporting for PyTorch is a save.
pub fn export(model: &Net, path: &Path) -> Result<()> {
    let mut store = SafetensorsStore::from_file(path)
        .overwrite(true)
        .with_to_adapter(BurnToPyTorchAdapter)
        .skip_enum_variants(false);
    model.save_into(&mut store)?;
    Ok(())
}

/// Clean: Burnpack has no such options.
pub fn load_burnpack(device: &Device, path: &Path) -> Result<Net> {
    let mut model = Net::new(device);
    model.load_from(&mut BurnpackStore::from_file(path).with_from_adapter(PyTorchToBurnAdapter))?;
    Ok(model)
}
