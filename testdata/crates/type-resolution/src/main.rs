//! The trainer binary: methods called on receivers whose type the code states, and methods of
//! the same name on other types.

use std::path::{Path, PathBuf};

use anyhow::Result;
use burn::prelude::*;
use dsp::Resampler;
use type_resolution::demo::Demo;
use type_resolution::model::Mlp;
use type_resolution::pipeline::Pipeline;
use type_resolution::tokenizer::Tokenizer;
use type_resolution::trainer::{Checkpointer, Trainer};

/// A typed parameter.
fn save_every_epoch(trainer: &Trainer, model: &Mlp, latest: &Path, epochs: usize) -> Result<()> {
    for _ in 0..epochs {
        trainer.save(model, latest)?; // expect: BL003
    }
    Ok(())
}

/// A parameter of the other type: `Demo::save` writes a plain file.
fn demo_every_epoch(demo: &Demo, model: &Mlp, latest: &Path, epochs: usize) -> Result<()> {
    for _ in 0..epochs {
        demo.save(model, latest)?;
    }
    Ok(())
}

/// Generic and `dyn` receivers: `Trainer` or `Demo`, not known.
fn generic_every_epoch<C: Checkpointer>(c: &C, model: &Mlp, latest: &Path) -> Result<()> {
    for _ in 0..3 {
        c.checkpoint(model, latest)?;
    }
    Ok(())
}

fn dyn_every_epoch(c: &dyn Checkpointer, model: &Mlp, latest: &Path) -> Result<()> {
    for _ in 0..3 {
        c.checkpoint(model, latest)?;
    }
    Ok(())
}

fn impl_every_epoch(c: &impl Checkpointer, model: &Mlp, latest: &Path) -> Result<()> {
    for _ in 0..3 {
        c.checkpoint(model, latest)?;
    }
    Ok(())
}

fn main() -> Result<()> {
    let device: Device = Default::default();
    let latest = PathBuf::from("runs/latest.bpk");
    let model = Mlp::new(&device);

    // a typed `let`, and a binding from `Trainer::new(..)`
    let typed: Trainer = Trainer::new("runs");
    let built = Trainer::new("runs");
    for _ in 0..3 {
        typed.save(&model, &latest)?; // expect: BL003
        built.save(&model, &latest)?; // expect: BL003
        typed.checkpoint(&model, &latest)?; // expect: BL003
    }
    save_every_epoch(&built, &model, &latest, 3)?;

    // the same names on `Demo`: a unit struct, a binding, a parameter
    let demo = Demo;
    for _ in 0..3 {
        demo.save(&model, &latest)?;
        Demo.save(&model, &latest)?;
        Demo::default().save(&model, &latest)?;
        demo.checkpoint(&model, &latest)?;
    }
    demo_every_epoch(&demo, &model, &latest, 3)?;
    generic_every_epoch(&built, &model, &latest)?;
    dyn_every_epoch(&demo, &model, &latest)?;
    impl_every_epoch(&typed, &model, &latest)?;
    returned_types(&model, &latest)?;

    // `train`: `Trainer`'s hands back a lenient load's result, `Demo`'s its own statistics
    let mut trainer = Trainer::new("runs");
    let (_warm, _) = trainer.train(&device, &latest)?; // expect: BL007
    let (_demo_model, _) = Demo.train(&device, &latest)?;
    let mut other_demo = Demo;
    let (_other, _stats) = other_demo.train(&device, &latest)?;

    // `from_local`: the tokenizer's reads a text file, the pipeline's loads weights
    let (_tokenizer, _) = Tokenizer::from_local(Path::new("vocab.txt"))?;
    let (_pipeline, _) = Pipeline::from_local(&device, Path::new("weights"))?; // expect: BL007
    let (pipeline, report) = Pipeline::from_local(&device, Path::new("weights"))?;
    assert!(report.missing.is_empty(), "{report}");

    // `new`: another crate's `Resampler::new` is not the crate's `Pipeline::new`
    let (_resampler, _) = Resampler::new(44_100, 16_000)?;
    let (_fresh, _) = Pipeline::new(&device, Path::new("model.safetensors"))?; // expect: BL007
    println!("{}", pipeline.tokenizer.is_some());
    Ok(())
}

/// Receivers typed by the declared return type of a crate function, and `Trainer::save`
/// called with the receiver as its first argument; a call through the trait's path names no
/// impl and stays unresolved.
fn make_trainer() -> Trainer {
    Trainer::new("x")
}

fn try_trainer() -> Result<Trainer> {
    Ok(Trainer::new("x"))
}

fn returned_types(model: &Mlp, latest: &Path) -> Result<()> {
    let a = make_trainer();
    let b = try_trainer()?;
    for _ in 0..3 {
        a.save(model, latest)?; // expect: BL003
        b.save(model, latest)?; // expect: BL003
        make_trainer().save(model, latest)?; // expect: BL003
        Checkpointer::checkpoint(&a, model, latest)?;
        <Trainer as Checkpointer>::checkpoint(&a, model, latest)?;
        Trainer::save(&a, model, latest)?; // expect: BL003
    }
    Ok(())
}
