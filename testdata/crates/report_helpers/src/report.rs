//! Helpers that hand a lenient load's result back, in a tuple, in a struct field, or as the
//! `missing` list of a report of their own: the callers must read what the leniency needs.

use std::path::Path;

use anyhow::{ensure, Result};
use burn::prelude::*;
use burn_store::{ApplyResult, ModuleSnapshot, SafetensorsStore};

use crate::model::Mlp;

/// The model and the whole result, in a tuple.
pub fn load_with_report(device: &Device, path: &Path) -> Result<(Mlp, ApplyResult)> {
    let mut model = Mlp::new(device);
    let mut store = SafetensorsStore::from_file(path).allow_partial(true);
    let report = model.load_from(&mut store)?;
    Ok((model, report))
}

/// The result first, the model second.
pub fn load_report_first(device: &Device, path: &Path) -> Result<(ApplyResult, Mlp)> {
    let mut model = Mlp::new(device);
    let report = model.load_from(&mut SafetensorsStore::from_file(path).allow_partial(true))?;
    Ok((report, model))
}

/// `validate(false)`: the caller must read `errors` (or `is_success()`).
pub fn load_unvalidated(device: &Device, path: &Path) -> Result<(Mlp, ApplyResult)> {
    let mut model = Mlp::new(device);
    let mut store = SafetensorsStore::from_file(path).validate(false);
    let report = model.load_from(&mut store)?;
    Ok((model, report))
}

/// The model and the result in named fields.
pub struct Loaded {
    pub model: Mlp,
    pub report: ApplyResult,
}

pub fn load_struct(device: &Device, path: &Path) -> Result<Loaded> {
    let mut model = Mlp::new(device);
    let mut store = SafetensorsStore::from_file(path).allow_partial(true);
    let report = model.load_from(&mut store)?;
    Ok(Loaded { model, report })
}

/// The same, the field written out.
pub fn load_struct_named(device: &Device, path: &Path) -> Result<Loaded> {
    let mut model = Mlp::new(device);
    let mut store = SafetensorsStore::from_file(path).allow_partial(true);
    let result = model.load_from(&mut store)?;
    Ok(Loaded { model, report: result })
}

/// A report of the crate's own: the `missing` list moves into it, unread.
pub struct Summary {
    pub missing: Vec<String>,
    pub applied: usize,
}

pub fn load_summarised(device: &Device, path: &Path) -> Result<(Mlp, Summary)> {
    let mut model = Mlp::new(device);
    let mut store = SafetensorsStore::from_file(path).allow_partial(true);
    let r = model.load_from(&mut store)?;
    let summary = Summary {
        missing: r.missing.into_iter().map(|(name, _)| name).collect(),
        applied: r.applied.len(),
    };
    Ok((model, summary))
}

/// Its own report, after checking `missing` itself: nothing is left for the callers.
pub fn load_summarised_checked(device: &Device, path: &Path) -> Result<(Mlp, usize)> {
    let mut model = Mlp::new(device);
    let mut store = SafetensorsStore::from_file(path).allow_partial(true);
    let r = model.load_from(&mut store)?;
    ensure!(r.missing.is_empty(), "incomplete: {}", r.missing.len());
    Ok((model, r.applied.len()))
}

/// Passes the tuple on unopened: its callers check.
pub fn load_forwarded(device: &Device, path: &Path) -> Result<(Mlp, ApplyResult)> {
    let (net, report) = load_with_report(device, path)?;
    Ok((net, report))
}

/// Passes the whole tuple on as its tail.
pub fn load_forwarded_whole(device: &Device, path: &Path) -> Result<(Mlp, ApplyResult)> {
    load_with_report(device, path)
}

/// Reads `missing` of a report given to it.
pub fn ensure_complete(report: &ApplyResult) -> Result<()> {
    ensure!(report.missing.is_empty(), "missing {:?}", report.missing);
    Ok(())
}

/// The result nested one level deeper, beside the epoch it was saved at.
pub fn load_nested(device: &Device, path: &Path) -> Result<(Mlp, (ApplyResult, usize))> {
    let mut model = Mlp::new(device);
    let mut store = SafetensorsStore::from_file(path).allow_partial(true);
    let report = model.load_from(&mut store)?;
    Ok((model, (report, 0)))
}

/// A loader object whose method hands the tuple back.
pub struct Loader {
    pub device: Device,
}

impl Loader {
    pub fn new(device: Device) -> Self {
        Self { device }
    }

    pub fn load(&self, path: &Path) -> Result<(Mlp, ApplyResult)> {
        let mut model = Mlp::new(&self.device);
        let report = model.load_from(&mut SafetensorsStore::from_file(path).allow_partial(true))?;
        Ok((model, report))
    }
}

/// Hands back the `missing` list itself, beside the model.
pub fn load_missing_list(device: &Device, path: &Path) -> Result<(Mlp, Vec<(String, String)>)> {
    let mut model = Mlp::new(device);
    let r = model.load_from(&mut SafetensorsStore::from_file(path).allow_partial(true))?;
    Ok((model, r.missing))
}

/// A report of the crate's own, returned alone, the `missing` list moved in as is.
pub struct LoadReport {
    pub missing: Vec<(String, String)>,
    pub loaded: usize,
}

pub fn load_report_only(model: &mut Mlp, path: &Path) -> Result<LoadReport> {
    let r = model.load_from(&mut SafetensorsStore::from_file(path).allow_partial(true))?;
    Ok(LoadReport { missing: r.missing, loaded: r.applied.len() })
}
