//! Stores built before the loop, under an alias and a full path.

use std::path::Path;

use anyhow::Result;
use burn_store::BurnpackStore as Bp;
use burn_store::{ModuleSnapshot, ModuleStore};

use crate::data::Batch;
use crate::model::Mlp;
use crate::train::train_epoch;

pub fn train_one_store(mut model: Mlp, batches: &[Batch], dir: &Path, epochs: usize) -> Result<Mlp> {
    let mut store = Bp::from_file(dir.join("latest.bpk")); // expect: BL003
    for _ in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
        }
        model.save_into(&mut store)?;
    }
    Ok(model)
}

pub fn train_collect(mut model: Mlp, batches: &[Batch], latest: &Path, epochs: usize) -> Result<Mlp> {
    let mut store = burn_store::SafetensorsStore::from_file(latest).metadata("run", "main"); // expect: BL003
    let mut epoch = 0;
    while epoch < epochs {
        for batch in batches {
            model = train_epoch(model, batch);
        }
        store.collect_from(&model)?;
        epoch += 1;
    }
    Ok(model)
}
