//! A store chosen by `if`/`else` or `match` is lenient when one of its branches' stores is.

use anyhow::Result;
use burn_store::{ModuleSnapshot, SafetensorsStore};

use crate::model::Mlp;

pub fn load(model: &mut Mlp, path: &str, partial: bool) -> Result<()> {
    let mut store = if partial {
        SafetensorsStore::from_file(path).allow_partial(true)
    } else {
        SafetensorsStore::from_file(path)
    };
    model.load_from(&mut store)?; // expect: BL007
    Ok(())
}

pub fn load_checked(model: &mut Mlp, path: &str, partial: bool) -> Result<()> {
    let mut store = if partial {
        SafetensorsStore::from_file(path).allow_partial(true)
    } else {
        SafetensorsStore::from_file(path)
    };
    let result = model.load_from(&mut store)?;
    anyhow::ensure!(result.missing.is_empty(), "{result}");
    Ok(())
}

pub fn load_strict(model: &mut Mlp, path: &str, pt: bool) -> Result<()> {
    let mut store = match pt {
        true => SafetensorsStore::from_file(path).validate(true),
        false => SafetensorsStore::from_file(path),
    };
    model.load_from(&mut store)?;
    Ok(())
}
