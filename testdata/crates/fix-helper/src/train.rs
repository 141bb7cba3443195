//! Two training loops of the lib.

use std::path::Path;

use anyhow::Result;
use burn_store::ModuleSnapshot;

use crate::checkpoint::{save, save_in, store_for};
use crate::model::Mlp;

pub fn train(model: &Mlp, latest: &Path, epochs: usize) -> Result<()> {
    for _ in 0..epochs {
        save(model, latest)?; // expect: BL003
    }
    Ok(())
}

pub fn finetune(model: &Mlp, dir: &Path, epochs: usize) -> Result<()> {
    for _ in 0..epochs {
        save(model, &dir.join("finetuned.safetensors"))?; // expect: BL003
        save_in(model, dir)?; // expect: BL003
        model.save_into(&mut store_for(&dir.join("finetuned.bpk")))?; // expect: BL003
    }
    Ok(())
}
