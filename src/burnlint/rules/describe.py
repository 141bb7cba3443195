"""Words shared by the rules' messages: what an op is, what happens when it fails."""

from __future__ import annotations

from burnlint.model.ops import StoreOp
from burnlint.model.stores import Backing


def op_name(op: StoreOp) -> str:
    return f"`{op.method}`" if op.helper is None else f"`{op.method}` (which calls `{_inner(op)}`)"


def _inner(op: StoreOp) -> str:
    return "save_into" if op.is_save else "load_from"


def failure_effect(op: StoreOp) -> str:
    """What goes wrong at run time when this op fails and nobody notices."""
    if op.is_save:
        effect = "a failed save goes unnoticed and the file on disk keeps its old contents"
        store = op.store
        if (
            store is not None
            and store.backing is Backing.FILE
            and store.option("overwrite") is None
        ):
            effect += (
                "; this store does not overwrite by default, so an existing file fails every"
                " save with `File already exists`"
            )
        return effect
    return (
        "a failed load goes unnoticed and the model runs with a mix of loaded and initial weights"
    )
