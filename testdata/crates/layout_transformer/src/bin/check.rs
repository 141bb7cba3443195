//! A model check: reference tensors saved by PyTorch, loaded into a flat module.

use burn::backend::NdArray;
use burn_store::{ModuleSnapshot, PytorchStore};
use layout_transformer::model::TestData;

fn main() {
    let device = Default::default();
    let mut data: TestData<NdArray> = TestData::new(&device);
    let mut store = PytorchStore::from_file("test_data.pt"); // expect: BL005
    data.load_from(&mut store).expect("cannot read test_data.pt");
    println!("{:?}", data);
}
