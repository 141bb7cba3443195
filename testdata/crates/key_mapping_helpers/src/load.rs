//! Loads through the helpers.

use burn_store::ModuleSnapshot;

use crate::stores::{pt, st};

pub fn load_both<M: ModuleSnapshot>(a: &mut M, b: &mut M) {
    // the pair of `stores.rs`: reported there
    a.load_from(&mut pt("a.pt")).expect("pt");
    b.load_from(&mut st("b.safetensors")).expect("st");
}
