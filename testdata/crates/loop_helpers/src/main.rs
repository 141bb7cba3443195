//! The trainer: the lib's helpers called in epoch loops.

use std::error::Error;
use std::path::PathBuf;

use burn_store::{BurnpackStore, ModuleSnapshot};
use loop_helpers::checkpoint::{save_default, save_replacing};
use loop_helpers::model::Mlp;
use loop_helpers::save_latest;
use loop_helpers::train::{evaluate, train_epoch};

fn main() -> Result<(), Box<dyn Error>> {
    let device = Default::default();
    let dir = PathBuf::from("runs/mlp");
    let latest = dir.join("latest.bpk");
    let mut model = Mlp::new(&device);
    if let Some(init) = std::env::args().nth(1) {
        let result = model.load_from(&mut BurnpackStore::from_file(&init))?;
        println!("initialised from {init}: {} tensors", result.applied.len());
    }

    for epoch in 0..20 {
        model = train_epoch(model);
        let loss = evaluate(&model);
        println!("epoch {epoch}: val loss {loss:.4}");
        // the same file every epoch: only epoch 0 is ever written
        save_latest(&model, &latest)?; // expect: BL003
        // a new file every epoch
        save_latest(&model, &dir.join(format!("epoch-{epoch}.bpk")))?;
        // the helper replaces the file
        save_replacing(&model, &dir.join("latest-replaced.bpk"))?;
    }

    let mut loss = f32::INFINITY;
    while loss > 0.01 {
        model = train_epoch(model);
        loss = evaluate(&model);
        loop_helpers::save_latest(&model, &dir.join("finetune.bpk"))?; // expect: BL003
        save_default(&model).expect("default checkpoint"); // expect: BL003
    }

    // once, after training
    save_latest(&model, &dir.join("final.bpk"))?;
    save_default(&model)?;
    Ok(())
}
