"""The prefilter: which files can hold a store operation, by plain byte search."""

from __future__ import annotations

# A file that mentions none of these cannot hold a store operation (DESIGN.md §1). Plain
# `bytes in` checks: a regex over every file costs 2.5x more. `ModuleSnapshot` and the crate
# paths cover `model.apply(..)`, which needs the trait in scope.
TRIGGER_WORDS: tuple[bytes, ...] = (
    b"save_into",
    b"load_from",
    b"save_file",
    b"load_file",  # and `try_load_file`
    b"collect_from",
    b"apply_to",
    b"SafetensorsStore",
    b"BurnpackStore",
    b"PytorchStore",
    b"ModuleSnapshot",
    b"burn_store",
    b"burn::store",
)


# Fewer, broader words first: nearly every file has none of them, and each `in` is a scan of
# the whole file. `tore` covers the three store types, `burn_store` and `burn::store`.
_BROAD_WORDS: tuple[bytes, ...] = (
    b"tore",
    b"save_",
    b"load_f",  # load_from, load_file, try_load_file
    b"apply_to",
    b"collect_from",
    b"ModuleSnapshot",
)


def has_trigger(data: bytes) -> bool:
    if not any(word in data for word in _BROAD_WORDS):
        return False
    return any(word in data for word in TRIGGER_WORDS)
