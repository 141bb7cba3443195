//! BL011 remap-ignored-on-save: a `BurnpackStore` with a key remapping is saved into and never loaded from: the remapping applies to loads only.
//! Mark each line that must be reported with `// expect: BL011`; lines without a marker
//! must not be.
// burnlint-test: select = BL011

use burn_store::ModuleSnapshot;
