//! `macro_rules!` bodies are read with their metavariables as placeholders and each
//! repetition once (burn's own `burn-store/benches/unified_loading.rs` builds its stores in
//! one): a lenient store built in the body is followed to its load there. A store or a result
//! that is a metavariable is the caller's, never reported on.

use burn_store::{ModuleSnapshot, PytorchStore, SafetensorsStore};

use crate::model::Mlp;

macro_rules! bench_backend {
    ($device:expr, $mod_name:ident, $path:expr) => {
        mod $mod_name {
            use super::*;

            pub fn load_pytorch() {
                let device = $device;
                let mut model = Mlp::new(&device);
                let mut store = PytorchStore::from_file($path).allow_partial(true); // expect: BL005
                model.load_from(&mut store).expect("Failed to load"); // expect: BL007
            }

            pub fn load_checked() {
                let device = $device;
                let mut model = Mlp::new(&device);
                let mut store = PytorchStore::from_file($path).allow_partial(true); // expect: BL005
                let result = model.load_from(&mut store).expect("Failed to load");
                assert!(result.missing.is_empty(), "{result}");
            }
        }
    };
}

macro_rules! load_each {
    ($model:expr, $($path:expr),+) => {
        $(
            let mut store = SafetensorsStore::from_file($path).validate(false);
            $model.load_from(&mut store).unwrap(); // expect: BL007
        )+
    };
}

macro_rules! load_into {
    ($model:expr, $store:expr) => {
        $model.load_from(&mut $store).unwrap();
    };
    ($model:expr, $store:expr, $result:ident) => {
        let mut store = $store;
        let $result = $model.load_from(&mut store).unwrap();
    };
}

macro_rules! load_named {
    ($model:expr, $path:expr, $result:ident) => {
        let mut store = SafetensorsStore::from_file($path).allow_partial(true);
        let $result = $model.load_from(&mut store).unwrap();
    };
}

bench_backend!(Default::default(), ndarray, "model.pt");
