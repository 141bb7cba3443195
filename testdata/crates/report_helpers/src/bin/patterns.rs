//! More ways of taking a returned report apart: match arms, `if let`, nested tuples, a
//! loader method on a typed receiver.

use std::path::Path;

use anyhow::{bail, Result};
use burn::prelude::*;
use report_helpers::model::Mlp;
use report_helpers::report::{load_nested, load_with_report, Loader};

fn match_checked(device: &Device, path: &Path) -> Result<Mlp> {
    match load_with_report(device, path) {
        Ok((net, report)) if report.missing.is_empty() => Ok(net),
        Ok((_, report)) => bail!("{} tensors missing", report.missing.len()),
        Err(e) => Err(e),
    }
}

fn match_applied_only(device: &Device, path: &Path) -> Result<Mlp> {
    match load_with_report(device, path) { // expect: BL007
        Ok((net, report)) => {
            println!("{} tensors", report.applied.len());
            Ok(net)
        }
        Err(e) => Err(e),
    }
}

fn nested_checked(device: &Device, path: &Path) -> Result<Mlp> {
    let (net, (report, epoch)) = load_nested(device, path)?;
    if !report.missing.is_empty() {
        bail!("epoch {epoch}: incomplete");
    }
    Ok(net)
}

fn nested_epoch_only(device: &Device, path: &Path) -> Result<Mlp> {
    let (net, (_, epoch)) = load_nested(device, path)?; // expect: BL007
    println!("resumed at epoch {epoch}");
    Ok(net)
}

fn method_checked(device: Device, path: &Path) -> Result<Mlp> {
    let loader = Loader::new(device);
    let (net, report) = loader.load(path)?;
    if !report.missing.is_empty() {
        bail!("incomplete");
    }
    Ok(net)
}

fn method_dropped(loader: &Loader, path: &Path) -> Result<Mlp> {
    let (net, _) = loader.load(path)?; // expect: BL007
    Ok(net)
}

fn main() -> Result<()> {
    let device: Device = Default::default();
    let path = Path::new("model.safetensors");
    match_checked(&device, path)?;
    match_applied_only(&device, path)?;
    nested_checked(&device, path)?;
    nested_epoch_only(&device, path)?;
    method_dropped(&Loader::new(device.clone()), path)?;
    method_checked(device, path)?;
    Ok(())
}
