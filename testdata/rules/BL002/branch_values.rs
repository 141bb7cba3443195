//! A `Result` that is the value of a `match` arm or an `else` branch takes the use of the
//! whole `match`/`if`: logged only there is logged only for each op inside.

use std::path::Path;

use burn_store::{BurnpackStore, ModuleSnapshot, SafetensorsStore};

use crate::data::Batch;
use crate::model::Mlp;
use crate::train::train_epoch;

pub enum Format {
    Safetensors,
    Burnpack,
}

pub fn train_and_save(mut model: Mlp, batches: &[Batch], dir: &Path, format: Format) -> Mlp {
    for (epoch, batch) in batches.iter().enumerate() {
        model = train_epoch(model, batch);
        let path = dir.join(format!("epoch-{epoch}"));
        let saved = match format {
            Format::Safetensors => {
                let mut store = SafetensorsStore::from_file(&path).overwrite(true);
                model.save_into(&mut store).map_err(|e| e.to_string()) // expect: BL002
            }
            Format::Burnpack => {
                let mut store = BurnpackStore::from_file(&path).overwrite(true);
                model.save_into(&mut store).map_err(|e| e.to_string()) // expect: BL002
            }
        };
        if let Err(e) = saved {
            eprintln!("epoch {epoch}: checkpoint failed: {e}");
        }
    }
    model
}

pub fn train_and_save_or_stop(mut model: Mlp, batches: &[Batch], dir: &Path, format: Format) -> Mlp {
    for (epoch, batch) in batches.iter().enumerate() {
        model = train_epoch(model, batch);
        let path = dir.join(format!("epoch-{epoch}"));
        let saved = match format {
            Format::Safetensors => {
                let mut store = SafetensorsStore::from_file(&path).overwrite(true);
                model.save_into(&mut store).map_err(|e| e.to_string())
            }
            Format::Burnpack => {
                let mut store = BurnpackStore::from_file(&path).overwrite(true);
                model.save_into(&mut store).map_err(|e| e.to_string())
            }
        };
        if let Err(e) = saved {
            eprintln!("epoch {epoch}: checkpoint failed: {e}");
            break;
        }
    }
    model
}

/// A load in an `else` branch, its error logged: the model may be half-loaded.
pub fn warm_start(model: &mut Mlp, path: Option<&Path>) {
    let loaded = if let Some(path) = path {
        let mut store = SafetensorsStore::from_file(path);
        model.load_from(&mut store).map(|_| ()) // expect: BL002
    } else {
        Ok(())
    };
    if let Err(e) = loaded {
        log::warn!("starting from scratch: {e}");
    }
}

pub fn warm_start_or_reinit(model: &mut Mlp, path: Option<&Path>) {
    let loaded = if let Some(path) = path {
        let mut store = SafetensorsStore::from_file(path);
        model.load_from(&mut store).map(|_| ())
    } else {
        Ok(())
    };
    if let Err(e) = loaded {
        log::warn!("starting from scratch: {e}");
        *model = Mlp::default();
    }
}
