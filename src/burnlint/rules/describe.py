"""Words shared by the rules' messages: what an op is, what happens when it fails."""

from __future__ import annotations

from typing import TYPE_CHECKING

from burnlint.model.ops import StoreOp
from burnlint.model.repeats import refuses_overwrite

if TYPE_CHECKING:
    from burnlint.model.file_model import FileModel


def op_name(op: StoreOp) -> str:
    """The op as called, and for a crate-local helper the burn methods it calls."""
    if op.summary is None:
        return f"`{op.method}`"
    inner = " and ".join(f"`{name}`" for name in op.summary.errors)
    if not inner:
        return f"`{op.summary.name}` (which {'saves' if op.is_save else 'loads'} through burn)"
    return f"`{op.summary.name}` (which calls {inner})"


def failure_effect(op: StoreOp, model: FileModel | None = None) -> str:
    """What goes wrong at run time when this op fails and nobody notices (``model``: the
    file's facts, for whether the store refuses an existing file)."""
    if op.is_save:
        if op.is_record:
            # burn-core writes the record in place: `File::create` truncates first
            # (burn-pack `writer.rs` `write_to_file`; 0.21's recorders alike)
            return (
                "a failed save goes unnoticed, and one that fails partway leaves the file truncated"
            )
        if refuses_overwrite(op.store, model):
            # with the store's real default, failing is the normal case once the file exists
            return "once the file exists every save fails with `File already exists`, unnoticed"
        return "a failed save goes unnoticed and the file on disk keeps its old contents"
    if op.is_record:
        # the load consumes the module and hands nothing back on error
        return (
            "a failed load goes unnoticed; the program goes on with what it falls back to"
        )
    return "a failed load goes unnoticed: the model runs with a mix of loaded and initial weights"
