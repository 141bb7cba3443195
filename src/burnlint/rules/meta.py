"""What is known about a rule without running it: plain, frozen data.

A rule module declares its ``META``; ``rules/registry.py`` lists every rule's, so that the
reporters, the configuration and the suppression stage can name rules without importing rule
code (which imports the model and tree-sitter).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Literal

from burnlint.findings import Level

# SARIF ``precision`` (how often a finding is a true positive), written into each rule's
# reportingDescriptor; code scanning sorts and filters alerts by it.
Precision = Literal["very-high", "high", "medium", "low"]


@dataclass(frozen=True, kw_only=True)
class RuleMeta:
    """A rule's identity and defaults.

    ``id`` (``BL001``) is never reused; ``name`` is kebab-case and reads as "allow <name>";
    ``summary`` is one line, in rustc style (lowercase, code in backticks, no final period);
    ``level`` the default severity, which ``[severity]`` may override (``effective``);
    ``tags`` are the rule's own (a finding adds its own, such as ``test-code``); ``since`` the
    burnlint release that introduced the rule.
    """

    id: str
    name: str
    level: Level
    summary: str
    precision: Precision
    tags: tuple[str, ...] = ()
    fixable: bool = False
    enabled_by_default: bool = True
    since: str

    def effective(self, severity: Mapping[str, Level]) -> RuleMeta:
        """The rule as a run has it: its level overridden by ``severity`` (rule id -> level,
        the configuration's ``[severity]``) when that names it."""
        level = severity.get(self.id, self.level)
        return self if level is self.level else replace(self, level=level)
