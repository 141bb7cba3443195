"""``--statistics``: how many findings each rule reported, and how many were suppressed.

A pure function of the result, like the reporters; the CLI decides where it is printed.
"""

from __future__ import annotations

from collections import Counter

from burnlint.findings import LintResult


def render(result: LintResult) -> str:
    """A table with one row per rule that reported or had findings suppressed, most findings
    first, then the totals::

        findings  suppressed  rule
               3           1  BL003 store-overwrite-in-loop
               1           0  BL001 discarded-store-result
        4 findings, 1 suppressed
    """
    reported = Counter(f.rule_id for f in result.findings)
    names = {f.rule_id: f.rule_name for f in result.findings}
    suppressed = result.stats.suppressed_by_rule
    for rule_id in suppressed:
        if rule_id not in names:
            names[rule_id] = _rule_name(rule_id)
    ids = sorted(set(reported) | set(suppressed), key=lambda i: (-reported[i], i))
    lines = []
    if ids:
        lines.append("findings  suppressed  rule")
        for rule_id in ids:
            label = f"{rule_id} {names[rule_id]}".rstrip()
            lines.append(f"{reported[rule_id]:>8}  {suppressed.get(rule_id, 0):>10}  {label}")
    total = sum(reported.values())
    found = f"{total} finding" if total == 1 else f"{total} findings"
    lines.append(f"{found}, {result.stats.suppressed} suppressed")
    return "\n".join(lines) + "\n"


def _rule_name(rule_id: str) -> str:
    from burnlint.rules import registry

    meta = registry.find(rule_id)
    return meta.name if meta is not None else ""
