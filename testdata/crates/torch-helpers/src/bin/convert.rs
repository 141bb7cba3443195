//! Converts a PyTorch checkpoint to Burnpack: the lib's helper by its renamed lib path.

use std::path::Path;

use anyhow::Result;
use burn::prelude::*;
use burn_store::{BurnpackStore, ModuleSnapshot};
use torch_import::model::MirrorMlp;

type B = burn::backend::NdArray;

fn main() -> Result<()> {
    let device = Default::default();
    let mut model: MirrorMlp<B> = MirrorMlp::new(&device);
    model.load_from(&mut torch_import::stores::torch_store(Path::new("model.pt")))?; // expect: BL012
    model.save_into(&mut BurnpackStore::from_file("model.bpk").overwrite(true))?;
    Ok(())
}
