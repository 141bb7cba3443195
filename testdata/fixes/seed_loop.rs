//! The write-up's loop, both stores: the fix says that the file is to be replaced.

use std::path::Path;

use burn::prelude::*;
use burn_store::{BurnpackStore, ModuleSnapshot, SafetensorsStore};

use crate::model::{with_bias, Mlp};

pub fn train_latest(device: &Device, out: &Path, epochs: usize) -> Mlp {
    let file = out.join("last_burn.safetensors");
    let mut model = Mlp::new(device);
    for epoch in 0..epochs {
        model = with_bias(model, epoch as f32, device);
        let res = model.save_into(&mut SafetensorsStore::from_file(&file)); // expect: BL002, BL003
        match res {
            Ok(()) => println!("epoch {epoch}: saved"),
            Err(e) => eprintln!("epoch {epoch}: save failed: {e}"),
        }
    }
    model
}

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
