//! Functions and methods with the same last name, only some of which touch a store: a call
//! is matched to one of them by its path and its receiver's type, never by the name alone.
//! The crate is `type-resolution`: its code is named `type_resolution`.

pub mod checkpoint;
pub mod demo;
pub mod export;
pub mod model;
pub mod pipeline;
pub mod tokenizer;
pub mod trainer;
pub mod training;
