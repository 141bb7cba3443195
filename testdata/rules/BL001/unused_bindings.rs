//! Results bound to a name that is never read (or read only after shadowing).

use std::path::Path;

use burn_store::{BurnpackStore, ModuleSnapshot};

use crate::data::Batch;
use crate::model::Mlp;
use crate::train::{evaluate, optimizer_step, train_epoch};

pub fn export_underscore(model: &Mlp, path: &Path) {
    let _saved = model.save_into(&mut BurnpackStore::from_file(path).overwrite(true)); // expect: BL001
}

pub fn export_named(model: &Mlp, path: &Path) {
    let status = model.save_into(&mut BurnpackStore::from_file(path).overwrite(true)); // expect: BL001
    println!("exported to {}", path.display());
}

/// The second `res` shadows the first: the printed value is the loss.
pub fn train_and_report(mut model: Mlp, batches: &[Batch], dir: &Path) -> Mlp {
    for batch in batches {
        model = train_epoch(model, batch);
        optimizer_step(&mut model, 1e-3);
    }
    let mut store = BurnpackStore::from_file(dir.join("model.bpk")).overwrite(true);
    let res = model.save_into(&mut store); // expect: BL001
    let res = evaluate(&model, batches);
    println!("{res}");
    model
}

/// The result is kept while the loss is computed, then propagated.
pub fn train_and_report_checked(mut model: Mlp, batches: &[Batch], dir: &Path) -> Result<Mlp, burn_store::burn_pack::Error> {
    for batch in batches {
        model = train_epoch(model, batch);
        optimizer_step(&mut model, 1e-3);
    }
    let mut store = BurnpackStore::from_file(dir.join("model.bpk")).overwrite(true);
    let saved = model.save_into(&mut store);
    let loss = evaluate(&model, batches);
    println!("{loss}");
    saved?;
    Ok(model)
}

/// The closure parameter `r` is another binding: the save result is never read.
pub fn save_and_list(model: &Mlp, path: &Path, layers: &[String]) {
    let r = model.save_into(&mut BurnpackStore::from_file(path).overwrite(true)); // expect: BL001
    layers.iter().for_each(|r| println!("layer {r}"));
}

/// `status` here has nothing to do with `status` in `export_named`.
pub fn print_status(status: &str) {
    println!("export status: {status}");
}

/// Read through a format-string capture: not discarded.
pub fn export_verbose(model: &Mlp, path: &Path) {
    let r = model.save_into(&mut BurnpackStore::from_file(path).overwrite(true));
    println!("export to {}: {r:?}", path.display());
}

/// Read as a positional format argument inside a closure: not discarded.
pub fn export_with_summary(model: &Mlp, path: &Path) {
    let outcome = model.save_into(&mut BurnpackStore::from_file(path).overwrite(true));
    let summary = || format!("{} -> {:?}", path.display(), outcome);
    println!("{}", summary());
}

/// Bound, then propagated.
pub fn export_checked(model: &Mlp, path: &Path) -> Result<(), burn_store::burn_pack::Error> {
    let written = model.save_into(&mut BurnpackStore::from_file(path).overwrite(true));
    written?;
    println!("exported to {}", path.display());
    Ok(())
}
