//! Loads and saves through the fallible helpers.

use std::path::Path;

use anyhow::{anyhow, ensure, Context, Result};
use burn::prelude::*;
use burn_store::ModuleSnapshot;
use store_results::model::Mlp;
use store_results::stores::{
    checkpoint_store, lenient_store, lenient_store_again, plain_checkpoint_store, replacing_store,
    store_from_pointer, strict_store,
};

/// `?`, `unwrap`, `expect`, and the chains before them: the store is lenient, the result
/// goes unread.
fn unchecked(model: &mut Mlp, path: &Path) -> Result<()> {
    model.load_from(&mut lenient_store(path)?)?; // expect: BL007
    model.load_from(&mut lenient_store(path).unwrap())?; // expect: BL007
    model.load_from(&mut lenient_store(path).expect("checkpoint store"))?; // expect: BL007
    let mut bound = lenient_store(path)?;
    model.load_from(&mut bound)?; // expect: BL007
    let mut chained = lenient_store(path).map_err(|e| anyhow!("store: {e}"))?;
    model.load_from(&mut chained)?; // expect: BL007
    let mut with_context = lenient_store(path).context("building the store")?;
    model.load_from(&mut with_context)?; // expect: BL007
    let mut pointed = store_from_pointer(Path::new("latest.txt"))?;
    model.load_from(&mut pointed)?; // expect: BL007
    let mut again = lenient_store_again(path)?;
    model.load_from(&mut again)?; // expect: BL007
    Ok(())
}

/// The same stores, their results read.
fn checked(model: &mut Mlp, path: &Path) -> Result<()> {
    let r = model.load_from(&mut lenient_store(path)?)?;
    ensure!(r.missing.is_empty(), "missing {:?}", r.missing);
    let mut store = store_from_pointer(Path::new("latest.txt")).expect("pointer");
    let r = model.load_from(&mut store)?;
    println!("{r}");
    Ok(())
}

/// Strict again: the caller turns the leniency off, or the helper never set it.
fn strict(model: &mut Mlp, path: &Path) -> Result<()> {
    model.load_from(&mut lenient_store(path)?.allow_partial(false))?;
    model.load_from(&mut strict_store(path)?)?;
    model.load_from(&mut strict_store(path).unwrap())?;
    Ok(())
}

/// The store out of a `match` or an `if let`.
fn through_match(model: &mut Mlp, path: &Path) -> Result<()> {
    let mut store = match lenient_store(path) {
        Ok(store) => store,
        Err(e) => return Err(e.context("no store")),
    };
    model.load_from(&mut store)?; // expect: BL007
    if let Ok(mut store) = lenient_store(path) {
        let r = model.load_from(&mut store)?;
        ensure!(r.missing.is_empty(), "incomplete");
    }
    if let Ok(mut store) = lenient_store(path) {
        model.load_from(&mut store)?; // expect: BL007
    }
    let Ok(mut store) = lenient_store_again(path) else {
        anyhow::bail!("no store");
    };
    model.load_from(&mut store)?; // expect: BL007
    let mut store = match store_from_pointer(path) {
        Err(e) => panic!("{e}"),
        Ok(store) => store,
    };
    model.load_from(&mut store)?; // expect: BL007
    let mut store = if let Ok(store) = lenient_store(path) {
        store
    } else {
        return Ok(());
    };
    let r = model.load_from(&mut store)?;
    println!("{} missing", r.missing.len());
    let mut strict = match strict_store(path) {
        Ok(store) => store,
        Err(e) => return Err(e.into()),
    };
    model.load_from(&mut strict)?;
    Ok(())
}

/// Saves: built before the loop by the helper, the same file every epoch.
fn train(model: &Mlp, latest: &Path, epochs: usize) -> Result<()> {
    let mut store = checkpoint_store(latest)?; // expect: BL003
    for _ in 0..epochs {
        model.save_into(&mut store)?;
    }
    let mut replacing = replacing_store(latest)?;
    for _ in 0..epochs {
        model.save_into(&mut replacing)?;
    }
    Ok(())
}

/// Built in the loop by the helper from a path that never changes.
fn train_rebuilding(model: &Mlp, latest: &Path, epochs: usize) -> Result<()> {
    for epoch in 0..epochs {
        let mut store = checkpoint_store(latest).expect("checkpoint dir"); // expect: BL003
        model.save_into(&mut store)?;
        model.save_into(&mut checkpoint_store(latest)?)?; // expect: BL003
        model.save_into(&mut plain_checkpoint_store(latest))?; // expect: BL003
        let mut chained = checkpoint_store(latest).map_err(anyhow::Error::from)?.metadata("epoch", "x"); // expect: BL003
        model.save_into(&mut chained)?;
        let mut per_epoch = checkpoint_store(&latest.with_file_name(format!("e{epoch}.st")))?;
        model.save_into(&mut per_epoch)?;
        model.save_into(&mut replacing_store(latest)?)?;
        model.save_into(&mut checkpoint_store(latest)?.overwrite(true))?;
    }
    Ok(())
}

/// The error of the save logged only, in the loop.
fn train_logged(model: &Mlp, dir: &Path, epochs: usize) -> Result<()> {
    for epoch in 0..epochs {
        let mut store = checkpoint_store(&dir.join(format!("epoch-{epoch}.safetensors")))?;
        if let Err(e) = model.save_into(&mut store) { // expect: BL002
            eprintln!("epoch {epoch}: {e}");
        }
    }
    Ok(())
}

fn main() -> Result<()> {
    let mut model = Mlp::new(&Default::default());
    let path = Path::new("model.safetensors");
    unchecked(&mut model, path)?;
    checked(&mut model, path)?;
    strict(&mut model, path)?;
    through_match(&mut model, path)?;
    train(&model, path, 3)?;
    train_rebuilding(&model, path, 3)?;
    train_logged(&model, Path::new("runs"), 3)?;
    Ok(())
}
