//! Layouts for which neither key-mapping option changes anything, loaded from PyTorch with
//! both stores on their defaults: a Hugging Face style transformer (`layers.N` is a
//! `ModuleList`, numbered without gaps), per-stage norms in a `Vec<LayerNorm>` (a `ModuleList`
//! too), and flat modules of named fields. No BL005, no BL006.

pub mod import;
pub mod model;
