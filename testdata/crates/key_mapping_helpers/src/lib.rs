//! BL006 across files: a pair of stores built by helpers of one file is reported there, once,
//! not again in every file that loads them; a pair that only meets in a caller is reported
//! in the caller.

pub mod load;
pub mod mixed;
pub mod one_store;
pub mod stores;

use burn::prelude::*;

#[derive(Module, Debug)]
pub enum Layer<B: Backend> {
    Linear(nn::Linear<B>),
    Relu(nn::Relu),
}

#[derive(Module, Debug)]
pub struct Mirror<B: Backend> {
    pub net: Vec<Layer<B>>,
}
