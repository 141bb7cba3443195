//! A `Result` that is the value of a `match` arm or an `if`/`else` branch takes the use of the
//! whole `match`/`if`.

use std::path::Path;

use anyhow::Result;
use burn_store::{BurnpackStore, ModuleSnapshot, SafetensorsStore, SafetensorsStoreError};

use crate::model::Mlp;

pub enum Format {
    Safetensors,
    Burnpack,
}

/// Both arms' blocks end in the save; the match is bound and propagated.
pub fn save_as(model: &Mlp, path: &Path, format: Format) -> Result<()> {
    let saved = match format {
        Format::Safetensors => {
            let mut store = SafetensorsStore::from_file(path).overwrite(true);
            model.save_into(&mut store).map_err(anyhow::Error::from)
        }
        Format::Burnpack => {
            let mut store = BurnpackStore::from_file(path).overwrite(true);
            model.save_into(&mut store).map_err(anyhow::Error::from)
        }
    };
    saved?;
    Ok(())
}

/// The same match, dropped with `let _`.
pub fn save_as_dropped(model: &Mlp, path: &Path, format: Format) {
    let _ = match format {
        Format::Safetensors => {
            let mut store = SafetensorsStore::from_file(path).overwrite(true);
            model.save_into(&mut store).map_err(anyhow::Error::from) // expect: BL001
        }
        Format::Burnpack => {
            let mut store = BurnpackStore::from_file(path).overwrite(true);
            model.save_into(&mut store).map_err(anyhow::Error::from) // expect: BL001
        }
    };
}

/// An `else` branch (and an `else if`) is the value of the whole `if`.
pub fn save_unless_dry(model: &Mlp, path: &Path, dry: bool, memory: bool) {
    let mut file = SafetensorsStore::from_file(path).overwrite(true);
    let mut bytes = SafetensorsStore::from_bytes(None);
    let _ = if dry {
        Ok(())
    } else if memory {
        model.save_into(&mut bytes) // expect: BL001
    } else {
        model.save_into(&mut file) // expect: BL001
    };
}

pub fn save_unless_dry_checked(
    model: &Mlp,
    path: &Path,
    dry: bool,
    memory: bool,
) -> Result<(), SafetensorsStoreError> {
    let mut file = SafetensorsStore::from_file(path).overwrite(true);
    let mut bytes = SafetensorsStore::from_bytes(None);
    let saved = if dry {
        Ok(())
    } else if memory {
        model.save_into(&mut bytes)
    } else {
        model.save_into(&mut file)
    };
    saved
}

/// The `if` is the function's tail: returned.
pub fn save_unless_dry_tail(model: &Mlp, path: &Path, dry: bool) -> Result<(), SafetensorsStoreError> {
    let mut store = SafetensorsStore::from_file(path).overwrite(true);
    if dry {
        Ok(())
    } else {
        model.save_into(&mut store)
    }
}

/// An arm without a block, and an arm's block inside `unsafe`: the match is unwrapped.
pub fn save_or_panic(model: &Mlp, path: &Path, format: Format) {
    let mut st = SafetensorsStore::from_file(path).overwrite(true);
    let mut bp = BurnpackStore::from_file(path).overwrite(true);
    match format {
        Format::Safetensors => model.save_into(&mut st).map_err(anyhow::Error::from),
        Format::Burnpack => unsafe { model.save_into(&mut bp).map_err(anyhow::Error::from) },
    }
    .expect("cannot write the checkpoint");
}

/// A match statement with `;`: every arm's value is dropped.
pub fn save_statement(model: &Mlp, path: &Path, format: Format) {
    let mut st = SafetensorsStore::from_file(path).overwrite(true);
    let mut bp = BurnpackStore::from_file(path).overwrite(true);
    match format {
        Format::Safetensors => {
            model.save_into(&mut st).map_err(anyhow::Error::from) // expect: BL001
        }
        Format::Burnpack => model.save_into(&mut bp).map_err(anyhow::Error::from), // expect: BL001
    };
}

/// The match's value goes to `.ok()`, unused.
pub fn save_ok_dropped(model: &Mlp, path: &Path, format: Format) {
    let mut st = SafetensorsStore::from_file(path).overwrite(true);
    let _ = match format {
        Format::Safetensors => model.save_into(&mut st).map_err(anyhow::Error::from), // expect: BL001
        Format::Burnpack => Ok(()),
    }
    .ok();
}
