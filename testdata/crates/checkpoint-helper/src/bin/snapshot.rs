//! Converts a burnpack model into a safetensors snapshot, best effort.

use std::path::Path;

use burn_store::{BurnpackStore, ModuleSnapshot};
use checkpoint_helper::checkpoint::save_checkpoint;
use checkpoint_helper::model::Mlp;

fn main() {
    let device = Default::default();
    let src = std::env::args().nth(1).expect("usage: snapshot <model.bpk>");
    let mut model = Mlp::new(&device);
    model
        .load_from(&mut BurnpackStore::from_file(&src))
        .expect("cannot read the source model");
    let _ = save_checkpoint(&model, Path::new("snapshot.safetensors")); // expect: BL001
    println!("done");
}
