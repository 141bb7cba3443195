"""The rule protocol: metadata plus a ``check`` that queries the semantic model."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, ClassVar

from burnlint.findings import Finding, RuleMeta

if TYPE_CHECKING:
    from burnlint.rules.context import RuleContext


class Rule:
    """A rule is one small module: its ``META`` (a ``findings.RuleMeta``) and one subclass of
    this, whose ``meta`` is that ``META``.

    Rules hold no state: ``check`` is a static method, called for each file with the file's
    context. Rules never print, never read files and never walk the syntax tree themselves:
    they ask the ``FileModel`` (through ``RuleContext``) for store builds, operations and
    result uses, and yield findings made with ``ctx.report`` from a ``Violation``
    (``rules/violation.py``), which holds
    their wording; shared fixes are in ``rules/fixes.py``, shared words in ``rules/wording.py``.
    """

    meta: ClassVar[RuleMeta]
    # A few minimal Rust snippets beside the code (Fixit's VALID and INVALID): an ``INVALID``
    # one marks each of the rule's findings with ``// expect:`` as fixtures do, a ``VALID`` one
    # has none. ``tests/test_rule_snippets.py`` runs them. Cases that need more than one file
    # or many variants go in ``testdata/``.
    VALID: ClassVar[tuple[str, ...]] = ()
    INVALID: ClassVar[tuple[str, ...]] = ()

    @staticmethod
    def check(ctx: RuleContext) -> Iterator[Finding]:
        raise NotImplementedError
