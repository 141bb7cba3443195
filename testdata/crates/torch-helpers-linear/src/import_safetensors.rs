//! Loads of the `SafetensorsStore` helpers: the defect is reported in the helper.

use std::path::Path;

use anyhow::Result;
use burn::prelude::*;
use burn_store::ModuleSnapshot;

use crate::model::Mlp;
use crate::stores_safetensors as st;

pub fn from_safetensors<B: Backend>(device: &B::Device, path: &Path) -> Result<Mlp<B>> {
    let mut model = Mlp::new(device);
    model.load_from(&mut st::safetensors_torch_store(path))?;
    model.load_from(&mut st::safetensors_torch_store_renumbered(path))?;
    Ok(model)
}
