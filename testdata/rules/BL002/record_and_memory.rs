//! `save_file`, store-side `collect_from` and in-memory stores, with a glob import.

use std::path::Path;

use burn::record::CompactRecorder;
use burn::store::*;

use crate::data::Batch;
use crate::model::Mlp;
use crate::train::{evaluate, optimizer_step, train_epoch};

/// Record-based checkpoints: a failed write is only printed.
pub fn train_record(mut model: Mlp, batches: &[Batch], epochs: usize, dir: &Path) -> Mlp {
    let recorder = CompactRecorder::new();
    for epoch in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
            optimizer_step(&mut model, 1e-3);
        }
        let loss = evaluate(&model, batches);
        println!("epoch {epoch}: val loss {loss:.4}");
        if let Err(e) = model.clone().save_file(dir.join(format!("epoch-{epoch}")), &recorder) { // expect: BL002
            eprintln!("epoch {epoch}: {e}");
        }
    }
    model
}

/// Keeps the last snapshot in memory for a quick rollback.
pub fn train_with_rollback(mut model: Mlp, batches: &[Batch], epochs: usize) -> (Mlp, Option<Vec<u8>>) {
    let mut last = None;
    for epoch in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
            optimizer_step(&mut model, 1e-3);
        }
        let mut store = BurnpackStore::from_bytes(None);
        match store.collect_from(&model) { // expect: BL002
            Ok(()) => last = store.get_bytes().ok().map(|b| b.to_vec()),
            Err(e) => log::debug!("epoch {epoch}: snapshot failed: {e}"),
        }
    }
    (model, last)
}

pub fn export_record(model: Mlp, path: &Path) {
    if let Err(e) = model.save_file(path, &CompactRecorder::new()) {
        eprintln!("export failed: {e}");
    }
}

pub fn export_collect(model: &Mlp, path: &Path) {
    let mut store = SafetensorsStore::from_file(path).overwrite(true);
    match store.collect_from(model) {
        Ok(()) => println!("exported {}", path.display()),
        Err(e) => eprintln!("export failed: {e}"),
    }
}

pub fn snapshot_bytes(model: &Mlp) -> Vec<u8> {
    let mut store = SafetensorsStore::from_bytes(None);
    store.collect_from(model).expect("in-memory save");
    store.get_bytes().expect("bytes of a memory store")
}
