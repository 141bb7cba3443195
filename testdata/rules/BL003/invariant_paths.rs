//! Loop-invariant checkpoint paths, one spelling per function. Every save after the first
//! finds the previous iteration's file and fails.

use std::path::{Path, PathBuf};

use anyhow::Result;
use burn_store::{BurnpackStore, ModuleSnapshot, SafetensorsStore};

use crate::config::{Args, TrainConfig};
use crate::data::Batch;
use crate::model::Mlp;
use crate::train::{evaluate, optimizer_step, train_epoch};

const LATEST: &str = "checkpoints/latest.bpk";

/// `out.join(..)` of a parameter, inline in the call.
pub fn train_join(mut model: Mlp, batches: &[Batch], out: &Path, epochs: usize) -> Result<Mlp> {
    for epoch in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
            optimizer_step(&mut model, 1e-3);
        }
        println!("epoch {epoch}: loss {:.4}", evaluate(&model, batches));
        model.save_into(&mut BurnpackStore::from_file(out.join("last.bpk")))?; // expect: BL003
    }
    Ok(model)
}

/// `format!` whose only capture is invariant.
pub fn train_format_capture(mut model: Mlp, batches: &[Batch], dir: &str, epochs: usize) -> Result<Mlp> {
    for epoch in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
            optimizer_step(&mut model, 1e-3);
        }
        log::info!("epoch {epoch}: loss {:.4}", evaluate(&model, batches));
        let mut store = SafetensorsStore::from_file(format!("{dir}/last.safetensors")); // expect: BL003
        model.save_into(&mut store)?;
    }
    Ok(model)
}

/// A reference to a field of the command-line arguments.
pub fn train_args_field(mut model: Mlp, batches: &[Batch], args: &Args) -> Result<Mlp> {
    for _ in 0..args.epochs {
        for batch in batches {
            model = train_epoch(model, batch);
        }
        model.save_into(&mut SafetensorsStore::from_file(&args.output))?; // expect: BL003
    }
    Ok(model)
}

/// Field access followed by a chain of pure path calls.
pub fn train_config_chain(mut model: Mlp, batches: &[Batch], cfg: &TrainConfig) -> Result<Mlp> {
    for epoch in 0..cfg.epochs {
        for batch in batches {
            model = train_epoch(model, batch);
            optimizer_step(&mut model, cfg.lr);
        }
        let loss = evaluate(&model, batches);
        println!("epoch {epoch}: loss {loss:.4}");
        let mut store = BurnpackStore::from_file(cfg.dir.join("m").with_extension("bpk")); // expect: BL003
        model.save_into(&mut store)?;
    }
    Ok(model)
}

/// A `let` inside the loop, built from invariant parts only.
pub fn train_let_inside(mut model: Mlp, batches: &[Batch], out: &Path, epochs: usize) -> Result<Mlp> {
    for epoch in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
        }
        let p = out.join("model").with_extension("safetensors");
        println!("epoch {epoch}: writing {}", p.display());
        let mut store = SafetensorsStore::from_file(&p); // expect: BL003
        model.save_into(&mut store)?;
    }
    Ok(model)
}

/// A string literal.
pub fn train_literal(mut model: Mlp, batches: &[Batch], epochs: usize) -> Result<Mlp> {
    for _epoch in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
        }
        model.save_into(&mut BurnpackStore::from_file("checkpoints/last.bpk"))?; // expect: BL003
    }
    Ok(model)
}

/// `Path::new` of a literal.
pub fn train_path_new(mut model: Mlp, batches: &[Batch], epochs: usize) -> Result<Mlp> {
    for _epoch in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
        }
        let mut store = SafetensorsStore::from_file(Path::new("runs/latest.safetensors")); // expect: BL003
        model.save_into(&mut store)?;
    }
    Ok(model)
}

/// `PathBuf::from` of a field, then `with_file_name`.
pub fn train_pathbuf_from(mut model: Mlp, batches: &[Batch], args: &Args) -> Result<Mlp> {
    for _ in 0..args.epochs {
        for batch in batches {
            model = train_epoch(model, batch);
        }
        let mut store = BurnpackStore::from_file(PathBuf::from(&args.output).with_file_name("last.bpk")); // expect: BL003
        model.save_into(&mut store)?;
    }
    Ok(model)
}

/// Positional `format!` argument that calls `display()`.
pub fn train_format_display(mut model: Mlp, batches: &[Batch], dir: &Path, epochs: usize) -> Result<Mlp> {
    for _ in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
        }
        model.save_into(&mut BurnpackStore::from_file(format!("{}/last.bpk", dir.display())))?; // expect: BL003
    }
    Ok(model)
}

/// `to_path_buf()` of a parameter.
pub fn train_to_path_buf(mut model: Mlp, batches: &[Batch], latest: &Path, epochs: usize) -> Result<Mlp> {
    for _ in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
        }
        let mut store = SafetensorsStore::from_file(latest.to_path_buf()); // expect: BL003
        model.save_into(&mut store)?;
    }
    Ok(model)
}

/// `clone()` of a binding that the loop only reads (`display()` is a pure call).
pub fn train_clone(mut model: Mlp, batches: &[Batch], run_dir: &Path, epochs: usize) -> Result<Mlp> {
    let latest: PathBuf = run_dir.join("latest.safetensors");
    for epoch in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
        }
        println!("epoch {epoch}: saving to {}", latest.display());
        model.save_into(&mut SafetensorsStore::from_file(latest.clone()))?; // expect: BL003
    }
    Ok(model)
}

/// Two captures, both bound before the loop (one through `to_string()`).
pub fn train_two_captures(mut model: Mlp, batches: &[Batch], args: &Args) -> Result<Mlp> {
    let dir = args.output.display().to_string();
    let name = args.run_name.to_owned();
    for _ in 0..args.epochs {
        for batch in batches {
            model = train_epoch(model, batch);
        }
        let mut store = BurnpackStore::from_file(format!("{dir}/{name}.bpk")); // expect: BL003
        model.save_into(&mut store)?;
    }
    Ok(model)
}

/// A `const` path.
pub fn train_const(mut model: Mlp, batches: &[Batch], epochs: usize) -> Result<Mlp> {
    for _ in 0..epochs {
        for batch in batches {
            model = train_epoch(model, batch);
        }
        model.save_into(&mut BurnpackStore::from_file(LATEST))?; // expect: BL003
    }
    Ok(model)
}
