//! The mirror of `nn.Sequential(Linear, ReLU, Linear)`: weights at `net.0` and `net.2`.

use burn::nn::{Linear, LinearConfig, Relu};
use burn::prelude::*;

#[derive(Module, Debug)]
pub enum Layer<B: Backend> {
    Linear(Linear<B>),
    Relu(Relu),
}

#[derive(Module, Debug)]
pub struct MirrorMlp<B: Backend> {
    net: Vec<Layer<B>>, // [Linear, Relu, Linear]
}

impl<B: Backend> MirrorMlp<B> {
    pub fn new(device: &B::Device) -> Self {
        Self {
            net: vec![
                Layer::Linear(LinearConfig::new(16, 64).init(device)),
                Layer::Relu(Relu::new()),
                Layer::Linear(LinearConfig::new(64, 4).init(device)),
            ],
        }
    }

    pub fn forward(&self, mut x: Tensor<B, 2>) -> Tensor<B, 2> {
        for layer in &self.net {
            x = match layer {
                Layer::Linear(linear) => linear.forward(x),
                Layer::Relu(relu) => relu.forward(x),
            };
        }
        x
    }
}
