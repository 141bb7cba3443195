use std::error::Error;
use std::path::PathBuf;

use burn_store::{ModuleSnapshot, SafetensorsStore};
use checkpoint_helper::checkpoint::{save_best, save_checkpoint};
use checkpoint_helper::model::Mlp;
use checkpoint_helper::train::{evaluate, train_epoch};

fn main() -> Result<(), Box<dyn Error>> {
    let device = Default::default();
    let dir = PathBuf::from("runs/mlp");
    let path = dir.join("latest.safetensors");
    let mut model = Mlp::new(&device);
    if path.exists() {
        let result = model.load_from(&mut SafetensorsStore::from_file(&path))?;
        println!("resumed from {}: {result}", path.display());
    }

    let mut best = f32::INFINITY;
    for epoch in 0..20 {
        model = train_epoch(model);
        let loss = evaluate(&model);
        println!("epoch {epoch}: val loss {loss:.4}");
        if let Err(e) = save_checkpoint(&model, &path) { // expect: BL002
            eprintln!("epoch {epoch}: checkpoint failed: {e}");
        }
        if loss < best {
            best = loss;
            save_best(&model, &dir).ok(); // expect: BL001
        }
    }

    if std::env::var_os("KEEP_LAST_RUN").is_some() {
        let _ = save_checkpoint(&model, &dir.join("last-run.safetensors")); // expect: BL001
    }
    save_checkpoint(&model, &dir.join("final.safetensors"))?;
    Ok(())
}
