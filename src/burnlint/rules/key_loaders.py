"""What the key-mapping rules (BL005, BL006, BL012) say of a loader: its name by what makes it
PyTorch-facing, and the related locations that show where it is built and loaded."""

from __future__ import annotations

from typing import TYPE_CHECKING

from burnlint.findings import RelatedLocation
from burnlint.model.keymapping import Facing

if TYPE_CHECKING:
    from burnlint.model.keymapping import Loader
    from burnlint.rules.context import RuleContext

# The loader, named by what makes it PyTorch-facing.
LOADERS = {
    Facing.PYTORCH: "a `PytorchStore`",
    Facing.ADAPTER: "a `SafetensorsStore` with `PyTorchToBurnAdapter`",
    Facing.REMAPPING: "a `SafetensorsStore` with key remapping",
    Facing.BESIDE_PYTORCH: (
        "a `SafetensorsStore` loaded beside a PyTorch loader in the same function"
    ),
}


def loader_related(ctx: RuleContext, loader: Loader) -> tuple[RelatedLocation, ...]:
    """The loads of ``loader`` other than where it is reported, those in other files of a
    store this file's function hands over, and the crate-local function that builds it."""
    related = tuple(
        RelatedLocation(ctx.location(op.node), "loaded here")
        for op in loader.loads
        if op.node != loader.report_at
    )
    if loader.store.origin is None:
        # the loads of this store where a crate-local function hands it over
        here = ctx.location(loader.report_at)
        related += tuple(
            RelatedLocation(load, "loaded here") for load in ctx.model.loads_elsewhere.get(here, ())
        )
    elif loader.store.helper is not None:
        related += (
            RelatedLocation(loader.store.origin, f"`{loader.store.helper}` builds the store here"),
        )
    return related
