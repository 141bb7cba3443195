//! An `ApplyResult` handed to a function of the crate that checks it: the function's own reads
//! decide. A check function that reads only `errors` leaves `missing` unchecked.

use anyhow::{bail, ensure, Result};
use burn::prelude::*;
use burn_store::{ApplyResult, ModuleSnapshot, SafetensorsStore};

use crate::model::Mlp;

// reads `errors` only (by reference and by value, in a macro and out of one)
fn ensure_no_errors(result: &ApplyResult) -> Result<()> {
    if !result.errors.is_empty() {
        bail!("tensor errors: {:?}", result.errors);
    }
    ensure!(!result.applied.is_empty(), "nothing applied");
    Ok(())
}

fn ensure_no_errors_owned(result: burn_store::ApplyResult) -> Result<()> {
    ensure!(result.errors.is_empty(), "tensor errors: {:?}", result.errors);
    Ok(())
}

// forwards to the one above and then looks at `applied` only
fn ensure_critical(result: &ApplyResult, names: &[&str]) -> Result<()> {
    ensure_no_errors(result)?;
    for name in names {
        ensure!(result.applied.iter().any(|p| p == name), "{name} not loaded");
    }
    Ok(())
}

// reads `missing`: a full check for `allow_partial(true)`
fn ensure_complete(result: &ApplyResult) -> Result<()> {
    ensure!(result.missing.is_empty(), "missing: {:?}", result.missing);
    Ok(())
}

// prints the whole result: both lists
fn log_result(result: &ApplyResult) {
    println!("{result}");
}

struct Checker;

impl Checker {
    fn errors_only(&self, result: &ApplyResult) -> Result<()> {
        ensure!(result.errors.is_empty(), "errors");
        Ok(())
    }
}

pub fn errors_only_by_reference(model: &mut Mlp) -> Result<()> {
    let mut store = SafetensorsStore::from_file("m.safetensors").allow_partial(true);
    let result = model.load_from(&mut store)?; // expect: BL007
    ensure_no_errors(&result)?;
    Ok(())
}

pub fn errors_only_by_value(model: &mut Mlp) -> Result<()> {
    let mut store = SafetensorsStore::from_file("m.safetensors").allow_partial(true);
    let result = model.load_from(&mut store)?; // expect: BL007
    ensure_no_errors_owned(result)
}

pub fn errors_through_a_second_function(model: &mut Mlp) -> Result<()> {
    let mut store = SafetensorsStore::from_file("m.safetensors").allow_partial(true);
    let result = model.load_from(&mut store)?; // expect: BL007
    ensure_critical(&result, &["head.weight"])
}

pub fn errors_through_a_method(model: &mut Mlp) -> Result<()> {
    let mut store = SafetensorsStore::from_file("m.safetensors").allow_partial(true);
    let result = model.load_from(&mut store)?; // expect: BL007
    Checker.errors_only(&result)
}

pub fn errors_only_and_validate_false(model: &mut Mlp) -> Result<()> {
    // `validate(false)` needs `errors`: that function reads it
    let mut store = SafetensorsStore::from_file("m.safetensors").validate(false);
    let result = model.load_from(&mut store)?;
    ensure_no_errors(&result)
}

pub fn missing_checked_by_function(model: &mut Mlp) -> Result<()> {
    let mut store = SafetensorsStore::from_file("m.safetensors").allow_partial(true);
    let result = model.load_from(&mut store)?;
    ensure_complete(&result)
}

pub fn printed_by_function(model: &mut Mlp) -> Result<()> {
    let mut store = SafetensorsStore::from_file("m.safetensors").allow_partial(true);
    let result = model.load_from(&mut store)?;
    log_result(&result);
    Ok(())
}

pub fn errors_only_then_missing_read(model: &mut Mlp) -> Result<()> {
    let mut store = SafetensorsStore::from_file("m.safetensors").allow_partial(true);
    let result = model.load_from(&mut store)?;
    ensure_no_errors(&result)?;
    ensure!(result.missing.is_empty(), "incomplete");
    Ok(())
}

pub fn passed_to_an_unknown_function(model: &mut Mlp) -> Result<()> {
    // not a function of this crate: whatever it reads, the finding would not be certain
    let mut store = SafetensorsStore::from_file("m.safetensors").allow_partial(true);
    let result = model.load_from(&mut store)?;
    other_crate::verify(&result)
}

fn load_with_report(path: &str) -> Result<(Mlp, ApplyResult)> {
    let mut model = Mlp::default();
    let mut store = SafetensorsStore::from_file(path).allow_partial(true);
    let result = model.load_from(&mut store)?;
    Ok((model, result))
}

pub fn report_fields_read_in_a_macro() -> Result<Mlp> {
    // `ensure!` reads `errors` and `applied`, and prints `errors`: never `missing`
    let (model, report) = load_with_report("m.safetensors")?; // expect: BL007
    ensure!(
        report.errors.is_empty() && !report.applied.is_empty(),
        "load failed: {:?}",
        report.errors
    );
    Ok(model)
}

pub fn report_missing_read_in_a_macro() -> Result<Mlp> {
    let (model, report) = load_with_report("m.safetensors")?;
    ensure!(report.missing.is_empty(), "incomplete");
    Ok(model)
}

pub fn report_printed_whole_in_a_macro() -> Result<Mlp> {
    let (model, report) = load_with_report("m.safetensors")?;
    println!("{:?}", report);
    Ok(model)
}

pub fn report_passed_to_an_errors_only_check() -> Result<Mlp> {
    let (model, report) = load_with_report("m.safetensors")?; // expect: BL007
    ensure_no_errors(&report)?;
    Ok(model)
}

pub fn report_passed_to_a_complete_check() -> Result<Mlp> {
    let (model, report) = load_with_report("m.safetensors")?;
    ensure_complete(&report)?;
    Ok(model)
}
