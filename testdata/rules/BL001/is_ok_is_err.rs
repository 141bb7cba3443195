//! `is_ok()` / `is_err()` on a store result.

use std::path::Path;

use anyhow::{anyhow, Result};
use burn_store::{ModuleSnapshot, SafetensorsStore};

use crate::data::Batch;
use crate::model::Mlp;
use crate::train::{evaluate, optimizer_step, train_epoch};

pub fn save_probe(model: &Mlp, path: &Path) {
    let mut store = SafetensorsStore::from_file(path).overwrite(true);
    model.save_into(&mut store).is_ok(); // expect: BL001
}

/// Fine-tuning loop; the reload after each phase is checked with an unused `is_err()`.
pub fn finetune_phases(mut model: Mlp, phases: &[Vec<Batch>], dir: &Path) -> Mlp {
    for (phase, batches) in phases.iter().enumerate() {
        for batch in batches {
            model = train_epoch(model, batch);
            optimizer_step(&mut model, 1e-4);
        }
        let loss = evaluate(&model, batches);
        println!("phase {phase}: val loss {loss:.4}");
        let path = dir.join(format!("phase-{phase}.safetensors"));
        model.save_into(&mut SafetensorsStore::from_file(&path).overwrite(true)).is_err(); // expect: BL001
    }
    model
}

pub fn save_asserted(model: &Mlp, path: &Path) {
    let r = model.save_into(&mut SafetensorsStore::from_file(path).overwrite(true));
    assert!(r.is_ok(), "cannot write {}", path.display());
}

pub fn reload_asserted(model: &mut Mlp, path: &Path) {
    let mut store = SafetensorsStore::from_file(path);
    assert!(model.load_from(&mut store).is_ok());
}

pub fn save_or_bail(model: &Mlp, path: &Path) -> Result<()> {
    let mut store = SafetensorsStore::from_file(path).overwrite(true);
    if model.save_into(&mut store).is_err() {
        return Err(anyhow!("cannot write {}", path.display()));
    }
    Ok(())
}

pub fn save_or_exit(model: &Mlp, path: &Path) {
    let mut store = SafetensorsStore::from_file(path).overwrite(true);
    if model.save_into(&mut store).is_err() {
        eprintln!("fatal: cannot write {}", path.display());
        std::process::exit(2);
    }
}

/// Fine-tuning loop that refuses to go on without its phase checkpoint.
pub fn finetune_phases_checked(mut model: Mlp, phases: &[Vec<Batch>], dir: &Path) -> Result<Mlp> {
    for (phase, batches) in phases.iter().enumerate() {
        for batch in batches {
            model = train_epoch(model, batch);
            optimizer_step(&mut model, 1e-4);
        }
        let loss = evaluate(&model, batches);
        println!("phase {phase}: val loss {loss:.4}");
        let path = dir.join(format!("phase-{phase}.safetensors"));
        if model.save_into(&mut SafetensorsStore::from_file(&path).overwrite(true)).is_err() {
            return Err(anyhow!("phase {phase}: cannot write {}", path.display()));
        }
    }
    Ok(model)
}
