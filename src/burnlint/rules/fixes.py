"""Fixes shared by rules: what to edit, and whether the edit may be applied unseen.

A fix's title is wording: the finding's violation gives it (``Violation.fix_title``), and
``RuleContext.report`` puts the two together.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from burnlint.findings import Applicability, Edit
from burnlint.model.places import in_repaired_code
from burnlint.rules.context import FixEdits
from burnlint.rust.syntax import arguments_of, text

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
    if in_repaired_code(store.constructor_node, ctx.model.ancestry):
        return None  # the text could land inside a call the parser repaired
    end = store.constructor_node.end_byte
    return FixEdits(Applicability.UNSAFE, (Edit(ctx.model.path, end, end, ".overwrite(true)"),))


def builder_call(option: str, value: bool) -> str:
    """``.option(true)``: a builder call as a fix writes it."""
    return f".{option}({'true' if value else 'false'})"


def write_key_defaults(
    ctx: RuleContext, store: StoreBuild, options: list[str], *, safe: bool
) -> FixEdits | None:
    """Write ``options`` with the store's defaults right after each constructor call that
    leaves them implicit (every branch's store), so that any later setting still wins: the
    behaviour does not change. ``safe`` when the release is known to have each option; None
    for a store built by a crate-local function (the edit belongs in its file)."""
    if store.helper is not None or not options:
        return None
    if any(in_repaired_code(v.constructor_node, ctx.model.ancestry) for v in store.variants):
        return None  # the text could land inside a call the parser repaired
    edits: list[Edit] = []
    for variant in store.variants:
        calls = [
            builder_call(option, ctx.model.api.default(store.kind, option))
            for option in options
            if (setting := variant.option(option)) is None
            or not (setting.definite or setting.everywhere)
        ]
        if calls:
            at, content = _after_constructor(ctx, variant.constructor_node, calls)
            edits.append(Edit(ctx.model.path, at, at, content))
    if not edits:
        return None
    return FixEdits(Applicability.SAFE if safe else Applicability.UNSAFE, tuple(edits))


def set_key_options(
    ctx: RuleContext, store: StoreBuild, values: list[tuple[str, bool]]
) -> FixEdits | None:
    """Give ``store`` the key-mapping ``values`` (option, value): an explicit literal is
    replaced in place, an implicit option is written right after the constructor call.
    Unsafe: it changes how the keys map. None for a store built by a crate-local function or
    chosen by branches, or a value that is not a literal in this file."""
    if store.helper is not None or store.alternatives or not values:
        return None
    if in_repaired_code(store.constructor_node, ctx.model.ancestry):
        return None  # the text could land inside a call the parser repaired
    edits: list[Edit] = []
    inserted: list[str] = []
    for option, value in values:
        setting = store.option(option)
        if setting is None:
            inserted.append(builder_call(option, value))
            continue
        arguments = arguments_of(setting.node) if setting.node.type == "call_expression" else []
        if not setting.definite or len(arguments) != 1 or arguments[0].type != "boolean_literal":
            return None
        literal = arguments[0]
        shown = "true" if value else "false"
        if text(literal) != shown:
            edits.append(Edit(ctx.model.path, literal.start_byte, literal.end_byte, shown))
    if inserted:
        at, content = _after_constructor(ctx, store.constructor_node, inserted)
        edits.append(Edit(ctx.model.path, at, at, content))
    if not edits:
        return None  # the store runs these values already
    return FixEdits(Applicability.UNSAFE, tuple(sorted(edits, key=lambda e: e.start_byte)))


def _after_constructor(ctx: RuleContext, constructor: Node, calls: list[str]) -> tuple[int, str]:
    """Where and what to insert for ``calls`` right after ``constructor``: on its line when
    the chain goes on there (or there is none), else one call per line, indented like the
    chain's next call."""
    source = ctx.model.source
    end = constructor.end_byte
    field = ctx.model.ancestry.parent(constructor)
    if field is None or field.type != "field_expression":
        return end, "".join(calls)
    dot = next((c for c in field.children if c.type == "."), None)
    if dot is None or dot.start_point[0] == constructor.end_point[0]:
        return end, "".join(calls)
    line_start = source.line_starts[dot.start_point[0]]
    line = source.data[line_start : dot.start_byte]
    if line.strip(b" \t"):
        return end, "".join(calls)  # something else stands before the dot on its line
    indent = line.decode("utf-8")
    newline = "\r\n" if source.data[line_start - 2 : line_start] == b"\r\n" else "\n"
    # after a comment that ends the constructor's line, not inside it
    line_end = line_start - len(newline)
    rest = source.data[end:line_end].strip()
    at = line_end if rest.startswith(b"//") else end
    return at, "".join(f"{newline}{indent}{call}" for call in calls)
