//! Methods that share a name with burn-store operations but are not store operations.
//! No `ModuleStore` import here, and the arguments are not stores.

use std::io::Write;
use std::path::Path;

use anyhow::Result;
use burn_store::{ModuleSnapshot, SafetensorsStore};
use image_aug::{Image, Transform};

use crate::model::Mlp;

/// Training-run notes written next to the weights.
pub struct RunLog {
    entries: Vec<String>,
}

impl RunLog {
    pub fn save_into(&self, out: &mut Vec<u8>) -> std::io::Result<()> {
        for entry in &self.entries {
            writeln!(out, "{entry}")?;
        }
        Ok(())
    }
}

pub fn write_run(model: &Mlp, log: &RunLog, dir: &Path) -> Result<()> {
    let mut buf = Vec::new();
    let _ = log.save_into(&mut buf);
    std::fs::write(dir.join("run.log"), &buf)?;
    let mut store = SafetensorsStore::from_file(dir.join("model.safetensors")).overwrite(true);
    model.save_into(&mut store)?;
    Ok(())
}

pub fn augment(transform: &Transform, mut img: Image) -> Image {
    let _ = transform.apply_to(&mut img);
    img
}

pub fn augment_batch(transform: &Transform, images: &mut [Image]) {
    for img in images.iter_mut() {
        transform.apply_to(img).ok();
    }
}
