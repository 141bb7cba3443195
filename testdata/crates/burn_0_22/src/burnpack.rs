//! burn 0.22's `BurnpackStore` with `.auto_extension(false)` checks the path given, while
//! burn-pack's writer appends `.bpk` to a path without an extension (burn-pack `writer.rs`
//! `resolve_path`): the save of `latest` writes `latest.bpk` and never finds it again.

use std::path::Path;

use anyhow::Result;
use burn_store::{BurnpackStore, ModuleSnapshot};

use crate::Mlp;

pub fn train_exact_extensionless(mut model: Mlp, epochs: usize, dir: &Path) -> Result<Mlp> {
    let mut store = BurnpackStore::from_file(dir.join("latest")).auto_extension(false);
    for _ in 0..epochs {
        model.save_into(&mut store)?;
    }
    let mut literal = BurnpackStore::from_file("runs/last").auto_extension(false);
    for _ in 0..epochs {
        model.save_into(&mut literal)?;
    }
    Ok(model)
}

/// With an extension, the path checked is the path written.
pub fn train_exact_with_extension(mut model: Mlp, epochs: usize, dir: &Path) -> Result<Mlp> {
    let mut store = BurnpackStore::from_file(dir.join("latest.bpk")).auto_extension(false); // expect: BL003
    for _ in 0..epochs {
        model.save_into(&mut store)?;
    }
    Ok(model)
}

/// A path whose extension cannot be known may be either: nothing is certain.
pub fn train_exact_parameter(mut model: Mlp, epochs: usize, path: &Path) -> Result<Mlp> {
    let mut store = BurnpackStore::from_file(path).auto_extension(false);
    for _ in 0..epochs {
        model.save_into(&mut store)?;
    }
    Ok(model)
}

/// The default: `latest` becomes `latest.bpk`, checked and written.
pub fn train_auto(mut model: Mlp, epochs: usize, dir: &Path) -> Result<Mlp> {
    let mut store = BurnpackStore::from_file(dir.join("latest")); // expect: BL003
    for _ in 0..epochs {
        model.save_into(&mut store)?;
    }
    Ok(model)
}
