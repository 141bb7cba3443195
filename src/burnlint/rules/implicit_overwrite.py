"""BL004 implicit-overwrite."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from burnlint.findings import Finding, Level, RelatedLocation
from burnlint.model.repeats import refuses_overwrite
from burnlint.rules.base import Rule
from burnlint.rules.meta import RuleMeta
from burnlint.rules.store_overwrite_in_loop import OVERWRITE_FIX_TITLE, overwrite_fix

if TYPE_CHECKING:
    from tree_sitter import Node

    from burnlint.model.ops import StoreOp
    from burnlint.rules.context import RuleContext


META = RuleMeta(
    id="BL004",
    name="implicit-overwrite",
    level=Level.NOTE,
    summary="a file store is saved into without an explicit `.overwrite(..)`",
    precision="high",
    tags=("burn-store", "checkpoint"),
    fixable=True,
    enabled_by_default=False,
    since="0.1.0",
)


class ImplicitOverwrite(Rule):
    meta = META

    @staticmethod
    def check(ctx: RuleContext) -> Iterator[Finding]:
        sites: dict[int, tuple[Node, list[StoreOp]]] = {}
        for op in ctx.model.ops:
            if (
                not op.is_save
                or op.helper is not None
                or not refuses_overwrite(op.store, ctx.model)
            ):
                continue
            store = op.store
            assert store is not None
            site = store.constructor_node if store.helper is None else op.node
            sites.setdefault(site.id, (site, []))[1].append(op)
        for site, saves in sorted(sites.values(), key=lambda entry: entry[0].start_byte):
            store = saves[0].store
            assert store is not None
            related = tuple(
                RelatedLocation(ctx.location(op.node), "saved into here")
                for op in saves
                if op.node != site
            )
            yield ctx.finding(
                site,
                f"`{store.kind.value}` is saved into without `.overwrite(..)`",
                label="it refuses to replace an existing file: the next run fails with "
                "`File already exists`",
                help=(
                    f"say what you want: {OVERWRITE_FIX_TITLE} to replace the file, or "
                    "`.overwrite(false)` to keep the first one"
                ),
                related=related,
                fix=overwrite_fix(ctx, store),
            )
