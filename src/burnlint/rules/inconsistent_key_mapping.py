"""BL006 inconsistent-key-mapping."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from burnlint.findings import Finding, Level, RelatedLocation
from burnlint.model.imports import StoreKind
from burnlint.model.keymapping import (
    KEY_OPTIONS,
    LayoutReason,
    layout_reasons,
    loader_layout,
    option_exists,
    prescribed,
)
from burnlint.rules.base import Rule
from burnlint.rules.meta import RuleMeta
from burnlint.rules.wording import layout_stakes

if TYPE_CHECKING:
    from burnlint.rules.context import RuleContext


META = RuleMeta(
    id="BL006",
    name="inconsistent-key-mapping",
    level=Level.WARNING,
    summary=(
        "PyTorch-facing `PytorchStore` and `SafetensorsStore` loaders in one file map keys "
        "differently where the crate's module layout makes it matter"
    ),
    precision="medium",
    tags=("correctness", "burn-store", "pytorch"),
    since="0.1.0",
)


def _show(value: bool | None, explicit: bool) -> str:
    shown = "true" if value else "false"
    return shown if explicit else f"{shown} (default)"


class InconsistentKeyMapping(Rule):
    meta = META

    @staticmethod
    def check(ctx: RuleContext) -> Iterator[Finding]:
        model = ctx.model
        loaders = model.key_loaders
        pytorch = [loader for loader in loaders if loader.kind is StoreKind.PYTORCH]
        safetensors = [loader for loader in loaders if loader.kind is StoreKind.SAFETENSORS]
        if not (pytorch and safetensors):
            return  # before reading the layout: it costs parsing the target's module files
        existing = [o for o in KEY_OPTIONS if option_exists(o, model.burn_version)]
        if not existing:
            return  # a burn version without the options
        layouts = {id(loader): loader_layout(loader, model) for loader in loaders}
        # by the pair of layouts: most loaders of a file fill the same modules
        pair_reasons: dict[tuple[int, int], dict[str, LayoutReason]] = {}
        for st in safetensors:
            for pt in pytorch:
                # only the options the loaded layouts make matter (flat or unknown: none)
                pair = (id(layouts[id(st)]), id(layouts[id(pt)]))
                if pair not in pair_reasons:
                    both = layouts[id(st)]
                    if layouts[id(pt)] is not both:
                        both = both.merge(layouts[id(pt)])
                    pair_reasons[pair] = layout_reasons(both)
                reasons = pair_reasons[pair]
                options = [o for o in existing if o in reasons]
                differing = [
                    o
                    for o in options
                    if o in st.options
                    and o in pt.options
                    and st.effective(o) is not None
                    and pt.effective(o) is not None
                    and st.effective(o) != pt.effective(o)
                ]
                if not differing:
                    continue
                shown = [
                    f"`{o}` is {_show(st.effective(o), st.explicit(o))} here, "
                    f"{_show(pt.effective(o), pt.explicit(o))} on the `PytorchStore`"
                    for o in differing
                ]
                label = (
                    shown[0]
                    if len(shown) == 1
                    else "both key-mapping options differ from the `PytorchStore`'s"
                )
                stakes = "; ".join(
                    ([] if len(shown) == 1 else shown)
                    + [layout_stakes(reasons[o]) for o in differing]
                )
                values = "".join(
                    f".{o}({'true' if prescribed(reasons[o], st.kind) else 'false'})"
                    for o in differing
                )
                fields = dict.fromkeys(reasons[o].field for o in differing)
                yield ctx.finding(
                    st.report_at,
                    "this `SafetensorsStore` and the `PytorchStore` in the same file map keys "
                    "differently",
                    label=label,
                    help=f"{stakes}; the same weights load with one store and fail or mis-map "
                    f"with the other: write the same explicit values on both (`{values}` for "
                    "this layout)",
                    related=(
                        RelatedLocation(
                            ctx.location(pt.report_at), "the `PytorchStore` is built here"
                        ),
                        *(
                            RelatedLocation(field.location, f"`{field.shown}` is declared here")
                            for field in fields
                            if field.location is not None
                        ),
                    ),
                )
                break
