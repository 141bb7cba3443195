"""BL007 unchecked-lenient-load."""

from __future__ import annotations

from collections.abc import Iterator

from burnlint.findings import Finding, Level, RelatedLocation
from burnlint.model.results import ERRORS, MISSING
from burnlint.model.summaries import leniency
from burnlint.rules.base import Rule
from burnlint.rules.context import RuleContext
from burnlint.rules.meta import RuleMeta

META = RuleMeta(
    id="BL007",
    name="unchecked-lenient-load",
    level=Level.WARNING,
    summary="the `ApplyResult` of a lenient load is not checked",
    precision="high",
    tags=("correctness", "burn-store"),
    since="0.1.0",
)


class UncheckedLenientLoad(Rule):
    meta = META

    @staticmethod
    def check(ctx: RuleContext) -> Iterator[Finding]:
        model = ctx.model
        for op in model.ops:
            if not op.returns_apply_result:
                continue
            related: list[RelatedLocation] = []
            flow = op.summary.ok if op.summary is not None else None
            if flow is not None:
                # a crate-local function hands the ApplyResult back: what it leaves unchecked
                # is the caller's to check
                required = flow.required - flow.checked
                reasons = list(flow.reasons)
                related.append(RelatedLocation(flow.origin, "the lenient load is here"))
            else:
                required, reason_tuple = leniency(op)
                reasons = list(reason_tuple)
                store = op.store
                if store is not None and store.helper is None:
                    related.append(
                        RelatedLocation(
                            ctx.location(store.constructor_node), "the store is built here"
                        )
                    )
                elif store is not None and store.origin is not None:
                    related.append(
                        RelatedLocation(store.origin, f"`{store.helper}` builds the store here")
                    )
            if not required:
                continue
            unchecked = required - model.apply_checks(op)
            if not unchecked:
                continue
            for name, location, reads in model.partial_checkers:
                read = " and ".join(f"`{field}`" for field in sorted(reads)) or "neither list"
                related.append(
                    RelatedLocation(location, f"`{name}` is given the result and reads only {read}")
                )
            silent: list[str] = []
            if MISSING in unchecked:
                silent.append("tensors missing from the file (`missing`)")
            if ERRORS in unchecked:
                silent.append("shape mismatches (`errors`)")
            if flow is not None:
                message = (
                    f"the `ApplyResult` that `{op.helper}` returns is not checked while "
                    f"{' and '.join(reasons)}"
                )
            else:
                message = (
                    f"the `ApplyResult` of `{op.method}` is not checked while "
                    f"{' and '.join(reasons)}"
                )
            label = f"{' and '.join(silent)} go unnoticed"
            wanted = []
            if MISSING in unchecked:
                wanted.append("`result.missing`")
            if ERRORS in unchecked:
                wanted.append("`result.errors` (or `is_success()`)")
            yield ctx.finding(
                op.node,
                message,
                label=label,
                note="the parameters they concern keep their initial values, silently",
                help=(
                    f"read {' and '.join(wanted)}, or print the whole result "
                    "(`{result}` lists both)"
                ),
                related=tuple(related),
            )
