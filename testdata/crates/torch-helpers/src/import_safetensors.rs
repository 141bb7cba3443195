//! Loads of the helpers' `SafetensorsStore`s, in a file of their own (BL006 compares the
//! loaders of one file).

use std::path::Path;

use anyhow::Result;
use burn::prelude::*;
use burn_store::ModuleSnapshot;

use crate::model::MirrorMlp;
use crate::stores::resume_store;
use crate::stores_safetensors::{safetensors_torch_store, safetensors_torch_store_skipping};

pub fn from_safetensors<B: Backend>(device: &B::Device, path: &Path) -> Result<MirrorMlp<B>> {
    let mut model = MirrorMlp::new(device);
    model.load_from(&mut safetensors_torch_store(path))?; // expect: BL012
    Ok(model)
}

pub fn from_safetensors_skipping<B: Backend>(device: &B::Device, path: &Path) -> Result<MirrorMlp<B>> {
    let mut model = MirrorMlp::new(device);
    model.load_from(&mut safetensors_torch_store_skipping(path))?;
    Ok(model)
}

pub fn resume<B: Backend>(device: &B::Device, path: &Path) -> Result<MirrorMlp<B>> {
    let mut model = MirrorMlp::new(device);
    model.load_from(&mut resume_store(path))?;
    Ok(model)
}
