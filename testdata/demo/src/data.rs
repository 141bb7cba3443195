use burn::prelude::*;

pub struct Batch {
    pub images: Tensor<2>,
    pub targets: Tensor<1, Int>,
}

/// Synthetic stand-in for the digits dataset, so the example runs offline.
pub struct Dataset {
    pub train: Vec<Batch>,
    pub valid: Vec<Batch>,
}

impl Dataset {
    pub fn synthetic(device: &Device, batches: usize, batch_size: usize) -> Self {
        let make = |n: usize| {
            (0..n)
                .map(|_| Batch {
                    images: Tensor::random([batch_size, 784], Distribution::Default, device),
                    targets: Tensor::zeros([batch_size], device),
                })
                .collect()
        };
        Self {
            train: make(batches),
            valid: make(batches / 4 + 1),
        }
    }
}
