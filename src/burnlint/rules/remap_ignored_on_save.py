"""BL011 remap-ignored-on-save."""

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
    id="BL011",
    name="remap-ignored-on-save",
    level=Level.WARNING,
    summary="a `BurnpackStore` with a key remapping is saved into and never loaded from: the remapping applies to loads only",
    precision="medium",
    tags=("burn-store",),
    # on by default once testdata/rules/BL011/ holds a dozen firing cases
    enabled_by_default=False,
    since="0.1.0",
)


@dataclass(frozen=True)
class RemapIgnoredOnSaveViolation(Violation):
    """The words of a BL011 finding; its fields are the facts they need."""

    @property
    def message(self) -> str:
        return "a `BurnpackStore` with a key remapping is saved into and never loaded from: the remapping applies to loads only"


class RemapIgnoredOnSave(Rule):
    meta = META
    # Rust snippets: INVALID ones mark each finding with `// expect: BL011`
    VALID = ()
    INVALID = ()

    @staticmethod
    def check(ctx: RuleContext) -> Iterator[Finding]:
        # Ask ctx.model for what the rule is about and, for each case,
        # yield ctx.report(node, RemapIgnoredOnSaveViolation(...)).
        yield from ()
