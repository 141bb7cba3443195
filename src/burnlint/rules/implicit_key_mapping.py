"""BL005 implicit-key-mapping."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from burnlint.findings import Applicability, Edit, Finding, Fix, Level, RelatedLocation
from burnlint.model.imports import StoreKind
from burnlint.model.keymapping import DEFAULTS, Loader
from burnlint.model.layout import LayoutKind
from burnlint.model.stores import BUILDERS
from burnlint.rules.base import Rule
from burnlint.syntax import method_call_parts

if TYPE_CHECKING:
    from tree_sitter import Node

    from burnlint.rules.context import RuleContext

# The seed's table: which values load PyTorch `nn.Sequential` weights into each layout.
PRESCRIBED: dict[LayoutKind, dict[StoreKind, dict[str, bool]]] = {
    LayoutKind.LINEAR_LIKE: {
        StoreKind.PYTORCH: {"map_indices_contiguous": True, "skip_enum_variants": True},
        StoreKind.SAFETENSORS: {"map_indices_contiguous": True, "skip_enum_variants": False},
    },
    LayoutKind.MIRROR: {
        StoreKind.PYTORCH: {"map_indices_contiguous": False, "skip_enum_variants": True},
        StoreKind.SAFETENSORS: {"map_indices_contiguous": False, "skip_enum_variants": True},
    },
}

# What each default does to the keys of a PyTorch `nn.Sequential` (`net.0`, ReLU, `net.2`).
DEFAULT_EFFECT = {
    StoreKind.PYTORCH: {
        "map_indices_contiguous": "renumbers `net.0, net.2` to `net.0, net.1`",
        "skip_enum_variants": "drops enum variant names from paths",
    },
    StoreKind.SAFETENSORS: {
        "map_indices_contiguous": (
            "keeps `net.0, net.2` as they are, so a `Vec<Linear>` looking for `net.1` finds nothing"
        ),
        "skip_enum_variants": (
            "expects enum variant names in paths (`net.0.Linear.weight`), which PyTorch files "
            "never have"
        ),
    },
}


def _literal(value: bool) -> str:
    return "true" if value else "false"


def key_mapping_fix(ctx: RuleContext, loader: Loader) -> Fix | None:
    """Write the missing options with the values the target's module layout needs, at the end
    of the store's builder chain, laid out like it (see ``_insertion``)."""
    store = loader.store
    if store.helper is not None:
        return None
    layout = ctx.model.layout.kind
    values = PRESCRIBED.get(layout, {}).get(store.kind)
    if values is None:
        return None
    missing = [o for o in loader.options if not loader.explicit(o)]
    calls = [f".{o}({_literal(values[o])})" for o in missing]
    safe = all(values[o] == DEFAULTS[store.kind][o] for o in missing)
    at, content = _insertion(ctx, store.constructor_node, calls)
    return Fix(
        f"write `{''.join(calls)}`",
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
    id = "BL005"
    name = "implicit-key-mapping"
    level = Level.WARNING
    summary = (
        "a PyTorch-facing loader leaves `map_indices_contiguous` or `skip_enum_variants` implicit"
    )
    precision = "medium"
    fixable = True
    tags = ("correctness", "burn-store", "pytorch")

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        model = ctx.model
        for loader in model.key_loaders:
            implicit = [o for o in loader.options if not loader.explicit(o)]
            if not implicit or loader.elsewhere:
                continue
            names = " and ".join(f"`{o}`" for o in implicit)
            message = f"{loader.clause} leaves {names} implicit"
            defaults = ", ".join(f"`{o} = {_literal(DEFAULTS[loader.kind][o])}`" for o in implicit)
            label = f"maps keys with the default{'s' if len(implicit) > 1 else ''} {defaults}"
            note = "by default it " + "; it ".join(DEFAULT_EFFECT[loader.kind][o] for o in implicit)
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
            fix = key_mapping_fix(ctx, loader)
            explicit = [o for o in loader.options if loader.explicit(o)]
            if explicit:
                what = f"write `{implicit[0]}` explicitly too (`{explicit[0]}` already is)"
            elif len(implicit) > 1:
                what = "write both options explicitly"
            else:
                what = f"write `{implicit[0]}` explicitly"
            if fix is not None:
                layout = ctx.model.layout.kind
                help_text = f"{what}; for this crate's {layout.value} layout, {fix.title}"
            else:
                help_text = f"{what}, with the values your module layout needs"
            yield ctx.finding(
                loader.report_at,
                message,
                label=label,
                note=note,
                help=help_text,
                related=related,
                fix=fix,
            )
