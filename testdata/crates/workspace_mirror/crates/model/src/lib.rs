//! The model crate of the workspace: a stem whose norm is a PyTorch
//! `nn.Sequential(to_channels_first, BatchNorm2d, to_channels_last)` copied layer by layer.

use burn::nn::{BatchNorm, LayerNorm};
use burn::prelude::*;

#[derive(Module, Debug)]
pub enum NormLayer<B: Backend> {
    ChannelsFirst(ChannelsFirst),
    ChannelsLast(ChannelsLast),
    BatchNorm(BatchNorm<B>),
    LayerNorm(LayerNorm<B>),
}

/// A permutation: no parameters, yet it takes an index in PyTorch's Sequential.
#[derive(Module, Debug, Clone)]
pub struct ChannelsFirst;

#[derive(Module, Debug, Clone)]
pub struct ChannelsLast;

#[derive(Module, Debug)]
pub struct Stem<B: Backend> {
    norm: Vec<NormLayer<B>>, // [ChannelsFirst, BatchNorm, ChannelsLast]: weights at `norm.1`
}
