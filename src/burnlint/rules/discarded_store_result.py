"""BL001 discarded-store-result."""

from __future__ import annotations

from collections.abc import Iterator

from burnlint.findings import Finding, Level
from burnlint.model.results import UseClass
from burnlint.rules.base import Rule
from burnlint.rules.context import RuleContext
from burnlint.rules.meta import RuleMeta
from burnlint.rules.wording import failure_effect, op_name

META = RuleMeta(
    id="BL001",
    name="discarded-store-result",
    level=Level.ERROR,
    summary="the `Result` of a store save or load is discarded",
    precision="very-high",
    tags=("correctness", "burn-store"),
    since="0.1.0",
)


class DiscardedStoreResult(Rule):
    meta = META

    @staticmethod
    def check(ctx: RuleContext) -> Iterator[Finding]:
        for op in ctx.model.ops:
            if not op.returns_result:
                continue
            if ctx.model.result_use(op).use is not UseClass.DISCARDED:
                continue
            yield ctx.finding(
                op.node,
                f"the `Result` of {op_name(op)} is discarded",
                label=failure_effect(op, ctx.model),
                help=(
                    "propagate the error with `?`, or handle the `Err` "
                    "(stop, retry, or count the failure)"
                ),
            )
