//! Training loops in a module tree: calls by `crate::`, `super::` and `self::` paths.

pub mod epochs;
pub mod hooks;
