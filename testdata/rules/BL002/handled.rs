//! Epoch loops whose failed saves are handled, recorded or fatal: not "only logged".

use std::path::{Path, PathBuf};

use anyhow::Result;
use burn_store::{ModuleSnapshot, SafetensorsStore, SafetensorsStoreError};

use crate::alerts::page_oncall;
use crate::data::Batch;
use crate::model::Mlp;
use crate::train::{evaluate, optimizer_step, train_epoch};

pub fn train_collect_errors(mut model: Mlp, batches: &[Batch], epochs: usize, dir: &Path) -> (Mlp, Vec<SafetensorsStoreError>) {
    let mut errors = Vec::new();
    for epoch in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
            optimizer_step(&mut model, 1e-3);
        }
        let mut store = SafetensorsStore::from_file(dir.join("latest.safetensors")).overwrite(true);
        if let Err(e) = model.save_into(&mut store) {
            eprintln!("epoch {epoch}: save failed: {e}");
            errors.push(e);
        }
    }
    (model, errors)
}

pub fn train_flag_failure(mut model: Mlp, batches: &[Batch], epochs: usize, dir: &Path) -> Result<Mlp> {
    let latest = dir.join("latest.safetensors");
    let mut stale = false;
    for epoch in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
            optimizer_step(&mut model, 1e-3);
        }
        match model.save_into(&mut SafetensorsStore::from_file(&latest).overwrite(true)) {
            Ok(()) => println!("epoch {epoch}: saved"),
            Err(e) => {
                eprintln!("epoch {epoch}: {e}");
                stale = true;
            }
        }
    }
    if stale {
        anyhow::bail!("{} may be stale", latest.display());
    }
    Ok(model)
}

pub fn train_with_alerts(mut model: Mlp, batches: &[Batch], epochs: usize, dir: &Path) -> Mlp {
    let latest = dir.join("latest.safetensors");
    for epoch in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
            optimizer_step(&mut model, 1e-3);
        }
        let mut store = SafetensorsStore::from_file(&latest).overwrite(true);
        if let Err(e) = model.save_into(&mut store) {
            page_oncall(&format!("epoch {epoch}: checkpoint failed: {e}"));
        }
    }
    model
}

pub fn train_return_err(mut model: Mlp, batches: &[Batch], epochs: usize, dir: &Path) -> Result<Mlp> {
    let latest = dir.join("latest.safetensors");
    for epoch in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
            optimizer_step(&mut model, 1e-3);
        }
        let loss = evaluate(&model, batches);
        println!("epoch {epoch}: val loss {loss:.4}");
        if let Err(e) = model.save_into(&mut SafetensorsStore::from_file(&latest).overwrite(true)) {
            eprintln!("epoch {epoch}: save failed");
            return Err(e.into());
        }
    }
    Ok(model)
}

pub fn train_panic(mut model: Mlp, batches: &[Batch], epochs: usize, dir: &Path) -> Mlp {
    for epoch in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
            optimizer_step(&mut model, 1e-3);
        }
        let path: PathBuf = dir.join("latest.safetensors");
        let res = model.save_into(&mut SafetensorsStore::from_file(&path).overwrite(true));
        match res {
            Ok(()) => println!("epoch {epoch}: saved"),
            Err(e) => panic!("epoch {epoch}: cannot write {}: {e}", path.display()),
        }
    }
    model
}

pub fn train_exit(mut model: Mlp, batches: &[Batch], epochs: usize, dir: &Path) -> Mlp {
    for epoch in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
            optimizer_step(&mut model, 1e-3);
        }
        let mut store = SafetensorsStore::from_file(dir.join("latest.safetensors")).overwrite(true);
        match model.save_into(&mut store) {
            Ok(()) => {}
            Err(e) => {
                eprintln!("epoch {epoch}: {e}");
                std::process::exit(1);
            }
        }
    }
    model
}
