//! Multi-line builders: `.overwrite(true)` goes right after the constructor call, on the
//! constructor's line, whatever follows.

use std::path::Path;

use anyhow::Result;
use burn_store::{BurnToPyTorchAdapter, BurnpackStore, ModuleSnapshot, SafetensorsStore};

use crate::data::Batch;
use crate::model::Mlp;
use crate::train::train_epoch;

pub fn train_export(mut model: Mlp, batches: &[Batch], dir: &Path, epochs: usize) -> Result<Mlp> {
    for epoch in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
        }
        let mut store =
            SafetensorsStore::from_file(dir.join("torch_latest.safetensors")) // expect: BL003
                // PyTorch reads these keys
                .with_to_adapter(BurnToPyTorchAdapter)
                .metadata("epoch", epoch.to_string());
        model.save_into(&mut store)?;
    }
    Ok(model)
}

pub fn train_inline_chain(mut model: Mlp, batches: &[Batch], latest: &Path, epochs: usize) -> Result<Mlp> {
    for _ in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
        }
        model
            .save_into(
                &mut BurnpackStore::from_file(latest) // expect: BL003
                    .metadata("stage", "pretrain"),
            )
            .expect("checkpoint");
    }
    Ok(model)
}
