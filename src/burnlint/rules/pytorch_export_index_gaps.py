"""BL009 pytorch-export-index-gaps."""

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
    id="BL009",
    name="pytorch-export-index-gaps",
    level=Level.NOTE,
    summary="a `Vec<Linear>`-like field is saved for PyTorch with contiguous indices where an `nn.Sequential` has gaps",
    precision="medium",
    tags=("burn-store",),
    # on by default once testdata/rules/BL009/ holds a dozen firing cases
    enabled_by_default=False,
    since="0.1.0",
)


@dataclass(frozen=True)
class PytorchExportIndexGapsViolation(Violation):
    """The words of a BL009 finding; its fields are the facts they need."""

    @property
    def message(self) -> str:
        return "a `Vec<Linear>`-like field is saved for PyTorch with contiguous indices where an `nn.Sequential` has gaps"


class PytorchExportIndexGaps(Rule):
    meta = META
    # Rust snippets: INVALID ones mark each finding with `// expect: BL009`
    VALID = ()
    INVALID = ()

    @staticmethod
    def check(ctx: RuleContext) -> Iterator[Finding]:
        # Ask ctx.model for what the rule is about and, for each case,
        # yield ctx.report(node, PytorchExportIndexGapsViolation(...)).
        yield from ()
