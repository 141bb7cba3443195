//! The binary's own loop over the lib's helpers.

use std::path::PathBuf;

use anyhow::Result;
use burn_store::ModuleSnapshot;
use fix_helper::checkpoint::store_for;
use fix_helper::model::Mlp;

fn main() -> Result<()> {
    let model = Mlp::new(&Default::default());
    let latest = PathBuf::from("runs/latest.safetensors");
    fix_helper::train::train(&model, &latest, 10)?;
    for _ in 0..10 {
        fix_helper::checkpoint::save(&model, &latest)?; // expect: BL003
    }
    let mut store = store_for(&latest.with_extension("bpk")); // expect: BL003
    for _ in 0..10 {
        model.save_into(&mut store)?;
    }
    Ok(())
}
