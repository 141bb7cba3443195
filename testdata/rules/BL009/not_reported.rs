//! No BL009: the keys are remapped, the store is no PyTorch export (no `BurnToPyTorchAdapter`
//! on save, or a `BurnpackStore`), the module has no `Vec<Linear>` (a flat struct, a mirror
//! `Vec` of a module enum, a `Vec` of its own blocks), or its type is not known.
// burnlint-test: select = BL009

use anyhow::Result;
use burn::nn::{Linear, Relu};
use burn::prelude::*;
use burn_store::{
    BurnToPyTorchAdapter, BurnpackStore, KeyRemapper, ModuleSnapshot, PyTorchToBurnAdapter,
    SafetensorsStore,
};

#[derive(Module, Debug)]
pub struct Mlp<B: Backend> {
    net: Vec<Linear<B>>,
}

#[derive(Module, Debug)]
pub enum Layer<B: Backend> {
    Linear(Linear<B>),
    Relu(Relu),
}

#[derive(Module, Debug)]
pub struct Mirror<B: Backend> {
    net: Vec<Layer<B>>,
}

#[derive(Module, Debug)]
pub struct Block<B: Backend> {
    fc: Linear<B>,
}

#[derive(Module, Debug)]
pub struct Stack<B: Backend> {
    blocks: Vec<Block<B>>,
}

#[derive(Module, Debug)]
pub struct Flat<B: Backend> {
    fc1: Linear<B>,
    fc2: Linear<B>,
}

pub fn remapped<B: Backend>(model: &Mlp<B>) -> Result<()> {
    let mut store = SafetensorsStore::from_file("mlp.safetensors")
        .with_to_adapter(BurnToPyTorchAdapter)
        .with_key_remapping(r"^net\.1\.", "net.2.");
    model.save_into(&mut store)?;
    let mut remapper = SafetensorsStore::from_file("mlp2.safetensors")
        .with_to_adapter(BurnToPyTorchAdapter)
        .remap(KeyRemapper::new());
    model.save_into(&mut remapper)?;
    Ok(())
}

pub fn not_for_pytorch<B: Backend>(model: &Mlp<B>) -> Result<()> {
    let mut plain = SafetensorsStore::from_file("plain.safetensors");
    model.save_into(&mut plain)?;
    let mut loading = SafetensorsStore::from_file("in.safetensors")
        .with_from_adapter(PyTorchToBurnAdapter)
        .with_to_adapter(PyTorchToBurnAdapter);
    model.save_into(&mut loading)?;
    let mut burnpack = BurnpackStore::from_file("mlp").with_to_adapter(BurnToPyTorchAdapter);
    model.save_into(&mut burnpack)?;
    Ok(())
}

pub fn other_layouts<B: Backend>(mirror: &Mirror<B>, stack: &Stack<B>, flat: &Flat<B>) -> Result<()> {
    let mut a = SafetensorsStore::from_file("a.safetensors").with_to_adapter(BurnToPyTorchAdapter);
    mirror.save_into(&mut a)?;
    let mut b = SafetensorsStore::from_file("b.safetensors").with_to_adapter(BurnToPyTorchAdapter);
    stack.save_into(&mut b)?;
    let mut c = SafetensorsStore::from_file("c.safetensors").with_to_adapter(BurnToPyTorchAdapter);
    flat.save_into(&mut c)?;
    Ok(())
}

pub fn unknown_type<M: ModuleSnapshot>(model: &M) -> Result<()> {
    let mut store = SafetensorsStore::from_file("m.safetensors").with_to_adapter(BurnToPyTorchAdapter);
    model.save_into(&mut store)?;
    Ok(())
}
