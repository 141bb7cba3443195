//! burn 0.21's record path: `save_file(path, &recorder)` and `load_file(path, &recorder,
//! &device)` return a `Result` (burn-core `module/base.rs`); `try_load_file` does not exist.

pub mod burnpack;
pub mod model;
pub mod textures;
pub mod unrelated;

use std::path::Path;

use anyhow::Result;
use burn::prelude::*;
use burn::record::{CompactRecorder, RecorderError};
use burn_store::ModuleSnapshot;

use crate::model::Mlp;

/// Falls back to the initial weights when the checkpoint cannot be read, without a word.
pub fn resume_or_fresh(model: Mlp, path: &Path, device: &Device) -> Mlp {
    let recorder = CompactRecorder::new();
    model.clone().load_file(path, &recorder, device).unwrap_or(model) // expect: BL001
}

pub fn resume(model: Mlp, path: &Path, device: &Device) -> Result<Mlp> {
    Ok(model.load_file(path, &CompactRecorder::new(), device)?)
}

pub fn resume_or_panic(model: Mlp, path: &Path, device: &Device) -> Mlp {
    model
        .load_file(path, &CompactRecorder::new(), device)
        .expect("a readable checkpoint")
}

pub fn resume_if_possible(model: &mut Mlp, path: &Path, device: &Device) {
    if let Ok(loaded) = model.clone().load_file(path, &CompactRecorder::new(), device) { // expect: BL001
        *model = loaded;
    }
}

/// A load whose error is only logged: the module is gone, the code chose the fallback.
pub fn resume_logged(model: Mlp, path: &Path, device: &Device) -> Mlp {
    match model.clone().load_file(path, &CompactRecorder::new(), device) {
        Ok(loaded) => loaded,
        Err(e) => {
            eprintln!("cannot resume from {}: {e}", path.display());
            model
        }
    }
}

pub fn save_quietly(model: Mlp, path: &Path) {
    let _ = model.save_file(path, &CompactRecorder::new()); // expect: BL001
}

/// Every epoch's record save, its failure only printed.
pub fn train(mut model: Mlp, epochs: usize, dir: &Path) -> Mlp {
    let recorder = CompactRecorder::new();
    for epoch in 0..epochs {
        model = model.step();
        if let Err(e) = model.clone().save_file(dir.join(format!("epoch-{epoch}")), &recorder) { // expect: BL002
            eprintln!("epoch {epoch}: {e}");
        }
    }
    model
}

/// A helper that hands the load's error back.
fn restore(model: Mlp, path: &Path, device: &Device) -> Result<Mlp, RecorderError> {
    model.load_file(path, &CompactRecorder::new(), device)
}

pub fn restore_or_fresh(model: Mlp, path: &Path, device: &Device) -> Mlp {
    restore(model.clone(), path, device).unwrap_or(model) // expect: BL001
}

/// 0.22's signatures are not burn's in 0.21: a user's own methods of those names.
pub fn not_this_release(model: Mlp, path: &Path) {
    let _ = model.clone().try_load_file(path);
    let _ = model.save_file(path);
}
