//! Lenient loads wrapped in helpers. A helper that checks `missing` itself, or keeps the
//! `ApplyResult` to itself, answers for it: a finding, if any, is inside the helper. A
//! helper that hands the result (or its `missing` list) back leaves the check to its callers.

pub mod load;
pub mod model;
pub mod report;
