//! Logging through `is_err()`, `unwrap_or_else`, `inspect_err` and `map_err` chains.

use std::path::Path;

use anyhow::{Context, Result};
use burn_store::{ModuleSnapshot, SafetensorsStore};

use crate::data::Batch;
use crate::model::Mlp;
use crate::train::{evaluate, optimizer_step, train_epoch};

pub fn train_is_err(mut model: Mlp, batches: &[Batch], epochs: usize, dir: &Path) -> Mlp {
    let latest = dir.join("latest.safetensors");
    for epoch in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
            optimizer_step(&mut model, 1e-3);
        }
        let loss = evaluate(&model, batches);
        println!("epoch {epoch}: val loss {loss:.4}");
        if model.save_into(&mut SafetensorsStore::from_file(&latest).overwrite(true)).is_err() { // expect: BL002
            eprintln!("epoch {epoch}: checkpoint not written");
        }
    }
    model
}

pub fn train_unwrap_or_else(mut model: Mlp, batches: &[Batch], epochs: usize, dir: &Path) -> Mlp {
    let latest = dir.join("latest.safetensors");
    let mut epoch = 0;
    while epoch < epochs {
        for batch in batches {
            model = train_epoch(model, batch);
            optimizer_step(&mut model, 1e-3);
        }
        let mut store = SafetensorsStore::from_file(&latest).overwrite(true);
        model // expect: BL002
            .save_into(&mut store)
            .unwrap_or_else(|e| eprintln!("epoch {epoch}: save failed: {e}"));
        epoch += 1;
    }
    model
}

pub fn train_inspect_err(mut model: Mlp, batches: &[Batch], epochs: usize, dir: &Path) -> Mlp {
    for epoch in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
            optimizer_step(&mut model, 1e-3);
        }
        let mut store = SafetensorsStore::from_file(dir.join("latest.safetensors")).overwrite(true);
        // expect-next: BL002
        model
            .save_into(&mut store)
            .inspect_err(|e| eprintln!("epoch {epoch}: save failed: {e}"))
            .ok();
    }
    model
}

/// `map_err` keeps the Result; its end is the `if let Err` that only prints.
pub fn save_each_map_err(models: &[(String, Mlp)], dir: &Path) {
    for (name, model) in models {
        let mut store = SafetensorsStore::from_file(dir.join(format!("{name}.safetensors"))).overwrite(true);
        if let Err(msg) = model.save_into(&mut store).map_err(|e| format!("{name}: {e}")) { // expect: BL002
            eprint!("{msg}\n");
        }
    }
}

/// Outside a loop, a logged failure is seen once; not reported.
pub fn save_once_is_err(model: &Mlp, path: &Path) {
    if model.save_into(&mut SafetensorsStore::from_file(path).overwrite(true)).is_err() {
        eprintln!("could not write {}", path.display());
    }
}

pub fn save_once_inspect(model: &Mlp, path: &Path) {
    let mut store = SafetensorsStore::from_file(path).overwrite(true);
    model
        .save_into(&mut store)
        .inspect_err(|e| eprintln!("could not write {}: {e}", path.display()))
        .ok();
}

pub fn train_inspect_then_propagate(mut model: Mlp, batches: &[Batch], epochs: usize, dir: &Path) -> Result<Mlp> {
    let latest = dir.join("latest.safetensors");
    for epoch in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
            optimizer_step(&mut model, 1e-3);
        }
        model
            .save_into(&mut SafetensorsStore::from_file(&latest).overwrite(true))
            .inspect_err(|e| eprintln!("epoch {epoch}: save failed: {e}"))
            .context("checkpoint")?;
    }
    Ok(model)
}

pub fn train_or_exit(mut model: Mlp, batches: &[Batch], epochs: usize, dir: &Path) -> Mlp {
    let latest = dir.join("latest.safetensors");
    for epoch in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
            optimizer_step(&mut model, 1e-3);
        }
        let mut store = SafetensorsStore::from_file(&latest).overwrite(true);
        model.save_into(&mut store).unwrap_or_else(|e| {
            eprintln!("epoch {epoch}: save failed: {e}");
            std::process::exit(1)
        });
    }
    model
}
