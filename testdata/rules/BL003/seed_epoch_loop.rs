//! The write-up's "latest checkpoint" loop: every epoch saves to the same file, and from the
//! second epoch on the store refuses to replace it (`File already exists`), so the file stays
//! at epoch 0.

use std::path::Path;

use anyhow::Result;
use burn::prelude::*;
use burn_store::{BurnpackStore, ModuleSnapshot, SafetensorsStore};

use crate::model::{with_bias, Mlp};

/// The loop from the write-up: the error is only printed and training goes on.
pub fn train_latest(device: &Device, out: &Path, epochs: usize) -> Mlp {
    let file = out.join("last_burn.safetensors");
    let mut model = Mlp::new(device);
    for epoch in 0..epochs {
        model = with_bias(model, epoch as f32, device); // fc2.bias = epoch
        let res = model.save_into(&mut SafetensorsStore::from_file(&file)); // expect: BL002, BL003
        match res {
            Ok(()) => println!("epoch {epoch}: saved"),
            Err(e) => eprintln!("epoch {epoch}: save failed: {e}"),
        }
    }
    // training is over; the checkpoint is read back by the caller
    model
}

/// "Same result with BurnpackStore" (`last_burn_store.bpk`).
pub fn train_latest_bpk(device: &Device, out: &Path, epochs: usize) -> Mlp {
    let file = out.join("last_burn_store.bpk");
    let mut model = Mlp::new(device);
    for epoch in 0..epochs {
        model = with_bias(model, epoch as f32, device);
        let res = model.save_into(&mut BurnpackStore::from_file(&file)); // expect: BL002, BL003
        match res {
            Ok(()) => println!("epoch {epoch}: saved"),
            Err(e) => eprintln!("epoch {epoch}: save failed: {e}"),
        }
    }
    model
}

/// Propagating with `?` is better (the run stops at epoch 1), but the checkpoint still cannot
/// be refreshed: the store is the bug, not the error handling.
pub fn train_latest_strict(device: &Device, file: &Path, epochs: usize) -> Result<Mlp> {
    let mut model = Mlp::new(device);
    for epoch in 0..epochs {
        model = with_bias(model, epoch as f32, device);
        model.save_into(&mut SafetensorsStore::from_file(file))?; // expect: BL003
        println!("epoch {epoch}: saved");
    }
    Ok(model)
}

/// The write-up's fix: say that the file is to be replaced.
pub fn train_latest_fixed(device: &Device, out: &Path, epochs: usize) -> Result<Mlp> {
    let file = out.join("last_burn.safetensors");
    let mut model = Mlp::new(device);
    for epoch in 0..epochs {
        model = with_bias(model, epoch as f32, device);
        model.save_into(&mut SafetensorsStore::from_file(&file).overwrite(true))?;
        println!("epoch {epoch}: saved");
    }
    Ok(model)
}

/// The same fix for Burnpack.
pub fn train_latest_bpk_fixed(device: &Device, out: &Path, epochs: usize) -> Result<Mlp> {
    let file = out.join("last_burn_store.bpk");
    let mut model = Mlp::new(device);
    for epoch in 0..epochs {
        model = with_bias(model, epoch as f32, device);
        model.save_into(&mut BurnpackStore::from_file(&file).overwrite(true))?;
        println!("epoch {epoch}: saved");
    }
    Ok(model)
}

/// `Module::save_file` goes through burn-core's record path, which replaces the file.
pub fn train_latest_record(device: &Device, out: &Path, epochs: usize) -> Mlp {
    let file = out.join("last_record.bpk");
    let mut model = Mlp::new(device);
    for epoch in 0..epochs {
        model = with_bias(model, epoch as f32, device);
        model.clone().save_file(&file).expect("record checkpoint");
        println!("epoch {epoch}: saved");
    }
    model
}
