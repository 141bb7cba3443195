//! Epoch loops calling the crate's helpers by path.

use std::path::Path;

use anyhow::Result;
use burn::prelude::*;

use crate::checkpoint as ckpt;
use crate::export::*;
use crate::model::Mlp;

pub fn by_crate_path(device: &Device, latest: &Path, epochs: usize) -> Result<Mlp> {
    let model = Mlp::new(device);
    for _ in 0..epochs {
        crate::checkpoint::save_latest(&model, latest)?; // expect: BL003
    }
    Ok(model)
}

pub fn by_super_path(device: &Device, latest: &Path, epochs: usize) -> Result<Mlp> {
    let model = Mlp::new(device);
    for _ in 0..epochs {
        super::hooks::save_epoch(&model, latest)?; // expect: BL003
    }
    Ok(model)
}

pub fn by_module_alias(device: &Device, latest: &Path, epochs: usize) -> Result<Mlp> {
    let model = Mlp::new(device);
    for _ in 0..epochs {
        ckpt::save_latest(&model, latest)?; // expect: BL003
    }
    Ok(model)
}

/// The glob brings `export::save_latest`, which overwrites: not `checkpoint::save_latest`.
pub fn by_glob(device: &Device, latest: &Path, epochs: usize) -> Result<Mlp> {
    let model = Mlp::new(device);
    for _ in 0..epochs {
        save_latest(&model, latest)?;
    }
    Ok(model)
}

pub mod nested {
    //! An inline module: `super::super::` and a `use` inside the function.

    use std::path::Path;

    use anyhow::Result;

    use crate::model::Mlp;

    pub fn by_super_super(model: &Mlp, latest: &Path, epochs: usize) -> Result<()> {
        for _ in 0..epochs {
            super::super::hooks::save_epoch(model, latest)?; // expect: BL003
        }
        Ok(())
    }

    pub fn by_local_use(model: &Mlp, latest: &Path, epochs: usize) -> Result<()> {
        use crate::training::hooks::save_epoch as hook;
        for _ in 0..epochs {
            hook(model, latest)?; // expect: BL003
        }
        Ok(())
    }
}
