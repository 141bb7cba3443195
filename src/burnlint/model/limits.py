"""How far the model follows code before it gives up: every depth and step bound in one place.

One policy for all of them: only generated or adversarial code reaches a bound, and reaching
it makes the model say less (the value is unknown, counts as checked, or counts as varying),
never something false. A finding must be certain.

Where a bound guards recursion, the Python frames it costs are given: they must stay well
below Python's default recursion limit of 1,000, whatever the depth of the code that calls the
model. "Seen" figures are the deepest reached when burnlint checks the burn repository at
0.22.0-pre.2 and burnlint's own test data (whose robustness fixtures reach some bounds on
purpose).
"""

from __future__ import annotations

# Re-bindings (`let b = a;`) followed to find the store a value holds (``stores.py``). Four
# Python frames a link, so about 400 at the bound; the burn repository needs 2.
MAX_EVALUATION_DEPTH = 100

# Values followed from a store operation to where its `Result` ends up, and from a load to
# where its `ApplyResult` is read (``apply_checks.py``). At most six frames a link, so about 600
# at the bound; the burn repository needs 1, the test data 7.
MAX_FOLLOW_DEPTH = 100

# Steps (one value or one use each) taken to follow one `ApplyResult` through a crate-local
# function, to summarise what the function reads of it (``summaries.py``). A budget, not a
# depth; the burn repository needs 11.
MAX_TRACE_STEPS = 200

# Levels of an expression looked into to decide that it is loop-invariant (``loops.py``).
# Two frames a level, so about 80 at the bound; the test data needs 6.
MAX_INVARIANCE_DEPTH = 40

# Method calls walked down a receiver to find the iterator a closure runs over
# (`(0..n).map(..).filter(..)`, ``loops.py``). A loop, not recursion: the bound only stops
# a walk down a generated chain of calls.
MAX_ITERATOR_CHAIN = 32

# Bindings of bindings followed to read a path expression (``paths.py``); real code needs two
# or three (the test data 3).
MAX_PATH_DEPTH = 8

# `use` chains followed to resolve a path: re-exports of re-exports (``resolve.py``). The burn
# repository needs 2, the test data 4.
MAX_RESOLVE_DEPTH = 8

# Re-bindings followed to find the crate type a value has (``calls.py``); the test data needs 5.
MAX_TYPE_DEPTH = 16

# Bindings followed to find the adapter types an adapter argument names
# (`let adapter = ChainAdapter::new(PyTorchToBurnAdapter, ..);`, ``stores.py``). Each one
# walks a whole expression; the burn repository and the test data need 2.
MAX_ADAPTER_BINDINGS = 8

# Steps taken through references and wrapper types (`&Result<Option<Box<Net>>>`) to the type
# a caller holds (``items.py``); the burn repository needs 4.
MAX_TYPE_WRAPPERS = 8

# `let` bindings followed to find the type of the module a key-mapping load fills, when the
# call resolver does not know it (``keymapping.py``). Neither the burn repository nor the test
# data follows one: the resolver answers first.
MAX_LOADED_TYPE_DEPTH = 4
