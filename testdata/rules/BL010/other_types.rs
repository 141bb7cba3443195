//! No BL010: a `PathFilter` and a `KeyRemapper` of the crate's own, and a store whose type is
//! not known, are not burn-store's: their patterns may follow another syntax.

use anyhow::Result;
use burn_store::ModuleSnapshot;

pub struct PathFilter;

impl PathFilter {
    pub fn new() -> Self {
        PathFilter
    }

    pub fn with_regex(self, _pattern: &str) -> Self {
        self
    }
}

pub struct KeyRemapper;

impl KeyRemapper {
    pub fn new() -> Self {
        KeyRemapper
    }

    pub fn add_pattern(self, _from: &str, _to: &str) -> Result<Self> {
        Ok(self)
    }
}

pub fn local_types() -> Result<(PathFilter, KeyRemapper)> {
    let filter = PathFilter::new().with_regex("(?=lookahead)");
    let remapper = KeyRemapper::new().add_pattern(r"(\w)\1", "x")?;
    Ok((filter, remapper))
}

pub fn unknown_store<M: ModuleSnapshot, S: Builder>(model: &mut M, builder: S) -> Result<()> {
    let _configured = builder.with_key_remapping(r"(?<=a)b", "c").with_regex("(");
    let _ = model;
    Ok(())
}

pub trait Builder {
    fn with_key_remapping(self, from: &str, to: &str) -> Self;
    fn with_regex(self, pattern: &str) -> Self;
}
