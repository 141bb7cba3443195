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
        "map_indices_contiguous": (
            "renumbers `net.0, net.2` to `net.0, net.1` "
            "(`map_indices_contiguous` defaults to `true`)"
        ),
        "skip_enum_variants": (
            "drops enum variant names from paths (`skip_enum_variants` defaults to `true`)"
        ),
    },
    StoreKind.SAFETENSORS: {
        "map_indices_contiguous": (
            "keeps `net.0, net.2` as they are, so a `Vec<Linear>` looking for `net.1` finds "
            "nothing (`map_indices_contiguous` defaults to `false`)"
        ),
        "skip_enum_variants": (
            "expects enum variant names in paths (`net.0.Linear.weight`), which PyTorch files "
            "never have (`skip_enum_variants` defaults to `false`)"
        ),
    },
}


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
    text = "".join(f".{o}({'true' if values[o] else 'false'})" for o in missing)
    safe = all(values[o] == DEFAULTS[store.kind][o] for o in missing)
    end = store.constructor_node.end_byte
    return Fix(
        f"write {text.replace(').', '), .')} for the {layout.value} layout",
        Applicability.SAFE if safe else Applicability.UNSAFE,
        (Edit(ctx.model.path, end, end, text),),
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
        model = ctx.model
        for loader in model.key_loaders:
            implicit = [o for o in loader.options if not loader.explicit(o)]
            if not implicit or loader.elsewhere:
                continue
            effects = "; it ".join(DEFAULT_EFFECT[loader.kind][o] for o in implicit)
            names = " and ".join(f"`{o}`" for o in implicit)
            message = f"{loader.clause} leaves {names} implicit"
            label = f"by default it {effects}"
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
            layout = ctx.model.layout.kind
            if fix is not None:
                values = fix.edits[0].content
                help_text = (
                    f"write both options; for this crate's {layout.value} layout: `{values}`"
                )
            else:
                help_text = (
                    "write both options explicitly, with the values your module layout needs"
                )
            yield ctx.finding(
                loader.report_at, message, label=label, help=help_text, related=related, fix=fix
            )
