//! The "latest checkpoint" epoch loop: a failed save is only logged and training goes on.

use std::path::Path;

use burn::prelude::*;
use burn_store::{BurnpackStore, ModuleSnapshot, SafetensorsStore};

use crate::data::Batch;
use crate::model::{with_bias, Mlp};
use crate::train::{evaluate, optimizer_step, train_epoch};

/// The loop from the write-up (with an explicit overwrite).
pub fn train_latest(device: &Device, file: &Path, epochs: usize) -> Mlp {
    let mut model = Mlp::new(device);
    for epoch in 0..epochs {
        model = with_bias(model, epoch as f32, device);
        let res = model.save_into(&mut SafetensorsStore::from_file(file).overwrite(true)); // expect: BL002
        match res {
            Ok(()) => println!("epoch {epoch}: saved"),
            Err(e) => eprintln!("epoch {epoch}: save failed: {e}"),
        }
    }
    model
}

/// Same idea with `if let Err` and the `log` crate.
pub fn train_latest_bpk(mut model: Mlp, batches: &[Batch], epochs: usize, dir: &Path) -> Mlp {
    let latest = dir.join("latest");
    for epoch in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
            optimizer_step(&mut model, 1e-3);
        }
        let loss = evaluate(&model, batches);
        log::info!("epoch {epoch}: val loss {loss:.4}");
        let mut store = BurnpackStore::from_file(&latest).overwrite(true);
        if let Err(e) = model.save_into(&mut store) { // expect: BL002
            log::warn!("epoch {epoch}: could not write {}: {e}", latest.display());
        }
    }
    model
}

/// `while` loop, `tracing` macro in the Err arm, empty Ok arm.
pub fn train_until(mut model: Mlp, batches: &[Batch], max_epochs: usize, dir: &Path) -> Mlp {
    let mut epoch = 0;
    let mut loss = f32::INFINITY;
    while epoch < max_epochs && loss > 0.05 {
        for batch in batches {
            model = train_epoch(model, batch);
            optimizer_step(&mut model, 1e-3);
        }
        loss = evaluate(&model, batches);
        let mut store = SafetensorsStore::from_file(dir.join("latest.safetensors")).overwrite(true);
        match model.save_into(&mut store) { // expect: BL002
            Ok(()) => {}
            Err(e) => tracing::error!(epoch, "checkpoint failed: {e}"),
        }
        epoch += 1;
    }
    model
}

/// The same `match` after training, outside any loop: a single save that fails is visible.
pub fn save_final(model: &Mlp, file: &Path) {
    let res = model.save_into(&mut SafetensorsStore::from_file(file).overwrite(true));
    match res {
        Ok(()) => println!("final model saved"),
        Err(e) => eprintln!("final save failed: {e}"),
    }
}

pub fn save_final_bpk(model: &Mlp, file: &Path) {
    if let Err(e) = model.save_into(&mut BurnpackStore::from_file(file).overwrite(true)) {
        log::error!("final save failed: {e}");
    } else {
        log::info!("final model saved to {}", file.display());
    }
}

/// The loop counts failed saves and reports them at the end.
pub fn train_latest_counted(device: &Device, file: &Path, epochs: usize) -> Mlp {
    let mut model = Mlp::new(device);
    let mut failures = 0;
    for epoch in 0..epochs {
        model = with_bias(model, epoch as f32, device);
        let res = model.save_into(&mut SafetensorsStore::from_file(file).overwrite(true));
        match res {
            Ok(()) => println!("epoch {epoch}: saved"),
            Err(e) => {
                eprintln!("epoch {epoch}: save failed: {e}");
                failures += 1;
            }
        }
    }
    if failures > 0 {
        eprintln!("{failures} of {epochs} checkpoints failed; {} is stale", file.display());
    }
    model
}
