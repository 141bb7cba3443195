//! Results that leave the function: `?`, returned, or handed to someone else.

use std::path::Path;

use anyhow::{anyhow, Context, Result};
use burn_store::{ModuleSnapshot, SafetensorsStore, SafetensorsStoreError};

use crate::data::Batch;
use crate::model::Mlp;
use crate::report::record_outcome;
use crate::train::{evaluate, optimizer_step, train_epoch};

pub fn save_question_mark(model: &Mlp, path: &Path) -> Result<(), SafetensorsStoreError> {
    model.save_into(&mut SafetensorsStore::from_file(path).overwrite(true))?;
    Ok(())
}

pub fn save_tail(model: &Mlp, path: &Path) -> Result<(), SafetensorsStoreError> {
    let mut store = SafetensorsStore::from_file(path).overwrite(true);
    model.save_into(&mut store)
}

pub fn save_unless_dry_run(model: &Mlp, path: &Path, dry_run: bool) -> Result<(), SafetensorsStoreError> {
    if !dry_run {
        return model.save_into(&mut SafetensorsStore::from_file(path).overwrite(true));
    }
    println!("dry run: not writing {}", path.display());
    Ok(())
}

pub fn save_with_context(model: &Mlp, path: &Path) -> Result<()> {
    let mut store = SafetensorsStore::from_file(path).overwrite(true);
    model.save_into(&mut store).context("save")?;
    Ok(())
}

pub fn load_mapped(model: &mut Mlp, path: &Path) -> Result<()> {
    let mut store = SafetensorsStore::from_file(path);
    let applied = model
        .load_from(&mut store)
        .map_err(|e| anyhow!("cannot load {}: {e}", path.display()))?;
    println!("{applied}");
    Ok(())
}

/// Each save's outcome is collected and reported by the caller.
pub fn save_all(models: &[(String, Mlp)], dir: &Path) -> Vec<Result<(), SafetensorsStoreError>> {
    let mut results = Vec::new();
    for (name, model) in models {
        let mut store = SafetensorsStore::from_file(dir.join(format!("{name}.safetensors"))).overwrite(true);
        let r = model.save_into(&mut store);
        results.push(r);
    }
    results
}

pub fn save_and_record(model: &Mlp, path: &Path) {
    let mut store = SafetensorsStore::from_file(path).overwrite(true);
    let outcome = model.save_into(&mut store);
    record_outcome(path, outcome);
}

/// Epoch loop that aborts on the first failed checkpoint.
pub fn train(mut model: Mlp, batches: &[Batch], epochs: usize, dir: &Path) -> Result<Mlp> {
    let latest = dir.join("latest.safetensors");
    for epoch in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
            optimizer_step(&mut model, 1e-3);
        }
        let loss = evaluate(&model, batches);
        println!("epoch {epoch}: val loss {loss:.4}");
        model
            .save_into(&mut SafetensorsStore::from_file(&latest).overwrite(true))
            .with_context(|| format!("epoch {epoch}: cannot write {}", latest.display()))?;
    }
    Ok(model)
}
