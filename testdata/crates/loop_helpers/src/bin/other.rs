//! A second binary with its own `save_latest`, which replaces the file: the lib's helper of
//! the same name is shadowed here, and calling this one in a loop is fine. The lib's other
//! helpers are still visible.

use std::error::Error;
use std::path::{Path, PathBuf};

use burn_store::{BurnpackStore, ModuleSnapshot};
use loop_helpers::checkpoint::save_default;
use loop_helpers::model::Mlp;
use loop_helpers::train::{evaluate, train_epoch};

/// Not the lib's `save_latest`: this one overwrites.
fn save_latest(model: &Mlp, path: &Path) -> Result<(), Box<dyn Error>> {
    model.save_into(&mut BurnpackStore::from_file(path).overwrite(true))?;
    Ok(())
}

fn main() -> Result<(), Box<dyn Error>> {
    let device = Default::default();
    let latest = PathBuf::from("runs/other/latest.bpk");
    let mut model = Mlp::new(&device);
    for epoch in 0..10 {
        model = train_epoch(model);
        println!("epoch {epoch}: val loss {:.4}", evaluate(&model));
        save_latest(&model, &latest)?;
    }
    for _ in 0..3 {
        model = train_epoch(model);
        save_default(&model)?; // expect: BL003
    }
    Ok(())
}
