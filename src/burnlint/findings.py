"""Plain data passed from the engine to the reporters.

Nothing here knows about tree-sitter, rule code or output formats: the engine fills these in,
the reporters read them. A rule's metadata (``RuleMeta``) lives here too, below the rules that
declare it and the results that carry it. Every class is frozen so results can be hashed and
shared across worker processes.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePath
from typing import Literal

from burnlint.project.releases import joined_versions


class Level(enum.Enum):
    """Severity of a finding, ordered from most to least severe."""

    ERROR = "error"
    WARNING = "warning"
    NOTE = "note"

    @property
    def rank(self) -> int:
        """0 for errors, 1 for warnings, 2 for notes (lower is more severe)."""
        return _LEVEL_RANK[self]

    def at_least(self, threshold: Level) -> bool:
        """True when this level is as severe as ``threshold`` or more."""
        return self.rank <= threshold.rank


_LEVEL_RANK = {Level.ERROR: 0, Level.WARNING: 1, Level.NOTE: 2}


class Applicability(enum.Enum):
    """Whether a fix may be applied without a human looking at it (ruff's fix safety)."""

    SAFE = "safe"
    UNSAFE = "unsafe"


@dataclass(frozen=True, order=True)
class Span:
    """A range in one file.

    Lines are 1-based. ``start_col``/``end_col`` are 1-based columns counted in Unicode scalar
    values (what rustc and editors show); ``*_col_utf16`` count UTF-16 code units (what SARIF
    declares with ``columnKind: utf16CodeUnits``). End columns are exclusive. Byte offsets are
    into the file as read from disk (after a UTF-8 BOM, if any, is kept: offsets include it).
    """

    start_byte: int
    end_byte: int
    start_line: int
    start_col: int
    end_line: int
    end_col: int
    start_col_utf16: int
    end_col_utf16: int


@dataclass(frozen=True)
class Location:
    """A span in a file. ``path`` is the file's absolute path: its identity for the engine,
    --fix and --add-allow; reporters name it relative to the project root
    (``ReportContext.display``)."""

    path: Path
    span: Span

    def sort_key(self) -> tuple[str, Span]:
        """By file (its path as text, so that ``a-b.rs`` comes before ``a/b.rs`` as in a
        report), then by place in it."""
        return (self.path.as_posix(), self.span)


@dataclass(frozen=True)
class RelatedLocation:
    """A secondary location that explains a finding (e.g. the store a save writes to)."""

    location: Location
    message: str


@dataclass(frozen=True)
class Edit:
    """Replace bytes ``[start_byte, end_byte)`` of ``path`` (absolute, like
    ``Location.path``) with ``content``.

    ``span`` is the same range as lines and columns, filled in by the engine: SARIF viewers
    apply a fix by line and column (a region given in bytes they show in a hex view).
    """

    path: Path
    start_byte: int
    end_byte: int
    content: str
    span: Span | None = None


@dataclass(frozen=True)
class Fix:
    """A set of edits with a user-facing title and an applicability."""

    title: str
    applicability: Applicability
    edits: tuple[Edit, ...]


# The key a finding's fingerprint is stored under outside burnlint: SARIF `partialFingerprints`,
# which baselines are read from. A new fingerprint scheme gets a new key.
FINGERPRINT_KEY = "burnlint/v1"

# Caret labels longer than this make the terminal report hard to read: the detail goes in the
# finding's note.
MAX_LABEL = 100


@dataclass(frozen=True)
class Finding:
    """One reported problem.

    ``message`` is the headline in rustc style (lowercase, code in backticks, no final period)
    and says what happens at run time. ``label`` is a short text for the span itself (a caret
    label, kept under ``MAX_LABEL`` characters); ``note`` the longer explanation, if any.
    ``help`` is the suggested remedy; when the finding has a fix, the help names it with the
    fix's title, so that one line says both. ``fingerprint`` is a stable identity that does
    not change when unrelated lines move: a rule leaves its material there (``finding_at`` in
    ``rules/context.py``), and the engine replaces that with its hash
    (``engine.finish.with_fingerprints``) before any finding leaves it.
    ``snippet`` is the source text of the finding's lines, for reporters; when they are long,
    a window of it (``rust.source.MAX_SNIPPET``): ``snippet_start`` characters of the first line are
    left out before it, and ``snippet_cut`` says whether text is left out after it.
    ``tags`` are the finding's own (``test-code`` in tests and benches); its rule's tags are in
    the rule's metadata (``LintResult.rules``), and reporters show both.
    ``twins`` is the fingerprint of the first finding identical to this one in its file (rule,
    enclosing items and expression; its own fingerprint when it is the first): findings that
    share it differ only by their ordinal, and a baseline tells them apart by their lines
    (``app.baseline.compare``). Empty: not known (a finding made outside the engine).
    """

    location: Location
    rule_id: str
    rule_name: str
    level: Level
    message: str
    help: str | None = None
    label: str | None = None
    related: tuple[RelatedLocation, ...] = ()
    fix: Fix | None = None
    fingerprint: str = ""
    snippet: str = ""
    tags: tuple[str, ...] = ()
    snippet_start: int = 0
    snippet_cut: bool = False
    note: str | None = None
    twins: str = ""

    @property
    def full_message(self) -> str:
        """The headline and the label as one sentence, for formats without a caret line."""
        return f"{self.message}: {self.label}" if self.label else self.message

    def sort_key(
        self, name: Callable[[Path], str] = PurePath.as_posix
    ) -> tuple[str, int, int, str, str]:
        """Report order: by file, line, column, rule, then message. Files are ordered by
        their ``name``: reporters pass how they name them, so the order is the report's."""
        span = self.location.span
        shown = name(self.location.path)
        return (shown, span.start_line, span.start_col, self.rule_id, self.message)


class NotificationKind(enum.Enum):
    """What a notification is about: the input, the configuration, or burnlint itself."""

    FILE = "file"  # a file could not be read, decoded or parsed
    CONFIG = "config"  # the configuration or arguments were wrong
    INTERNAL = "internal"  # a rule crashed


@dataclass(frozen=True)
class Notification:
    """Something the user should know that is not a finding.

    ``level`` ``error`` makes the run unsuccessful (exit 2); ``warning`` and ``note`` are
    informational (a file skipped for its size, a file with syntax errors that was still
    checked). ``path`` is the absolute path of the file it is about (None: about no file),
    like ``Location.path``; reporters name it relative to the project root
    (``ReportContext.display``).
    """

    path: Path | None
    message: str
    kind: NotificationKind = NotificationKind.FILE
    level: Level = Level.WARNING
    rule_id: str | None = None
    line: int | None = None

    def sort_key(self, name: Callable[[Path], str] = PurePath.as_posix) -> tuple[str, int, str]:
        """Report order: about no file first, then by file, line (none first), then message.
        Files are ordered by their ``name``, as for ``Finding.sort_key``."""
        return (name(self.path) if self.path is not None else "", self.line or 0, self.message)


@dataclass(frozen=True, order=True)
class BaselineEntry:
    """One finding of a baseline (``--baseline``): where it was and what it said."""

    path: str  # as burnlint reports it: POSIX, relative to the project root when inside it
    fingerprint: str
    rule_id: str
    line: int | None = None

    @property
    def key(self) -> tuple[str, str]:
        return (self.path, self.fingerprint)


@dataclass(frozen=True)
class BaselineOutcome:
    """A run compared with a baseline: the new findings (the ones reported), the unchanged ones
    (left out of the report and the exit code) and the baseline entries not found any more."""

    file: str  # how the baseline file was named (for messages)
    new: tuple[Finding, ...]
    unchanged: tuple[Finding, ...]
    absent: tuple[BaselineEntry, ...]

    def states(self) -> dict[str, int]:
        return {"new": len(self.new), "unchanged": len(self.unchanged), "absent": len(self.absent)}


# SARIF ``precision`` (how often a finding is a true positive), written into each rule's
# reportingDescriptor; code scanning sorts and filters alerts by it.
Precision = Literal["very-high", "high", "medium", "low"]


@dataclass(frozen=True, kw_only=True)
class RuleMeta:
    """A rule's identity and defaults, as plain data: what is known about a rule without
    running it. A rule module declares its ``META``; ``rules/registry.py`` lists every rule's,
    so that the reporters, the configuration and the suppression stage name rules without
    importing rule code (which imports the model and tree-sitter).

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


@dataclass(frozen=True)
class RunStats:
    """How much of the input a run checked, and how many findings it did not report because
    an allow comment or a per-file ignore suppressed them (by rule id, in id order)."""

    files_checked: int = 0
    files_skipped: int = 0
    suppressed_by_rule: Mapping[str, int] = field(default_factory=dict, hash=False)

    @property
    def suppressed(self) -> int:
        return sum(self.suppressed_by_rule.values())


@dataclass(frozen=True)
class LintResult:
    """What one run produced, in a deterministic order.

    ``digests`` holds the sha256 of the bytes that were checked, for the files with findings
    and the files their fixes edit, by absolute path: --fix and --add-allow leave a file alone
    that changed since. ``baseline`` is set once the findings are compared with a baseline
    (``findings`` are then the new ones).
    """

    findings: tuple[Finding, ...]
    notifications: tuple[Notification, ...]
    stats: RunStats = RunStats()
    burn_version: str | None = None
    # the metadata of the rules that ran, in registry (id) order, each at its level in this run
    # (severity overrides included)
    rules: tuple[RuleMeta, ...] = ()
    digests: Mapping[Path, str] = field(default_factory=dict, hash=False)
    baseline: BaselineOutcome | None = None
    # what went wrong with the persistent cache (it cannot be written): said on stderr, never
    # in a report, and never a reason to fail the run
    cache_problems: tuple[str, ...] = ()

    @property
    def successful(self) -> bool:
        """False when a notification of level error was raised (a crash, a bad config)."""
        return not any(n.level is Level.ERROR for n in self.notifications)

    @classmethod
    def merge(cls, *parts: LintResult) -> LintResult:
        """One result of runs over different paths (each with its own configuration): findings
        and notifications in report order, counts added, every burn version stated, and every
        rule that ran in any of them (``merged_rules``)."""
        if len(parts) == 1:
            return parts[0]
        suppressed: Counter[str] = Counter()
        for part in parts:
            suppressed.update(part.stats.suppressed_by_rule)
        return cls(
            findings=tuple(sorted((f for p in parts for f in p.findings), key=Finding.sort_key)),
            notifications=_in_report_order(n for p in parts for n in p.notifications),
            stats=RunStats(
                files_checked=sum(p.stats.files_checked for p in parts),
                files_skipped=sum(p.stats.files_skipped for p in parts),
                suppressed_by_rule=dict(sorted(suppressed.items())),
            ),
            burn_version=joined_versions(
                v for p in parts if p.burn_version for v in p.burn_version.split(", ")
            ),
            rules=merged_rules(p.rules for p in parts),
            digests={path: value for p in parts for path, value in p.digests.items()},
            baseline=next((p.baseline for p in parts if p.baseline is not None), None),
            cache_problems=tuple(dict.fromkeys(m for p in parts for m in p.cache_problems)),
        )

    def with_notifications(self, notes: Iterable[Notification]) -> LintResult:
        """This result with ``notes`` added (once each, in report order)."""
        return replace(self, notifications=_in_report_order((*self.notifications, *notes)))


def merged_rules(runs: Iterable[Iterable[RuleMeta]]) -> tuple[RuleMeta, ...]:
    """The rules that ran in any of ``runs``, in id order, each at the level the runs give it.
    Configurations may give one rule different levels: it then has the most severe of them
    (each finding keeps its own level)."""
    merged: dict[str, RuleMeta] = {}
    for rules in runs:
        for meta in rules:
            seen = merged.get(meta.id)
            if seen is None or meta.level.rank < seen.level.rank:
                merged[meta.id] = meta
    return tuple(merged[rule_id] for rule_id in sorted(merged))


def _in_report_order(notes: Iterable[Notification]) -> tuple[Notification, ...]:
    """Each notification once, in report order (``Notification.sort_key``)."""
    return tuple(sorted(set(notes), key=Notification.sort_key))
