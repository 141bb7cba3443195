//! No BL010: patterns the Rust `regex` crate compiles (named groups, escapes decoded by Rust,
//! nested repetitions, classes with `]` first), patterns that are not literals, and methods of
//! the same names on types that are not burn-store's.

use anyhow::Result;
use burn::prelude::*;
use burn_store::{KeyRemapper, ModuleSnapshot, PathFilter, PytorchStore, SafetensorsStore};

pub fn load<M: ModuleSnapshot>(model: &mut M, pattern: &str) -> Result<()> {
    let mut store = PytorchStore::from_file("model.pt") // expect: BL005
        // `"\\("` is the regex `\(`: a literal parenthesis
        .with_key_remapping("^conv\\((\\d+)\\)", "conv.$1")
        .with_key_remapping(r"^(?<stage>layer\d)\.(?P<block>\d+)\.", "$stage.blocks.$block.")
        .with_key_remapping(r"[]a-z]+\.x**", "y")
        .with_key_remapping(r"[[:digit:]--[0]][a&&[b]]", "z")
        .with_key_remapping(r"\bnorm\b\.(weight|bias)\z", "ln.$1")
        .with_key_remapping(r"(?x) ^ head \. ( # a comment with a ( in it
            weight )", "fc.weight")
        .with_key_remapping(pattern, "from.config");
    model.load_from(&mut store)?;
    Ok(())
}

pub fn filters() -> Result<(PathFilter, SafetensorsStore, KeyRemapper)> {
    let filter = PathFilter::new().with_regex(r"^encoder\.").with_regexes([r"\.weight$", "a{2,3}"]);
    let store = SafetensorsStore::from_bytes(None).with_regex(r"^(encoder|decoder)\.");
    let remapper = KeyRemapper::new().add_pattern(r"^old\.(.*)", "new.$1")?;
    Ok((filter, store, remapper))
}

/// A `with_regex` of another crate, and a user type with `add_pattern`.
pub struct Router;

impl Router {
    pub fn add_pattern(self, _pattern: &str, _to: &str) -> Self {
        self
    }
}

pub fn others(builder: regex_lite::RegexBuilder) -> Router {
    let _ = builder.with_regex("(?=unrelated)");
    Router.add_pattern("(", ")")
}
