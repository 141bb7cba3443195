"""The rule protocol: metadata plus a ``check`` that queries the semantic model."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, ClassVar

from burnlint.findings import Finding, Level

if TYPE_CHECKING:
    from burnlint.rules.context import RuleContext


class Rule:
    """A rule is one small module holding one subclass of this.

    Rules never print, never read files and never walk the syntax tree themselves: they ask the
    ``FileModel`` (through ``RuleContext``) for store builds, operations and result uses, and
    yield findings made with ``ctx.finding``.
    """

    id: ClassVar[str]
    name: ClassVar[str]
    level: ClassVar[Level]
    summary: ClassVar[str]
    enabled_by_default: ClassVar[bool] = True
    fixable: ClassVar[bool] = False
    # SARIF ``precision``: very-high, high, medium or low.
    precision: ClassVar[str] = "high"
    tags: ClassVar[tuple[str, ...]] = ()

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        raise NotImplementedError
