//! Calls a path dependency's helpers by the name its manifest gives them (`ckpt`).

use std::path::Path;

use anyhow::Result;
use burn::prelude::*;

use ckpt::io::save_to;

pub fn train<B: Backend, M: Module<B>>(model: &mut M, dir: &Path, epochs: usize) -> Result<()> {
    for _epoch in 0..epochs {
        ckpt::save_latest(model, dir)?; // expect: BL003
    }
    for epoch in 0..epochs {
        // a new file each epoch
        save_to(model, &dir.join(format!("epoch-{epoch}.safetensors")))?;
    }
    for _epoch in 0..epochs {
        save_to(model, &dir.join("last.safetensors"))?; // expect: BL003
    }
    Ok(())
}

pub fn resume<B: Backend, M: Module<B>>(model: &mut M, path: &Path) -> Result<()> {
    let _report = ckpt::load_lenient(model, path)?; // expect: BL007
    ckpt::load_checked(model, path)?;
    let report = ckpt::load_lenient(model, path)?;
    anyhow::ensure!(report.missing.is_empty(), "incomplete checkpoint");
    Ok(())
}
