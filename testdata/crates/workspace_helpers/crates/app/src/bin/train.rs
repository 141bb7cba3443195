//! A bin of the dependent crate: it reaches the dependency's helpers as well.

use std::path::Path;

fn main() -> anyhow::Result<()> {
    let device = Default::default();
    let mut model = app_model::Net::<burn::backend::NdArray>::new(&device);
    for _ in 0..10 {
        ckpt::save_latest(&model, Path::new("runs"))?; // expect: BL003
    }
    let _ = ckpt::load_checked(&mut model, Path::new("runs/latest.safetensors")); // expect: BL001
    Ok(())
}
