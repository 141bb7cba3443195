//! Comments meant for burnlint that it cannot use: they are ignored (so the finding stays)
//! and reported.

use burn_store::{ModuleSnapshot, SafetensorsStore};

use crate::model::Mlp;

pub fn blanket(model: &Mlp) {
    let mut store = SafetensorsStore::from_file("model.safetensors").overwrite(true);
    // expect-next: BL008
    // burnlint: allow()
    let _ = model.save_into(&mut store); // expect: BL001
}

pub fn no_parentheses(model: &Mlp) {
    let mut store = SafetensorsStore::from_file("model.safetensors").overwrite(true);
    // expect-next: BL008
    // burnlint: allow BL001
    let _ = model.save_into(&mut store); // expect: BL001
}

pub fn no_colon(model: &Mlp) {
    let mut store = SafetensorsStore::from_file("model.safetensors").overwrite(true);
    // expect-next: BL008
    // burnlint allow(BL001)
    let _ = model.save_into(&mut store); // expect: BL001
}

pub fn unknown_directive(model: &Mlp) {
    let mut store = SafetensorsStore::from_file("model.safetensors").overwrite(true);
    // expect-next: BL008
    // burnlint: disable(BL001)
    let _ = model.save_into(&mut store); // expect: BL001
}

pub fn text_after_the_list(model: &Mlp) {
    let mut store = SafetensorsStore::from_file("model.safetensors").overwrite(true);
    // expect-next: BL008
    // burnlint: allow(BL001) because it is only a demo
    let _ = model.save_into(&mut store); // expect: BL001
}

pub fn no_commas(model: &Mlp) {
    let mut store = SafetensorsStore::from_file("model.safetensors").overwrite(true);
    // expect-next: BL008
    // burnlint: allow(BL001 BL002)
    let _ = model.save_into(&mut store); // expect: BL001
}

pub fn misspelled(model: &Mlp) {
    let mut store = SafetensorsStore::from_file("model.safetensors").overwrite(true);
    // expect-next: BL008
    // burnlint: allow(discarded-store-results)
    let _ = model.save_into(&mut store); // expect: BL001
}

pub fn misspelled_beside_a_good_one(model: &Mlp) {
    let mut store = SafetensorsStore::from_file("model.safetensors").overwrite(true);
    // expect-next: BL008
    // burnlint: allow(BL001, BL0001)
    let _ = model.save_into(&mut store);
}

pub fn listed_twice(model: &Mlp) {
    let mut store = SafetensorsStore::from_file("model.safetensors").overwrite(true);
    // expect-next: BL008
    // burnlint: allow(BL001, discarded-store-result)
    let _ = model.save_into(&mut store);
}

pub fn upper_and_lower_case(model: &Mlp) {
    let mut store = SafetensorsStore::from_file("model.safetensors").overwrite(true);
    // BURNLINT: ALLOW(bl001) -- case does not matter
    let _ = model.save_into(&mut store);
}

pub fn a_string_is_not_a_comment(model: &Mlp) {
    let mut store = SafetensorsStore::from_file("model.safetensors").overwrite(true);
    let _ = model.save_into(&mut store); let _s = "// burnlint: allow(BL001)"; // expect: BL001
}

pub fn block_comments_are_not_read(model: &Mlp) {
    let mut store = SafetensorsStore::from_file("model.safetensors").overwrite(true);
    // expect-next: BL008
    /* burnlint: allow(BL001) */
    let _ = model.save_into(&mut store); // expect: BL001
}

pub fn prose_in_a_block_comment(model: &Mlp) {
    let mut store = SafetensorsStore::from_file("model.safetensors").overwrite(true);
    /* burnlint would report the save below */
    let _ = model.save_into(&mut store); // expect: BL001
}

// expect-next: BL008
/// burnlint: allow(BL001) -- a doc comment documents the function, it suppresses nothing
pub fn doc_comments_are_not_read(model: &Mlp) {
    let mut store = SafetensorsStore::from_file("model.safetensors").overwrite(true);
    let _ = model.save_into(&mut store); // expect: BL001
}
