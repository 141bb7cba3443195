//! A small trainer whose checkpoint helpers live in the lib: `save_latest` and
//! `save_default` build a `BurnpackStore` without an explicit overwrite and return the save's
//! `Result`, so calling them in a loop with the same path writes only the first checkpoint.

pub mod checkpoint;
pub mod model;
pub mod train;

pub use checkpoint::save_latest;
