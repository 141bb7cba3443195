//! A `Vec<Linear>` whose PyTorch keys have a gap (`net.0`, `net.2`): the indices must be
//! renumbered.

use burn::nn::{Linear, LinearConfig, Relu};
use burn::prelude::*;

/// Paths `net.0.*`, `net.1.*`: the ReLU is not in the `Vec`.
#[derive(Module, Debug)]
pub struct Mlp<B: Backend> {
    net: Vec<Linear<B>>,
    act: Relu,
}

impl<B: Backend> Mlp<B> {
    pub fn new(device: &B::Device) -> Self {
        Self {
            net: vec![LinearConfig::new(16, 64).init(device), LinearConfig::new(64, 4).init(device)],
            act: Relu::new(),
        }
    }

    pub fn forward(&self, x: Tensor<B, 2>) -> Tensor<B, 2> {
        let hidden = self.act.forward(self.net[0].forward(x));
        self.net[1].forward(hidden)
    }
}
