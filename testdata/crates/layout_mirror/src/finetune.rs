//! Fine-tuning from an import, written with the write-up's settings: both options explicit
//! and equal on both store types. BL006 compares loaders within one file: the implicit
//! loaders of `import.rs` are not compared with these.

use std::path::Path;

use anyhow::Result;
use burn::prelude::*;
use burn_store::{BurnToPyTorchAdapter, ModuleSnapshot, PyTorchToBurnAdapter, PytorchStore, SafetensorsStore};

use crate::model::MirrorMlp;

pub fn load_pretrained<B: Backend>(device: &B::Device, path: &Path, torch: bool) -> Result<MirrorMlp<B>> {
    let mut model = MirrorMlp::new(device);
    if torch {
        let mut store = PytorchStore::from_file(path)
            .map_indices_contiguous(false)
            .skip_enum_variants(true);
        model.load_from(&mut store)?;
    } else {
        let mut store = SafetensorsStore::from_file(path)
            .with_from_adapter(PyTorchToBurnAdapter)
            .map_indices_contiguous(false)
            .skip_enum_variants(true);
        model.load_from(&mut store)?;
    }
    Ok(model)
}

/// Burn's own checkpoint: not PyTorch-facing.
pub fn resume<B: Backend>(device: &B::Device, path: &Path) -> Result<MirrorMlp<B>> {
    let mut model = MirrorMlp::new(device);
    model.load_from(&mut SafetensorsStore::from_file(path))?;
    Ok(model)
}

/// Back to PyTorch: a save, with the variant names dropped.
pub fn export_for_torch<B: Backend>(model: &MirrorMlp<B>, path: &Path) -> Result<()> {
    let mut store = SafetensorsStore::from_file(path)
        .overwrite(true)
        .with_to_adapter(BurnToPyTorchAdapter)
        .skip_enum_variants(true);
    model.save_into(&mut store)?;
    Ok(())
}
