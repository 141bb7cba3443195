//! burn 0.22's record path: `save_file(path)` and `try_load_file(path)` return a `Result`;
//! `load_file(path)` panics on error (burn-core `module/base.rs`).

use std::path::Path;

use anyhow::Result;
use burn::module::Module;
use burn::store::RecordError;
pub mod burnpack;

use burn_store::{ModuleSnapshot, SafetensorsStore};

#[derive(Module, Debug)]
pub struct Mlp {
    fc: burn::nn::Linear,
}

pub fn resume_or_fresh(model: Mlp, path: &Path) -> Mlp {
    model.clone().try_load_file(path).unwrap_or(model) // expect: BL001
}

pub fn resume_ok(model: Mlp, path: &Path) -> Option<Mlp> {
    let loaded = model.try_load_file(path).ok(); // expect: BL001
    None
}

pub fn resume(model: Mlp, path: &Path) -> Result<Mlp> {
    Ok(model.try_load_file(path)?)
}

/// `load_file` panics on error: nothing is discarded.
pub fn resume_or_panic(model: Mlp, path: &Path) -> Mlp {
    let _ = model.clone().load_file(path);
    model.load_file(path)
}

/// A load whose error is only logged: the module is gone, the code chose the fallback.
pub fn resume_logged(model: Mlp, path: &Path) -> Mlp {
    match model.clone().try_load_file(path) {
        Ok(loaded) => loaded,
        Err(e) => {
            log::warn!("starting from scratch: {e}");
            model
        }
    }
}

pub fn save_quietly(model: Mlp, path: &Path) {
    model.save_file(path).ok(); // expect: BL001
}

/// Every epoch's record save, its failure only printed.
pub fn train(mut model: Mlp, epochs: usize, dir: &Path) -> Mlp {
    for epoch in 0..epochs {
        if let Err(e) = model.clone().save_file(dir.join("latest.bpk")) { // expect: BL002
            eprintln!("epoch {epoch}: {e}");
        }
    }
    model
}

/// A helper that hands the load's error back, and one that hands a save's back.
fn restore(model: Mlp, path: &Path) -> Result<Mlp, RecordError> {
    model.try_load_file(path)
}

fn checkpoint(model: &Mlp, path: &Path) -> Result<(), RecordError> {
    model.clone().save_file(path)
}

pub fn restore_or_fresh(model: Mlp, path: &Path) -> Mlp {
    let _ = checkpoint(&model, path); // expect: BL001
    restore(model.clone(), path).unwrap_or(model) // expect: BL001
}

/// 0.21's signatures are not burn's in 0.22: a user's own methods of those names.
pub fn not_this_release(model: Mlp, path: &Path, device: &burn::prelude::Device) {
    let recorder = ();
    let _ = model.clone().load_file(path, &recorder, device);
    let _ = model.save_file(path, &recorder);
}

/// The record path next to a store: BL007 and BL005 are about stores, not about it.
pub fn import(model: Mlp, path: &Path) -> Result<Mlp> {
    let mut store = SafetensorsStore::from_file(path.with_extension("safetensors"));
    let mut model = model.try_load_file(path)?;
    model.load_from(&mut store)?;
    Ok(model)
}
