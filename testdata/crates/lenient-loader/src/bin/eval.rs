//! Evaluates an old or new checkpoint.

use std::error::Error;
use std::path::PathBuf;

use burn_store::ModuleSnapshot;
use lenient_loader::model::Classifier;
use lenient_loader::{lenient_store, strict_store};

fn main() -> Result<(), Box<dyn Error>> {
    let device = Default::default();
    let path = PathBuf::from(std::env::args().nth(1).unwrap_or_else(|| "model.safetensors".into()));
    let legacy = std::env::args().any(|a| a == "--legacy");
    let mut model = Classifier::new(&device);
    if legacy {
        let mut store = lenient_store(&path);
        model.load_from(&mut store)?; // expect: BL007
    } else {
        model.load_from(&mut strict_store(&path))?;
    }
    println!("{model}");
    Ok(())
}
