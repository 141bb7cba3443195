"""BL006 inconsistent-key-mapping."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from burnlint.findings import Finding, Level, RelatedLocation
from burnlint.model.imports import StoreKind
from burnlint.rules.base import Rule

if TYPE_CHECKING:
    from burnlint.rules.context import RuleContext


def _show(value: bool | None, explicit: bool) -> str:
    shown = "true" if value else "false"
    return shown if explicit else f"{shown} (default)"


class InconsistentKeyMapping(Rule):
    id = "BL006"
    name = "inconsistent-key-mapping"
    level = Level.WARNING
    summary = (
        "PyTorch-facing `PytorchStore` and `SafetensorsStore` loaders in one file map keys "
        "differently"
    )
    precision = "medium"
    tags = ("correctness", "burn-store", "pytorch")

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        model = ctx.model
        loaders = model.key_loaders
        pytorch = [loader for loader in loaders if loader.kind is StoreKind.PYTORCH]
        safetensors = [loader for loader in loaders if loader.kind is StoreKind.SAFETENSORS]
        if not (pytorch and safetensors):
            return  # before reading the layout: it costs parsing the target's module files
        options = ["map_indices_contiguous"]
        # enum variant names only appear in paths when the target has module enums
        if model.layout.has_module_enums or not model.layout.known:
            options.append("skip_enum_variants")
        for st in safetensors:
            for pt in pytorch:
                differing = [
                    o
                    for o in options
                    if st.effective(o) is not None
                    and pt.effective(o) is not None
                    and st.effective(o) != pt.effective(o)
                ]
                if not differing:
                    continue
                details = ", ".join(
                    f"`{o}` is {_show(st.effective(o), st.explicit(o))} here and "
                    f"{_show(pt.effective(o), pt.explicit(o))} for the `PytorchStore`"
                    for o in differing
                )
                names = " and ".join(f"`{o}`" for o in differing)
                yield ctx.finding(
                    st.report_at,
                    "this `SafetensorsStore` and the `PytorchStore` in the same file map keys "
                    "differently",
                    label=f"{names} differ{'s' if len(differing) == 1 else ''} from the "
                    "`PytorchStore`'s",
                    note=f"{details}: the same weights load with one and fail or mis-map with "
                    "the other",
                    help="write the same explicit values on both stores",
                    related=(
                        RelatedLocation(
                            ctx.location(pt.report_at), "the `PytorchStore` is built here"
                        ),
                    ),
                )
                break
