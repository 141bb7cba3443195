//! A lib renamed by `[lib] name`: its package's binary names it `runner_core`.

pub mod checkpoint {
    //! A save that refuses to overwrite.

    use std::path::Path;

    use burn_store::{BurnpackStore, ModuleSnapshot};

    pub fn save<M: ModuleSnapshot>(model: &M, path: &Path) -> Result<(), burn_store::burn_pack::Error> {
        model.save_into(&mut BurnpackStore::from_file(path))
    }
}
