//! `Tokenizer::from_local` reads a vocabulary file: no store.

use std::path::Path;

use anyhow::Result;

pub struct Tokenizer {
    pub vocab: Vec<String>,
}

pub struct Vocab {
    pub unknown: Vec<String>,
}

impl Tokenizer {
    pub fn from_local(path: &Path) -> Result<(Self, Vocab)> {
        let text = std::fs::read_to_string(path)?;
        let vocab = text.lines().map(str::to_owned).collect();
        Ok((Self { vocab }, Vocab { unknown: Vec::new() }))
    }
}
