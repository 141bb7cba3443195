use std::path::Path;

use anyhow::Context;
use burn_store::{BurnpackStore, ModuleSnapshot, SafetensorsStore};

use crate::model::Classifier;

/// Writes the trained model for the serving binary (burnpack) and for the
/// Python evaluation scripts (safetensors).
pub fn export(model: &Classifier, dir: &Path, epochs: usize) -> anyhow::Result<()> {
    let mut serving = BurnpackStore::from_file(dir.join("classifier"))
        .overwrite(true)
        .metadata("epochs", epochs.to_string());
    model
        .save_into(&mut serving)
        .context("writing the serving model")?;

    let mut scripts = SafetensorsStore::from_file(dir.join("classifier.safetensors")).overwrite(true);
    model.save_into(&mut scripts).ok();
    log::info!("exported to {}", dir.display());
    Ok(())
}
