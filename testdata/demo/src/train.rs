use std::path::PathBuf;

use burn::nn::loss::CrossEntropyLossConfig;
use burn::optim::{AdamConfig, GradientsParams, Optimizer};
use burn::prelude::*;
use burn_store::{ModuleSnapshot, SafetensorsStore};

use crate::data::{Batch, Dataset};
use crate::model::Classifier;

pub struct TrainingConfig {
    pub epochs: usize,
    pub learning_rate: f64,
    pub artifact_dir: PathBuf,
    /// Continue from `latest.safetensors` in `artifact_dir`.
    pub resume: bool,
}

fn batch_loss(model: &Classifier, batch: &Batch) -> Tensor<1> {
    let logits = model.forward(batch.images.clone());
    CrossEntropyLossConfig::new()
        .init(&logits.device())
        .forward(logits, batch.targets.clone())
}

fn evaluate(model: &Classifier, data: &Dataset) -> f32 {
    let total: f32 = data
        .valid
        .iter()
        .map(|batch| batch_loss(model, batch).into_scalar().elem::<f32>())
        .sum();
    total / data.valid.len() as f32
}

pub fn train(config: &TrainingConfig, mut model: Classifier, data: &Dataset) -> anyhow::Result<Classifier> {
    std::fs::create_dir_all(&config.artifact_dir)?;
    let file = config.artifact_dir.join("latest.safetensors");
    let best_file = config.artifact_dir.join("best.safetensors");
    if config.resume && file.exists() {
        model.load_from(&mut SafetensorsStore::from_file(&file))?;
        log::info!("resumed from {}", file.display());
    }
    let mut optim = AdamConfig::new().init();
    let mut best_loss = f32::INFINITY;

    for epoch in 0..config.epochs {
        let mut train_loss = 0.0;
        for batch in &data.train {
            let loss = batch_loss(&model, batch);
            train_loss += loss.clone().into_scalar().elem::<f32>();
            let grads = GradientsParams::from_grads(loss.backward(), &model);
            model = optim.step(config.learning_rate, model, grads);
        }
        let valid_loss = evaluate(&model, data);
        println!(
            "epoch {epoch}: train loss {:.4}, valid loss {valid_loss:.4}",
            train_loss / data.train.len() as f32
        );

        // Keep the latest weights around in case the run is interrupted.
        let res = model.save_into(&mut SafetensorsStore::from_file(&file));
        match res {
            Ok(()) => println!("epoch {epoch}: saved"),
            Err(e) => eprintln!("epoch {epoch}: save failed: {e}"),
        }

        if valid_loss < best_loss {
            best_loss = valid_loss;
            let mut best = SafetensorsStore::from_file(&best_file).overwrite(true);
            let _ = model.save_into(&mut best);
            log::info!("epoch {epoch}: new best model ({valid_loss:.4})");
        }
    }
    Ok(model)
}
