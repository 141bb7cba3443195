//! The trainer: the lib's helpers by their full path, in every kind of epoch loop.

use std::path::{Path, PathBuf};

use anyhow::Result;
use burn::prelude::*;
use epoch_runner::model::Mlp;

fn train_step(model: Mlp) -> Mlp {
    model
}

fn main() -> Result<()> {
    let device: Device = Default::default();
    let dir = PathBuf::from("runs");
    let latest = dir.join("latest.safetensors");
    let mut model = Mlp::new(&device);

    for _epoch in 0..10 {
        model = train_step(model);
        epoch_runner::checkpoint::save(&model, &latest)?; // expect: BL003
    }

    let mut steps = 0;
    loop {
        model = train_step(model);
        epoch_runner::checkpoint::save(&model, Path::new("runs/loop.safetensors"))?; // expect: BL003
        steps += 1;
        if steps == 10 {
            break;
        }
    }

    let mut batches = vec![1, 2, 3].into_iter();
    while let Some(_batch) = batches.next() {
        model = train_step(model);
        epoch_runner::checkpoint::save(&model, &dir.join("while.safetensors")).expect("save"); // expect: BL003
    }

    (0..10).for_each(|_| {
        epoch_runner::checkpoint::save(&model, &latest).unwrap(); // expect: BL003
    });

    // the path is built inside the loop, the same every time
    for _ in 0..10 {
        let path = dir.join(format!("{}.safetensors", "inner"));
        epoch_runner::checkpoint::save(&model, &path)?; // expect: BL003
    }

    // through a second helper that passes its path on
    for _ in 0..10 {
        epoch_runner::checkpoint::save_in(&model, &dir)?; // expect: BL003
    }

    for _ in 0..10 {
        epoch_runner::checkpoint::save_logged(&model, &latest)?; // expect: BL003
    }

    // clean: a new file each epoch, a helper that replaces, the file removed first, once
    for epoch in 0..10 {
        epoch_runner::checkpoint::save(&model, &dir.join(format!("epoch-{epoch}.safetensors")))?;
        epoch_runner::checkpoint::save_replacing(&model, &latest)?;
        epoch_runner::checkpoint::save_in(&model, &dir.join(format!("epoch-{epoch}")))?;
    }
    for _ in 0..10 {
        let _ = std::fs::remove_file(&latest);
        epoch_runner::checkpoint::save(&model, &latest)?;
    }
    for _ in 0..10 {
        std::fs::remove_file(&latest).ok();
        epoch_runner::checkpoint::save_logged(&model, &latest)?;
    }
    // removing another path, or the directory a helper derives its path from, does not
    for _ in 0..10 {
        let _ = std::fs::remove_file(dir.join("previous.safetensors"));
        epoch_runner::checkpoint::save(&model, &latest)?; // expect: BL003
    }
    for _ in 0..10 {
        let _ = std::fs::remove_file(&dir);
        epoch_runner::checkpoint::save_in(&model, &dir)?; // expect: BL003
    }
    for _ in 0..10 {
        model = train_step(model);
        if steps > 5 {
            epoch_runner::checkpoint::save(&model, &latest)?;
            break;
        }
    }
    let best = Some(dir.join("best.safetensors"));
    best.map(|p| epoch_runner::checkpoint::save(&model, &p)).transpose()?;
    Ok(())
}
