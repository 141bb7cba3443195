//! Stores built once, before the loop, and saved into on every iteration (whatever their
//! path), and the spellings of the constructor: aliases, full paths, multi-line builders.

use std::path::Path;

use anyhow::Result;
use burn_store::SafetensorsStore as St;
use burn_store::{BurnToPyTorchAdapter, BurnpackStore, ModuleSnapshot, ModuleStore, SafetensorsStore};

use crate::data::Batch;
use crate::model::Mlp;
use crate::naming::run_path;
use crate::train::{evaluate, optimizer_step, train_epoch};

/// One store for the whole run.
pub fn train_one_store(mut model: Mlp, batches: &[Batch], dir: &Path, epochs: usize) -> Result<Mlp> {
    let mut store = SafetensorsStore::from_file(dir.join("latest.safetensors")); // expect: BL003
    for epoch in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
            optimizer_step(&mut model, 1e-3);
        }
        println!("epoch {epoch}: loss {:.4}", evaluate(&model, batches));
        model.save_into(&mut store)?;
    }
    Ok(model)
}

/// Built from a computed path (a function call), but built once: the file is the same.
pub fn train_run_store(mut model: Mlp, batches: &[Batch], dir: &Path, run_id: u64, epochs: usize) -> Result<Mlp> {
    let mut store = BurnpackStore::from_file(run_path(dir, run_id)); // expect: BL003
    for _ in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
        }
        model.save_into(&mut store)?;
    }
    Ok(model)
}

/// The store-side API: `collect_from` saves too.
pub fn train_collect_from(mut model: Mlp, batches: &[Batch], dir: &Path, epochs: usize) -> Result<Mlp> {
    let mut store = BurnpackStore::from_file(dir.join("latest.bpk")); // expect: BL003
    for _ in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
        }
        store.collect_from(&model)?;
    }
    Ok(model)
}

/// A multi-line builder with a comment inside: reported on the constructor's line.
pub fn train_export_for_torch(mut model: Mlp, batches: &[Batch], dir: &Path, epochs: usize) -> Result<Mlp> {
    let mut store =
        SafetensorsStore::from_file(dir.join("torch_latest.safetensors")) // expect: BL003
            // PyTorch reads these keys
            .with_to_adapter(BurnToPyTorchAdapter)
            .skip_enum_variants(true)
            .metadata("producer", "trainer");
    for epoch in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
            optimizer_step(&mut model, 1e-3);
        }
        log::info!("epoch {epoch}: exporting");
        model.save_into(&mut store)?;
    }
    Ok(model)
}

/// A `use .. as` alias of the store type.
pub fn train_alias(mut model: Mlp, batches: &[Batch], latest: &Path, epochs: usize) -> Result<Mlp> {
    for _ in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
        }
        model.save_into(&mut St::from_file(latest))?; // expect: BL003
    }
    Ok(model)
}

/// The full `burn_store::` path.
pub fn train_full_path(mut model: Mlp, batches: &[Batch], latest: &Path, epochs: usize) -> Result<Mlp> {
    for _ in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
        }
        let mut store = burn_store::BurnpackStore::from_file(latest); // expect: BL003
        model.save_into(&mut store)?;
    }
    Ok(model)
}

/// Through the `burn` facade, with the constructor on its own line of a chain.
pub fn train_burn_facade(mut model: Mlp, batches: &[Batch], latest: &Path, epochs: usize) -> Result<Mlp> {
    for _ in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
        }
        model
            .save_into(
                &mut burn::store::SafetensorsStore::from_file(latest) // expect: BL003
                    .metadata("stage", "finetune"),
            )
            .expect("checkpoint");
    }
    Ok(model)
}

/// Clean: one store, re-bound with an explicit overwrite before the loop.
pub fn train_rebound(mut model: Mlp, batches: &[Batch], dir: &Path, epochs: usize) -> Result<Mlp> {
    let store = SafetensorsStore::from_file(dir.join("latest.safetensors"));
    let mut store = store.overwrite(true);
    for _ in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
        }
        model.save_into(&mut store)?;
    }
    Ok(model)
}

/// Clean: an explicit overwrite at the end of a chain broken by comments.
pub fn train_chain_overwrite(mut model: Mlp, batches: &[Batch], dir: &Path, epochs: usize) -> Result<Mlp> {
    let mut store = BurnpackStore::from_file(dir.join("latest.bpk"))
        .metadata("run", "main")
        // replaced every epoch, on purpose
        .overwrite(true);
    for _ in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
        }
        store.collect_from(&model)?;
    }
    Ok(model)
}

/// Clean: an in-memory store replaces its buffer on every save.
pub fn train_in_memory(mut model: Mlp, batches: &[Batch], epochs: usize) -> Result<Vec<u8>> {
    let mut store = SafetensorsStore::from_bytes(None);
    for _ in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
        }
        model.save_into(&mut store)?;
    }
    Ok(store.get_bytes()?)
}

/// Clean: a Burnpack buffer in a `while` loop.
pub fn snapshot_until(mut model: Mlp, batches: &[Batch], target: f32) -> Result<Mlp> {
    let mut store = BurnpackStore::from_bytes(None);
    let mut loss = f32::INFINITY;
    while loss > target {
        for batch in batches {
            model = train_epoch(model, batch);
        }
        loss = evaluate(&model, batches);
        model.save_into(&mut store)?;
    }
    Ok(model)
}

/// Clean: built before the loop, saved once after it.
pub fn train_then_save(mut model: Mlp, batches: &[Batch], dir: &Path, epochs: usize) -> Result<Mlp> {
    let mut store = SafetensorsStore::from_file(dir.join("final.safetensors"));
    for _ in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
        }
    }
    model.save_into(&mut store)?;
    Ok(model)
}

/// Clean: an invariant file store in a loop that only loads from it.
pub fn evaluate_repeatedly(mut model: Mlp, batches: &[Batch], latest: &Path, rounds: usize) -> Result<Vec<f32>> {
    let mut losses = Vec::new();
    for _ in 0..rounds {
        model.load_from(&mut BurnpackStore::from_file(latest))?;
        losses.push(evaluate(&model, batches));
    }
    Ok(losses)
}
