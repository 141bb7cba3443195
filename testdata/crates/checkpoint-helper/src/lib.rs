//! A small MLP trainer whose checkpoints go through one helper.

pub mod checkpoint;
pub mod model;
pub mod train;
