//! Closures passed to iterator adapters repeat like loops; other closures do not.

use std::path::{Path, PathBuf};

use burn::prelude::*;
use burn_store::{ModuleSnapshot, SafetensorsStore};

use crate::data::Batch;
use crate::model::Mlp;
use crate::train::{evaluate, optimizer_step, train_epoch};

pub fn save_ensemble(members: &[Mlp], dir: &Path) {
    members.iter().for_each(|member| {
        let path = dir.join(format!("member-{}.safetensors", member.id()));
        if let Err(e) = member.save_into(&mut SafetensorsStore::from_file(path).overwrite(true)) { // expect: BL002
            eprintln!("member {}: {e}", member.id());
        }
    });
}

/// Learning-rate sweep: one short run and one file per candidate.
pub fn lr_sweep(device: &Device, batches: &[Batch], dir: &Path, runs: usize) -> Vec<f32> {
    (0..runs)
        .map(|run| {
            let lr = 1e-4 * 2f32.powi(run as i32);
            let mut model = Mlp::new(device);
            for batch in batches {
                model = train_epoch(model, batch);
                optimizer_step(&mut model, lr);
            }
            let path = dir.join(format!("sweep-{run}.safetensors"));
            let mut store = SafetensorsStore::from_file(path).overwrite(true);
            match model.save_into(&mut store) { // expect: BL002
                Ok(()) => log::info!("run {run}: saved"),
                Err(e) => log::warn!("run {run}: not saved: {e}"),
            }
            evaluate(&model, batches)
        })
        .collect()
}

/// Folds of a cross-validation, consumed by value.
pub fn save_folds(folds: Vec<Mlp>, dir: &Path) {
    folds.into_iter().enumerate().for_each(|(k, fold)| {
        let mut store = SafetensorsStore::from_file(dir.join(format!("fold-{k}.safetensors"))).overwrite(true);
        if let Err(e) = fold.save_into(&mut store) { // expect: BL002
            tracing::warn!(fold = k, "save failed: {e}");
        }
    });
}

/// Shards of the batch list, a checkpoint after each one.
pub fn train_in_chunks(model: &mut Mlp, batches: &[Batch], dir: &Path) {
    let latest = dir.join("latest.safetensors");
    batches.chunks(64).enumerate().for_each(|(i, chunk)| {
        for batch in chunk {
            optimizer_step(model, 1e-3);
            let loss = evaluate(model, std::slice::from_ref(batch));
            println!("chunk {i}: loss {loss:.4}");
        }
        let mut store = SafetensorsStore::from_file(&latest).overwrite(true);
        model.save_into(&mut store).unwrap_or_else(|e| println!("chunk {i}: save failed: {e}")); // expect: BL002
    });
}

/// `Option::map` runs its closure at most once: not a loop.
pub fn save_best_if_any(model: &Mlp, best_dir: Option<PathBuf>) {
    best_dir.map(|dir| {
        let mut store = SafetensorsStore::from_file(dir.join("best.safetensors")).overwrite(true);
        if let Err(e) = model.save_into(&mut store) {
            eprintln!("cannot write best model: {e}");
        }
    });
}

/// A closure handed to a thread runs once.
pub fn save_in_background(model: Mlp, path: PathBuf) -> std::thread::JoinHandle<()> {
    std::thread::spawn(move || {
        let mut store = SafetensorsStore::from_file(&path).overwrite(true);
        if let Err(e) = model.save_into(&mut store) {
            eprintln!("background save of {} failed: {e}", path.display());
        }
    })
}

/// Iterator closure whose Err path stops the process.
pub fn save_ensemble_strict(members: &[Mlp], dir: &Path) {
    members.iter().enumerate().for_each(|(i, member)| {
        let path = dir.join(format!("member-{i}.safetensors"));
        member
            .save_into(&mut SafetensorsStore::from_file(path).overwrite(true))
            .expect("ensemble member must be saved");
    });
}
