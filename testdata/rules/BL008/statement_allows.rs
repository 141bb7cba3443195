//! Allow comments on statements: the line above or trailing, used or left over.

use std::path::Path;

use anyhow::Result;
use burn_store::{BurnpackStore, ModuleSnapshot, SafetensorsStore};

use crate::model::Mlp;
use crate::train::train_epoch;

/// On the line above, by id, with a reason: used.
pub fn above_by_id(model: &Mlp) {
    let mut store = SafetensorsStore::from_file("model.safetensors").overwrite(true);
    // burnlint: allow(BL001) -- a best-effort export for the dashboard
    let _ = model.save_into(&mut store);
}

/// Trailing, by name: used.
pub fn trailing_by_name(model: &Mlp) {
    let mut store = SafetensorsStore::from_file("model.safetensors").overwrite(true);
    let _ = model.save_into(&mut store); // burnlint: allow(discarded-store-result)
}

/// Trailing on the last line of a statement that spans three: the finding starts on its first.
pub fn trailing_multiline(model: &Mlp) {
    let mut store = SafetensorsStore::from_file("model.safetensors").overwrite(true);
    let _ = model
        .save_into(&mut store)
        .map_err(|e| e.to_string()); // burnlint: allow(BL001)
}

/// Stacked allows, comments and attributes between them and the statement.
pub fn stacked(model: &Mlp, dir: &Path, epochs: usize) -> Result<()> {
    // burnlint: allow(BL003) -- the file is replaced by the trainer's wrapper script
    // (see scripts/train.sh)
    #[allow(unused_mut)]
    let mut store = BurnpackStore::from_file(dir.join("latest.bpk"));
    for _ in 0..epochs {
        model.save_into(&mut store)?;
    }
    Ok(())
}

/// A trailing allow on a line that opens a block covers the whole block.
pub fn whole_loop(mut model: Mlp, dir: &Path, epochs: usize) -> Result<Mlp> {
    for _ in 0..epochs { // burnlint: allow(BL003) -- scratch runs only
        model = train_epoch(model);
        model.save_into(&mut SafetensorsStore::from_file(dir.join("scratch.safetensors")))?;
    }
    Ok(model)
}

/// Nothing to suppress: the save is propagated.
pub fn nothing_there(model: &Mlp) -> Result<()> {
    let mut store = SafetensorsStore::from_file("model.safetensors").overwrite(true);
    // expect-next: BL008
    // burnlint: allow(BL001)
    model.save_into(&mut store)?;
    Ok(())
}

/// The allow covers the statement below it only: the finding two statements down is reported.
pub fn too_far_above(model: &Mlp) {
    let mut store = SafetensorsStore::from_file("model.safetensors").overwrite(true);
    // expect-next: BL008
    // burnlint: allow(BL001)
    let name = "model";
    let _ = model.save_into(&mut store); // expect: BL001
    println!("{name}");
}

/// One id used, one left over.
pub fn partly_used(model: &Mlp) {
    let mut store = SafetensorsStore::from_file("model.safetensors").overwrite(true);
    // expect-next: BL008
    // burnlint: allow(BL001, BL002)
    let _ = model.save_into(&mut store);
}

/// A trailing allow of the wrong rule: the finding stays, the allow is reported.
pub fn wrong_rule(model: &Mlp) {
    let mut store = SafetensorsStore::from_file("model.safetensors").overwrite(true);
    // expect-next: BL008, BL001
    let _ = model.save_into(&mut store); // burnlint: allow(BL003)
}

/// An allow at the end of a block has no statement to cover.
pub fn nothing_follows(model: &Mlp) -> Result<()> {
    model.save_into(&mut SafetensorsStore::from_file("m.safetensors").overwrite(true))?;
    Ok(())
    // expect-next: BL008
    // burnlint: allow(BL001)
}

/// Trailing on a statement that shares its line with another one: both are covered.
pub fn two_on_a_line(model: &Mlp) {
    let mut s = SafetensorsStore::from_file("m.safetensors").overwrite(true);
    let _ = model.save_into(&mut s); let _ = model.save_into(&mut s); // burnlint: allow(BL001)
}

/// Doc comments are never directives: an allow in one is reported, and suppresses nothing.
/// Plain prose that mentions burnlint is left alone.
// expect-next: BL008
/// burnlint: allow(BL001)
pub fn doc_comment(model: &Mlp) {
    let mut store = SafetensorsStore::from_file("model.safetensors").overwrite(true);
    // burnlint reports the next line, and that is right
    let _ = model.save_into(&mut store); // expect: BL001
}
