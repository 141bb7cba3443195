"""BL010 invalid-store-regex."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from burnlint.findings import Finding, Level
from burnlint.rules.base import Rule, Violation
from burnlint.rules.meta import RuleMeta

if TYPE_CHECKING:
    from burnlint.rules.context import RuleContext

META = RuleMeta(
    id="BL010",
    name="invalid-store-regex",
    level=Level.ERROR,
    summary="a regex literal burn-store compiles is one the Rust `regex` crate rejects",
    precision="medium",
    tags=("burn-store",),
    # on by default once testdata/rules/BL010/ holds a dozen firing cases
    enabled_by_default=False,
    since="0.1.0",
)


@dataclass(frozen=True)
class InvalidStoreRegexViolation(Violation):
    """The words of a BL010 finding; its fields are the facts they need."""

    @property
    def message(self) -> str:
        return "a regex literal burn-store compiles is one the Rust `regex` crate rejects"


class InvalidStoreRegex(Rule):
    meta = META
    # Rust snippets: INVALID ones mark each finding with `// expect: BL010`
    VALID = ()
    INVALID = ()

    @staticmethod
    def check(ctx: RuleContext) -> Iterator[Finding]:
        # Ask ctx.model for what the rule is about and, for each case,
        # yield ctx.report(node, InvalidStoreRegexViolation(...)).
        yield from ()
