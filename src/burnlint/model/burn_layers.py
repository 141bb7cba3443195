"""burn's own layer types, by what they hold: the names a module layout is judged by
(``layout.py``). They do not change with the burn-store release the rules assume."""

from __future__ import annotations

# burn's layers that hold parameters themselves (`Param` fields: burn-nn `modules/` and
# `activation/prelu.rs`; burn-core `nn/` before 0.20): what a PyTorch `nn.Sequential` lists
# between its parameter-free layers.
PARAMETRIC_LAYERS = frozenset(
    {
        "BatchNorm",
        "Conv1d",
        "Conv2d",
        "Conv3d",
        "ConvTranspose1d",
        "ConvTranspose2d",
        "ConvTranspose3d",
        "DeformConv2d",
        "Embedding",
        "GroupNorm",
        "InstanceNorm",
        "LayerNorm",
        "Linear",
        "PRelu",
        "RmsNorm",
    }
)
# Those of them a PyTorch `nn.Sequential` stacks with parameter-free layers in between
# (`Linear, ReLU, Linear`; `Conv2d, ReLU, Conv2d`): a `Vec` of one of these stands for such a
# Sequential. A `Vec` of norms or embeddings is a `ModuleList` in PyTorch (per-stage norms,
# per-codebook embeddings): no gaps.
SEQUENTIAL_LAYERS = frozenset(
    {
        "Conv1d",
        "Conv2d",
        "Conv3d",
        "ConvTranspose1d",
        "ConvTranspose2d",
        "ConvTranspose3d",
        "DeformConv2d",
        "Linear",
    }
)
# burn's modules without parameters: activations, dropout, pooling, reshaping.
PARAMETER_FREE_LAYERS = frozenset(
    {
        "AdaptiveAvgPool1d",
        "AdaptiveAvgPool2d",
        "AdaptiveAvgPool3d",
        "AvgPool1d",
        "AvgPool2d",
        "Celu",
        "Dropout",
        "Elu",
        "Fold4d",
        "GLU",
        "GaussianNoise",
        "Gelu",
        "HardShrink",
        "HardSigmoid",
        "HardSwish",
        "Hardtanh",
        "Identity",
        "Interpolate1d",
        "Interpolate2d",
        "LeakyRelu",
        "LocalResponseNorm",
        "LogSigmoid",
        "MaxPool1d",
        "MaxPool2d",
        "Mish",
        "PixelShuffle",
        "PixelUnshuffle",
        "RRelu",
        "Relu",
        "Relu6",
        "SiLU",
        "Selu",
        "Shrink",
        "Sigmoid",
        "SoftShrink",
        "Softplus",
        "Softsign",
        "Tanh",
        "Tanhshrink",
        "Threshold",
        "ThresholdedRelu",
        "Unfold4d",
    }
)
# burn's other module and tensor types, and the standard wrappers a module field names: none
# holds a `Vec` of stackable layers, so a layout made of these and the target's own types is
# known to its last index (``LayoutJudgement.open``).
OTHER_KNOWN_TYPES = frozenset(
    {
        "Arc",
        "BiLstm",
        "Bool",
        "Box",
        "Float",
        "GateController",
        "Gru",
        "Ignored",
        "Int",
        "Lstm",
        "MultiHeadAttention",
        "Option",
        "Param",
        "PhantomData",
        "PositionWiseFeedForward",
        "PositionalEncoding",
        "RotaryEncoding",
        "RunningState",
        "String",
        "SwiGlu",
        "Tensor",
        "TransformerDecoder",
        "TransformerDecoderLayer",
        "TransformerEncoder",
        "TransformerEncoderLayer",
        "Vec",
    }
)
