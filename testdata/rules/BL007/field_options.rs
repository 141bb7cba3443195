//! A store option set from a field of a crate struct takes the literal every value of the
//! struct is built with, when nothing else can set the field: no derive that builds it from
//! outside data, no assignment, no `with_<field>` setter, and the same literal in every struct
//! literal and in its `Default`. Otherwise the option is unknown (which BL007 reads as maybe
//! lenient).

use anyhow::Result;
use burn_store::{ModuleSnapshot, SafetensorsStore};
use serde::Deserialize;

use crate::model::Mlp;

/// Strict in every value: `partial` is `false`, `validate` is `true`.
#[derive(Debug, Clone)]
pub struct LoadOptions {
    pub partial: bool,
    pub validate: bool,
    pub name: String,
}

impl Default for LoadOptions {
    fn default() -> Self {
        Self { partial: false, validate: true, name: String::new() }
    }
}

pub fn named(name: &str) -> LoadOptions {
    LoadOptions { name: name.to_string(), ..Default::default() }
}

pub fn load(model: &mut Mlp, options: &LoadOptions, path: &str) -> Result<()> {
    let mut store = SafetensorsStore::from_file(path)
        .allow_partial(options.partial)
        .validate(options.validate);
    model.load_from(&mut store)?;
    Ok(())
}

/// A derived `Default`: `false`, the only value.
#[derive(Debug, Default)]
pub struct WarmStart {
    pub lenient: bool,
}

pub fn warm_start(model: &mut Mlp, options: &WarmStart, path: &str) -> Result<()> {
    let mut store = SafetensorsStore::from_file(path).allow_partial(options.lenient);
    model.load_from(&mut store)?;
    Ok(())
}

/// Read from a file: any value.
#[derive(Debug, Deserialize)]
pub struct FileOptions {
    pub tolerant: bool,
}

pub fn from_file(model: &mut Mlp, options: &FileOptions, path: &str) -> Result<()> {
    let _defaults = FileOptions { tolerant: false };
    let mut store = SafetensorsStore::from_file(path).allow_partial(options.tolerant);
    model.load_from(&mut store)?; // expect: BL007
    Ok(())
}

/// Two literals disagree.
pub struct Phase {
    pub skip_missing: bool,
}

pub fn phases() -> (Phase, Phase) {
    (Phase { skip_missing: false }, Phase { skip_missing: true })
}

pub fn by_phase(model: &mut Mlp, phase: &Phase, path: &str) -> Result<()> {
    let mut store = SafetensorsStore::from_file(path).allow_partial(phase.skip_missing);
    model.load_from(&mut store)?; // expect: BL007
    Ok(())
}

/// Assigned after it is built.
pub struct Tuning {
    pub relaxed: bool,
}

pub fn tuning(fine_tune: bool) -> Tuning {
    let mut tuning = Tuning { relaxed: false };
    if fine_tune {
        tuning.relaxed = true;
    }
    tuning
}

pub fn tuned(model: &mut Mlp, tuning: &Tuning, path: &str) -> Result<()> {
    let mut store = SafetensorsStore::from_file(path).allow_partial(tuning.relaxed);
    model.load_from(&mut store)?; // expect: BL007
    Ok(())
}

/// A setter.
pub struct Builder {
    pub permissive: bool,
}

impl Builder {
    pub fn new() -> Self {
        Self { permissive: false }
    }

    pub fn with_permissive(mut self, permissive: bool) -> Self {
        self.permissive = permissive;
        self
    }
}

pub fn built(model: &mut Mlp, builder: &Builder, path: &str) -> Result<()> {
    let mut store = SafetensorsStore::from_file(path).allow_partial(builder.permissive);
    model.load_from(&mut store)?; // expect: BL007
    Ok(())
}
