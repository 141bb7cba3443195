//! Loads of the helpers' `PytorchStore`s into the mirror: the helper leaves the options
//! implicit (BL005, there), and each load here mis-maps the mirror (BL012, once per helper and
//! file, the other loads of the same store related).

use std::path::Path;

use anyhow::Result;
use burn::prelude::*;
use burn_store::{ModuleSnapshot, ModuleStore};

use crate::model::MirrorMlp;
use crate::stores::{
    torch_checkpoint_store, torch_store, torch_store_checked, torch_store_in, torch_store_mapped,
};

pub fn from_torch<B: Backend>(device: &B::Device, path: &Path) -> Result<MirrorMlp<B>> {
    let mut model = MirrorMlp::new(device);
    model.load_from(&mut torch_store(path))?; // expect: BL012
    Ok(model)
}

pub fn from_torch_bound<B: Backend>(device: &B::Device, path: &Path) -> Result<MirrorMlp<B>> {
    let mut model = MirrorMlp::new(device);
    let mut store = torch_store(path);
    store.apply_to(&mut model)?;
    Ok(model)
}

pub fn from_torch_checkpoint<B: Backend>(device: &B::Device, path: &Path) -> Result<MirrorMlp<B>> {
    let mut model = MirrorMlp::new(device);
    let mut store = crate::stores::torch_checkpoint_store(path);
    model.load_from(&mut store)?; // expect: BL012
    let mut again = torch_checkpoint_store(path);
    model.load_from(&mut again)?;
    Ok(model)
}

pub fn from_torch_checked<B: Backend>(device: &B::Device, path: &Path) -> Result<MirrorMlp<B>> {
    let mut model = MirrorMlp::new(device);
    let mut store = torch_store_checked(path)?;
    model.load_from(&mut store)?; // expect: BL012
    model.load_from(&mut torch_store_checked(path).expect("weights"))?;
    Ok(model)
}

pub fn from_torch_dir<B: Backend>(device: &B::Device, dir: &Path) -> Result<MirrorMlp<B>> {
    let mut model = MirrorMlp::new(device);
    model.load_from(&mut torch_store_in(dir))?;
    Ok(model)
}

pub fn from_torch_mapped<B: Backend>(device: &B::Device, path: &Path) -> Result<MirrorMlp<B>> {
    let mut model = MirrorMlp::new(device);
    model.load_from(&mut torch_store_mapped(path))?;
    Ok(model)
}
