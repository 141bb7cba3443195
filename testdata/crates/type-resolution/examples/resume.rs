//! An example resuming training: the lib's helpers by full path and by `use`.

use std::path::PathBuf;

use anyhow::Result;
use burn::prelude::*;
use type_resolution::checkpoint;
use type_resolution::checkpoint::save_latest;
use type_resolution::model::Mlp;
use type_resolution::trainer::Trainer;

fn main() -> Result<()> {
    let device: Device = Default::default();
    let latest = PathBuf::from("examples/latest.bpk");
    let model = Mlp::new(&device);
    let trainer = Trainer::new("examples");
    for epoch in 0..5 {
        checkpoint::save_latest(&model, &latest)?; // expect: BL003
        type_resolution::checkpoint::save_latest(&model, &latest)?; // expect: BL003
        trainer.save(&model, &latest)?; // expect: BL003
        trainer.save(&model, &latest.with_file_name(format!("epoch-{epoch}.bpk")))?;
    }
    Ok(())
}

/// A closure named like the imported helper shadows it.
pub fn with_a_closure(model: &Mlp, latest: &std::path::Path) -> Result<()> {
    let save_latest = |m: &Mlp, p: &std::path::Path| -> Result<()> {
        std::fs::write(p, format!("{m:?}"))?;
        Ok(())
    };
    for _ in 0..5 {
        save_latest(model, latest)?;
    }
    Ok(())
}

/// The imported helper itself.
pub fn with_the_import(model: &Mlp, latest: &std::path::Path) -> Result<()> {
    for _ in 0..5 {
        save_latest(model, latest)?; // expect: BL003
    }
    Ok(())
}
