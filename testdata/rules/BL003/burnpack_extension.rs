//! Burnpack's automatic extension: `BurnpackStore::from_file(dir.join("latest"))` checks and
//! writes `latest.bpk`. A `remove_file` in the loop exempts the save only when it removes that
//! path; when the extension cannot be known, a removal of the same expression still exempts.
//! With `.auto_extension(false)` and a path without an extension, burn 0.22 checks `latest`
//! but writes `latest.bpk`: the save never refuses there, and with the burn release unknown
//! (this file is in no crate) nothing is certain.

use std::fs;
use std::path::Path;

use anyhow::Result;
use burn_store::{BurnpackStore, ModuleSnapshot, SafetensorsStore};

use crate::data::Batch;
use crate::model::Mlp;
use crate::train::train_epoch;

/// The sketch: the removal deletes `latest`, the save refuses `latest.bpk`.
pub fn train_remove_extensionless(mut model: Mlp, batches: &[Batch], dir: &Path) -> Result<Mlp> {
    for batch in batches {
        model = train_epoch(model, batch);
        let _ = fs::remove_file(dir.join("latest"));
        model.save_into(&mut BurnpackStore::from_file(dir.join("latest")))?; // expect: BL003
    }
    Ok(model)
}

/// The same through one binding, removed after the save.
pub fn train_remove_binding(mut model: Mlp, batches: &[Batch], dir: &Path) -> Result<Mlp> {
    let latest = dir.join("latest");
    let mut store = BurnpackStore::from_file(&latest); // expect: BL003
    for batch in batches {
        model = train_epoch(model, batch);
        model.save_into(&mut store)?;
        fs::remove_file(&latest).ok();
    }
    Ok(model)
}

/// A literal path, an explicit `auto_extension(true)`, and `format!`.
pub fn train_remove_literal(mut model: Mlp, batches: &[Batch], run: &str) -> Result<Mlp> {
    for batch in batches {
        model = train_epoch(model, batch);
        fs::remove_file("checkpoints/latest").ok();
        let mut store = BurnpackStore::from_file("checkpoints/latest").auto_extension(true); // expect: BL003
        model.save_into(&mut store)?;
        let _ = std::fs::remove_file(format!("{run}/latest"));
        model.save_into(&mut BurnpackStore::from_file(format!("{run}/latest")))?; // expect: BL003
    }
    Ok(model)
}

/// Removing the resolved path exempts: written out, through `with_extension`, or bound (one
/// loop each: a removal exempts every save of its loop that it matches).
pub fn train_remove_resolved(mut model: Mlp, batches: &[Batch], dir: &Path) -> Result<Mlp> {
    for batch in batches {
        model = train_epoch(model, batch);
        let _ = fs::remove_file(dir.join("latest.bpk"));
        model.save_into(&mut BurnpackStore::from_file(dir.join("latest")))?;
    }
    Ok(model)
}

pub fn train_remove_with_extension_call(mut model: Mlp, batches: &[Batch], dir: &Path) -> Result<Mlp> {
    let latest = dir.join("latest");
    for batch in batches {
        model = train_epoch(model, batch);
        let _ = fs::remove_file(latest.with_extension("bpk"));
        model.save_into(&mut BurnpackStore::from_file(&latest))?;
    }
    for batch in batches {
        model = train_epoch(model, batch);
        let _ = fs::remove_file(dir.join("best").with_extension("bpk"));
        model.save_into(&mut BurnpackStore::from_file(dir.join("best")))?;
    }
    Ok(model)
}

pub fn train_remove_bound(mut model: Mlp, batches: &[Batch], dir: &Path) -> Result<Mlp> {
    let bpk = dir.join("latest.bpk");
    for batch in batches {
        model = train_epoch(model, batch);
        let _ = fs::remove_file(&bpk);
        model.save_into(&mut BurnpackStore::from_file(dir.join("latest")))?;
    }
    for batch in batches {
        model = train_epoch(model, batch);
        fs::remove_file("checkpoints/last.bpk").ok();
        model.save_into(&mut BurnpackStore::from_file("checkpoints/last"))?;
    }
    Ok(model)
}

/// A removal of another name's `.bpk` exempts nothing.
pub fn train_remove_other(mut model: Mlp, batches: &[Batch], dir: &Path) -> Result<Mlp> {
    for batch in batches {
        model = train_epoch(model, batch);
        let _ = fs::remove_file(dir.join("previous.bpk"));
        model.save_into(&mut BurnpackStore::from_file(dir.join("latest")))?; // expect: BL003
    }
    Ok(model)
}

/// With an extension the path is the resolved one.
pub fn train_remove_with_extension(mut model: Mlp, batches: &[Batch], dir: &Path) -> Result<Mlp> {
    for batch in batches {
        model = train_epoch(model, batch);
        let _ = fs::remove_file(dir.join("latest.bpk"));
        model.save_into(&mut BurnpackStore::from_file(dir.join("latest.bpk")))?;
        let _ = fs::remove_file(dir.join("latest.v2"));
        model.save_into(&mut BurnpackStore::from_file(dir.join("latest.v2")))?;
    }
    Ok(model)
}

/// The extension of a parameter cannot be known: removing it still exempts.
pub fn train_remove_parameter(mut model: Mlp, batches: &[Batch], path: &Path) -> Result<Mlp> {
    for batch in batches {
        model = train_epoch(model, batch);
        let _ = fs::remove_file(path);
        model.save_into(&mut BurnpackStore::from_file(path))?;
    }
    Ok(model)
}

/// `auto_extension` from a flag: the path checked may be either, keep exempting.
pub fn train_remove_flag(mut model: Mlp, batches: &[Batch], dir: &Path, auto: bool) -> Result<Mlp> {
    for batch in batches {
        model = train_epoch(model, batch);
        let _ = fs::remove_file(dir.join("latest"));
        model.save_into(&mut BurnpackStore::from_file(dir.join("latest")).auto_extension(auto))?;
    }
    Ok(model)
}

/// Safetensors adds no extension: the path removed is the path saved.
pub fn train_remove_safetensors(mut model: Mlp, batches: &[Batch], dir: &Path) -> Result<Mlp> {
    for batch in batches {
        model = train_epoch(model, batch);
        let _ = fs::remove_file(dir.join("latest"));
        model.save_into(&mut SafetensorsStore::from_file(dir.join("latest")))?;
    }
    Ok(model)
}

/// `auto_extension(false)` without an extension: burn 0.22 never refuses, 0.21 does; the
/// release is unknown here.
pub fn train_exact_extensionless(mut model: Mlp, batches: &[Batch], dir: &Path) -> Result<Mlp> {
    let mut store = BurnpackStore::from_file(dir.join("latest")).auto_extension(false);
    for batch in batches {
        model = train_epoch(model, batch);
        model.save_into(&mut store)?;
    }
    Ok(model)
}

/// `auto_extension(false)` with an extension: the exact path is checked and written.
pub fn train_exact_with_extension(mut model: Mlp, batches: &[Batch], dir: &Path) -> Result<Mlp> {
    let mut store = BurnpackStore::from_file(dir.join("latest.burn")).auto_extension(false); // expect: BL003
    for batch in batches {
        model = train_epoch(model, batch);
        model.save_into(&mut store)?;
    }
    Ok(model)
}
