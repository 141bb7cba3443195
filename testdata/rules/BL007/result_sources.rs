//! Where the `ApplyResult` of a lenient load comes from, and where it goes.

use std::path::Path;

use anyhow::{anyhow, Result};
use burn::prelude::*;
use burn_store::{ApplyResult, ModuleSnapshot, SafetensorsStore, SafetensorsStoreError};

use crate::data::Batch;
use crate::model::Mlp;
use crate::train::{evaluate, optimizer_step, train_epoch};

pub fn load_match_checked(model: &mut Mlp, path: &Path) -> Result<()> {
    let mut store = SafetensorsStore::from_file(path).allow_partial(true);
    match model.load_from(&mut store) {
        Ok(r) if r.missing.is_empty() => Ok(()),
        Ok(r) => Err(anyhow!("{} tensors missing", r.missing.len())),
        Err(e) => Err(e.into()),
    }
}

pub fn load_match_dropped(model: &mut Mlp, path: &Path) {
    let mut store = SafetensorsStore::from_file(path).allow_partial(true);
    match model.load_from(&mut store) { // expect: BL007
        Ok(_) => {}
        Err(e) => panic!("cannot read {}: {e}", path.display()),
    }
}

pub fn load_if_let_ok(model: &mut Mlp, path: &Path) {
    let mut store = SafetensorsStore::from_file(path).allow_partial(true);
    if let Ok(r) = model.load_from(&mut store) { // expect: BL001, BL007
        println!("loaded {} tensors", r.applied.len());
    }
}

pub fn load_if_let_ok_else(model: &mut Mlp, path: &Path) {
    let mut store = SafetensorsStore::from_file(path).allow_partial(true);
    if let Ok(r) = model.load_from(&mut store) {
        for (missing, _) in &r.missing {
            eprintln!("kept initial value: {missing}");
        }
    } else {
        panic!("cannot read {}", path.display());
    }
}

pub fn load_let_else_checked(model: &mut Mlp, path: &Path) -> bool {
    let mut store = SafetensorsStore::from_file(path).allow_partial(true);
    let Ok(r) = model.load_from(&mut store) else {
        return false;
    };
    r.missing.is_empty()
}

pub fn load_let_else_unchecked(model: &mut Mlp, path: &Path) -> bool {
    let mut store = SafetensorsStore::from_file(path).allow_partial(true);
    let Ok(r) = model.load_from(&mut store) else { // expect: BL007
        return false;
    };
    !r.applied.is_empty()
}

pub fn load_underscore_question(model: &mut Mlp, path: &Path) -> Result<(), SafetensorsStoreError> {
    let mut store = SafetensorsStore::from_file(path).allow_partial(true);
    let _ = model.load_from(&mut store)?; // expect: BL007
    Ok(())
}

pub fn load_underscore_binding(model: &mut Mlp, path: &Path) {
    let mut store = SafetensorsStore::from_file(path).allow_partial(true);
    let _report = model.load_from(&mut store).unwrap(); // expect: BL007
}

/// The second `r` shadows the `ApplyResult`: only `applied` was read.
pub fn warm_start_and_train(device: &Device, batches: &[Batch], epochs: usize, path: &Path) -> Result<Mlp> {
    let mut model = Mlp::new(device);
    let mut store = SafetensorsStore::from_file(path).allow_partial(true);
    let r = model.load_from(&mut store)?; // expect: BL007
    let r = r.applied.len();
    println!("warm start: {r} tensors");
    for epoch in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
            optimizer_step(&mut model, 1e-3);
        }
        println!("epoch {epoch}: val loss {:.4}", evaluate(&model, batches));
    }
    Ok(model)
}

pub fn load_returned(model: &mut Mlp, path: &Path) -> Result<ApplyResult, SafetensorsStoreError> {
    let mut store = SafetensorsStore::from_file(path).allow_partial(true);
    model.load_from(&mut store)
}

pub fn load_wrapped(model: &mut Mlp, path: &Path) -> Result<ApplyResult> {
    let mut store = SafetensorsStore::from_file(path).allow_partial(true);
    let result = model.load_from(&mut store)?;
    Ok(result)
}

/// Several partial loads, every result handed back to the caller.
pub fn load_all(models: &mut [Mlp], dir: &Path) -> Result<Vec<ApplyResult>> {
    let mut results = Vec::new();
    for (i, model) in models.iter_mut().enumerate() {
        let mut store = SafetensorsStore::from_file(dir.join(format!("part-{i}.safetensors"))).allow_partial(true);
        match model.load_from(&mut store) {
            Ok(r) => results.push(r),
            Err(e) => return Err(anyhow!("part {i}: {e}")),
        }
    }
    Ok(results)
}

// `.map(|r| ..)` on the load's Result: the closure is what reads the ApplyResult.
pub fn load_mapped_to_missing(model: &mut Mlp, path: &Path) -> Result<()> {
    let mut store = SafetensorsStore::from_file(path).allow_partial(true);
    let missing = model.load_from(&mut store).map(|r| r.missing)?;
    anyhow::ensure!(missing.is_empty(), "incomplete");
    Ok(())
}

pub fn load_mapped_into_a_pair(model: &mut Mlp, path: &Path) -> Result<usize> {
    let mut store = SafetensorsStore::from_file(path).allow_partial(true);
    let (n, r) = model.load_from(&mut store).map(|r| (1, r))?;
    anyhow::ensure!(r.missing.is_empty(), "incomplete");
    Ok(n)
}

pub fn load_mapped_to_a_count(model: &mut Mlp, path: &Path) -> Result<usize> {
    let mut store = SafetensorsStore::from_file(path).allow_partial(true);
    let applied = model.load_from(&mut store).map(|r| r.applied.len())?; // expect: BL007
    Ok(applied)
}

pub fn load_mapped_by_a_function(model: &mut Mlp, path: &Path) -> Result<Summary> {
    // a function passed by name may read all of it
    let mut store = SafetensorsStore::from_file(path).allow_partial(true);
    Ok(model.load_from(&mut store).map(Summary::from)?)
}

// `applied` compared as a whole (itself or its length, also gathered over shards): a
// completeness check, which says what reading `missing` would.
pub fn load_applied_asserted(model: &mut Mlp, path: &Path, expected: &[String]) {
    let mut store = SafetensorsStore::from_file(path).allow_partial(true);
    let result = model.load_from(&mut store).expect("load");
    assert_eq!(result.applied, expected);
}

pub fn load_applied_set_compared(
    model: &mut Mlp,
    path: &Path,
    expected: &std::collections::BTreeSet<String>,
) -> Result<()> {
    let mut store = SafetensorsStore::from_file(path).allow_partial(true);
    let result = model.load_from(&mut store)?;
    let actual: std::collections::BTreeSet<String> = result.applied.iter().cloned().collect();
    if &actual != expected {
        anyhow::bail!("applied {actual:?}");
    }
    Ok(())
}

pub fn load_shards_counted(model: &mut Mlp, shards: &[PathBuf], expected: usize) -> Result<()> {
    let mut applied = std::collections::BTreeSet::new();
    for shard in shards {
        let mut store = SafetensorsStore::from_file(shard).allow_partial(true);
        let result = model.load_from(&mut store)?;
        applied.extend(result.applied);
    }
    anyhow::ensure!(applied.len() == expected, "applied {} of {expected}", applied.len());
    Ok(())
}

// ... but not when it is only counted, logged or tested for emptiness
pub fn load_shards_gathered_only(model: &mut Mlp, shards: &[PathBuf]) -> Result<usize> {
    let mut applied = Vec::new();
    for shard in shards {
        let mut store = SafetensorsStore::from_file(shard).allow_partial(true);
        let result = model.load_from(&mut store)?; // expect: BL007
        applied.extend(result.applied);
    }
    anyhow::ensure!(!applied.is_empty(), "nothing applied");
    Ok(applied.len())
}

pub fn load_applied_counted_in_ensure(model: &mut Mlp, path: &Path, expected: usize) -> Result<()> {
    let mut store = SafetensorsStore::from_file(path).allow_partial(true);
    let result = model.load_from(&mut store)?;
    anyhow::ensure!(result.applied.len() == expected, "incomplete");
    Ok(())
}

pub fn load_applied_nonempty_in_ensure(model: &mut Mlp, path: &Path) -> Result<()> {
    let mut store = SafetensorsStore::from_file(path).allow_partial(true);
    let result = model.load_from(&mut store)?; // expect: BL007
    anyhow::ensure!(!result.applied.is_empty(), "nothing applied");
    Ok(())
}
