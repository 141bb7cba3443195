//! The callers: each form of taking the helpers' values apart, checked or not.

use std::path::Path;

use anyhow::{ensure, Result};
use burn::prelude::*;
use burn_store::ApplyResult;
use report_helpers::load::{
    load_checked, load_complete, load_count, load_counted, load_fully_checked, load_into,
    load_missing_checked, load_unchecked, warm_start_mapped,
};
use report_helpers::model::Mlp;
use report_helpers::report::{
    ensure_complete, load_forwarded, load_forwarded_whole, load_report_first, load_struct,
    load_missing_list, load_struct_named, load_summarised, load_summarised_checked,
    load_unvalidated, load_with_report, Loaded,
};

/// Helpers that return the model: whatever they did, the callers have nothing to check.
fn model_returning(device: &Device, path: &Path) -> Result<()> {
    let a = load_checked(device, path)?;
    let b = load_unchecked(device, path)?;
    let c = load_counted(device, path).expect("checkpoint");
    let mut d = Mlp::from_checkpoint(device, path)?;
    let e = Mlp::from_checkpoint_lenient(device, path).unwrap();
    d.warm_start(path)?;
    d.warm_start_blind(path)?;
    warm_start_mapped(&mut d, path)?;
    let f = load_fully_checked(device, path)?;
    let g = load_missing_checked(device, path)?;
    load_into(&mut d, path)?;
    if !load_complete(&mut d, path)? {
        println!("incomplete");
    }
    let n = load_count(&mut d, path)?;
    println!("{a:?} {b:?} {c:?} {d:?} {e:?} {f:?} {g:?} {n}");
    Ok(())
}

/// The `missing` list handed back on its own.
fn missing_list_read(device: &Device, path: &Path) -> Result<Mlp> {
    let (net, missing) = load_missing_list(device, path)?;
    ensure!(missing.is_empty(), "missing {missing:?}");
    Ok(net)
}

fn missing_list_dropped(device: &Device, path: &Path) -> Result<Mlp> {
    let (net, _missing) = load_missing_list(device, path)?; // expect: BL007
    Ok(net)
}

/// Tuples: the report read for `missing`, passed on, returned onward.
fn tuple_missing_read(device: &Device, path: &Path) -> Result<Mlp> {
    let (net, report) = load_with_report(device, path)?;
    ensure!(report.missing.is_empty(), "missing {:?}", report.missing);
    Ok(net)
}

fn tuple_passed_on(device: &Device, path: &Path) -> Result<Mlp> {
    let (net, report) = load_with_report(device, path)?;
    ensure_complete(&report)?;
    Ok(net)
}

fn tuple_printed(device: &Device, path: &Path) -> Result<Mlp> {
    let (net, report) = load_with_report(device, path).expect("checkpoint");
    println!("{report}");
    Ok(net)
}

fn tuple_returned_onward(device: &Device, path: &Path) -> Result<(Mlp, ApplyResult)> {
    let (net, report) = load_with_report(device, path)?;
    Ok((net, report))
}

fn tuple_report_first(device: &Device, path: &Path) -> Result<Mlp> {
    let (report, net) = load_report_first(device, path)?;
    if !report.missing.is_empty() {
        anyhow::bail!("incomplete");
    }
    Ok(net)
}

/// Tuples: only `errors` or `applied` read under `allow_partial(true)`.
fn tuple_errors_only(device: &Device, path: &Path) -> Result<Mlp> {
    let (net, report) = load_with_report(device, path)?; // expect: BL007
    ensure!(report.errors.is_empty(), "errors {:?}", report.errors);
    Ok(net)
}

fn tuple_applied_only(device: &Device, path: &Path) -> Result<Mlp> {
    let (net, report) = load_with_report(device, path)?; // expect: BL007
    println!("{} tensors loaded", report.applied.len());
    Ok(net)
}

fn tuple_is_success(device: &Device, path: &Path) -> Result<Mlp> {
    let (net, report) = load_with_report(device, path)?; // expect: BL007
    ensure!(report.is_success(), "load failed");
    Ok(net)
}

fn tuple_ignored(device: &Device, path: &Path) -> Result<Mlp> {
    let (net, _) = load_with_report(device, path)?; // expect: BL007
    Ok(net)
}

fn tuple_report_first_applied(device: &Device, path: &Path) -> Result<Mlp> {
    let (report, net) = load_report_first(device, path)?; // expect: BL007
    log::info!("{} applied", report.applied.len());
    Ok(net)
}

/// `validate(false)`: `errors` or `is_success()` is the check it needs, `missing` is not.
fn unvalidated_is_success(device: &Device, path: &Path) -> Result<Mlp> {
    let (net, report) = load_unvalidated(device, path)?;
    ensure!(report.is_success(), "shape errors");
    Ok(net)
}

fn unvalidated_missing_only(device: &Device, path: &Path) -> Result<Mlp> {
    let (net, report) = load_unvalidated(device, path)?; // expect: BL007
    ensure!(report.missing.is_empty(), "incomplete");
    Ok(net)
}

/// Struct fields.
fn struct_destructured(device: &Device, path: &Path) -> Result<Mlp> {
    let Loaded { model, report } = load_struct(device, path)?;
    ensure!(report.missing.is_empty(), "incomplete");
    Ok(model)
}

fn struct_field_read(device: &Device, path: &Path) -> Result<Mlp> {
    let loaded = load_struct_named(device, path)?;
    ensure!(loaded.report.missing.is_empty(), "incomplete");
    Ok(loaded.model)
}

fn struct_applied_only(device: &Device, path: &Path) -> Result<Mlp> {
    let loaded = load_struct(device, path)?; // expect: BL007
    println!("{} tensors", loaded.report.applied.len());
    Ok(loaded.model)
}

fn struct_report_ignored(device: &Device, path: &Path) -> Result<Mlp> {
    let Loaded { model, .. } = load_struct_named(device, path)?; // expect: BL007
    Ok(model)
}

/// The crate's own report: its `missing` list is what must be read.
fn summary_missing_read(device: &Device, path: &Path) -> Result<Mlp> {
    let (net, summary) = load_summarised(device, path)?;
    ensure!(summary.missing.is_empty(), "missing {:?}", summary.missing);
    Ok(net)
}

fn summary_applied_only(device: &Device, path: &Path) -> Result<Mlp> {
    let (net, summary) = load_summarised(device, path)?; // expect: BL007
    println!("{} tensors", summary.applied);
    Ok(net)
}

fn summary_checked_inside(device: &Device, path: &Path) -> Result<Mlp> {
    let (net, applied) = load_summarised_checked(device, path)?;
    println!("{applied} tensors");
    Ok(net)
}

/// Through a helper that passes the tuple on: the check is still the caller's.
fn forwarded_checked(device: &Device, path: &Path) -> Result<Mlp> {
    let (net, report) = load_forwarded(device, path)?;
    ensure_complete(&report)?;
    Ok(net)
}

fn forwarded_dropped(device: &Device, path: &Path) -> Result<Mlp> {
    let (net, _report) = load_forwarded(device, path)?; // expect: BL007
    Ok(net)
}

fn forwarded_whole_applied(device: &Device, path: &Path) -> Result<Mlp> {
    let (net, report) = load_forwarded_whole(device, path)?; // expect: BL007
    log::info!("{}", report.applied.len());
    Ok(net)
}

fn forwarded_whole_checked(device: &Device, path: &Path) -> Result<Mlp> {
    let (net, report) = load_forwarded_whole(device, path)?;
    ensure!(report.missing.is_empty());
    Ok(net)
}

fn main() -> Result<()> {
    let device = Default::default();
    let path = Path::new("model.safetensors");
    model_returning(&device, path)?;
    // the tuple returned onward ends here, printed whole
    let (onward, report) = tuple_returned_onward(&device, path)?;
    println!("{onward:?}: {report}");
    // ... or dropped
    let (_, _) = tuple_returned_onward(&device, path)?; // expect: BL007
    let nets = [
        tuple_missing_read(&device, path)?,
        tuple_passed_on(&device, path)?,
        tuple_printed(&device, path)?,
        tuple_report_first(&device, path)?,
        tuple_errors_only(&device, path)?,
        tuple_applied_only(&device, path)?,
        tuple_is_success(&device, path)?,
        tuple_ignored(&device, path)?,
        tuple_report_first_applied(&device, path)?,
        unvalidated_is_success(&device, path)?,
        unvalidated_missing_only(&device, path)?,
        struct_destructured(&device, path)?,
        struct_field_read(&device, path)?,
        struct_applied_only(&device, path)?,
        struct_report_ignored(&device, path)?,
        summary_missing_read(&device, path)?,
        summary_applied_only(&device, path)?,
        summary_checked_inside(&device, path)?,
        forwarded_checked(&device, path)?,
        forwarded_dropped(&device, path)?,
        forwarded_whole_applied(&device, path)?,
        forwarded_whole_checked(&device, path)?,
        missing_list_read(&device, path)?,
        missing_list_dropped(&device, path)?,
    ];
    println!("{} models", nets.len());
    Ok(())
}
