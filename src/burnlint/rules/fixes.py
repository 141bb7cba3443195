"""Fixes shared by rules: what to edit, and whether the edit may be applied unseen.

A fix's title is wording: the finding's violation gives it (``Violation.fix_title``), and
``RuleContext.report`` puts the two together.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from burnlint.findings import Applicability, Edit
from burnlint.rules.context import FixEdits
from burnlint.rust.syntax import method_call_parts

if TYPE_CHECKING:
    from tree_sitter import Node

    from burnlint.model.stores import StoreBuild
    from burnlint.rules.context import RuleContext


def add_overwrite(ctx: RuleContext, store: StoreBuild) -> FixEdits | None:
    """Insert `.overwrite(true)` right after the constructor call (unsafe: an existing file is
    replaced instead of the save failing); in the crate-local function that builds the store
    when it comes from one, which changes it for every caller (None when that function's
    constructor is not known)."""
    if store.helper is not None:
        if store.overwrite_edit is None:
            return None
        return FixEdits(Applicability.UNSAFE, (store.overwrite_edit,))
    end = store.constructor_node.end_byte
    return FixEdits(Applicability.UNSAFE, (Edit(ctx.model.path, end, end, ".overwrite(true)"),))


def builder_call(option: str, value: bool) -> str:
    """``.option(true)``: a builder call as a fix writes it."""
    return f".{option}({'true' if value else 'false'})"


def write_key_options(
    ctx: RuleContext, store: StoreBuild, values: list[tuple[str, bool]]
) -> FixEdits | None:
    """Write the key-mapping ``values`` (option, value) on ``store``'s builder chain; None for a
    store built by a crate-local function (its callers may want other values) or no values.
    Safe when each value is the store's default already (the behaviour does not change)."""
    if store.helper is not None or not values:
        return None
    calls = [builder_call(option, value) for option, value in values]
    safe = all(value == ctx.model.api.default(store.kind, option) for option, value in values)
    at, content = _insertion(ctx, store.constructor_node, calls)
    return FixEdits(
        Applicability.SAFE if safe else Applicability.UNSAFE,
        (Edit(ctx.model.path, at, at, content),),
    )


def _insertion(ctx: RuleContext, constructor: Node, calls: list[str]) -> tuple[int, str]:
    """Where and what to insert for ``calls``: after the last builder call of the chain the
    constructor starts (`X::from_file(p).a(..).b(..)`), as the rule doc's example writes them.
    A chain with one call per line gets one call per line, indented like its last call; a
    chain on one line (or a bare constructor) gets them on that line."""
    source = ctx.model.source
    ancestry = ctx.model.ancestry
    top = constructor
    while True:
        field = ancestry.parent(top)
        call = ancestry.parent(field) if field is not None else None
        if field is None or field.type != "field_expression" or call is None:
            break
        parts = method_call_parts(call)
        if parts is None or parts[0] != top or parts[1] not in ctx.model.api.builders:
            break
        top = call
    if top is constructor:
        return constructor.end_byte, "".join(calls)
    function = top.child_by_field_name("function")
    dot = next((c for c in function.children if c.type == "."), None) if function else None
    receiver = function.child_by_field_name("value") if function else None
    if dot is None or receiver is None or dot.start_point[0] == receiver.end_point[0]:
        return top.end_byte, "".join(calls)
    line_start = source.line_starts[dot.start_point[0]]
    line = source.data[line_start : dot.start_byte]
    indent = line[: len(line) - len(line.lstrip(b" \t"))].decode("utf-8")
    newline = "\r\n" if source.data[line_start - 2 : line_start] == b"\r\n" else "\n"
    return top.end_byte, "".join(f"{newline}{indent}{call}" for call in calls)
