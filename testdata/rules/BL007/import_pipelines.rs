//! Multi-shard imports of PyTorch-exported safetensors, followed by fine-tuning.

use std::path::{Path, PathBuf};

use anyhow::{anyhow, Result};
use burn::prelude::*;
use burn_store::{ApplyResult, ModuleSnapshot, PyTorchToBurnAdapter, SafetensorsStore};

use crate::data::Batch;
use crate::model::Mlp;
use crate::train::{evaluate, optimizer_step, train_epoch};

fn torch_shard(path: &Path) -> SafetensorsStore {
    SafetensorsStore::from_file(path)
        .with_from_adapter(PyTorchToBurnAdapter)
        .map_indices_contiguous(true)
        .skip_enum_variants(true)
        .allow_partial(true)
}

/// Counts applied tensors per shard; a tensor in no shard goes unnoticed.
pub fn import_counted(device: &Device, shards: &[PathBuf]) -> Result<Mlp> {
    let mut model = Mlp::new(device);
    let mut total = 0;
    for shard in shards {
        let mut store = torch_shard(shard);
        let r = model.load_from(&mut store)?; // expect: BL007
        total += r.applied.len();
        log::info!("{}: {} tensors", shard.display(), r.applied.len());
    }
    println!("imported {total} tensors from {} shards", shards.len());
    Ok(model)
}

/// Stage-wise import; a broken stage ends the import, an incomplete one does not.
pub fn import_stages(device: &Device, stages: &[PathBuf]) -> Mlp {
    let mut model = Mlp::new(device);
    'stages: for (i, stage) in stages.iter().enumerate() {
        let mut store = torch_shard(stage);
        match model.load_from(&mut store) { // expect: BL007
            Ok(r) => println!("stage {i}: {} tensors", r.applied.len()),
            Err(e) => {
                eprintln!("stage {i}: {e}");
                break 'stages;
            }
        }
    }
    model
}

/// Import then fine-tune; the load error is logged and propagated, the result dropped.
pub fn import_and_finetune(device: &Device, weights: &Path, batches: &[Batch], epochs: usize) -> Result<Mlp> {
    let mut model = Mlp::new(device);
    let mut store = SafetensorsStore::from_file(weights)
        .with_from_adapter(PyTorchToBurnAdapter)
        .map_indices_contiguous(true)
        .skip_enum_variants(true)
        .allow_partial(true);
    model.load_from(&mut store).inspect_err(|e| log::error!("{e}"))?; // expect: BL007
    for epoch in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
            optimizer_step(&mut model, 1e-4);
        }
        println!("epoch {epoch}: val loss {:.4}", evaluate(&model, batches));
    }
    Ok(model)
}

/// Collects what every shard failed to provide and fails on a real gap.
pub fn import_collect_missing(device: &Device, shards: &[PathBuf]) -> Result<Mlp> {
    let mut model = Mlp::new(device);
    let mut missing = Vec::new();
    for shard in shards {
        let mut store = torch_shard(shard);
        let r = model.load_from(&mut store)?;
        missing.extend(r.missing);
    }
    if !missing.is_empty() {
        return Err(anyhow!("{} tensors in no shard", missing.len()));
    }
    Ok(model)
}

/// Stage-wise import that hands every result to the caller.
pub fn import_stages_reported(device: &Device, stages: &[PathBuf]) -> (Mlp, Vec<ApplyResult>) {
    let mut model = Mlp::new(device);
    let mut summaries = Vec::new();
    'stages: for (i, stage) in stages.iter().enumerate() {
        let mut store = torch_shard(stage);
        match model.load_from(&mut store) {
            Ok(r) => summaries.push(r),
            Err(e) => {
                eprintln!("stage {i}: {e}");
                break 'stages;
            }
        }
    }
    (model, summaries)
}

/// Import with the missing list checked, then fine-tune.
pub fn import_checked_and_finetune(device: &Device, weights: &Path, batches: &[Batch], epochs: usize) -> Result<Mlp> {
    let mut model = Mlp::new(device);
    let mut store = SafetensorsStore::from_file(weights)
        .with_from_adapter(PyTorchToBurnAdapter)
        .map_indices_contiguous(true)
        .skip_enum_variants(true)
        .allow_partial(true);
    let r = model.load_from(&mut store)?;
    if !r.missing.is_empty() {
        return Err(anyhow!("checkpoint does not cover the model:\n{r}"));
    }
    for epoch in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
            optimizer_step(&mut model, 1e-4);
        }
        println!("epoch {epoch}: val loss {:.4}", evaluate(&model, batches));
    }
    Ok(model)
}
