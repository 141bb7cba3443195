//! Checkpoint helpers shared by the binaries. Each one saves once per call: nothing to report
//! here; the callers decide whether the same file is written twice.

use std::path::Path;

use burn_store::burn_pack::Error as BurnpackError;
use burn_store::{BurnpackStore, ModuleSnapshot};

/// Writes `m` to `path`. Refuses to replace an existing file (the store's default).
pub fn save_latest<M: ModuleSnapshot>(m: &M, path: &Path) -> Result<(), BurnpackError> {
    let mut store = BurnpackStore::from_file(path);
    m.save_into(&mut store)
}

/// Writes `m` to the fixed `checkpoints/latest.bpk`.
pub fn save_default<M: ModuleSnapshot>(m: &M) -> Result<(), BurnpackError> {
    m.save_into(&mut BurnpackStore::from_file("checkpoints/latest.bpk"))
}

/// Writes `m` to `path`, replacing an earlier file.
pub fn save_replacing<M: ModuleSnapshot>(m: &M, path: &Path) -> Result<(), BurnpackError> {
    m.save_into(&mut BurnpackStore::from_file(path).overwrite(true))?;
    Ok(())
}
