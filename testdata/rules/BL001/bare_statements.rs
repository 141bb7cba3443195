//! A store operation used as a bare statement: the `Result` is dropped on the floor.

use std::path::Path;

use burn::record::CompactRecorder;
use burn_store::SafetensorsStore as Store;
use burn_store::{BurnpackStore, ModuleSnapshot, ModuleStore};

use crate::data::Batch;
use crate::model::Mlp;
use crate::train::{evaluate, optimizer_step, train_epoch};

pub fn save_bare(model: &Mlp, path: &Path) {
    let mut store = BurnpackStore::from_file(path).overwrite(true);
    model.save_into(&mut store); // expect: BL001
}

pub fn collect_bare(model: &Mlp, path: &Path) {
    let mut store = BurnpackStore::from_file(path).overwrite(true);
    store.collect_from(model); // expect: BL001
}

pub fn apply_bare(model: &mut Mlp, path: &Path) {
    let mut store = BurnpackStore::from_file(path);
    store.apply_to(model); // expect: BL001
}

pub fn save_record_bare(model: &Mlp, path: &Path) {
    model.clone().save_file(path, &CompactRecorder::new()); // expect: BL001
}

/// Aliased store type, chain over several lines with comments in between.
pub fn save_aliased(model: &Mlp, path: &Path) {
    model // expect: BL001
        // built inline, one file per call
        .save_into(
            &mut Store::from_file(path)
                // replace the previous export
                .overwrite(true),
        );
}

/// In-memory round trip used by the smoke test.
pub fn snapshot_in_memory(model: &Mlp) -> Option<Vec<u8>> {
    let mut store = BurnpackStore::from_bytes(None);
    model.save_into(&mut store); // expect: BL001
    store.get_bytes().ok().map(|bytes| bytes.to_vec())
}

/// Fully qualified store path inside a training loop.
pub fn train_with_exports(mut model: Mlp, batches: &[Batch], epochs: usize, dir: &Path) -> Mlp {
    for epoch in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
            optimizer_step(&mut model, 1e-3);
        }
        let loss = evaluate(&model, batches);
        println!("epoch {epoch}: val loss {loss:.4}");
        let path = dir.join(format!("epoch-{epoch}"));
        model.save_into(&mut burn::store::BurnpackStore::from_file(&path).overwrite(true)); // expect: BL001
    }
    model
}
