//! With BL004 selected its allows are judged like any other.
// burnlint-test: select = BL004

use std::path::Path;

use burn_store::{BurnpackStore, ModuleSnapshot};

use crate::model::Mlp;

pub fn export(model: &Mlp, dir: &Path) -> anyhow::Result<()> {
    // burnlint: allow(implicit-overwrite) -- the export directory is fresh for every run
    let mut store = BurnpackStore::from_file(dir.join("model.bpk"));
    model.save_into(&mut store)?;
    Ok(())
}

pub fn explicit(model: &Mlp, dir: &Path) -> anyhow::Result<()> {
    // expect-next: BL008
    // burnlint: allow(BL004) -- left over from before `.overwrite(true)`
    let mut store = BurnpackStore::from_file(dir.join("model.bpk")).overwrite(true);
    model.save_into(&mut store)?;
    Ok(())
}
