//! A binary with a `Pipeline` type of its own, whose `new` loads nothing. Its calls must not
//! take the lib's summary; the lib's `Pipeline` named by its full path is still the lib's
//! (resolving it needs types told apart by path, not only by name: a known miss).

use std::path::Path;

use anyhow::Result;
use burn::prelude::*;

struct Pipeline {
    name: String,
}

impl Pipeline {
    fn new(name: &str) -> Result<(Self, usize)> {
        Ok((Self { name: name.to_owned() }, 0))
    }
}

fn main() -> Result<()> {
    let device: Device = Default::default();
    let (local, _) = Pipeline::new("serve")?;
    let weights = Path::new("model.safetensors");
    let (_lib, _) = type_resolution::pipeline::Pipeline::new(&device, weights)?; // todo-expect: BL007
    println!("{}", local.name);
    Ok(())
}
