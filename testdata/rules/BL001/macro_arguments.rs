//! Saves inside macro arguments are read as code: a `Result` the macro consumes is not
//! discarded (`assert!` panics, `ensure!` returns, `vec!` keeps it); a save that is a statement
//! of a block inside the arguments is discarded there.

use anyhow::{ensure, Result};
use burn_store::{ModuleSnapshot, SafetensorsStore};

use crate::model::Mlp;

pub fn kept(model: &Mlp, path: &str) -> Result<()> {
    let mut a = SafetensorsStore::from_file(path).overwrite(true);
    assert!(model.save_into(&mut a).is_ok());
    let mut b = SafetensorsStore::from_file(path).overwrite(true);
    ensure!(model.save_into(&mut b).is_ok(), "cannot save {path}");
    let mut c = SafetensorsStore::from_file(path).overwrite(true);
    let results = vec![model.save_into(&mut c)];
    let mut d = SafetensorsStore::from_file(path).overwrite(true);
    assert!(model.save_into(&mut d).is_err(), "a second save must fail");
    results.into_iter().collect()
}

pub fn dropped_in_a_block(model: &Mlp, path: &str) {
    let mut store = SafetensorsStore::from_file(path).overwrite(true);
    println!(
        "saved to {}",
        {
            model.save_into(&mut store); // expect: BL001
            path
        }
    );
}

pub fn unknown(model: &Mlp, path: &str) {
    let mut store = SafetensorsStore::from_file(path).overwrite(true);
    debug_assert!(model.save_into(&mut store).is_ok());
    let mut other = SafetensorsStore::from_file(path).overwrite(true);
    timed!(model.save_into(&mut other));
}
