//! `#[cfg(..)]`-gated tail blocks: a block-like statement without `;` whose value is not `()`
//! compiles only as its block's tail (the alternatives after it are compiled out), so its
//! value is returned, not discarded.

use std::path::Path;

use anyhow::{bail, Result};
use burn_store::{BurnpackStore, ModuleSnapshot, SafetensorsStore, SafetensorsStoreError};

use crate::model::Mlp;

/// The sketch, with the op written out.
pub fn save_gated(model: &Mlp, path: &Path) -> Result<(), SafetensorsStoreError> {
    let mut store = SafetensorsStore::from_file(path).overwrite(true);
    #[cfg(feature = "safetensors")]
    {
        model.save_into(&mut store)
    }
    #[cfg(not(feature = "safetensors"))]
    {
        unimplemented!("built without safetensors")
    }
}

/// A crate-local helper that returns the save's `Result`, called as the gated tail.
fn write_checkpoint(model: &Mlp, path: &Path) -> Result<(), SafetensorsStoreError> {
    let mut store = SafetensorsStore::from_file(path).overwrite(true);
    model.save_into(&mut store)
}

pub fn save_gated_helper(model: &Mlp, path: &Path) -> Result<(), SafetensorsStoreError> {
    #[cfg(feature = "checkpoints")]
    {
        write_checkpoint(model, path)
    }
    #[cfg(not(feature = "checkpoints"))]
    {
        let _ = (model, path);
        Ok(())
    }
}

/// The gated alternative comes first: the last block is the tail in its own build anyway.
pub fn save_gated_last(model: &Mlp, path: &Path) -> Result<()> {
    #[cfg(not(feature = "burnpack"))]
    {
        bail!("built without burnpack: cannot write {}", path.display())
    }
    #[cfg(feature = "burnpack")]
    {
        let mut store = BurnpackStore::from_file(path).overwrite(true);
        Ok(model.save_into(&mut store)?)
    }
}

/// A gated `match` and a gated `unsafe` block hold the value the same way.
pub fn save_gated_match(model: &Mlp, path: &Path, half: bool) -> Result<(), SafetensorsStoreError> {
    let mut store = SafetensorsStore::from_file(path).overwrite(true);
    #[cfg(feature = "half")]
    match half {
        true => model.save_into(&mut store),
        false => unsafe { model.save_into(&mut store) },
    }
    #[cfg(not(feature = "half"))]
    model.save_into(&mut store)
}

/// Gated blocks inside a `let`: the inner block's value is the value bound, and it is
/// propagated.
pub fn save_gated_in_let(model: &Mlp, path: &Path) -> Result<()> {
    let mut store = SafetensorsStore::from_file(path).overwrite(true);
    let saved = {
        #[cfg(feature = "checkpoints")]
        {
            model.save_into(&mut store)
        }
        #[cfg(not(feature = "checkpoints"))]
        {
            Ok(())
        }
    };
    saved?;
    Ok(())
}

/// The same gated blocks, but the value bound is then dropped.
pub fn save_gated_in_let_dropped(model: &Mlp, path: &Path) {
    let mut store = SafetensorsStore::from_file(path).overwrite(true);
    let _ = {
        #[cfg(feature = "checkpoints")]
        {
            model.save_into(&mut store) // expect: BL001
        }
        #[cfg(not(feature = "checkpoints"))]
        {
            Ok::<(), SafetensorsStoreError>(())
        }
    };
}

/// With `;` the block is an ordinary statement: its value is dropped in every build.
pub fn save_gated_with_semicolon(model: &Mlp, path: &Path) -> Result<()> {
    let mut store = SafetensorsStore::from_file(path).overwrite(true);
    #[cfg(feature = "checkpoints")]
    {
        model.save_into(&mut store) // expect: BL001
    };
    Ok(())
}

/// A gated block whose own statement drops the result: nothing reaches the tail.
pub fn save_gated_let_underscore(model: &Mlp, path: &Path) -> Result<()> {
    let mut store = SafetensorsStore::from_file(path).overwrite(true);
    #[cfg(feature = "checkpoints")]
    {
        let _ = model.save_into(&mut store); // expect: BL001
    }
    Ok(())
}
