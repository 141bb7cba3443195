//! `PytorchStore` helpers. The mirror needs `map_indices_contiguous(false)`: each helper that
//! leaves it at its default (`true`) is reported here, at its constructor.

use std::path::Path;

use anyhow::{bail, Result};
use burn_store::{PytorchStore, SafetensorsStore};

/// On the defaults: `net.2` is renumbered to `net.1`.
pub fn torch_store(path: &Path) -> PytorchStore {
    PytorchStore::from_file(path) // expect: BL005
}

/// Bound, then returned; a builder call that is not a key-mapping option.
pub fn torch_checkpoint_store(path: &Path) -> PytorchStore {
    let store = PytorchStore::from_file(path).with_top_level_key("state_dict"); // expect: BL005
    store
}

/// Inside `Ok(..)`, after an early `bail!` and a `?`.
pub fn torch_store_checked(path: &Path) -> Result<PytorchStore> {
    if !path.exists() {
        bail!("no weights at {}", path.display());
    }
    std::fs::metadata(path)?;
    Ok(PytorchStore::from_file(path).allow_partial(false)) // expect: BL005
}

/// Through `torch_store`: reported there, not again here.
pub fn torch_store_in(dir: &Path) -> PytorchStore {
    torch_store(&dir.join("model.pt"))
}

/// The index option written: clean.
pub fn torch_store_mapped(path: &Path) -> PytorchStore {
    PytorchStore::from_file(path).map_indices_contiguous(false) // expect: BL005
}

/// Burn's own format: not PyTorch-facing, whatever its callers load.
pub fn resume_store(path: &Path) -> SafetensorsStore {
    SafetensorsStore::from_file(path)
}
