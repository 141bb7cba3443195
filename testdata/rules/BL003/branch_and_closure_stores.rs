//! A store chosen by `if`/`else` or `match` in a loop is followed through every branch, and
//! a store saved inside a closure that a loop calls is saved in that loop.

use anyhow::Result;
use burn_store::{ModuleSnapshot, SafetensorsStore};

use crate::model::Mlp;
use crate::train::train_epoch;

pub fn best_or_last(model: &mut Mlp, epochs: usize) -> Result<()> {
    let mut best = f32::MAX;
    for _ in 0..epochs {
        let loss = train_epoch(model);
        let mut store = if loss < best {
            best = loss;
            SafetensorsStore::from_file("best.safetensors") // expect: BL003
        } else {
            SafetensorsStore::from_file("last.safetensors") // expect: BL003
        };
        model.save_into(&mut store)?;
    }
    Ok(())
}

pub fn by_phase(model: &mut Mlp, epochs: usize, warmup: usize) -> Result<()> {
    for epoch in 0..epochs {
        train_epoch(model);
        let mut store = match epoch < warmup {
            true => SafetensorsStore::from_file("warmup.safetensors").overwrite(true),
            false => SafetensorsStore::from_file("main.safetensors"), // expect: BL003
        };
        model.save_into(&mut store)?;
    }
    Ok(())
}

pub fn per_epoch_branches(model: &mut Mlp, epochs: usize) -> Result<()> {
    for epoch in 0..epochs {
        let loss = train_epoch(model);
        let mut store = if loss < 0.1 {
            SafetensorsStore::from_file(format!("good-{epoch}.safetensors"))
        } else {
            SafetensorsStore::from_file(format!("epoch-{epoch}.safetensors"))
        };
        model.save_into(&mut store)?;
    }
    Ok(())
}

pub fn closure_store_before(model: &mut Mlp, epochs: usize) -> Result<()> {
    let mut store = SafetensorsStore::from_file("ckpt.safetensors"); // expect: BL003
    let mut save = |m: &Mlp| m.save_into(&mut store);
    for _ in 0..epochs {
        train_epoch(model);
        save(model)?;
    }
    Ok(())
}

pub fn closure_builds_it(model: &mut Mlp, epochs: usize) -> Result<()> {
    let save = |m: &Mlp| {
        let mut store = SafetensorsStore::from_file("ckpt.safetensors"); // expect: BL003
        m.save_into(&mut store)
    };
    for _ in 0..epochs {
        train_epoch(model);
        save(model)?;
    }
    Ok(())
}

pub fn closure_with_a_path_per_call(model: &mut Mlp, epochs: usize) -> Result<()> {
    let save = |m: &Mlp, epoch: usize| {
        let mut store = SafetensorsStore::from_file(format!("epoch-{epoch}.safetensors"));
        m.save_into(&mut store)
    };
    for epoch in 0..epochs {
        train_epoch(model);
        save(model, epoch)?;
    }
    Ok(())
}

pub fn closure_called_once(model: &mut Mlp, epochs: usize) -> Result<()> {
    let save = |m: &Mlp| {
        let mut store = SafetensorsStore::from_file("final.safetensors");
        m.save_into(&mut store)
    };
    for _ in 0..epochs {
        train_epoch(model);
    }
    save(model)
}

pub fn closure_call_then_break(model: &mut Mlp, epochs: usize) -> Result<()> {
    let save = |m: &Mlp| {
        let mut store = SafetensorsStore::from_file("early.safetensors");
        m.save_into(&mut store)
    };
    for _ in 0..epochs {
        if train_epoch(model) < 0.01 {
            save(model)?;
            break;
        }
    }
    Ok(())
}

pub fn closure_after_remove(model: &mut Mlp, epochs: usize) -> Result<()> {
    let path = "ckpt.safetensors";
    let save = |m: &Mlp| {
        let mut store = SafetensorsStore::from_file(path);
        m.save_into(&mut store)
    };
    for _ in 0..epochs {
        train_epoch(model);
        let _ = std::fs::remove_file(path);
        save(model)?;
    }
    Ok(())
}
