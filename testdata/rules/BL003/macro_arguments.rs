//! A save inside a macro's arguments is a save: in a loop it repeats, whatever the macro
//! (the store rules need the operation, not the use of its result). A `quote!` template is
//! code for another program.

use burn_store::{ModuleSnapshot, SafetensorsStore};
use quote::quote;

use crate::model::Mlp;
use crate::train::train_epoch;

pub fn train(model: &mut Mlp, epochs: usize) {
    for _ in 0..epochs {
        train_epoch(model);
        let mut store = SafetensorsStore::from_file("last.safetensors"); // expect: BL003
        assert!(model.save_into(&mut store).is_ok());
    }
}

pub fn train_unknown_macro(model: &mut Mlp, epochs: usize) {
    let mut store = SafetensorsStore::from_file("best.safetensors"); // expect: BL003
    for _ in 0..epochs {
        train_epoch(model);
        with_timing!("save", model.save_into(&mut store).unwrap());
    }
}

pub fn train_overwriting(model: &mut Mlp, epochs: usize) {
    for _ in 0..epochs {
        train_epoch(model);
        let mut store = SafetensorsStore::from_file("last.safetensors").overwrite(true);
        assert!(model.save_into(&mut store).is_ok());
    }
}

pub fn template() -> proc_macro2::TokenStream {
    quote! {
        for _ in 0..3 {
            let mut store = SafetensorsStore::from_file("last.safetensors");
            assert!(model.save_into(&mut store).is_ok());
        }
    }
}
