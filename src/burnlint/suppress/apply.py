"""Applying a file's allows, then its per-file ignores, to its findings; BL008's findings are
added (``finish_file``).
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

from burnlint.findings import Finding, RuleMeta
from burnlint.paths import relative_path
from burnlint.suppress.directives import Allow, Directives, parse_directives

if TYPE_CHECKING:
    from pathspec import GitIgnoreSpec

    from burnlint.options import EngineOptions
    from burnlint.rust.source import SourceFile

# BL008's findings for a file (``rules/unused_suppression.report``): its allows that suppress
# nothing, name no rule or do not parse, given the (allow index, id index) pairs that suppressed
# a finding, the rule ids judged, and BL008's metadata at its level. The engine hands it in, so
# that this stage, which runs after the rules, imports no rule code.
UnusedReport: TypeAlias = Callable[
    ["SourceFile", "Directives", set[tuple[int, int]], frozenset[str], "RuleMeta"], list[Finding]
]


@dataclass(frozen=True)
class FileVerdict:
    """The findings to report for a file (BL008's included) and how many were suppressed, by
    rule id."""

    findings: tuple[Finding, ...]
    suppressed: tuple[tuple[str, int], ...]


def finish_file(
    findings: Sequence[Finding],
    source: SourceFile,
    path: Path,
    options: EngineOptions,
    *,
    unused: UnusedReport,
    crashed: frozenset[str] = frozenset(),
) -> FileVerdict:
    """Apply the file's allow comments, then its per-file ignores; add BL008's findings
    (``unused``).

    ``path`` is the file's absolute path (per-file-ignore patterns are matched against it);
    ``crashed`` the rules that crashed on the file (their allows cannot be judged).
    """
    from burnlint.rules.registry import UNUSED_SUPPRESSION

    directives = (
        parse_directives(source)
        if b"burnlint" in source.data or b"BURNLINT" in source.data.upper()
        else Directives((), ())
    )
    used: set[tuple[int, int]] = set()  # (allow index, id index)
    suppressed: Counter[str] = Counter()
    kept: list[Finding] = []
    index = AllowIndex(directives.allows)
    for finding in findings:
        hits = index.hits(finding.rule_id, finding.location.span.start_line)
        if hits:
            used.update(hits)
            suppressed[finding.rule_id] += 1
        else:
            kept.append(finding)

    if UNUSED_SUPPRESSION.id in options.rule_ids:
        # Findings of rules that did not run or crashed are unknown, so are allows for them;
        # with syntax errors the rules may have missed findings.
        judged = frozenset(options.rule_ids) - crashed - {UNUSED_SUPPRESSION.id}
        if source.has_syntax_errors:
            judged = frozenset()
        meta = UNUSED_SUPPRESSION.effective(dict(options.severity))
        extra = unused(source, directives, used, judged, meta)
        file_allowed = {
            allow_id.rule_id
            for allow in directives.allows
            if allow.file_level
            for allow_id in allow.ids
        }
        for finding in extra:
            if UNUSED_SUPPRESSION.id in file_allowed:
                suppressed[finding.rule_id] += 1
            else:
                kept.append(finding)

    ignored = ignored_rules(path, options)
    if ignored:
        out: list[Finding] = []
        for finding in kept:
            if finding.rule_id in ignored:
                suppressed[finding.rule_id] += 1
            else:
                out.append(finding)
        kept = out
    return FileVerdict(tuple(kept), tuple(sorted(suppressed.items())))


class AllowIndex:
    """A file's allows by rule, to find those that cover a line without testing every allow
    against every finding (a file of thousands of allowed saves). Line allows are sorted by
    their first line; ``reach[k]`` is the furthest last line among the first k + 1 of them, so
    a lookup walks back from the last allow starting at or before the line only while an
    allow so far back can still cover it."""

    def __init__(self, allows: Sequence[Allow]) -> None:
        self._file_level: dict[str, list[tuple[int, int]]] = {}
        ranged: dict[str, list[tuple[int, int, int, int]]] = {}  # first, last, allow, id
        for a, allow in enumerate(allows):
            for i, allow_id in enumerate(allow.ids):
                if allow_id.rule_id is None:
                    continue
                if allow.file_level:
                    self._file_level.setdefault(allow_id.rule_id, []).append((a, i))
                else:
                    entry = (allow.first_line, allow.last_line, a, i)
                    ranged.setdefault(allow_id.rule_id, []).append(entry)
        self._ranged: dict[str, tuple[list[int], list[int], list[tuple[int, int, int, int]]]] = {}
        for rule_id, entries in ranged.items():
            entries.sort()
            reach: list[int] = []
            for _first, last, _a, _i in entries:
                reach.append(max(last, reach[-1]) if reach else last)
            self._ranged[rule_id] = ([e[0] for e in entries], reach, entries)

    def hits(self, rule_id: str, line: int) -> list[tuple[int, int]]:
        """(allow index, id index) of every allow of ``rule_id`` that covers ``line``."""
        found = list(self._file_level.get(rule_id, ()))
        if rule_id in self._ranged:
            firsts, reach, entries = self._ranged[rule_id]
            k = bisect_right(firsts, line) - 1
            while k >= 0 and reach[k] >= line:
                _first, last, a, i = entries[k]
                if last >= line:
                    found.append((a, i))
                k -= 1
        return found


def ignored_rules(path: Path, options: EngineOptions) -> frozenset[str]:
    """The rule ids that ``per-file-ignores`` turns off for ``path`` (absolute)."""
    if not options.per_file_ignores:
        return frozenset()
    base = options.exclude_root if options.exclude_root is not None else options.project_root
    relative = relative_path(path, base, resolve=True)
    if relative is None:
        return frozenset()
    out: set[str] = set()
    for pattern, ids in options.per_file_ignores:
        spec = _spec(pattern)
        if spec is not None and spec.match_file(relative):
            out |= ids
    return frozenset(out)


@lru_cache(maxsize=256)
def _spec(pattern: str) -> GitIgnoreSpec | None:
    from pathspec import GitIgnoreSpec

    try:
        return GitIgnoreSpec.from_lines([pattern])
    except (ValueError, TypeError):  # validated with the configuration; never fail a run
        return None
