//! No BL011: the remapping is on a store that loads, on a `SafetensorsStore` (which remaps on
//! save too), or the store leaves the function or is used in a way not followed.

use anyhow::Result;
use burn::prelude::*;
use burn_store::{BurnpackStore, KeyRemapper, ModuleSnapshot, SafetensorsStore};

pub fn import<M: ModuleSnapshot>(model: &mut M) -> Result<()> {
    let mut store = BurnpackStore::from_file("model.bpk").with_remap_pattern("^a\\.", "b.");
    model.load_from(&mut store)?;
    Ok(())
}

pub fn round_trip<M: ModuleSnapshot>(model: &mut M) -> Result<()> {
    let mut store = BurnpackStore::from_bytes(None).with_remap_pattern("^a\\.", "b.");
    model.save_into(&mut store)?;
    model.load_from(&mut store)?;
    Ok(())
}

pub fn export_safetensors<M: ModuleSnapshot>(model: &M) -> Result<()> {
    let mut store = SafetensorsStore::from_file("model.safetensors")
        .overwrite(true)
        .with_key_remapping("^a\\.", "b.");
    model.save_into(&mut store)?;
    Ok(())
}

/// The store is handed back: its caller may load from it.
pub fn saved_and_returned<M: ModuleSnapshot>(model: &M) -> Result<BurnpackStore> {
    let mut store = BurnpackStore::from_bytes(None).remap(KeyRemapper::new());
    model.save_into(&mut store)?;
    Ok(store)
}

/// Passed to a function burnlint does not follow.
pub fn saved_and_passed<M: ModuleSnapshot>(model: &mut M) -> Result<()> {
    let mut store = BurnpackStore::from_bytes(None).remap(KeyRemapper::new());
    model.save_into(&mut store)?;
    reload(model, &mut store)
}

fn reload<M: ModuleSnapshot>(model: &mut M, store: &mut BurnpackStore) -> Result<()> {
    model.load_from(store)?;
    Ok(())
}

/// No remapping at all.
pub fn export_plain<M: ModuleSnapshot>(model: &M) -> Result<()> {
    model.save_into(&mut BurnpackStore::from_file("plain.bpk").overwrite(true))?;
    Ok(())
}
