//! Loads of the `PytorchStore` helpers: nothing to report.

use std::path::Path;

use anyhow::Result;
use burn::prelude::*;
use burn_store::ModuleSnapshot;

use crate::model::Mlp;
use crate::stores;

pub fn from_torch<B: Backend>(device: &B::Device, path: &Path) -> Result<Mlp<B>> {
    let mut model = Mlp::new(device);
    model.load_from(&mut stores::torch_store(path))?;
    model.load_from(&mut stores::torch_store_checked(path)?)?;
    Ok(model)
}
