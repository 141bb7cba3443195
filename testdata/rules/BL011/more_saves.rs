//! BL011 in other shapes: the store-side `collect_from`, an alias, chains that go on after the
//! remap, errors mapped or matched, and test code.

use anyhow::{Context, Result};
use burn::prelude::*;
use burn_store::BurnpackStore as Pack;
use burn_store::{KeyRemapper, ModuleSnapshot, ModuleStore};

pub fn collect_inline<M: ModuleSnapshot>(model: &M) -> Result<()> {
    Pack::from_file("inline.bpk")
        .remap(KeyRemapper::new()) // expect: BL011
        .overwrite(true)
        .collect_from(model)?;
    Ok(())
}

pub fn collect_bound<M: ModuleSnapshot>(model: &M) -> Result<()> {
    let mut store = Pack::from_file("bound.bpk").with_remap_pattern("^x\\.", "y."); // expect: BL011
    store.collect_from(model).context("export")?;
    Ok(())
}

pub fn metadata_after<M: ModuleSnapshot>(model: &M) -> Result<()> {
    let mut store = Pack::from_file("meta.bpk")
        .with_remap_pattern(r"^model\.", "") // expect: BL011
        .metadata("producer", "trainer")
        .overwrite(true);
    model.save_into(&mut store).map_err(|e| anyhow::anyhow!("{e}"))?;
    Ok(())
}

pub fn matched<M: ModuleSnapshot>(model: &M) -> bool {
    let mut store = Pack::from_file("matched.bpk").remap(KeyRemapper::default()); // expect: BL011
    match model.save_into(&mut store) {
        Ok(()) => true,
        Err(e) => {
            eprintln!("export failed: {e}");
            false
        }
    }
}

pub fn unwrapped<M: ModuleSnapshot>(model: &M) {
    let mut store = Pack::from_bytes(None).with_remap_pattern("^enc\\.", "encoder."); // expect: BL011
    model.save_into(&mut store).unwrap();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn export_renamed() {
        let model = crate::Net::default();
        let mut store = Pack::from_bytes(None)
            .with_remap_pattern("^net\\.", "layers."); // expect: BL011
        model.save_into(&mut store).expect("export");
        assert!(!store.get_bytes().unwrap().is_empty());
    }
}
