//! BL010: literal patterns the Rust `regex` crate rejects, passed where burn-store compiles
//! them. A remapping panics at run time, `KeyRemapper::add_pattern` returns `Err`, and a
//! filter drops the pattern silently; each message says which.

use anyhow::Result;
use burn::prelude::*;
use burn_store::{
    BurnpackStore, KeyRemapper, ModuleSnapshot, PathFilter, PytorchStore, SafetensorsStore,
};

/// Patterns written for Python's `re`: look-around and `\Z` are not in the Rust crate.
pub fn load_torchvision<M: ModuleSnapshot>(model: &mut M) -> Result<()> {
    let mut store = PytorchStore::from_file("resnet.pt")
        .with_key_remapping(r"^(?!fc\.)(.*)$", "backbone.$1") // expect: BL010
        .with_key_remapping(r"\.running_var\Z", ".var") // expect: BL010
        .with_key_remapping(r"(?<=layer\d)\.conv", ".block.conv"); // expect: BL010
    model.load_from(&mut store)?;
    Ok(())
}

/// Unbalanced groups and classes, in raw and in escaped literals.
pub fn load_safetensors<M: ModuleSnapshot>(model: &mut M) -> Result<()> {
    let mut store = SafetensorsStore::from_file("model.safetensors") // expect: BL006
        .with_key_remapping("^encoder\\.(layer", "enc.$1") // expect: BL010
        .with_key_remapping("blocks)\\.", "layers.") // expect: BL010
        .with_key_remapping(r"^head\.[0-9\.weight", "classifier.weight"); // expect: BL010
    model.load_from(&mut store)?;
    Ok(())
}

/// Back-references and a repetition with nothing to repeat.
pub fn save_burnpack<M: ModuleSnapshot>(model: &mut M) -> Result<()> {
    let mut store = BurnpackStore::from_file("model.bpk")
        .with_remap_pattern(r"(\w+)\.\1", "$1") // expect: BL010
        .with_remap_pattern("*.gamma", "weight"); // expect: BL010
    model.load_from(&mut store)?;
    Ok(())
}

/// A filter whose only pattern is dropped: a Burnpack filter then matches nothing.
pub fn save_encoder<M: ModuleSnapshot>(model: &M) -> Result<()> {
    let mut store = BurnpackStore::from_file("encoder.bpk")
        .overwrite(true)
        .with_regex(r"^encoder\.(?P<layer>\d+"); // expect: BL010
    model.save_into(&mut store)?;
    Ok(())
}

/// With other criteria, the filter matches by those only.
pub fn load_some<M: ModuleSnapshot>(model: &mut M) -> Result<()> {
    let mut store = SafetensorsStore::from_file("model.safetensors") // expect: BL006
        .with_regexes(["^decoder\\.", "^encoder\\.{2"]) // expect: BL010
        .allow_partial(true);
    let result = model.load_from(&mut store)?;
    println!("{result}");
    let mut torch = PytorchStore::from_file("model.pt").with_regexes(vec![
        "+bias$", // expect: BL010
        "?weight$", // expect: BL010
    ]);
    model.load_from(&mut torch)?;
    Ok(())
}

/// `PathFilter` on its own, and `KeyRemapper`, which returns the error.
pub fn filter_and_remapper() -> Result<(PathFilter, PathFilter, KeyRemapper)> {
    let only = PathFilter::new().with_regex("(?i)*.weight"); // expect: BL010
    let mixed = PathFilter::from_regex_patterns(["[[:alpha:]"]) // expect: BL010
        .with_full_path("head.weight");
    let remapper = KeyRemapper::new()
        .add_pattern(r"^model\.(?=layers)", "")? // expect: BL010
        .add_pattern(r"\.ln_(\d)\.", ".norm$1.")?;
    Ok((only, mixed, remapper))
}

/// Through `burn::store` and an alias.
pub fn through_burn<M: ModuleSnapshot>(model: &mut M) -> Result<()> {
    use burn::store::SafetensorsStore as Store;
    let mut store = Store::from_file("m.safetensors").with_regex("layers.(0|1"); // expect: BL010
    model.load_from(&mut store)?;
    Ok(())
}

/// A store handed in by its type, as a helper that adds the remappings takes it.
fn remap_blocks(store: PytorchStore) -> PytorchStore {
    store
        .with_key_remapping(r"^blocks\.(\d+)\.", "layers.$1.")
        .with_key_remapping(r"^(?P<n>\w+)\.(?P<n>\d+)", "$n") // expect: BL010
}
