//! Closures run once per element, with `format!` paths that do not change.

use std::path::Path;

use anyhow::Result;
use burn_store::{BurnpackStore, ModuleSnapshot, SafetensorsStore};

use crate::data::Batch;
use crate::model::Mlp;
use crate::train::optimizer_step;

pub fn train_for_each(model: &mut Mlp, batches: &[Batch], dir: &str, epochs: usize) {
    (0..epochs).for_each(|_epoch| {
        for _batch in batches {
            optimizer_step(model, 1e-3);
        }
        let mut store = BurnpackStore::from_file(format!("{dir}/last.bpk")); // expect: BL003
        model.save_into(&mut store).expect("checkpoint");
    });
}

pub fn export_members(members: &[Mlp], out: &Path) -> Result<()> {
    members.iter().try_for_each(|member| {
        member.save_into(&mut SafetensorsStore::from_file(format!("{}/member.safetensors", out.display())))?; // expect: BL003
        Ok(())
    })
}
