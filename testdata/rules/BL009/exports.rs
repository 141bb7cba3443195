//! BL009 (opt-in): a module with a `Vec<Linear>` saved for PyTorch into a `SafetensorsStore`
//! with `BurnToPyTorchAdapter` and no key remapping. burn writes `net.0, net.1`; a PyTorch
//! `nn.Sequential` with parameter-free layers between its linears expects `net.0, net.2`.
// burnlint-test: select = BL009

use anyhow::Result;
use burn::nn::{Conv2d, Linear, Relu};
use burn::prelude::*;
use burn_store::{
    BurnToPyTorchAdapter, ChainAdapter, HalfPrecisionAdapter, ModuleSnapshot, SafetensorsStore,
};

#[derive(Module, Debug)]
pub struct Mlp<B: Backend> {
    net: Vec<Linear<B>>,
}

#[derive(Module, Debug)]
pub struct Features<B: Backend> {
    convs: Vec<Conv2d<B>>,
}

#[derive(Module, Debug)]
pub struct Classifier<B: Backend> {
    features: Features<B>,
    head: Linear<B>,
}

/// The seed's case.
pub fn export<B: Backend>(model: &Mlp<B>) -> Result<()> {
    let mut store = SafetensorsStore::from_file("mlp.safetensors") // expect: BL009
        .overwrite(true)
        .with_to_adapter(BurnToPyTorchAdapter);
    model.save_into(&mut store)?;
    Ok(())
}

/// Inline, and the adapter inside a chain.
pub fn export_inline<B: Backend>(model: Mlp<B>) -> Result<()> {
    let adapter = ChainAdapter::new(BurnToPyTorchAdapter, HalfPrecisionAdapter::default());
    model.save_into(
        &mut SafetensorsStore::from_file("mlp16.safetensors").with_to_adapter(adapter), // expect: BL009
    )?;
    Ok(())
}

/// A `Vec<Conv2d>` one module down.
pub fn export_nested<B: Backend>(device: &B::Device) -> Result<()> {
    let model: Classifier<B> = Classifier::new(device);
    let mut store = SafetensorsStore::from_file("cls.safetensors") // expect: BL009
        .with_to_adapter(BurnToPyTorchAdapter);
    model.save_into(&mut store)?;
    Ok(())
}
