//! The key-mapping decision, store by store and option by option: BL012 where the value mis-maps
//! the resolved loaded layout, BL006 where two loaders of the file disagree, BL005 where an
//! option is left to its default. Only `PytorchStore`s and adapter `SafetensorsStore`s without
//! remapping or filters can be BL012. `PytorchStore` and `SafetensorsStore` loaders fill types
//! of their own (`Mirror`, `StMirror`), so BL006 stays out of the way, except for the `Headed`
//! pair, which disagrees on the index option (BL006, harmless for `Headed` today).

use std::path::Path;

use anyhow::Result;
use burn::nn::{Linear, Relu};
use burn::prelude::*;
use burn_store::{
    ChainAdapter, HalfPrecisionAdapter, ModuleSnapshot, ModuleStore, PyTorchToBurnAdapter, PytorchStore, SafetensorsStore,
};

/// `nn.Sequential(nn.Linear, nn.ReLU, nn.Linear)` copied layer by layer: a mirror.
#[derive(Module, Debug)]
pub enum Layer<B: Backend> {
    Linear(Linear<B>),
    Relu(Relu),
}

#[derive(Module, Debug)]
pub struct Mirror<B: Backend> {
    net: Vec<Layer<B>>,
}

/// The same mirror under another name, for the `SafetensorsStore` loaders.
#[derive(Module, Debug)]
pub struct StMirror<B: Backend> {
    net: Vec<Layer<B>>,
}

/// A module enum in a field (no `Vec`): its variant names are in burn's paths.
#[derive(Module, Debug)]
pub enum Head<B: Backend> {
    Linear(Linear<B>),
    Identity(Relu),
}

#[derive(Module, Debug)]
pub struct Headed<B: Backend> {
    trunk: Linear<B>,
    head: Head<B>,
}

/// A mirror beside a `Vec<Linear>`: no single index value fits both.
#[derive(Module, Debug)]
pub struct Mixed<B: Backend> {
    net: Vec<Layer<B>>,
    proj: Vec<Linear<B>>,
}

/// Flat: no index, no enum.
#[derive(Module, Debug)]
pub struct Flat<B: Backend> {
    fc1: Linear<B>,
    fc2: Linear<B>,
}

// -- PytorchStore on a mirror --------------------------------------------------------------

pub fn pt_implicit<B: Backend>(device: &B::Device, path: &Path) -> Result<Mirror<B>> {
    let mut model = Mirror::new(device);
    let mut store = PytorchStore::from_file(path); // expect: BL005, BL012
    model.load_from(&mut store)?;
    Ok(model)
}

pub fn pt_explicit_wrong<B: Backend>(device: &B::Device, path: &Path) -> Result<Mirror<B>> {
    let mut model = Mirror::new(device);
    let mut store = PytorchStore::from_file(path) // expect: BL012
        .map_indices_contiguous(true)
        .skip_enum_variants(true);
    model.load_from(&mut store)?;
    Ok(model)
}

/// Clean: both written, both right.
pub fn pt_explicit_right<B: Backend>(device: &B::Device, path: &Path) -> Result<Mirror<B>> {
    let mut model = Mirror::new(device);
    let mut store = PytorchStore::from_file(path)
        .map_indices_contiguous(false)
        .skip_enum_variants(true);
    model.load_from(&mut store)?;
    Ok(model)
}

/// `skip_enum_variants(false)` on a mirror: PyTorch's keys never name the variant.
pub fn pt_enum_wrong<B: Backend>(device: &B::Device, path: &Path) -> Result<Mirror<B>> {
    let mut model = Mirror::new(device);
    let mut store = PytorchStore::from_file(path) // expect: BL012
        .map_indices_contiguous(false)
        .skip_enum_variants(false);
    model.load_from(&mut store)?;
    Ok(model)
}

/// A value that is not a literal counts as written: BL005 only for the other option.
pub fn pt_non_literal<B: Backend>(device: &B::Device, path: &Path, gaps: bool) -> Result<Mirror<B>> {
    let mut model = Mirror::new(device);
    let mut store = PytorchStore::from_file(path).map_indices_contiguous(!gaps); // expect: BL005
    model.load_from(&mut store)?;
    Ok(model)
}

/// `map_indices_contiguous_except` writes the index option (burn 0.22.1).
pub fn pt_except<B: Backend>(device: &B::Device, path: &Path) -> Result<Mirror<B>> {
    let mut model = Mirror::new(device);
    let mut store = PytorchStore::from_file(path)
        .map_indices_contiguous_except(["net"])
        .skip_enum_variants(true);
    model.load_from(&mut store)?;
    Ok(model)
}

/// Set on some paths only: implicit on the others, and not one literal, so no BL012.
pub fn pt_some_paths<B: Backend>(device: &B::Device, path: &Path, mirror: bool) -> Result<Mirror<B>> {
    let mut model = Mirror::new(device);
    let mut store = PytorchStore::from_file(path).skip_enum_variants(true); // expect: BL005
    if mirror {
        store = store.map_indices_contiguous(false);
    }
    model.load_from(&mut store)?;
    Ok(model)
}

/// Remapped keys: a remap can close the gaps itself, so only the implicit options are said.
pub fn pt_remapped<B: Backend>(device: &B::Device, path: &Path) -> Result<Mirror<B>> {
    let mut model = Mirror::new(device);
    let mut store = PytorchStore::from_file(path) // expect: BL005
        .with_key_remapping(r"^model\.(.*)$", "$1");
    model.load_from(&mut store)?;
    Ok(model)
}

/// A filter: the keys it leaves out are neither loaded nor missing.
pub fn pt_filtered<B: Backend>(device: &B::Device, path: &Path) -> Result<Mirror<B>> {
    let mut model = Mirror::new(device);
    let mut store = PytorchStore::from_file(path) // expect: BL005
        .with_regex(r"^net\.0\.")
        .allow_partial(true);
    let result = model.load_from(&mut store)?;
    println!("{} missing", result.missing.len());
    Ok(model)
}

/// The store chosen by a branch: each branch's store on its own path.
pub fn pt_branches<B: Backend>(device: &B::Device, path: &Path, old: bool) -> Result<Mirror<B>> {
    let mut model = Mirror::new(device);
    let mut store = if old { // expect-next: BL005
        PytorchStore::from_file(path)
    } else {
        PytorchStore::from_file(path).map_indices_contiguous(false)
    };
    model.load_from(&mut store)?;
    Ok(model)
}

// -- SafetensorsStore with PyTorchToBurnAdapter on a mirror ---------------------------------

pub fn st_implicit<B: Backend>(device: &B::Device, path: &Path) -> Result<StMirror<B>> {
    let mut model = StMirror::new(device);
    let mut store = SafetensorsStore::from_file(path).with_from_adapter(PyTorchToBurnAdapter); // expect: BL005, BL012
    model.load_from(&mut store)?;
    Ok(model)
}

/// Clean: the mirror's values on a `SafetensorsStore`.
pub fn st_right<B: Backend>(device: &B::Device, path: &Path) -> Result<StMirror<B>> {
    let mut model = StMirror::new(device);
    let mut store = SafetensorsStore::from_file(path)
        .with_from_adapter(PyTorchToBurnAdapter)
        .map_indices_contiguous(false)
        .skip_enum_variants(true);
    model.load_from(&mut store)?;
    Ok(model)
}

/// Renumbering written on a mirror, inside a `ChainAdapter`.
pub fn st_chain_wrong<B: Backend>(device: &B::Device, path: &Path) -> Result<StMirror<B>> {
    let mut model = StMirror::new(device);
    let mut store = SafetensorsStore::from_file(path) // expect: BL012
        .with_from_adapter(ChainAdapter::new(PyTorchToBurnAdapter, HalfPrecisionAdapter::default()))
        .map_indices_contiguous(true)
        .skip_enum_variants(true);
    model.load_from(&mut store)?;
    Ok(model)
}

/// The adapter through a binding, from bytes.
pub fn st_bytes<B: Backend>(device: &B::Device, bytes: Vec<u8>) -> Result<StMirror<B>> {
    let mut model = StMirror::new(device);
    let adapter = PyTorchToBurnAdapter;
    let mut store = SafetensorsStore::from_bytes(Some(bytes)) // expect: BL012
        .with_from_adapter(adapter)
        .map_indices_contiguous(false);
    store.apply_to(&mut model)?;
    Ok(model)
}

/// Key remapping without the adapter: PyTorch-facing (d), never BL012.
pub fn st_remapped<B: Backend>(device: &B::Device, path: &Path) -> Result<StMirror<B>> {
    let mut model = StMirror::new(device);
    let mut store = SafetensorsStore::from_file(path) // expect: BL005
        .with_key_remapping(r"^layers\.", "net.");
    model.load_from(&mut store)?;
    Ok(model)
}

/// No adapter, no remap, no PyTorch loader beside it: burn's own names, not PyTorch-facing.
pub fn st_burn_names<B: Backend>(device: &B::Device, path: &Path) -> Result<StMirror<B>> {
    let mut model = StMirror::new(device);
    let mut store = SafetensorsStore::from_file(path);
    model.load_from(&mut store)?;
    Ok(model)
}

// -- a module enum in a field ---------------------------------------------------------------

pub fn headed_st<B: Backend>(device: &B::Device, path: &Path) -> Result<Headed<B>> {
    let mut model = Headed::new(device);
    let mut store = SafetensorsStore::from_file(path) // expect: BL006, BL012
        .with_from_adapter(PyTorchToBurnAdapter)
        .map_indices_contiguous(false)
        .skip_enum_variants(false);
    model.load_from(&mut store)?;
    Ok(model)
}

/// Clean: `PytorchStore`'s defaults written, both right for an enum field.
pub fn headed_pt<B: Backend>(device: &B::Device, path: &Path) -> Result<Headed<B>> {
    let mut model = Headed::new(device);
    let mut store = PytorchStore::from_file(path)
        .map_indices_contiguous(true)
        .skip_enum_variants(true);
    model.load_from(&mut store)?;
    Ok(model)
}

// -- a mirror beside a Vec<Linear> ----------------------------------------------------------

/// The index option is no BL012 (each value breaks one field) and BL005 offers no fix; the
/// enum option is still right by default for a `PytorchStore`.
pub fn mixed_pt<B: Backend>(device: &B::Device, path: &Path) -> Result<Mixed<B>> {
    let mut model = Mixed::new(device);
    let mut store = PytorchStore::from_file(path).skip_enum_variants(true); // expect: BL005
    model.load_from(&mut store)?;
    Ok(model)
}

// -- flat -----------------------------------------------------------------------------------

/// Harmless today, still implicit: BL005.
pub fn flat_pt<B: Backend>(device: &B::Device, path: &Path) -> Result<Flat<B>> {
    let mut model = Flat::new(device);
    model.load_from(&mut PytorchStore::from_file(path))?; // expect: BL005
    Ok(model)
}

// -- tests that mean to fail ----------------------------------------------------------------

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[should_panic]
    fn renumbering_breaks_the_mirror() {
        let device = Default::default();
        let mut model = Mirror::<burn::backend::NdArray>::new(&device);
        model.load_from(&mut PytorchStore::from_file("mirror.pt")).unwrap();
    }

    #[test]
    fn variant_names_are_missing() {
        let device = Default::default();
        let mut model = Mirror::<burn::backend::NdArray>::new(&device);
        let mut store = PytorchStore::from_file("mirror.pt")
            .skip_enum_variants(false)
            .allow_partial(true);
        let result = model.load_from(&mut store).unwrap();
        assert!(!result.missing.is_empty(), "variant names are not in the file");
    }
}
