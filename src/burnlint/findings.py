"""Plain data passed from the engine to the reporters.

Nothing here knows about tree-sitter, rules or output formats: the engine fills these in, the
reporters read them. Every class is frozen so results can be sorted, hashed and shared across
worker processes.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field


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


@dataclass(frozen=True, order=True)
class Location:
    """A span in a file; ``path`` is POSIX and relative to the project root when possible."""

    path: str
    span: Span


@dataclass(frozen=True, order=True)
class RelatedLocation:
    """A secondary location that explains a finding (e.g. the store a save writes to)."""

    location: Location
    message: str


@dataclass(frozen=True, order=True)
class Edit:
    """Replace bytes ``[start_byte, end_byte)`` of ``path`` with ``content``.

    ``span`` is the same range as lines and columns, filled in by the engine: SARIF viewers
    apply a fix by line and column (a region given in bytes they show in a hex view).
    """

    path: str
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
    fix's title, so that one line says both. ``fingerprint`` is a
    stable identity that does not change when unrelated lines move (see ``fingerprint.py``).
    ``snippet`` is the source text of the finding's lines, for reporters; when they are long,
    a window of it (``source.MAX_SNIPPET``): ``snippet_start`` characters of the first line are
    left out before it, and ``snippet_cut`` says whether text is left out after it.
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

    @property
    def full_message(self) -> str:
        """The headline and the label as one sentence, for formats without a caret line."""
        return f"{self.message}: {self.label}" if self.label else self.message

    def sort_key(self) -> tuple[str, int, int, str, str]:
        """Report order: by file, line, column, rule, then message."""
        span = self.location.span
        return (self.location.path, span.start_line, span.start_col, self.rule_id, self.message)


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
    checked).
    """

    path: str
    message: str
    kind: NotificationKind = NotificationKind.FILE
    level: Level = Level.WARNING
    rule_id: str | None = None
    line: int | None = None

    def sort_key(self) -> tuple[str, int, str]:
        """Report order: by file, line (none first), then message."""
        return (self.path, self.line or 0, self.message)


@dataclass(frozen=True)
class LintResult:
    """What one run produced, in a deterministic order."""

    findings: tuple[Finding, ...]
    notifications: tuple[Notification, ...]
    files_checked: int
    files_skipped: int = 0
    suppressed: int = 0
    rules_run: tuple[str, ...] = ()
    burn_version: str | None = None
    # each rule's level in this run, severity overrides included (rules without findings too)
    rule_levels: tuple[tuple[str, Level], ...] = ()
    extra: dict[str, object] = field(default_factory=dict, compare=False, hash=False)

    @property
    def successful(self) -> bool:
        """False when a notification of level error was raised (a crash, a bad config)."""
        return not any(n.level is Level.ERROR for n in self.notifications)
