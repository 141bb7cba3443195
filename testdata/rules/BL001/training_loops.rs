//! Whole training / import functions: discarded results in loops, and their correct twins.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use burn_store::{BurnpackStore, ModuleSnapshot, ModuleStore};

use crate::data::{Batch, Loader};
use crate::model::Mlp;
use crate::train::{evaluate, optimizer_step, train_epoch, train_step};

/// Labelled epoch loop; the periodic checkpoint is bound to an unused `_r`.
pub fn train_labelled(mut model: Mlp, batches: &[Batch], dir: &Path, target: f32) -> Mlp {
    let mut epoch = 0usize;
    'epochs: loop {
        for batch in batches {
            model = train_epoch(model, batch);
            optimizer_step(&mut model, 1e-3);
        }
        let loss = evaluate(&model, batches);
        let path = dir.join(format!("epoch-{epoch}"));
        let _r = model.save_into(&mut BurnpackStore::from_file(&path).overwrite(true)); // expect: BL001
        if loss < target {
            break 'epochs;
        }
        epoch += 1;
    }
    model
}

/// Step-based checkpoints through the store-side API.
pub fn train_steps(mut model: Mlp, mut loader: Loader, dir: &Path, every: usize) -> Mlp {
    let mut step = 0usize;
    while let Some(batch) = loader.next() {
        model = train_step(model, &batch);
        optimizer_step(&mut model, 1e-3);
        step += 1;
        if step % every == 0 {
            let mut store = BurnpackStore::from_file(dir.join(format!("step-{step}"))).overwrite(true);
            store.collect_from(&model).ok(); // expect: BL001
        }
    }
    model
}

/// Stitches a model together from several shards; a shard that fails is skipped silently.
pub fn import_shards(mut model: Mlp, shards: &[PathBuf]) -> Mlp {
    for shard in shards {
        let mut store = BurnpackStore::from_file(shard).allow_partial(false);
        let _ = model.load_from(&mut store); // expect: BL001
        println!("shard {} done", shard.display());
    }
    let loss = evaluate(&model, &[]);
    println!("imported model, sanity loss {loss:.4}");
    model
}

/// Iterator-driven epochs with a defaulted result.
pub fn train_for_each(model: &mut Mlp, batches: &[Batch], epochs: usize, dir: &Path) {
    (0..epochs).for_each(|epoch| {
        for batch in batches {
            optimizer_step(model, 1e-3);
            let loss = evaluate(model, std::slice::from_ref(batch));
            println!("epoch {epoch}: batch loss {loss:.4}");
        }
        let path = dir.join(format!("epoch-{epoch}"));
        let mut store = BurnpackStore::from_file(&path).overwrite(true);
        model.save_into(&mut store).unwrap_or_default(); // expect: BL001
    });
}

/// Labelled loop that stops training when a checkpoint cannot be written.
pub fn train_labelled_stop(mut model: Mlp, batches: &[Batch], dir: &Path, target: f32) -> Mlp {
    let latest = dir.join("latest");
    'epochs: loop {
        for batch in batches {
            model = train_epoch(model, batch);
            optimizer_step(&mut model, 1e-3);
        }
        let loss = evaluate(&model, batches);
        if let Err(e) = model.save_into(&mut BurnpackStore::from_file(&latest).overwrite(true)) {
            eprintln!("cannot write {}: {e}", latest.display());
            break 'epochs;
        }
        if loss < target {
            break;
        }
    }
    model
}

/// Step-based checkpoints that propagate failures.
pub fn train_steps_strict(mut model: Mlp, mut loader: Loader, dir: &Path, every: usize) -> Result<Mlp> {
    let mut step = 0usize;
    while let Some(batch) = loader.next() {
        model = train_step(model, &batch);
        optimizer_step(&mut model, 1e-3);
        step += 1;
        if step % every == 0 {
            let mut store = BurnpackStore::from_file(dir.join(format!("step-{step}"))).overwrite(true);
            store
                .collect_from(&model)
                .with_context(|| format!("checkpoint at step {step}"))?;
        }
    }
    Ok(model)
}

/// Every shard must load.
pub fn import_shards_strict(mut model: Mlp, shards: &[PathBuf]) -> Mlp {
    for shard in shards {
        let mut store = BurnpackStore::from_file(shard).allow_partial(false);
        let result = model
            .load_from(&mut store)
            .unwrap_or_else(|e| panic!("shard {}: {e}", shard.display()));
        println!("shard {}: {} tensors", shard.display(), result.applied.len());
    }
    let loss = evaluate(&model, &[]);
    println!("imported model, sanity loss {loss:.4}");
    model
}

/// Iterator-driven epochs that panic on a failed write.
pub fn train_for_each_strict(model: &mut Mlp, batches: &[Batch], epochs: usize, dir: &Path) {
    (0..epochs).for_each(|epoch| {
        for batch in batches {
            optimizer_step(model, 1e-3);
            let loss = evaluate(model, std::slice::from_ref(batch));
            println!("epoch {epoch}: batch loss {loss:.4}");
        }
        let path = dir.join(format!("epoch-{epoch}"));
        let mut store = BurnpackStore::from_file(&path).overwrite(true);
        model.save_into(&mut store).expect("checkpoint write");
    });
}
