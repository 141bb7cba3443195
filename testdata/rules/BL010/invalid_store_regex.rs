//! BL010 invalid-store-regex: a regex literal burn-store compiles is one the Rust `regex` crate rejects.
//! Mark each line that must be reported with `// expect: BL010`; lines without a marker
//! must not be.
// burnlint-test: select = BL010

use burn_store::ModuleSnapshot;
