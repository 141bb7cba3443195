//! `Pipeline::from_local` and `Pipeline::new` load weights leniently and hand the result
//! back: their callers must read `missing`.

use std::path::Path;

use anyhow::Result;
use burn::prelude::*;
use burn_store::{ApplyResult, ModuleSnapshot, SafetensorsStore};

use crate::model::Mlp;
use crate::tokenizer::Tokenizer;

pub struct Pipeline {
    pub model: Mlp,
    pub tokenizer: Option<Tokenizer>,
}

impl Pipeline {
    pub fn new(device: &Device, weights: &Path) -> Result<(Self, ApplyResult)> {
        let mut model = Mlp::new(device);
        let mut store = SafetensorsStore::from_file(weights).allow_partial(true);
        let report = model.load_from(&mut store)?;
        Ok((Self { model, tokenizer: None }, report))
    }

    pub fn from_local(device: &Device, dir: &Path) -> Result<(Self, ApplyResult)> {
        let (mut pipeline, report) = Self::new(device, &dir.join("model.safetensors"))?;
        let (tokenizer, _) = Tokenizer::from_local(&dir.join("vocab.txt"))?;
        pipeline.tokenizer = Some(tokenizer);
        Ok((pipeline, report))
    }
}
