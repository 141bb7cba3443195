//! BL011: a `BurnpackStore` with a key remapping, saved into and never loaded from. Burnpack
//! remaps in its read-side cache only, so the file keeps the module's own tensor names.

use std::path::Path;

use anyhow::Result;
use burn::prelude::*;
use burn_store::{BurnpackStore, KeyRemapper, ModuleSnapshot, ModuleStore};

pub fn export_renamed<M: ModuleSnapshot>(model: &M, out: &Path) -> Result<()> {
    let mut store = BurnpackStore::from_file(out)
        .overwrite(true)
        .with_remap_pattern(r"^encoder\.", "backbone."); // expect: BL011
    model.save_into(&mut store)?;
    Ok(())
}

pub fn export_inline<M: ModuleSnapshot>(model: &M, remapper: KeyRemapper) -> Result<()> {
    model.save_into(&mut BurnpackStore::from_file("model.bpk").remap(remapper))?; // expect: BL011
    Ok(())
}

/// Two remaps, each reported; the store saved twice.
pub fn export_twice<M: ModuleSnapshot>(model: &M, other: &M) -> Result<()> {
    let mut store = BurnpackStore::from_file("twice.bpk")
        .overwrite(true)
        .with_remap_pattern(r"^fc\.", "head.") // expect: BL011
        .with_remap_pattern(r"\.gamma$", ".weight"); // expect: BL011
    model.save_into(&mut store)?;
    other.save_into(&mut store)?;
    Ok(())
}

/// In memory, with the bytes read back: still written with the original names.
pub fn to_bytes<M: ModuleSnapshot>(model: &M) -> Result<Vec<u8>> {
    let mut store = BurnpackStore::from_bytes(None).with_remap_pattern("^a\\.", "b."); // expect: BL011
    store.collect_from(model)?;
    Ok(store.get_bytes()?.to_vec())
}

/// Through `burn::store`.
pub fn through_burn<M: ModuleSnapshot>(model: &M) -> Result<()> {
    let mut store = burn::store::BurnpackStore::from_file("m.bpk")
        .remap(KeyRemapper::new()); // expect: BL011
    model.save_into(&mut store)?;
    Ok(())
}
