//! An integration test sees the lib by its crate name too.

use std::path::Path;

use epoch_runner::checkpoint::save;
use epoch_runner::model::Mlp;

#[test]
fn saves_every_epoch() {
    let model = Mlp::new(&Default::default());
    for _ in 0..3 {
        save(&model, Path::new("target/test-latest.safetensors")).unwrap(); // expect: BL003
    }
}
