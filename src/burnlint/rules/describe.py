"""Words shared by the rules' messages: what an op is, what happens when it fails."""

from __future__ import annotations

from burnlint.model.ops import StoreOp
from burnlint.model.stores import Backing


def op_name(op: StoreOp) -> str:
    if op.summary is None:
        return f"`{op.method}`"
    inner = " and ".join(f"`{name}`" for name in op.summary.errors) or "a store load"
    return f"`{op.summary.name}` (which calls {inner})"


def failure_effect(op: StoreOp) -> str:
    """What goes wrong at run time when this op fails and nobody notices."""
    if op.is_save:
        store = op.store
        if (
            store is not None
            and store.backing is Backing.FILE
            and store.option("overwrite") is None
        ):
            # with the store's real default, failing is the normal case once the file exists
            return "once the file exists every save fails with `File already exists`, unnoticed"
        return "a failed save goes unnoticed and the file on disk keeps its old contents"
    return "a failed load goes unnoticed: the model runs with a mix of loaded and initial weights"
