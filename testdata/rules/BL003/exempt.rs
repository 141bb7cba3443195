//! Saves in loops that are not a stale checkpoint: an explicit overwrite either way, a path
//! that changes (or might), a save that runs once, a file removed in the same iteration.
//! A few near misses at the end still fire.

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};

use anyhow::Result;
use burn_store::{BurnpackStore, ModuleSnapshot, SafetensorsStore};

use crate::config::Args;
use crate::data::Batch;
use crate::model::Mlp;
use crate::naming::{checkpoint_path, rotate};
use crate::train::{evaluate, optimizer_step, train_epoch};

/// Explicit `overwrite(false)`: keeping the first snapshot is deliberate; a refusal ends the
/// saving.
pub fn keep_first_snapshot(mut model: Mlp, batches: &[Batch], dir: &Path, epochs: usize) -> Mlp {
    let first = dir.join("first.safetensors");
    for epoch in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
        }
        match model.save_into(&mut SafetensorsStore::from_file(&first).overwrite(false)) {
            Ok(()) => println!("epoch {epoch}: snapshot written"),
            Err(e) => {
                println!("epoch {epoch}: keeping the existing snapshot ({e})");
                break;
            }
        }
    }
    model
}

/// An overwrite whose value comes from the command line is explicit too.
pub fn train_overwrite_flag(mut model: Mlp, batches: &[Batch], args: &Args) -> Result<Mlp> {
    for _ in 0..args.epochs {
        for batch in batches {
            model = train_epoch(model, batch);
        }
        let mut store = BurnpackStore::from_file(&args.output).overwrite(args.force);
        model.save_into(&mut store)?;
    }
    Ok(model)
}

/// The epoch is in the file name.
pub fn train_per_epoch(mut model: Mlp, batches: &[Batch], dir: &str, epochs: usize) -> Result<Mlp> {
    for epoch in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
            optimizer_step(&mut model, 1e-3);
        }
        println!("epoch {epoch}: loss {:.4}", evaluate(&model, batches));
        model.save_into(&mut BurnpackStore::from_file(format!("{dir}/epoch-{epoch}.bpk")))?;
    }
    Ok(model)
}

/// The loop variable is the path.
pub fn save_each(models: &[Mlp], paths: &[PathBuf]) -> Result<()> {
    for (model, path) in models.iter().zip(paths) {
        model.save_into(&mut SafetensorsStore::from_file(path))?;
    }
    Ok(())
}

/// A binding derived from the loop variable.
pub fn train_named_epochs(mut model: Mlp, batches: &[Batch], dir: &Path, epochs: usize) -> Result<Mlp> {
    for epoch in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
        }
        let name = format!("e{epoch:03}");
        let path = dir.join(&name).with_extension("safetensors");
        model.save_into(&mut SafetensorsStore::from_file(&path))?;
    }
    Ok(model)
}

/// A function call that is not a known pure path call: not provably the same path.
pub fn train_named_by_fn(mut model: Mlp, batches: &[Batch], dir: &Path, epochs: usize) -> Result<Mlp> {
    for epoch in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
        }
        model.save_into(&mut BurnpackStore::from_file(checkpoint_path(dir, epoch)))?;
    }
    Ok(model)
}

/// The path binding is re-assigned inside the loop when the loss improves.
pub fn train_reassigned(mut model: Mlp, batches: &[Batch], dir: &Path, epochs: usize) -> Result<Mlp> {
    let mut path = dir.join("best-0.safetensors");
    let mut best = f32::INFINITY;
    for epoch in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
        }
        let loss = evaluate(&model, batches);
        if loss < best {
            best = loss;
            path = dir.join(format!("best-{epoch}.safetensors"));
        }
        model.save_into(&mut SafetensorsStore::from_file(&path))?;
    }
    Ok(model)
}

/// A mutating method on the binding (`set_extension`) makes it varying.
pub fn train_set_extension(mut model: Mlp, batches: &[Batch], base: &Path, epochs: usize) -> Result<Mlp> {
    for _ in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
        }
        let mut p = base.to_path_buf();
        p.set_extension("bpk");
        model.save_into(&mut BurnpackStore::from_file(&p))?;
    }
    Ok(model)
}

/// A `&mut` borrow of the path inside the loop.
pub fn train_rotated(mut model: Mlp, batches: &[Batch], dir: &Path, epochs: usize) -> Result<Mlp> {
    let mut path = dir.join("slot-a.bpk");
    for _ in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
        }
        rotate(&mut path);
        model.save_into(&mut BurnpackStore::from_file(&path))?;
    }
    Ok(model)
}

/// Names drawn from an iterator with `next()`.
pub fn train_named_slots(mut model: Mlp, batches: &[Batch], slots: &[PathBuf]) -> Result<Mlp> {
    let mut names = slots.iter();
    loop {
        let Some(slot) = names.next() else { break };
        for batch in batches {
            model = train_epoch(model, batch);
        }
        model.save_into(&mut SafetensorsStore::from_file(slot))?;
    }
    Ok(model)
}

/// A per-epoch binding shadows the invariant one.
pub fn train_shadowed(mut model: Mlp, batches: &[Batch], dir: &Path, epochs: usize) -> Result<Mlp> {
    let path = dir.join("latest.bpk");
    println!("final weights go to {}", path.display());
    for epoch in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
        }
        let path = dir.join(format!("epoch-{epoch}.bpk"));
        model.save_into(&mut BurnpackStore::from_file(&path))?;
    }
    Ok(model)
}

/// An environment lookup is a call: varying as far as burnlint can tell.
pub fn train_env_path(mut model: Mlp, batches: &[Batch], epochs: usize) -> Result<Mlp> {
    for _ in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
        }
        let out = std::env::var("CKPT_PATH")?;
        model.save_into(&mut SafetensorsStore::from_file(out))?;
    }
    Ok(model)
}

/// The save is followed unconditionally by `break`: it runs once.
pub fn train_save_on_convergence(mut model: Mlp, batches: &[Batch], dir: &Path, target: f32) -> Result<Mlp> {
    let best = dir.join("converged.safetensors");
    loop {
        for batch in batches {
            model = train_epoch(model, batch);
            optimizer_step(&mut model, 1e-3);
        }
        let loss = evaluate(&model, batches);
        if loss < target {
            model.save_into(&mut SafetensorsStore::from_file(&best))?;
            println!("converged at {loss:.4}");
            break;
        }
    }
    Ok(model)
}

/// The save is followed unconditionally by `return`.
pub fn train_until_target(mut model: Mlp, batches: &[Batch], dir: &Path, epochs: usize) -> Result<Option<Mlp>> {
    for epoch in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
        }
        if evaluate(&model, batches) < 0.01 {
            let mut store = BurnpackStore::from_file(dir.join("early.bpk"));
            model.save_into(&mut store)?;
            log::info!("stopped early at epoch {epoch}");
            return Ok(Some(model));
        }
    }
    Ok(None)
}

/// The bench shape: save, then remove the same file.
pub fn bench_save(model: &Mlp, dir: &Path, iterations: usize) {
    let path = dir.join("bench.safetensors");
    for _ in 0..iterations {
        model
            .save_into(&mut SafetensorsStore::from_file(&path))
            .expect("save");
        let _ = fs::remove_file(&path);
    }
}

/// The stale file is removed before the save (same binding).
pub fn train_remove_first(mut model: Mlp, batches: &[Batch], latest: &Path, epochs: usize) -> Result<Mlp> {
    for _ in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
        }
        let _ = std::fs::remove_file(latest); // no file yet on the first epoch
        model.save_into(&mut BurnpackStore::from_file(latest))?;
    }
    Ok(model)
}

/// The same path expression, written twice.
pub fn bench_save_bpk(model: &Mlp, dir: &Path, iterations: usize) {
    for _ in 0..iterations {
        let mut store = BurnpackStore::from_file(dir.join("bench.bpk"));
        model.save_into(&mut store).expect("save");
        fs::remove_file(dir.join("bench.bpk")).expect("cleanup");
    }
}

/// `Option::map` runs its closure at most once.
pub fn save_best_if_any(model: &Mlp, best_dir: Option<PathBuf>) -> Option<()> {
    best_dir.map(|dir| {
        let mut store = SafetensorsStore::from_file(dir.join("best.safetensors"));
        model.save_into(&mut store).expect("best model");
    })
}

/// A thread's closure runs once.
pub fn save_in_background(model: Mlp, path: PathBuf) -> std::thread::JoinHandle<()> {
    std::thread::spawn(move || {
        let mut store = SafetensorsStore::from_file(&path);
        model.save_into(&mut store).expect("background save");
    })
}

/// Saved once per key of a map, each under its own name.
pub fn save_heads(heads: &HashMap<String, Mlp>, dir: &Path) -> Result<()> {
    for (name, head) in heads {
        head.save_into(&mut BurnpackStore::from_file(dir.join(name).with_extension("bpk")))?;
    }
    Ok(())
}

/// Fires: the file removed is not the one saved.
pub fn train_remove_other(mut model: Mlp, batches: &[Batch], dir: &Path, epochs: usize) -> Result<Mlp> {
    let latest = dir.join("latest.safetensors");
    let lock = dir.join("latest.lock");
    for _ in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
        }
        fs::remove_file(&lock)?;
        model.save_into(&mut SafetensorsStore::from_file(&latest))?; // expect: BL003
    }
    Ok(model)
}

/// Fires: the `break` comes before the save and is conditional.
pub fn train_break_first(mut model: Mlp, batches: &[Batch], dir: &Path, target: f32) -> Result<Mlp> {
    loop {
        let loss = evaluate(&model, batches);
        if loss < target {
            break;
        }
        for batch in batches {
            model = train_epoch(model, batch);
        }
        let mut store = BurnpackStore::from_file(dir.join("latest.bpk")); // expect: BL003
        model.save_into(&mut store)?;
    }
    Ok(model)
}
