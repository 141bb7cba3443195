//! Loads whose Err path is only logged: the model may be half-loaded. Reported anywhere.

use std::path::{Path, PathBuf};

use burn::prelude::*;
use burn_store::{BurnpackStore, ModuleSnapshot, ModuleStore, SafetensorsStore};

use crate::data::Batch;
use crate::model::Mlp;
use crate::train::{evaluate, optimizer_step, train_epoch};

pub fn load_match(model: &mut Mlp, path: &Path) {
    let mut store = SafetensorsStore::from_file(path);
    match model.load_from(&mut store) { // expect: BL002
        Ok(result) => println!("{result}"),
        Err(e) => eprintln!("cannot load {}: {e}", path.display()),
    }
}

pub fn load_if_let(model: &mut Mlp, path: &Path) {
    let mut store = BurnpackStore::from_file(path).validate(true);
    if let Err(e) = model.load_from(&mut store) { // expect: BL002
        log::error!("cannot load {}: {e}", path.display());
    }
}

pub fn load_store_side(model: &mut Mlp, path: &Path) {
    let mut store = BurnpackStore::from_file(path);
    if let Err(e) = store.apply_to(model) { // expect: BL002
        tracing::warn!(path = %path.display(), "load failed: {e}");
    }
}

/// Resume training from the last checkpoint, or keep going from whatever was loaded.
pub fn resume_and_train(device: &Device, batches: &[Batch], epochs: usize, dir: &Path) -> Mlp {
    let mut model = Mlp::new(device);
    let latest = dir.join("latest.safetensors");
    let mut store = SafetensorsStore::from_file(&latest);
    let res = model.load_from(&mut store); // expect: BL002
    if let Err(e) = res {
        eprintln!("starting from scratch: {e}");
    }
    for epoch in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
            optimizer_step(&mut model, 1e-3);
        }
        println!("epoch {epoch}: val loss {:.4}", evaluate(&model, batches));
    }
    model
}

/// Stitch shards; a failed shard is logged and skipped.
pub fn import_shards(mut model: Mlp, shards: &[PathBuf]) -> Mlp {
    for shard in shards {
        let mut store = BurnpackStore::from_file(shard);
        match model.load_from(&mut store) { // expect: BL002
            Ok(r) => println!("{}: {} tensors", shard.display(), r.applied.len()),
            Err(e) => {
                eprintln!("{}: {e}", shard.display());
                continue;
            }
        }
    }
    model
}

/// A failed resume starts from a fresh model instead of a half-loaded one.
pub fn resume_or_reinit(device: &Device, batches: &[Batch], epochs: usize, dir: &Path) -> Mlp {
    let mut model = Mlp::new(device);
    let mut store = SafetensorsStore::from_file(dir.join("latest.safetensors"));
    match model.load_from(&mut store) {
        Ok(result) => println!("resumed: {result}"),
        Err(e) => {
            eprintln!("starting from scratch: {e}");
            model = Mlp::new(device);
        }
    }
    for epoch in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
            optimizer_step(&mut model, 1e-3);
        }
        println!("epoch {epoch}: val loss {:.4}", evaluate(&model, batches));
    }
    model
}

pub fn try_load(mut model: Mlp, path: &Path) -> Option<Mlp> {
    let mut store = BurnpackStore::from_file(path);
    if let Err(e) = model.load_from(&mut store) {
        eprintln!("cannot load {}: {e}", path.display());
        return None;
    }
    Some(model)
}

pub fn load_or_panic(model: &mut Mlp, path: &Path) {
    let mut store = SafetensorsStore::from_file(path);
    match store.apply_to(model) {
        Ok(result) => println!("{result}"),
        Err(e) => panic!("cannot load {}: {e}", path.display()),
    }
}

pub fn load_propagate(model: &mut Mlp, path: &Path) -> Result<(), burn_store::SafetensorsStoreError> {
    let mut store = SafetensorsStore::from_file(path);
    let result = model.load_from(&mut store)?;
    println!("{result}");
    Ok(())
}
