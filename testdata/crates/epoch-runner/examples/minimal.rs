//! The smallest training loop, by the lib's full path.

use epoch_runner::model::Mlp;

fn main() -> anyhow::Result<()> {
    let model = Mlp::new(&Default::default());
    let out = std::path::PathBuf::from("minimal.safetensors");
    for epoch in 0..3 {
        println!("epoch {epoch}");
        epoch_runner::checkpoint::save(&model, &out)?; // expect: BL003
    }
    Ok(())
}
