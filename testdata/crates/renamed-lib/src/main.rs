//! The binary of `renamed-lib`: `runner_core::` is its lib, `renamed_lib::` names nothing.

use std::path::Path;

use burn::prelude::*;

mod renamed_lib {
    //! A module of the binary that happens to carry the package's name.
    pub mod checkpoint {
        pub fn save<M>(_model: &M, path: &std::path::Path) -> std::io::Result<()> {
            std::fs::write(path, b"")
        }
    }
}

#[derive(Module, Debug)]
struct Net {
    fc: burn::nn::Linear,
}

fn main() -> anyhow::Result<()> {
    let device: Device = Default::default();
    let net = Net { fc: burn::nn::LinearConfig::new(4, 4).init(&device) };
    let latest = Path::new("runs/latest.bpk");
    for _ in 0..10 {
        runner_core::checkpoint::save(&net, latest)?; // expect: BL003
        renamed_lib::checkpoint::save(&net, latest)?;
    }
    Ok(())
}
