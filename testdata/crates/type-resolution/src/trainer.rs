//! `Trainer::save` saves into a store that refuses to overwrite; `Trainer::train` loads
//! leniently and hands the result back.

use std::path::{Path, PathBuf};

use anyhow::Result;
use burn::prelude::*;
use burn_store::{ApplyResult, BurnpackStore, ModuleSnapshot};

use crate::model::Mlp;

pub struct Trainer {
    pub dir: PathBuf,
}

impl Trainer {
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Self { dir: dir.into() }
    }

    pub fn save(&self, model: &Mlp, path: &Path) -> Result<()> {
        model.save_into(&mut BurnpackStore::from_file(path))?;
        Ok(())
    }

    pub fn train(&mut self, device: &Device, init: &Path) -> Result<(Mlp, ApplyResult)> {
        let mut model = Mlp::new(device);
        let report = model.load_from(&mut BurnpackStore::from_file(init).allow_partial(true))?;
        Ok((model, report))
    }

    /// The same save through `self`: `Self::save` and `self.save` are `Trainer::save`.
    pub fn fit(&mut self, device: &Device, epochs: usize) -> Result<Mlp> {
        let latest = self.dir.join("latest.bpk");
        let model = Mlp::new(device);
        for _ in 0..epochs {
            self.save(&model, &latest)?; // expect: BL003
            Self::save(self, &model, &latest)?; // expect: BL003
        }
        Ok(model)
    }
}

/// An application that holds its trainer in a field.
pub struct App {
    pub trainer: Trainer,
    pub latest: PathBuf,
}

impl App {
    pub fn run(&mut self, device: &Device, epochs: usize) -> Result<()> {
        let model = Mlp::new(device);
        for _ in 0..epochs {
            self.trainer.save(&model, &self.latest)?; // expect: BL003
        }
        Ok(())
    }
}

/// Implemented by `Trainer` (a store without overwrite) and `Demo` (a plain file): a call on
/// a generic or `dyn` receiver could be either.
pub trait Checkpointer {
    fn checkpoint(&self, model: &Mlp, path: &Path) -> Result<()>;
}

impl Checkpointer for Trainer {
    fn checkpoint(&self, model: &Mlp, path: &Path) -> Result<()> {
        model.save_into(&mut BurnpackStore::from_file(path))?;
        Ok(())
    }
}

impl Checkpointer for crate::demo::Demo {
    fn checkpoint(&self, model: &Mlp, path: &Path) -> Result<()> {
        std::fs::write(path, format!("{model:?}"))?;
        Ok(())
    }
}
