"""BL007 unchecked-lenient-load."""

from __future__ import annotations

from collections.abc import Iterator

from burnlint.findings import Finding, Level, Location, RelatedLocation
from burnlint.model.results import ERRORS, MISSING, NOTHING, Check
from burnlint.rules.base import Rule
from burnlint.rules.context import RuleContext


class UncheckedLenientLoad(Rule):
    id = "BL007"
    name = "unchecked-lenient-load"
    level = Level.WARNING
    summary = "the `ApplyResult` of a lenient load is not checked"
    precision = "high"
    tags = ("correctness", "burn-store")

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        model = ctx.model
        for op in model.ops:
            if not op.returns_apply_result:
                continue
            required: Check = NOTHING
            reasons: list[str] = []
            if op.method == "apply" and op.helper is None:
                required = frozenset({MISSING, ERRORS})
                reasons.append("`apply` never fails")
            elif op.store is not None:
                if op.store.is_set_true("allow_partial"):
                    required |= {MISSING}
                    reasons.append("`.allow_partial(true)`")
                validate = op.store.option("validate")
                if validate is not None and validate.value is not True:
                    required |= {ERRORS}
                    reasons.append("`.validate(false)`")
                reasons = [f"the store has {' and '.join(reasons)}"] if reasons else []
            if not required:
                continue
            unchecked = required - model.apply_checks(op)
            if not unchecked:
                continue
            silent: list[str] = []
            if MISSING in unchecked:
                silent.append("tensors missing from the file (`missing`)")
            if ERRORS in unchecked:
                silent.append("shape mismatches (`errors`)")
            message = (
                f"the `ApplyResult` of `{op.method}` is not checked while {' and '.join(reasons)}"
            )
            label = f"{' and '.join(silent)} leave parameters at their initial values, silently"
            wanted = []
            if MISSING in unchecked:
                wanted.append("`result.missing`")
            if ERRORS in unchecked:
                wanted.append("`result.errors` (or `is_success()`)")
            related: tuple[RelatedLocation, ...] = ()
            if op.store is not None and op.store.helper_path is None:
                related = (
                    RelatedLocation(
                        Location(model.path, model.source.node_span(op.store.constructor_node)),
                        "the store is built here",
                    ),
                )
            yield ctx.finding(
                op.node,
                message,
                label=label,
                help=(
                    f"read {' and '.join(wanted)}, or print the whole result "
                    "(`{result}` lists both)"
                ),
                related=related,
            )
