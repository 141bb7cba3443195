//! A pair that meets only here: a local `PytorchStore` and a helper's `SafetensorsStore`.

use burn_store::{ModuleSnapshot, PytorchStore};

use crate::one_store::st_strict;

pub fn load_mixed<M: ModuleSnapshot>(a: &mut M, b: &mut M) {
    let mut local = PytorchStore::from_file("c.pt").map_indices_contiguous(false).skip_enum_variants(true);
    a.load_from(&mut local).expect("pt");
    b.load_from(&mut st_strict("d.safetensors")).expect("st"); // expect: BL006
}
