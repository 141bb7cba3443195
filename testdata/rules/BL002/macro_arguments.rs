//! Saves and loads inside macro arguments are read as code: `dbg!` and the `println!` family
//! print the error and go on; `assert!` panics; a `log`/`tracing` macro may not evaluate its
//! arguments at all (a disabled level), so its use is unknown.

use burn_store::{ModuleSnapshot, SafetensorsStore};

use crate::model::Mlp;
use crate::train::train_epoch;

pub fn train(model: &mut Mlp, epochs: usize) {
    for epoch in 0..epochs {
        train_epoch(model);
        let mut store = SafetensorsStore::from_file(format!("ckpt-{epoch}.st"));
        dbg!(model.save_into(&mut store)); // expect: BL002
        let mut other = SafetensorsStore::from_file(format!("other-{epoch}.st"));
        println!("saved: {:?}", model.save_into(&mut other)); // expect: BL002
        let mut third = SafetensorsStore::from_file(format!("third-{epoch}.st"));
        eprintln!("saved: {}", model.save_into(&mut third).is_ok()); // expect: BL002
        let mut fourth = SafetensorsStore::from_file(format!("fourth-{epoch}.st"));
        log::info!("saved: {:?}", model.save_into(&mut fourth));
        let mut fifth = SafetensorsStore::from_file(format!("fifth-{epoch}.st"));
        assert!(model.save_into(&mut fifth).is_ok());
        let mut sixth = SafetensorsStore::from_file(format!("sixth-{epoch}.st"));
        let saved = dbg!(model.save_into(&mut sixth));
        saved.expect("cannot save");
    }
}

pub fn warm_start(model: &mut Mlp, path: &str) {
    let mut store = SafetensorsStore::from_file(path);
    println!("warm start: {:?}", model.load_from(&mut store)); // expect: BL002
}

pub fn warm_start_checked(model: &mut Mlp, path: &str) {
    let mut store = SafetensorsStore::from_file(path);
    assert!(model.load_from(&mut store).is_ok(), "cannot load {path}");
}
