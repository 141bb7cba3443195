//! BL009 pytorch-export-index-gaps: a `Vec<Linear>`-like field is saved for PyTorch with contiguous indices where an `nn.Sequential` has gaps.
//! Mark each line that must be reported with `// expect: BL009`; lines without a marker
//! must not be.
// burnlint-test: select = BL009

use burn_store::ModuleSnapshot;
