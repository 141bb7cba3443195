//! Converting the `Result` into something that forgets the error.

use std::path::Path;

use burn_store::{ModuleSnapshot, SafetensorsStore};

use crate::data::Batch;
use crate::model::Mlp;
use crate::train::{evaluate, optimizer_step, train_epoch};

pub fn save_ok(model: &Mlp, path: &Path) {
    model.save_into(&mut SafetensorsStore::from_file(path).overwrite(true)).ok(); // expect: BL001
}

pub fn save_err(model: &Mlp, path: &Path) {
    model.save_into(&mut SafetensorsStore::from_file(path).overwrite(true)).err(); // expect: BL001
}

pub fn save_default(model: &Mlp, path: &Path) {
    let mut store = SafetensorsStore::from_file(path).overwrite(true);
    model.save_into(&mut store).unwrap_or_default(); // expect: BL001
}

pub fn save_unit(model: &Mlp, path: &Path) {
    let mut store = SafetensorsStore::from_file(path).overwrite(true);
    model.save_into(&mut store).unwrap_or(()); // expect: BL001
}

pub fn save_dropped(model: &Mlp, path: &Path) {
    let mut store = SafetensorsStore::from_file(path).overwrite(true);
    drop(model.save_into(&mut store)); // expect: BL001
}

/// The chain `map_err(..).ok()` ends in `.ok()`: discarded.
pub fn train_quietly(mut model: Mlp, batches: &[Batch], epochs: usize, dir: &Path) -> Mlp {
    let mut best = f32::INFINITY;
    for epoch in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
            optimizer_step(&mut model, 3e-4);
        }
        let loss = evaluate(&model, batches);
        if loss < best {
            best = loss;
            let mut store = SafetensorsStore::from_file(dir.join("best.safetensors")).overwrite(true);
            model // expect: BL001
                .save_into(&mut store)
                .map_err(|e| format!("epoch {epoch}: {e}"))
                .ok();
        }
    }
    model
}

pub fn save_unwrap(model: &Mlp, path: &Path) {
    model.save_into(&mut SafetensorsStore::from_file(path).overwrite(true)).unwrap();
}

pub fn save_expect(model: &Mlp, path: &Path) {
    let mut store = SafetensorsStore::from_file(path).overwrite(true);
    model.save_into(&mut store).expect("write checkpoint");
}

pub fn save_or_panic(model: &Mlp, path: &Path) {
    let mut store = SafetensorsStore::from_file(path).overwrite(true);
    model
        .save_into(&mut store)
        .unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
}

/// The same best-model loop, failing loudly.
pub fn train_best_or_panic(mut model: Mlp, batches: &[Batch], epochs: usize, dir: &Path) -> Mlp {
    let mut best = f32::INFINITY;
    for epoch in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
            optimizer_step(&mut model, 3e-4);
        }
        let loss = evaluate(&model, batches);
        if loss < best {
            best = loss;
            let mut store = SafetensorsStore::from_file(dir.join("best.safetensors")).overwrite(true);
            model
                .save_into(&mut store)
                .unwrap_or_else(|e| panic!("epoch {epoch}: cannot write the best model: {e}"));
        }
    }
    model
}
