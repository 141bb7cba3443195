//! Every PyTorch-facing loader in this file ends up with true/true, however it is spelled:
//! no BL006, although `Net`'s layout makes both options matter. (The Pytorch loader that relies
//! on its defaults, right for `Net`, gets a BL005 note.)

use std::path::Path;

use anyhow::Result;
use burn::nn::conv::Conv2d;
use burn::nn::Linear;
use burn::prelude::*;
use burn_store::SafetensorsStore as St;
use burn_store::{
    BurnpackStore, ChainAdapter, FloatCastAdapter, KeyRemapper, ModuleSnapshot, ModuleStore, PyTorchToBurnAdapter,
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

fn torch_safetensors(path: &Path) -> SafetensorsStore {
    SafetensorsStore::from_file(path)
        .with_from_adapter(PyTorchToBurnAdapter)
        .map_indices_contiguous(true)
        .skip_enum_variants(true)
}

/// Implicit true/true next to explicit true/true, in one `match`.
pub fn load_any(device: &Device, path: &Path) -> Result<Net> {
    let mut model = Net::new(device);
    match path.extension().and_then(|e| e.to_str()) {
        Some("safetensors") => {
            let mut store = SafetensorsStore::from_file(path)
                .with_from_adapter(PyTorchToBurnAdapter)
                .map_indices_contiguous(true)
                .skip_enum_variants(true);
            model.load_from(&mut store)?;
        }
        _ => {
            let mut store = PytorchStore::from_file(path).with_top_level_key("state_dict"); // expect: BL005
            model.load_from(&mut store)?;
        }
    }
    Ok(model)
}

/// The adapter inside a chain, options in the other order.
pub fn load_cast(device: &Device, path: &Path) -> Result<Net> {
    let mut model = Net::new(device);
    let mut store = St::from_file(path)
        .skip_enum_variants(true)
        .with_from_adapter(ChainAdapter::new(PyTorchToBurnAdapter, FloatCastAdapter::default()))
        .map_indices_contiguous(true);
    model.load_from(&mut store)?;
    Ok(model)
}

/// Remapped keys, options set on a re-binding.
pub fn load_remapped(device: &Device, path: &Path) -> Result<Net> {
    let mut model = Net::new(device);
    let remapper = KeyRemapper::new().add_pattern(r"^module\.", "")?;
    let store = SafetensorsStore::from_file(path).remap(remapper);
    let mut store = store.map_indices_contiguous(true).skip_enum_variants(true);
    store.apply_to(&mut model)?;
    Ok(model)
}

/// Through a helper that writes both.
pub fn load_through_helper(device: &Device, path: &Path) -> Result<Net> {
    let mut model = Net::new(device);
    model.load_from(&mut torch_safetensors(path))?;
    Ok(model)
}

/// Next to an explicit Pytorch loader, the Safetensors one explicit too.
pub fn load_pair(device: &Device, pt: &Path, st: &Path) -> Result<Net> {
    let mut model = Net::new(device);
    let mut torch = PytorchStore::from_file(pt)
        .map_indices_contiguous(true)
        .skip_enum_variants(true);
    model.load_from(&mut torch)?;
    let mut overlay = SafetensorsStore::from_file(st)
        .map_indices_contiguous(true)
        .skip_enum_variants(true);
    model.load_from(&mut overlay)?;
    Ok(model)
}

/// Burnpack next to everything else: never compared.
pub fn load_burnpack(device: &Device, path: &Path) -> Result<Net> {
    let mut model = Net::new(device);
    model.load_from(&mut BurnpackStore::from_file(path).with_from_adapter(PyTorchToBurnAdapter))?;
    Ok(model)
}
