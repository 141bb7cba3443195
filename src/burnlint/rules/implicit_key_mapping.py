"""BL005 implicit-key-mapping."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from burnlint.findings import Applicability, Edit, Finding, Fix, Level, RelatedLocation
from burnlint.model.imports import StoreKind
from burnlint.model.keymapping import DEFAULTS, Loader
from burnlint.model.layout import LayoutKind
from burnlint.rules.base import Rule

if TYPE_CHECKING:
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
    """Write the missing options with the values the target's module layout needs."""
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
    at, content = store.constructor_node.end_byte, "".join(calls)
    return Fix(
        f"write `{''.join(calls)}`",
        Applicability.SAFE if safe else Applicability.UNSAFE,
        (Edit(ctx.model.path, at, at, content),),
    )


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
        for loader in ctx.model.key_loaders:
            implicit = [o for o in loader.options if not loader.explicit(o)]
            if not implicit:
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
