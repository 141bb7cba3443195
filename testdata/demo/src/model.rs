use burn::nn::{Linear, LinearConfig, Relu};
use burn::prelude::*;

#[derive(Config, Debug)]
pub struct ClassifierConfig {
    #[config(default = 784)]
    pub inputs: usize,
    #[config(default = 256)]
    pub hidden: usize,
    #[config(default = 10)]
    pub classes: usize,
}

/// `layers` holds the Linear layers of the PyTorch reference, an `nn.Sequential`
/// named `net` (`net.0`, `net.2`, `net.4`; the ReLUs in between have no parameters).
#[derive(Module, Debug)]
pub struct Classifier {
    layers: Vec<Linear>,
    activation: Relu,
}

impl ClassifierConfig {
    pub fn init(&self, device: &Device) -> Classifier {
        let layers = vec![
            LinearConfig::new(self.inputs, self.hidden).init(device),
            LinearConfig::new(self.hidden, self.hidden).init(device),
            LinearConfig::new(self.hidden, self.classes).init(device),
        ];
        Classifier { layers, activation: Relu::new() }
    }
}

impl Classifier {
    pub fn forward(&self, images: Tensor<2>) -> Tensor<2> {
        let last = self.layers.len() - 1;
        let mut x = images;
        for (i, layer) in self.layers.iter().enumerate() {
            x = layer.forward(x);
            if i < last {
                x = self.activation.forward(x);
            }
        }
        x
    }
}
