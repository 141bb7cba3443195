use burn::nn::{Linear, LinearConfig};
use burn::prelude::*;

#[derive(Module, Debug)]
pub struct Classifier {
    encoder: Linear,
    head: Linear,
}

impl Classifier {
    pub fn new(device: &Device) -> Self {
        Self {
            encoder: LinearConfig::new(32, 128).init(device),
            head: LinearConfig::new(128, 10).init(device),
        }
    }

    pub fn forward(&self, x: Tensor<2>) -> Tensor<2> {
        self.head.forward(self.encoder.forward(x))
    }
}
