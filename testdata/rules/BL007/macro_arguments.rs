//! Loads inside macro arguments are read as code. `assert!`/`ensure!` of `is_ok()` stop on
//! `Err`, yet drop the `ApplyResult` unread; a macro that formats or compares the result
//! whole checks it; inside `debug_assert!` (gone from release builds) or a macro whose
//! expansion is not known, the use is unknown and nothing is reported.

use anyhow::{ensure, Result};
use burn_store::{ModuleSnapshot, SafetensorsStore};

use crate::model::Mlp;

pub fn asserted(model: &mut Mlp, path: &str) {
    let mut store = SafetensorsStore::from_file(path).allow_partial(true);
    assert!(model.load_from(&mut store).is_ok()); // expect: BL007
}

pub fn ensured(model: &mut Mlp, path: &str) -> Result<()> {
    let mut store = SafetensorsStore::from_file(path).validate(false);
    ensure!(
        model.load_from(&mut store).is_ok(), // expect: BL007
        "cannot load {path}"
    );
    Ok(())
}

pub fn asserted_missing(model: &mut Mlp, path: &str) {
    let mut store = SafetensorsStore::from_file(path).allow_partial(true);
    assert!(model.load_from(&mut store).unwrap().missing.is_empty());
}

pub fn asserted_count(model: &mut Mlp, path: &str) {
    let mut store = SafetensorsStore::from_file(path).allow_partial(true);
    // a completeness check: says what `missing` would
    assert_eq!(model.load_from(&mut store).unwrap().applied.len(), 6);
}

pub fn asserted_only_in_debug(model: &mut Mlp, path: &str) {
    let mut store = SafetensorsStore::from_file(path).allow_partial(true);
    debug_assert!(model.load_from(&mut store).is_ok());
}

pub fn inside_an_unknown_macro(model: &mut Mlp, path: &str) {
    let mut store = SafetensorsStore::from_file(path).allow_partial(true);
    retry_thrice!(model.load_from(&mut store).is_ok());
}

pub fn printed_whole(model: &mut Mlp, path: &str) -> Result<()> {
    let mut store = SafetensorsStore::from_file(path).allow_partial(true);
    let report = dbg!(model.load_from(&mut store))?;
    Ok(())
}

pub fn strict_load(model: &mut Mlp, path: &str) {
    let mut store = SafetensorsStore::from_file(path);
    assert!(model.load_from(&mut store).is_ok());
}
