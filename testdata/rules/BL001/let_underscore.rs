//! Checkpoint writes whose `Result` is bound to `_`.

use std::path::Path;

use anyhow::Result;
use burn_store::{ModuleSnapshot, SafetensorsStore};

use crate::data::Batch;
use crate::model::Mlp;
use crate::train::{evaluate, optimizer_step, train_epoch};

/// Best-effort snapshot written from the Ctrl-C handler.
pub fn save_on_shutdown(model: &Mlp, dir: &Path) {
    let mut store = SafetensorsStore::from_file(dir.join("shutdown.safetensors")).overwrite(true);
    let _ = model.save_into(&mut store); // expect: BL001
}

/// Warm start from a previous run, if there is one.
pub fn warm_start(model: &mut Mlp, path: &Path) {
    let mut store = SafetensorsStore::from_file(path);
    let _ = model.load_from(&mut store); // expect: BL001
}

/// One file per epoch; the write result is thrown away.
pub fn train_with_snapshots(mut model: Mlp, batches: &[Batch], epochs: usize, dir: &Path) -> Mlp {
    for epoch in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
            optimizer_step(&mut model, 1e-3);
        }
        let loss = evaluate(&model, batches);
        println!("epoch {epoch}: val loss {loss:.4}");

        let path = dir.join(format!("epoch-{epoch:03}.safetensors"));
        let mut store = SafetensorsStore::from_file(path).overwrite(true);
        let _ = model // expect: BL001
            .save_into(&mut store);
    }
    model
}

/// Every member of the ensemble gets its own file.
pub fn save_ensemble(members: &[Mlp], dir: &Path) {
    members.iter().enumerate().for_each(|(i, member)| {
        let path = dir.join(format!("member-{i}.safetensors"));
        let _ = member.save_into(&mut SafetensorsStore::from_file(path).overwrite(true)); // expect: BL001
    });
}

/// `let _ = ...?;` propagates the error first: nothing is discarded.
pub fn save_final(model: &Mlp, dir: &Path) -> Result<()> {
    let mut store = SafetensorsStore::from_file(dir.join("final.safetensors")).overwrite(true);
    let _ = model.save_into(&mut store)?;
    println!("final model saved");
    Ok(())
}

/// Same, inside the training loop.
pub fn train_strict(mut model: Mlp, batches: &[Batch], epochs: usize, dir: &Path) -> Result<Mlp> {
    let latest = dir.join("latest.safetensors");
    for epoch in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
            optimizer_step(&mut model, 1e-3);
        }
        let loss = evaluate(&model, batches);
        println!("epoch {epoch}: val loss {loss:.4}");
        let _ = model.save_into(&mut SafetensorsStore::from_file(&latest).overwrite(true))?;
    }
    Ok(model)
}
