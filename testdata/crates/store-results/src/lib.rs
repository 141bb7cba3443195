//! Store helpers that can fail: they return `Result<Store, E>`, the store inside `Ok(..)`,
//! after `?` on their own work. Their callers take the store out with `?`, `unwrap` or
//! `expect`, and what the store was built with follows it there.

pub mod model;
pub mod stores;
