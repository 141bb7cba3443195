//! Evaluation: the lib's items by full path and through a renaming `use`.

use std::path::Path;

use anyhow::Result;
use burn::prelude::*;
use type_resolution::pipeline::Pipeline as LibPipeline;
use type_resolution::tokenizer::Tokenizer as Tok;

fn main() -> Result<()> {
    let device: Device = Default::default();
    let weights = Path::new("model.safetensors");
    let (_full, _) = type_resolution::pipeline::Pipeline::new(&device, weights)?; // expect: BL007
    let (_aliased, _) = LibPipeline::from_local(&device, Path::new("weights"))?; // expect: BL007
    let (_tok, _) = Tok::from_local(Path::new("vocab.txt"))?;
    let (checked, report) = LibPipeline::new(&device, weights)?;
    if !report.missing.is_empty() {
        anyhow::bail!("{} tensors missing", report.missing.len());
    }
    let latest = Path::new("eval/latest.bpk");
    for _ in 0..3 {
        type_resolution::checkpoint::save_latest(&checked.model, latest)?; // expect: BL003
        type_resolution::export::save_latest(&checked.model, latest)?;
    }
    Ok(())
}
