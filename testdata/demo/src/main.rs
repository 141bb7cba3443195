mod data;
mod export;
mod import;
mod model;
mod train;

use std::path::{Path, PathBuf};

use burn::prelude::*;

use crate::data::Dataset;
use crate::model::{Classifier, ClassifierConfig};
use crate::train::TrainingConfig;

/// Runs the fine-tuned PyTorch weights through the burn implementation.
fn compare(device: &Device) -> anyhow::Result<()> {
    let model = import::import_finetuned(device, Path::new("weights/finetuned.pt"))?;
    println!("{model}");
    Ok(())
}

fn initial_model(mode: &str, device: &Device) -> Classifier {
    match mode {
        "finetune" => import::import_pretrained(device, Path::new("weights/pretrained.pt")),
        _ => ClassifierConfig::new().init(device),
    }
}

fn main() -> anyhow::Result<()> {
    env_logger::init();
    let device = Default::default();
    let mode = std::env::args().nth(1).unwrap_or_else(|| "train".to_string());
    if mode == "compare" {
        return compare(&device);
    }

    let config = TrainingConfig {
        epochs: 10,
        learning_rate: 1e-3,
        artifact_dir: PathBuf::from("artifacts"),
        resume: mode == "resume",
    };
    let model = initial_model(&mode, &device);

    let data = Dataset::synthetic(&device, 64, 32);
    let model = train::train(&config, model, &data)?;
    export::export(&model, &config.artifact_dir, config.epochs)?;
    Ok(())
}
