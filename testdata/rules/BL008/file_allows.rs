//! `allow-file` covers the whole file wherever it stands; one that suppresses nothing is
//! reported.
// burnlint: allow-file(BL001) -- the export helpers below are best effort by design
// expect-next: BL008
// burnlint: allow-file(BL007, store-error-only-logged)

use burn_store::{ModuleSnapshot, PytorchStore, SafetensorsStore};

use crate::model::Mlp;

pub fn export_a(model: &Mlp) {
    let mut store = SafetensorsStore::from_file("a.safetensors").overwrite(true);
    let _ = model.save_into(&mut store);
}

pub fn export_b(model: &Mlp) {
    let mut store = SafetensorsStore::from_file("b.safetensors").overwrite(true);
    model.save_into(&mut store).ok();
}

pub fn import(model: &mut Mlp) -> anyhow::Result<()> {
    let mut store = PytorchStore::from_file("model.pt")
        .map_indices_contiguous(true)
        .skip_enum_variants(false);
    model.load_from(&mut store)?;
    Ok(())
}

pub fn late_file_allow(model: &Mlp) {
    // an allow-file works anywhere, even inside a function and trailing:
    let mut store = SafetensorsStore::from_file("c.safetensors").overwrite(true); // burnlint: allow-file(BL001)
    let _ = model.save_into(&mut store);
}
