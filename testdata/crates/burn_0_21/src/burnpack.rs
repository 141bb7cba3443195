//! burn 0.21's `BurnpackStore` checks and writes the same path: with `.auto_extension(false)`
//! that is the exact path given (burn-store `burnpack/store.rs` `collect_from`).

use std::fs;
use std::path::Path;

use anyhow::Result;
use burn_store::{BurnpackStore, ModuleSnapshot};

use crate::model::Mlp;

pub fn train_exact_extensionless(mut model: Mlp, epochs: usize, dir: &Path) -> Result<Mlp> {
    let mut store = BurnpackStore::from_file(dir.join("latest")).auto_extension(false); // expect: BL003
    for _ in 0..epochs {
        model = model.step();
        model.save_into(&mut store)?;
    }
    Ok(model)
}

/// Removing the exact path exempts it then.
pub fn train_exact_removed(mut model: Mlp, epochs: usize, dir: &Path) -> Result<Mlp> {
    for _ in 0..epochs {
        model = model.step();
        let _ = fs::remove_file(dir.join("latest"));
        model.save_into(&mut BurnpackStore::from_file(dir.join("latest")).auto_extension(false))?;
    }
    Ok(model)
}

/// The automatic extension already existed: removing `latest` leaves `latest.bpk`.
pub fn train_auto_removed(mut model: Mlp, epochs: usize, dir: &Path) -> Result<Mlp> {
    for _ in 0..epochs {
        model = model.step();
        let _ = fs::remove_file(dir.join("latest"));
        model.save_into(&mut BurnpackStore::from_file(dir.join("latest")))?; // expect: BL003
    }
    Ok(model)
}
