//! An `ApplyResult` that is the value of a `match` arm, an `if`/`else` branch or a
//! `#[cfg(..)]`-gated tail block flows into the `match`/`if`/block it belongs to: the checks
//! that count are those made on the whole.

use std::path::Path;

use anyhow::{bail, ensure, Result};
use burn_store::{ApplyResult, BurnpackStore, ModuleSnapshot, SafetensorsStore};

use crate::model::Mlp;

/// The sketch: the match is bound to `r` and `r.missing` is read.
pub fn load_by_extension(model: &mut Mlp, path: &Path) -> Result<()> {
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    let r = match ext {
        "bpk" => {
            let mut store = BurnpackStore::from_file(path).allow_partial(true);
            model.load_from(&mut store)?
        }
        _ => {
            let mut store = SafetensorsStore::from_file(path).allow_partial(true);
            model.load_from(&mut store)?
        }
    };
    ensure!(r.missing.is_empty(), "missing tensors: {:?}", r.missing);
    Ok(())
}

/// The same match, but only `applied` is read: checks nothing.
pub fn load_by_extension_counted(model: &mut Mlp, path: &Path) -> Result<usize> {
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    let r = match ext {
        "bpk" => {
            let mut store = BurnpackStore::from_file(path).allow_partial(true);
            model.load_from(&mut store)? // expect: BL007
        }
        _ => {
            let mut store = SafetensorsStore::from_file(path).allow_partial(true);
            model.load_from(&mut store)? // expect: BL007
        }
    };
    Ok(r.applied.len())
}

/// Arms without blocks, one of them not a load at all.
pub fn load_or_skip(model: &mut Mlp, path: &Path, skip: bool) -> Result<()> {
    let mut store = SafetensorsStore::from_file(path).allow_partial(true);
    let report = match skip {
        true => ApplyResult::default(),
        false => model.load_from(&mut store)?,
    };
    if !report.missing.is_empty() {
        bail!("{} tensors missing", report.missing.len());
    }
    Ok(())
}

/// `if` / `else if` / `else`, one branch inside `unsafe`: the whole is printed.
pub fn load_branches(model: &mut Mlp, path: &Path, bytes: Option<Vec<u8>>) -> Result<()> {
    let mut file = SafetensorsStore::from_file(path).allow_partial(true);
    let r = if let Some(bytes) = bytes {
        let mut memory = SafetensorsStore::from_bytes(Some(bytes)).allow_partial(true);
        model.load_from(&mut memory)?
    } else if path.exists() {
        model.load_from(&mut file)?
    } else {
        unsafe { model.load_from(&mut file)? }
    };
    println!("{r}");
    Ok(())
}

/// `validate(false)` needs `errors`: reading `missing` of the whole `if` is not enough.
pub fn load_branches_missing_only(model: &mut Mlp, path: &Path, strict: bool) -> Result<()> {
    let r = if strict {
        let mut store = SafetensorsStore::from_file(path);
        model.load_from(&mut store)?
    } else {
        let mut store = SafetensorsStore::from_file(path).validate(false);
        model.load_from(&mut store)? // expect: BL007
    };
    ensure!(r.missing.is_empty());
    Ok(())
}

/// The `if` is dropped: nothing is checked.
pub fn load_branches_dropped(model: &mut Mlp, path: &Path, strict: bool) -> Result<()> {
    let mut store = SafetensorsStore::from_file(path).allow_partial(true);
    let _ = if strict {
        ApplyResult::default()
    } else {
        model.load_from(&mut store)? // expect: BL007
    };
    Ok(())
}

/// A gated tail block hands the `ApplyResult` back to the caller: returning counts as a
/// check.
pub fn load_gated(model: &mut Mlp, path: &Path) -> Result<ApplyResult> {
    let mut store = BurnpackStore::from_file(path).allow_partial(true);
    #[cfg(feature = "burnpack")]
    {
        let report = model.load_from(&mut store)?;
        Ok(report)
    }
    #[cfg(not(feature = "burnpack"))]
    {
        bail!("built without burnpack")
    }
}

/// A match that is the function's tail returns the arm's value.
pub fn load_tail_match(model: &mut Mlp, path: &Path, partial: bool) -> Result<ApplyResult> {
    let mut store = SafetensorsStore::from_file(path).allow_partial(partial);
    Ok(match partial {
        true => model.load_from(&mut store)?,
        false => ApplyResult::default(),
    })
}

/// A match statement with `;`: the arms' values are dropped.
pub fn load_match_statement(model: &mut Mlp, path: &Path, partial: bool) -> Result<()> {
    let mut store = SafetensorsStore::from_file(path).allow_partial(true);
    match partial {
        true => {
            model.load_from(&mut store)? // expect: BL007
        }
        false => ApplyResult::default(),
    };
    Ok(())
}
