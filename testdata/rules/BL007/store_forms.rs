//! Lenient stores built through re-bindings, full paths, comments, memory and the store-side API.

use std::path::Path;

use anyhow::{anyhow, Result};
use burn_store::{BurnpackStore, ModuleSnapshot, ModuleStore, SafetensorsStore};

use crate::model::Mlp;

static BUNDLED: &[u8] = include_bytes!("../assets/tiny.bpk");

pub fn load_rebound(model: &mut Mlp, path: &Path, partial: bool) -> Result<()> {
    let store = SafetensorsStore::from_file(path);
    let mut store = store.allow_partial(true);
    if partial {
        println!("partial load from {}", path.display());
    }
    model.load_from(&mut store)?; // expect: BL007
    Ok(())
}

pub fn load_rebound_strict(model: &mut Mlp, path: &Path) -> Result<()> {
    let store = SafetensorsStore::from_file(path);
    let mut store = store.allow_partial(false);
    model.load_from(&mut store)?;
    Ok(())
}

pub fn load_full_path(model: &mut Mlp, path: &Path) -> Result<()> {
    let mut store = burn::store::SafetensorsStore::from_file(path).allow_partial(true);
    let r = model.load_from(&mut store)?; // expect: BL007
    log::info!("{} tensors applied", r.applied.len());
    Ok(())
}

pub fn load_commented_chain(model: &mut Mlp, path: &Path) -> Result<()> {
    let mut store = BurnpackStore::from_file(path)
        // the checkpoint predates the new head
        .allow_partial(true)
        // keep the default metadata
        .validate(true);
    let r = model.load_from(&mut store)?; // expect: BL007
    log::info!("loaded {} of {} tensors", r.applied.len(), r.applied.len() + r.skipped.len());
    Ok(())
}

pub fn load_store_side(model: &mut Mlp, path: &Path) -> Result<()> {
    let mut store = BurnpackStore::from_file(path).allow_partial(true);
    store.apply_to(model)?; // expect: BL007
    Ok(())
}

pub fn load_store_side_checked(model: &mut Mlp, path: &Path) -> Result<()> {
    let mut store = BurnpackStore::from_file(path).allow_partial(true);
    let r = store.apply_to(model)?;
    if let Some((first, _)) = r.missing.first() {
        return Err(anyhow!("{} missing, first: {first}", r.missing.len()));
    }
    Ok(())
}

pub fn load_bytes(model: &mut Mlp, bytes: Vec<u8>) {
    let mut store = SafetensorsStore::from_bytes(Some(bytes)).allow_partial(true);
    model.load_from(&mut store).expect("decode weights"); // expect: BL007
}

pub fn load_bundled(model: &mut Mlp) {
    let mut store = BurnpackStore::from_static(BUNDLED).allow_partial(true);
    let r = model.load_from(&mut store).expect("bundled weights");
    debug_assert!(r.missing.is_empty(), "{r}");
}
