//! `convert <in.safetensors> <out.bpk>`: a binary of its own, which sees the lib's `Mlp` layout.

use std::path::Path;

use burn::backend::NdArray;
use burn_store::{BurnpackStore, ModuleSnapshot, PyTorchToBurnAdapter, SafetensorsStore};
use layout_linear::model::Mlp;

fn main() {
    let mut args = std::env::args().skip(1);
    let (input, output) = match (args.next(), args.next()) {
        (Some(i), Some(o)) => (i, o),
        _ => panic!("usage: convert <in.safetensors> <out.bpk>"),
    };
    let device = Default::default();
    let mut model: Mlp<NdArray> = Mlp::new(&device);
    let mut store = SafetensorsStore::from_file(Path::new(&input)).with_from_adapter(PyTorchToBurnAdapter); // expect: BL005
    let result = model.load_from(&mut store).expect("cannot read the PyTorch weights");
    println!("{} tensors", result.applied.len());
    model
        .save_into(&mut BurnpackStore::from_file(&output).overwrite(true))
        .expect("cannot write the Burnpack file");
}
