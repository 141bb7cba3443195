//! The crate's own report, returned alone: its `missing` field is what must be read.

use std::path::Path;

use anyhow::{ensure, Result};
use report_helpers::model::Mlp;
use report_helpers::report::load_report_only;

fn main() -> Result<()> {
    let mut model = Mlp::new(&Default::default());
    let path = Path::new("model.safetensors");
    let report = load_report_only(&mut model, path)?;
    ensure!(report.missing.is_empty(), "{} tensors missing", report.missing.len());
    let counted = load_report_only(&mut model, path)?; // expect: BL007
    println!("{} tensors", counted.loaded);
    load_report_only(&mut model, path)?; // expect: BL007
    let printed = load_report_only(&mut model, path).expect("load");
    for (name, _) in &printed.missing {
        eprintln!("missing {name}");
    }
    Ok(())
}
