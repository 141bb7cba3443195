//! The write-up's second layout: the `nn.Sequential` copied layer by layer into a `Vec` of a
//! module enum, so the indices match PyTorch's (`net.0`, `net.2`) but every path carries the
//! variant name (`net.0.Linear.weight`). It needs `map_indices_contiguous(false)` and
//! `skip_enum_variants(true)` with either store.

pub mod finetune;
pub mod import;
pub mod model;
