//! Only the rules that ran are judged. BL004 is off by default and not selected here: its
//! allows are left alone. An allow naming BL008 is never reported.

use std::path::Path;

use burn_store::{BurnpackStore, ModuleSnapshot};

use crate::model::Mlp;

pub fn export(model: &Mlp, dir: &Path) -> anyhow::Result<()> {
    // burnlint: allow(implicit-overwrite) -- the export directory is fresh for every run
    let mut store = BurnpackStore::from_file(dir.join("model.bpk"));
    model.save_into(&mut store)?;
    Ok(())
}

pub fn keep_for_later(model: &Mlp, dir: &Path) -> anyhow::Result<()> {
    // burnlint: allow(BL001, BL008) -- kept on purpose while #57 is open
    model.save_into(&mut BurnpackStore::from_file(dir.join("x.bpk")).overwrite(true))?;
    Ok(())
}
