use burn::nn::{Embedding, LayerNorm, Linear, RmsNorm};
use burn::prelude::*;

#[derive(Module, Debug)]
pub struct Attention<B: Backend> {
    q_proj: Linear<B>,
    k_proj: Linear<B>,
    v_proj: Linear<B>,
    o_proj: Linear<B>,
}

#[derive(Module, Debug)]
pub struct Mlp<B: Backend> {
    gate_proj: Linear<B>,
    up_proj: Linear<B>,
    down_proj: Linear<B>,
}

#[derive(Module, Debug)]
pub struct DecoderLayer<B: Backend> {
    self_attn: Attention<B>,
    mlp: Mlp<B>,
    input_layernorm: RmsNorm<B>,
    post_attention_layernorm: RmsNorm<B>,
}

/// `model.embed_tokens`, `model.layers.0..N-1`, `model.norm`, `lm_head`.
#[derive(Module, Debug)]
pub struct CausalLm<B: Backend> {
    embed_tokens: Embedding<B>,
    layers: Vec<DecoderLayer<B>>,
    norm: RmsNorm<B>,
    lm_head: Linear<B>,
}

/// A vision encoder that keeps one norm per output stage (`norms.0..3`).
#[derive(Module, Debug)]
pub struct Encoder<B: Backend> {
    patch_embed: Linear<B>,
    blocks: Vec<DecoderLayer<B>>,
    norms: Vec<LayerNorm<B>>,
}

/// Reference tensors of a model check: top-level parameters only.
#[derive(Module, Debug)]
pub struct TestData<B: Backend> {
    input_ids: Param<Tensor<B, 2>>,
    logits: Param<Tensor<B, 3>>,
}
