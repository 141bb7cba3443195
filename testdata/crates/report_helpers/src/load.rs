//! Helpers that propagate a lenient load's error with `?` and return something other than
//! the `ApplyResult`: the model, `Self`, `()`. Those that read `missing` are clean; those that
//! drop the result unread carry the one BL007, here, and never at their callers.

use std::path::Path;

use anyhow::{bail, ensure, Result};
use burn::prelude::*;
use burn_store::{ModuleSnapshot, SafetensorsStore};

use crate::model::Mlp;

fn lenient(path: &Path) -> SafetensorsStore {
    SafetensorsStore::from_file(path).allow_partial(true)
}

/// Returns the model; `missing` checked with `ensure!`.
pub fn load_checked(device: &Device, path: &Path) -> Result<Mlp> {
    let mut model = Mlp::new(device);
    let result = model.load_from(&mut lenient(path))?;
    ensure!(result.missing.is_empty(), "incomplete checkpoint: {:?}", result.missing);
    Ok(model)
}

/// Returns the model; the result is dropped: the finding is on this load.
pub fn load_unchecked(device: &Device, path: &Path) -> Result<Mlp> {
    let mut model = Mlp::new(device);
    model.load_from(&mut lenient(path))?; // expect: BL007
    Ok(model)
}

/// The same, the model as the tail expression after a `let`-bound result read for `applied`.
pub fn load_counted(device: &Device, path: &Path) -> Result<Mlp> {
    let mut model = Mlp::new(device);
    let result = model.load_from(&mut lenient(path))?; // expect: BL007
    log::info!("{} tensors loaded", result.applied.len());
    Ok(model)
}

impl Mlp {
    /// Returns `Self`; `missing` walked and an error raised.
    pub fn from_checkpoint(device: &Device, path: &Path) -> Result<Self> {
        let mut model = Self::new(device);
        let result = model.load_from(&mut lenient(path))?;
        if let Some((first, _)) = result.missing.first() {
            bail!("{} tensors missing, first {first}", result.missing.len());
        }
        Ok(model)
    }

    /// Returns `Self`; only `errors` read, which `allow_partial(true)` does not need.
    pub fn from_checkpoint_lenient(device: &Device, path: &Path) -> Result<Self> {
        let mut model = Self::new(device);
        let result = model.load_from(&mut lenient(path))?; // expect: BL007
        ensure!(result.errors.is_empty(), "{:?}", result.errors);
        Ok(model)
    }

    /// Returns `()`; loads into `self` and logs every missing tensor.
    pub fn warm_start(&mut self, path: &Path) -> Result<()> {
        let result = self.load_from(&mut lenient(path))?;
        for (name, _) in &result.missing {
            log::warn!("kept at init: {name}");
        }
        Ok(())
    }

    /// Returns `()`; the result goes nowhere.
    pub fn warm_start_blind(&mut self, path: &Path) -> Result<()> {
        self.load_from(&mut lenient(path))?; // expect: BL007
        Ok(())
    }
}

/// `()` through `map`: the `ApplyResult` is thrown away inside the closure, not returned.
pub fn warm_start_mapped(model: &mut Mlp, path: &Path) -> Result<()> {
    model.load_from(&mut lenient(path)).map(|_| ())?; // expect: BL007
    Ok(())
}

fn lenient_unvalidated(path: &Path) -> SafetensorsStore {
    SafetensorsStore::from_file(path).allow_partial(true).validate(false)
}

/// Both lenient options: both lists read.
pub fn load_fully_checked(device: &Device, path: &Path) -> Result<Mlp> {
    let mut model = Mlp::new(device);
    let r = model.load_from(&mut lenient_unvalidated(path))?;
    ensure!(r.missing.is_empty() && r.errors.is_empty(), "{r}");
    Ok(model)
}

/// Both lenient options, `missing` read: `errors` is not.
pub fn load_missing_checked(device: &Device, path: &Path) -> Result<Mlp> {
    let mut model = Mlp::new(device);
    let r = model.load_from(&mut lenient_unvalidated(path))?; // expect: BL007
    ensure!(r.missing.is_empty(), "incomplete");
    Ok(model)
}

/// Generic over the module: the helper drops the result whatever its callers load.
pub fn load_into<M: ModuleSnapshot>(model: &mut M, path: &Path) -> Result<()> {
    model.load_from(&mut lenient(path))?; // expect: BL007
    Ok(())
}

/// Answers whether the checkpoint was complete: `missing` read, a `bool` returned.
pub fn load_complete(model: &mut Mlp, path: &Path) -> Result<bool> {
    let r = model.load_from(&mut lenient(path))?;
    Ok(r.missing.is_empty())
}

/// Returns how many tensors were applied: that checks nothing.
pub fn load_count(model: &mut Mlp, path: &Path) -> Result<usize> {
    let r = model.load_from(&mut lenient(path))?; // expect: BL007
    Ok(r.applied.len())
}
