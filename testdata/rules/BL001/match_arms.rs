//! `match` / `if let` on a store result whose Err path does nothing.

use std::path::{Path, PathBuf};

use burn_store::{ModuleSnapshot, SafetensorsStore, SafetensorsStoreError};

use crate::data::Batch;
use crate::model::Mlp;
use crate::train::{evaluate, optimizer_step, train_epoch};

pub fn save_silently(model: &Mlp, path: &Path) {
    let mut store = SafetensorsStore::from_file(path).overwrite(true);
    match model.save_into(&mut store) { // expect: BL001
        Ok(()) => println!("saved {}", path.display()),
        Err(_) => {}
    }
}

pub fn resume_if_possible(model: &mut Mlp, path: &Path) {
    let mut store = SafetensorsStore::from_file(path);
    match model.load_from(&mut store) { // expect: BL001
        Ok(result) => println!("resumed: {result}"),
        Err(_) => {}
    }
}

pub fn save_if_ok(model: &Mlp, path: &Path) {
    let mut store = SafetensorsStore::from_file(path).overwrite(true);
    if let Ok(_) = model.save_into(&mut store) { // expect: BL001
        println!("saved {}", path.display());
    }
}

/// A failed save skips to the next epoch without a trace.
pub fn train_skip_failures(mut model: Mlp, batches: &[Batch], epochs: usize, dir: &Path) -> Mlp {
    let latest = dir.join("latest.safetensors");
    for epoch in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
            optimizer_step(&mut model, 1e-3);
        }
        let mut store = SafetensorsStore::from_file(&latest).overwrite(true);
        match model.save_into(&mut store) { // expect: BL001
            Ok(()) => {}
            Err(_) => continue,
        }
        let loss = evaluate(&model, batches);
        println!("epoch {epoch}: val loss {loss:.4}");
    }
    model
}

pub fn save_or_return(model: &Mlp, path: &Path) -> Result<PathBuf, SafetensorsStoreError> {
    let mut store = SafetensorsStore::from_file(path).overwrite(true);
    match model.save_into(&mut store) {
        Ok(()) => Ok(path.to_path_buf()),
        Err(e) => return Err(e),
    }
}

pub fn save_or_panic(model: &Mlp, path: &Path) {
    let mut store = SafetensorsStore::from_file(path).overwrite(true);
    match model.save_into(&mut store) {
        Ok(()) => println!("saved {}", path.display()),
        Err(e) => panic!("cannot write {}: {e}", path.display()),
    }
}

pub fn reload_memory(model: &mut Mlp, bytes: Vec<u8>) {
    let mut store = SafetensorsStore::from_bytes(Some(bytes));
    match model.load_from(&mut store) {
        Ok(result) => println!("{result}"),
        Err(e) => unreachable!("the bytes were produced by save_into: {e}"),
    }
}

/// Stops training at the first failed save.
pub fn train_until_save_fails(mut model: Mlp, batches: &[Batch], epochs: usize, dir: &Path) -> Mlp {
    let latest = dir.join("latest.safetensors");
    for epoch in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
            optimizer_step(&mut model, 1e-3);
        }
        let mut store = SafetensorsStore::from_file(&latest).overwrite(true);
        if let Err(e) = model.save_into(&mut store) {
            eprintln!("epoch {epoch}: cannot save, stopping: {e}");
            break;
        }
    }
    model
}

// The error is the match's value and is used: handled, like a test that expects the failure.
pub fn error_as_match_value(model: &mut Mlp, path: &Path) -> String {
    let mut store = SafetensorsStore::from_file(path);
    let err = match model.load_from(&mut store) {
        Ok(_) => panic!("loading {} should fail", path.display()),
        Err(err) => err,
    };
    err.to_string()
}

pub fn error_as_match_value_in_block(model: &mut Mlp, path: &Path) -> String {
    let mut store = SafetensorsStore::from_file(path);
    let err = match model.load_from(&mut store) {
        Ok(_) => return String::new(),
        Err(err) => {
            eprintln!("load failed");
            err
        }
    };
    format!("{err}")
}

// ... but not when that value is dropped
pub fn error_as_unused_match_value(model: &mut Mlp, path: &Path) {
    let mut store = SafetensorsStore::from_file(path);
    let _err = match model.load_from(&mut store) { // expect: BL001
        Ok(_) => return,
        Err(err) => err,
    };
}

// A test that expects the load to fail: the `Ok` arm fails the test, the `Err` arm is the
// expected outcome. Nothing is discarded.
#[test]
fn truncated_file_is_rejected() {
    let mut store = SafetensorsStore::from_bytes(Some(Vec::new()));
    let mut model = Mlp::default();
    match model.load_from(&mut store) {
        Err(_) => {}
        Ok(result) => assert!(!result.is_success(), "a truncated file loaded"),
    }
    if let Ok(_) = model.load_from(&mut store) {
        panic!("a truncated file loaded");
    }
}

// ... while an `Ok` arm that only logs leaves the `Err` discarded
pub fn ok_logged_err_dropped(model: &mut Mlp, path: &Path) {
    let mut store = SafetensorsStore::from_file(path);
    match model.load_from(&mut store) { // expect: BL001
        Err(_) => {}
        Ok(_) => println!("loaded"),
    }
}
