//! A save inside a closure that a loop calls is a save in that loop: only logging its error
//! lets training go on with a stale checkpoint.

use burn_store::{ModuleSnapshot, SafetensorsStore};

use crate::model::Mlp;
use crate::train::train_epoch;

pub fn train(model: &mut Mlp, epochs: usize) {
    let checkpoint = |m: &Mlp, epoch: usize| {
        let mut store = SafetensorsStore::from_file(format!("epoch-{epoch}.safetensors"));
        if let Err(e) = m.save_into(&mut store) { // expect: BL002
            eprintln!("checkpoint failed: {e}");
        }
    };
    for epoch in 0..epochs {
        train_epoch(model);
        checkpoint(model, epoch);
    }
}

pub fn train_final_only(model: &mut Mlp, epochs: usize) {
    let checkpoint = |m: &Mlp| {
        let mut store = SafetensorsStore::from_file("final.safetensors");
        if let Err(e) = m.save_into(&mut store) {
            eprintln!("checkpoint failed: {e}");
        }
    };
    for _ in 0..epochs {
        train_epoch(model);
    }
    checkpoint(model);
}
