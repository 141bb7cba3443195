//! File stores saved into without an explicit `.overwrite(..)`: the first run works, the
//! second run of the same program fails with `File already exists`.
// burnlint-test: select = BL004

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use burn::prelude::*;
use burn_store::BurnpackStore as Bp;
use burn_store::{BurnToPyTorchAdapter, BurnpackStore, ModuleSnapshot, ModuleStore, SafetensorsStore};

use crate::config::Args;
use crate::data::Batch;
use crate::model::Mlp;
use crate::train::{evaluate, optimizer_step, train_epoch};

/// The book's save, inline.
pub fn save_model(model: &Mlp, path: &Path) -> Result<()> {
    model.save_into(&mut SafetensorsStore::from_file(path))?; // expect: BL004
    Ok(())
}

/// Burnpack, bound first, with metadata.
pub fn save_with_metadata(model: &Mlp, out: &Path, epoch: usize) -> Result<()> {
    let mut store = BurnpackStore::from_file(out.join("model.bpk")) // expect: BL004
        .metadata("epoch", epoch.to_string())
        .metadata("producer", "trainer");
    model.save_into(&mut store)?;
    Ok(())
}

/// Export for PyTorch, a multi-line chain.
pub fn export_for_torch(model: &Mlp, out: &Path) -> Result<()> {
    let mut store = SafetensorsStore::from_file(out) // expect: BL004
        .with_to_adapter(BurnToPyTorchAdapter)
        .skip_enum_variants(true);
    model
        .save_into(&mut store)
        .with_context(|| format!("exporting to {}", out.display()))?;
    Ok(())
}

/// A `use .. as` alias.
pub fn save_alias(model: &Mlp, path: &Path) -> Result<()> {
    model.save_into(&mut Bp::from_file(path))?; // expect: BL004
    Ok(())
}

/// A full path through the `burn` facade.
pub fn save_facade(model: &Mlp, path: &Path) -> Result<()> {
    let mut store = burn::store::SafetensorsStore::from_file(path); // expect: BL004
    model.save_into(&mut store)?;
    Ok(())
}

/// The store-side API.
pub fn save_store_side(model: &Mlp, path: PathBuf) -> Result<()> {
    let mut store = burn_store::BurnpackStore::from_file(path); // expect: BL004
    store.collect_from(model)?;
    Ok(())
}

/// `auto_extension(false)` is about the name, not about replacing: with an extension the
/// exact path is checked and written.
pub fn save_exact_name(model: &Mlp, dir: &Path) -> Result<()> {
    let mut store = BurnpackStore::from_file(dir.join("model.burn")).auto_extension(false); // expect: BL004
    model.save_into(&mut store)?;
    Ok(())
}

/// Without an extension burn 0.22 checks `model` and writes `model.bpk`: the second run
/// finds nothing to refuse. Up to 0.21 it refuses; with the release unknown, nothing is
/// certain.
pub fn save_exact_extensionless(model: &Mlp, dir: &Path) -> Result<()> {
    let mut store = BurnpackStore::from_file(dir.join("model")).auto_extension(false);
    model.save_into(&mut store)?;
    Ok(())
}

/// A path whose extension cannot be known, with `auto_extension(false)`: it may be
/// extensionless.
pub fn save_exact_unknown(model: &Mlp, path: &Path) -> Result<()> {
    let mut store = BurnpackStore::from_file(path).auto_extension(false);
    model.save_into(&mut store)?;
    Ok(())
}

/// With the automatic extension (the default) `model` becomes `model.bpk`, checked and
/// written alike: the second run is refused.
pub fn save_auto_extension(model: &Mlp, dir: &Path) -> Result<()> {
    let mut store = BurnpackStore::from_file(dir.join("model")); // expect: BL004
    model.save_into(&mut store)?;
    Ok(())
}

/// The bench's guard: saved only when the file is absent, still no explicit choice.
pub fn prepare_fixture(model: &Mlp, dir: &Path) {
    let bp_path = dir.join("fixture.bpk");
    if !bp_path.exists() {
        model
            .save_into(&mut BurnpackStore::from_file(&bp_path)) // expect: BL004
            .expect("write fixture");
    }
}

/// A single save whose failure is reported (not a loop: BL002 does not apply).
pub fn save_reported(model: &Mlp, args: &Args) {
    if let Err(e) = model.save_into(&mut SafetensorsStore::from_file(&args.output)) { // expect: BL004
        eprintln!("could not save {}: {e}", args.output.display());
    }
}

/// A whole training function with its final save.
pub fn train_and_save(device: &Device, batches: &[Batch], out: &Path, epochs: usize) -> Result<Mlp> {
    let mut model = Mlp::new(device);
    for epoch in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
            optimizer_step(&mut model, 1e-3);
        }
        println!("epoch {epoch}: loss {:.4}", evaluate(&model, batches));
    }
    let mut store = SafetensorsStore::from_file(out.join("final.safetensors")); // expect: BL004
    model.save_into(&mut store)?;
    Ok(model)
}

/// Distillation run with its export at the end: the export target is fixed, so the next run
/// of the same command stops there.
pub fn distill(device: &Device, teacher: &Mlp, batches: &[Batch], out: &Path, epochs: usize) -> Result<Mlp> {
    let mut student = Mlp::new(device);
    for epoch in 0..epochs {
        for batch in batches {
            let target = teacher.forward(batch.inputs.clone());
            student = crate::train::distill_step(student, batch, target);
        }
        log::info!("epoch {epoch}: student loss {:.4}", evaluate(&student, batches));
    }
    let mut store = BurnpackStore::from_file(out.join("student")) // expect: BL004
        .metadata("teacher", teacher.name())
        .metadata("epochs", epochs.to_string());
    student
        .save_into(&mut store)
        .with_context(|| format!("exporting the student to {}", out.display()))?;
    Ok(student)
}

/// The converter's last step, after an import: the output file name comes from the input's.
pub fn convert_to_safetensors(device: &Device, input: &Path) -> Result<PathBuf> {
    let mut model = Mlp::new(device);
    let mut source = BurnpackStore::from_file(input);
    let result = model.load_from(&mut source)?;
    println!("read {} tensors from {}", result.applied.len(), input.display());
    let output = input.with_extension("safetensors");
    if output.exists() {
        log::warn!("{} exists and will not be replaced", output.display());
    }
    model.save_into(&mut SafetensorsStore::from_file(&output))?; // expect: BL004
    Ok(output)
}

/// `Option::map`: a single save.
pub fn save_best(model: &Mlp, best: Option<&Path>) -> Option<()> {
    best.map(|p| model.save_into(&mut BurnpackStore::from_file(p)).expect("best")) // expect: BL004
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let device = Default::default();
        let model = Mlp::new(&device);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("model.bpk");
        model.save_into(&mut BurnpackStore::from_file(&path)).unwrap(); // expect: BL004
        let mut loaded = Mlp::new(&device);
        loaded.load_from(&mut BurnpackStore::from_file(&path)).unwrap();
    }
}

/// A test that the second save is refused: the default is what it checks.
pub fn refuses_a_second_save(model: &Mlp, path: &str) {
    model.save_into(&mut SafetensorsStore::from_file(path).overwrite(true)).unwrap();
    assert!(model.save_into(&mut SafetensorsStore::from_file(path)).is_err());
}
