"""BL005 implicit-key-mapping."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from burnlint.findings import Applicability, Edit, Finding, Fix, Level, RelatedLocation
from burnlint.model.keymapping import (
    DEFAULTS,
    LayoutReason,
    Loader,
    Matter,
    layout_reasons,
    loader_layout,
    option_exists,
    prescribed,
)
from burnlint.model.layout import LayoutKind
from burnlint.model.stores import BUILDERS
from burnlint.rules.base import Rule
from burnlint.rules.meta import RuleMeta
from burnlint.rules.wording import layout_consequence, layout_fact
from burnlint.syntax import method_call_parts

if TYPE_CHECKING:
    from tree_sitter import Node

    from burnlint.rules.context import RuleContext

META = RuleMeta(
    id="BL005",
    name="implicit-key-mapping",
    level=Level.WARNING,
    summary=(
        "a PyTorch-facing loader leaves `map_indices_contiguous` or `skip_enum_variants` implicit "
        "where the default mis-maps the crate's module layout"
    ),
    precision="medium",
    tags=("correctness", "burn-store", "pytorch"),
    fixable=True,
    since="0.1.0",
)


def wrong_defaults(ctx: RuleContext, loader: Loader) -> list[tuple[LayoutReason, bool]]:
    """The implicit options of ``loader`` whose default mis-maps PyTorch keys in the layout it
    loads (``loader_layout``), each with the value the layout needs; none when the layout is
    flat or unknown, or the crate's burn version has no such option."""
    model = ctx.model
    implicit = [o for o in loader.options if not loader.explicit(o)]
    if not implicit:
        return []
    layout = loader_layout(loader, model)
    reasons = layout_reasons(layout)
    wrong: list[tuple[LayoutReason, bool]] = []
    for option in implicit:
        reason = reasons.get(option)
        if reason is None or not option_exists(option, model.burn_version):
            continue
        if option == "map_indices_contiguous" and layout.kind is LayoutKind.MIXED:
            continue  # a mirror beside a `Vec<Linear>`: each value breaks one of them
        value = prescribed(reason, loader.kind)
        if value != DEFAULTS[loader.kind][option]:
            wrong.append((reason, value))
    return wrong


def _call(option: str, value: bool) -> str:
    return f".{option}({'true' if value else 'false'})"


def _label(reason: LayoutReason) -> str:
    """The layout fact and what the default does to it, short enough for a caret label."""
    shown = f"`{reason.field.shown}`"
    if reason.matter is Matter.MIRROR:
        return f"{shown} mirrors a PyTorch Sequential; the default renumbering shifts its indices"
    if reason.matter is Matter.SEQUENTIAL:
        return f"{shown} has no index gaps; by default a PyTorch Sequential's gaps stay"
    name = reason.enum.name if reason.enum is not None else "the enum"
    return f"by default the keys must name the variants of `{name}`; PyTorch keys never do"


def key_mapping_fix(
    ctx: RuleContext, loader: Loader, wrong: list[tuple[LayoutReason, bool]]
) -> Fix | None:
    """Write the options whose default is wrong, with the values the layout needs."""
    store = loader.store
    if store.helper is not None or not wrong:
        return None
    calls = [_call(reason.option, value) for reason, value in wrong]
    safe = all(value == DEFAULTS[store.kind][reason.option] for reason, value in wrong)
    facts = " and ".join(dict.fromkeys(layout_fact(reason) for reason, _ in wrong))
    at, content = _insertion(ctx, store.constructor_node, calls)
    return Fix(
        f"write `{''.join(calls)}` for {facts}",
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
        if parts is None or parts[0] != top or parts[1] not in BUILDERS:
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


class ImplicitKeyMapping(Rule):
    meta = META

    @staticmethod
    def check(ctx: RuleContext) -> Iterator[Finding]:
        model = ctx.model
        for loader in model.key_loaders:
            if loader.elsewhere:
                continue
            wrong = wrong_defaults(ctx, loader)
            if not wrong:
                continue
            names = " and ".join(f"`{reason.option}`" for reason, _ in wrong)
            facts = " and ".join(dict.fromkeys(layout_fact(reason) for reason, _ in wrong))
            default = "its default mis-maps" if len(wrong) == 1 else "their defaults mis-map"
            message = f"{loader.clause} leaves {names} implicit, and {default} {facts}"
            related = tuple(
                RelatedLocation(ctx.location(op.node), "loaded here")
                for op in loader.loads
                if op.node != loader.report_at
            )
            if loader.store.origin is None:
                # the loads of this store where a crate-local function hands it over
                here = ctx.location(loader.report_at)
                related += tuple(
                    RelatedLocation(load, "loaded here")
                    for load in model.loads_elsewhere.get(here, ())
                )
            elif loader.store.helper is not None:
                related += (
                    RelatedLocation(
                        loader.store.origin, f"`{loader.store.helper}` builds the store here"
                    ),
                )
            related += tuple(
                RelatedLocation(field.location, f"`{field.shown}` is declared here")
                for field in dict.fromkeys(reason.field for reason, _ in wrong)
                if field.location is not None
            )
            values = "".join(_call(reason.option, value) for reason, value in wrong)
            consequences = "; ".join(
                layout_consequence(reason, DEFAULTS[loader.kind][reason.option])
                for reason, _ in wrong
            )
            fix = key_mapping_fix(ctx, loader, wrong)
            help_text = f"{consequences}: {fix.title if fix is not None else f'write `{values}`'}"
            yield ctx.finding(
                loader.report_at,
                message,
                label=_label(wrong[0][0]),
                help=help_text,
                related=related,
                fix=fix,
            )
