//! Patterns that take a helper's `(model, report)` or `Loaded { model, report }` apart: the
//! report is found by position (a `_` counts as one), by field name (shorthand too), and
//! inside `Ok(..)` in a match arm, `if let` or `let .. else`.

use std::path::Path;

use anyhow::{bail, ensure, Result};
use burn_store::{ApplyResult, ModuleSnapshot, SafetensorsStore};

use crate::model::Mlp;

fn load_with_report(path: &Path) -> Result<(Mlp, ApplyResult)> {
    let mut model = Mlp::default();
    let report = model.load_from(&mut SafetensorsStore::from_file(path).allow_partial(true))?;
    Ok((model, report))
}

fn load_report_first(path: &Path) -> Result<(ApplyResult, Mlp)> {
    let mut model = Mlp::default();
    let report = model.load_from(&mut SafetensorsStore::from_file(path).allow_partial(true))?;
    Ok((report, model))
}

pub struct Loaded {
    pub model: Mlp,
    pub report: ApplyResult,
}

fn load_struct(path: &Path) -> Result<Loaded> {
    let mut model = Mlp::default();
    let report = model.load_from(&mut SafetensorsStore::from_file(path).allow_partial(true))?;
    Ok(Loaded { model, report })
}

// `_` before the report: it is still the second element
pub fn wildcard_then_report(path: &Path) -> Result<()> {
    let (_, report) = load_with_report(path)?;
    ensure!(report.missing.is_empty(), "incomplete");
    Ok(())
}

// `_` in the report's place: the model is not the report
pub fn wildcard_in_report_place(path: &Path) -> Result<Mlp> {
    let (_, net) = load_report_first(path)?; // expect: BL007
    Ok(net)
}

// shorthand field patterns bind the field's name
pub fn shorthand_field(path: &Path) -> Result<Mlp> {
    let Loaded { model, report } = load_struct(path)?;
    ensure!(report.missing.is_empty(), "incomplete");
    Ok(model)
}

pub fn shorthand_field_mut(path: &Path) -> Result<Mlp> {
    let Loaded { mut model, report } = load_struct(path)?;
    if !report.missing.is_empty() {
        model = Mlp::default();
    }
    Ok(model)
}

pub fn renamed_field_applied_only(path: &Path) -> Result<Mlp> {
    let Loaded { model, report: r } = load_struct(path)?; // expect: BL007
    println!("{} tensors", r.applied.len());
    Ok(model)
}

// `Ok((..))` in a match arm, an `if let`, a `let .. else`
pub fn match_arm_guard(path: &Path) -> Result<Mlp> {
    match load_with_report(path) {
        Ok((net, report)) if report.missing.is_empty() => Ok(net),
        Ok((_, report)) => bail!("{} tensors missing", report.missing.len()),
        Err(e) => Err(e),
    }
}

pub fn match_arm_applied_only(path: &Path) -> Result<Mlp> {
    match load_with_report(path) { // expect: BL007
        Ok((net, report)) => {
            println!("{} tensors", report.applied.len());
            Ok(net)
        }
        Err(e) => Err(e),
    }
}

pub fn if_let_tuple(path: &Path) -> Option<Mlp> {
    if let Ok((net, report)) = load_with_report(path) {
        if report.missing.is_empty() {
            return Some(net);
        }
    } else {
        eprintln!("cannot read {}", path.display());
        return None;
    }
    None
}

pub fn let_else_struct(path: &Path) -> Option<Mlp> {
    let Ok(Loaded { model, report }) = load_struct(path) else {
        return None;
    };
    report.missing.is_empty().then_some(model)
}

pub fn let_else_struct_dropped(path: &Path) -> Option<Mlp> {
    let Ok(Loaded { model, .. }) = load_struct(path) else { // expect: BL007
        return None;
    };
    Some(model)
}

// the same, directly on an `ApplyResult`
pub fn direct_struct_pattern(model: &mut Mlp, path: &Path) -> Result<()> {
    let mut store = SafetensorsStore::from_file(path).allow_partial(true);
    match model.load_from(&mut store) {
        Ok(ApplyResult { missing, .. }) if missing.is_empty() => Ok(()),
        Ok(_) => bail!("incomplete"),
        Err(e) => Err(e.into()),
    }
}

pub fn direct_struct_pattern_applied(model: &mut Mlp, path: &Path) -> Result<()> {
    let mut store = SafetensorsStore::from_file(path).allow_partial(true);
    if let Ok(ApplyResult { applied, .. }) = model.load_from(&mut store) { // expect: BL001, BL007
        println!("{} tensors", applied.len());
    }
    Ok(())
}

// tuple fields by index
pub fn tuple_index_read(path: &Path) -> Result<Mlp> {
    let loaded = load_with_report(path)?;
    ensure!(loaded.1.missing.is_empty(), "incomplete");
    Ok(loaded.0)
}

pub fn tuple_index_model_only(path: &Path) -> Result<Mlp> {
    let loaded = load_with_report(path)?; // expect: BL007
    Ok(loaded.0)
}

pub fn tuple_index_taken_at_once(path: &Path) -> Result<()> {
    let report = load_with_report(path)?.1;
    ensure!(report.missing.is_empty(), "incomplete");
    let applied = load_with_report(path)?.1.applied.len(); // expect: BL007
    println!("{applied}");
    Ok(())
}
