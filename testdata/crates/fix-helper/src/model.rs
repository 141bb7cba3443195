//! The model: named fields only.

use burn::nn::{Linear, LinearConfig, Relu};
use burn::prelude::*;

#[derive(Module, Debug)]
pub struct Mlp {
    fc1: Linear,
    act: Relu,
    fc2: Linear,
}

impl Mlp {
    pub fn new(device: &Device) -> Self {
        Self {
            fc1: LinearConfig::new(16, 64).init(device),
            act: Relu::new(),
            fc2: LinearConfig::new(64, 4).init(device),
        }
    }
}
