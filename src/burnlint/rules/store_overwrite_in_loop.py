"""BL003 store-overwrite-in-loop."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from burnlint.findings import Applicability, Edit, Finding, Fix, Level, RelatedLocation
from burnlint.rules.base import Rule
from burnlint.rules.meta import RuleMeta

if TYPE_CHECKING:
    from burnlint.model.stores import StoreBuild
    from burnlint.rules.context import RuleContext

META = RuleMeta(
    id="BL003",
    name="store-overwrite-in-loop",
    level=Level.ERROR,
    summary="a file store that refuses to overwrite is saved into repeatedly in a loop",
    precision="high",
    tags=("correctness", "burn-store", "checkpoint"),
    fixable=True,
    since="0.1.0",
)


OVERWRITE_FIX_TITLE = "add `.overwrite(true)`"


def overwrite_fix(ctx: RuleContext, store: StoreBuild) -> Fix | None:
    """Insert `.overwrite(true)` right after the constructor call (unsafe: an existing file is
    replaced instead of the save failing); in the crate-local function that builds the store
    when it comes from one, which changes it for every caller."""
    if store.helper is not None:
        if store.overwrite_edit is None:
            return None
        return Fix(
            f"add `.overwrite(true)` to the store `{store.helper}` builds "
            "(changes it for all its callers)",
            Applicability.UNSAFE,
            (store.overwrite_edit,),
        )
    end = store.constructor_node.end_byte
    return Fix(
        OVERWRITE_FIX_TITLE,
        Applicability.UNSAFE,
        (Edit(ctx.model.path, end, end, ".overwrite(true)"),),
    )


class StoreOverwriteInLoop(Rule):
    meta = META

    @staticmethod
    def check(ctx: RuleContext) -> Iterator[Finding]:
        model = ctx.model
        for repeated in model.repeated_saves:
            store = repeated.store
            kind = store.kind.value
            related = tuple(
                RelatedLocation(ctx.location(op.node), "saved into here, in every iteration")
                for op in repeated.saves
                if op.node != repeated.report_at
            )
            if store.origin is not None:
                related = (
                    *related,
                    RelatedLocation(
                        store.origin,
                        f"`{store.helper}` builds the store here, without `.overwrite(..)`",
                    ),
                )
            fix = overwrite_fix(ctx, store)
            message = f"`{kind}` is saved into in a loop but refuses to overwrite its file"
            yield ctx.finding(
                repeated.report_at,
                message,
                label=repeated.why,
                note="from the second iteration on every save returns `File already exists` and "
                "the checkpoint stays at the first save",
                help=(
                    f"{fix.title}, or save each iteration to its own path"
                    if fix is not None and store.helper is not None
                    else f"{OVERWRITE_FIX_TITLE} to the store, or save each iteration to its "
                    "own path"
                ),
                related=related,
                fix=fix,
            )
