//! The write-up's first layout: `net: Vec<Linear>` with the activation kept apart, loading
//! weights of PyTorch's `nn.Sequential(Linear, ReLU, Linear)` (keys `net.0`, `net.2`). This
//! layout needs `map_indices_contiguous(true)`, `PytorchStore`'s default and not
//! `SafetensorsStore`'s; it has no module enum, so `skip_enum_variants` does not matter.

pub mod import;
pub mod model;
