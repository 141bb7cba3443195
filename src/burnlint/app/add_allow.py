"""``--add-allow``: suppress every current finding with an allow comment above its statement.

For each finding, the comment goes on its own line above the innermost statement (or item,
match arm) that holds the finding, with that line's indentation::

    // burnlint: allow(BL005) -- baseline
    let store = PytorchStore::from_file("weights.pt");

Findings of one statement share a comment. When an allow comment already sits above the
statement, the missing ids are added to it instead (``allow(BL002)`` becomes
``allow(BL002, BL007)``; its reason is kept). A statement that does not begin its line
(``fn f() { let _ = ..; }``) or that a comment cannot be put above (a line that starts inside
a multi-line string) gets the comment above the statement around it instead.

Files are edited like ``--fix`` edits them (``fix.py``): only when they still hold the bytes
that were checked, only when the edited text parses with no more syntax errors than before and
every finding is then covered by an allow naming its rule (``suppress.parse_directives``),
and atomically, under the same lock and checks (``filewrite``). Line endings and a BOM are
kept. Running it again adds nothing: the findings are suppressed. BL008 findings (unused
allows) are left alone: ``--fix`` removes those allows.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from burnlint.app.console import Console
from burnlint.app.filewrite import Editing, FileChangedError, edit_file
from burnlint.app.fix import CHANGED_SINCE_CHECKED, StaleCheck, changed, syntax_error_count
from burnlint.engine.finish import digest
from burnlint.findings import Finding, Level, LintResult, Notification, NotificationKind
from burnlint.paths import display_path
from burnlint.rules.registry import UNUSED_SUPPRESSION
from burnlint.rust.source import DecodeError, SourceFile, decode_source

# the statements an allow covers, exactly as ``suppress/`` computes them
from burnlint.suppress import (
    Allow,
    AllowIndex,
    next_statement,
    parse_directives,
    statement_of,
)
from burnlint.suppress.statements import BOM

REASON = "baseline"


@dataclass
class AddAllowOutcome:
    """What ``add_allows`` did: per file, how many findings its comments now cover."""

    covered: dict[Path, int] = field(default_factory=dict)  # file -> findings covered
    inserted: int = 0  # new comment lines
    extended: int = 0  # existing allows given more ids
    left: int = 0  # findings left as they are (BL008, or no place for a comment)
    notifications: list[Notification] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(self.covered.values())


@dataclass
class _Anchor:
    """Where one comment goes: above line ``line0`` (0-based), covering lines ``covered``."""

    line0: int
    covered: tuple[int, int]
    rule_ids: set[str] = field(default_factory=set)


@dataclass
class _Plan:
    data: bytes
    inserted_lines: list[int]  # 0-based lines a comment was inserted above
    extended: int
    uncovered: list[Finding]


def add_allow_comments(
    result: LintResult,
    findings: Iterable[Finding],
    *,
    root: Path,
    recheck: Callable[[], LintResult],
    console: Console,
    quiet: bool,
    stale: StaleCheck | None = None,
) -> LintResult:
    """``--add-allow``: comments above ``findings`` (the ones reported: with a baseline, the
    new ones) in the files ``result`` checked, then the files are checked again (``recheck``);
    the result of that check, with the files left alone noted."""
    outcome = add_allows(findings, root=root, digests=result.digests, stale=stale)
    if outcome.total:
        result = recheck()
    if not quiet:
        files = len(outcome.covered)
        console.err(
            f"burnlint: added allow comments for {outcome.total} "
            f"finding{'s' if outcome.total != 1 else ''} in {files} "
            f"file{'s' if files != 1 else ''}"
        )
    if outcome.notifications:
        result = result.with_notifications(outcome.notifications)
    return result


def add_allows(
    findings: Iterable[Finding],
    *,
    root: Path,
    digests: Mapping[Path, str],
    write: bool = True,
    stale: StaleCheck | None = None,
) -> AddAllowOutcome:
    """Add allow comments for ``findings``; ``digests`` maps each file's absolute path to the
    sha256 of the bytes that were checked (``LintResult.digests``), ``stale`` tells a stale
    cache entry from a change (``fix.changed``). Files are taken in the order of their
    names relative to ``root``."""
    outcome = AddAllowOutcome()
    by_file: dict[Path, list[Finding]] = defaultdict(list)
    for finding in findings:
        if finding.rule_id == UNUSED_SUPPRESSION.id:
            outcome.left += 1
        else:
            by_file[finding.location.path].append(finding)
    for _, path in sorted((display_path(path, root), path) for path in by_file):
        items = by_file[path]
        note = _add_to_file(path, items, digests, stale, outcome, write)
        if note is not None:
            outcome.left += len(items)
            level = Level.ERROR if note in _CHANGED else Level.WARNING
            outcome.notifications.append(_note(path, note, level=level))
    return outcome


def _add_to_file(
    path: Path,
    findings: list[Finding],
    digests: Mapping[Path, str],
    stale: StaleCheck | None,
    outcome: AddAllowOutcome,
    write: bool,
) -> str | None:
    """Edit one file; the reason it was left alone, or None."""
    try:
        with edit_file(path) as editing:
            return _add_to_read_file(editing, path, findings, digests, stale, outcome, write)
    except FileChangedError:
        return CHANGED_WHILE_EDITING
    except OSError as exc:
        return f"no allow comments added: cannot read: {exc.strerror or exc}"


# an editor's save (or another tool's write) between the read and the write: not lost
CHANGED_WHILE_EDITING = (
    "no allow comments added: the file changed while it was being edited: not written"
)


# the reasons that fail the run (``fix.changed_level``)
_CHANGED = {CHANGED_WHILE_EDITING, f"no allow comments added: {CHANGED_SINCE_CHECKED}"}


def _add_to_read_file(
    editing: Editing,
    path: Path,
    findings: list[Finding],
    digests: Mapping[Path, str],
    stale: StaleCheck | None,
    outcome: AddAllowOutcome,
    write: bool,
) -> str | None:
    """``_add_to_file`` of a file read and locked (``edit_file``). Raises
    ``FileChangedError`` when it changed before the write."""
    data = editing.data
    if digests.get(path) != digest(data):
        return f"no allow comments added: {changed(path, digests, stale)}"
    try:
        decode_source(data)
    except DecodeError as exc:
        return f"no allow comments added: {exc}"
    plan = plan_file(path, data, findings)
    if plan.data != data:
        problem = verify(path, data, plan, findings)
        if problem is not None:
            return f"no allow comments added: {problem}"
        if write:
            try:
                editing.write(plan.data)
            except OSError as exc:
                return f"no allow comments added: cannot write: {exc.strerror or exc}"
        outcome.covered[path] = len(findings) - len(plan.uncovered)
        outcome.inserted += len(plan.inserted_lines)
        outcome.extended += plan.extended
    outcome.left += len(plan.uncovered)
    for finding in plan.uncovered:
        line = finding.location.span.start_line
        outcome.notifications.append(
            _note(path, f"no place for an allow comment for {finding.rule_id}", line)
        )
    return None


def plan_file(path: Path, data: bytes, findings: list[Finding]) -> _Plan:
    """The file with its comments added (not written), and what was done."""
    from burnlint.rust.syntax import parse

    source = SourceFile(path, data, parse(data))
    anchors: dict[int, _Anchor] = {}
    uncovered: list[Finding] = []
    for finding in findings:
        found = _anchor(source, finding)
        if found is None:
            uncovered.append(finding)
            continue
        line0, covered = found
        anchors.setdefault(line0, _Anchor(line0, covered)).rule_ids.add(finding.rule_id)
    allows = [a for a in parse_directives(source).allows if not a.file_level and not a.trailing]
    edits: list[tuple[int, int, bytes]] = []  # start, end, replacement
    inserted: list[int] = []
    extended = 0
    for line0, anchor in sorted(anchors.items()):
        above = [a for a in allows if (a.first_line, a.last_line) == anchor.covered]
        if above:
            allow = max(above, key=lambda a: a.line)
            edit = _extend(data, allow, anchor.rule_ids)
            if edit is not None:
                edits.append(edit)
                extended += 1
            continue
        position, indent = _line_start(data, source, line0)
        ids = ", ".join(sorted(anchor.rule_ids))
        comment = indent + f"// burnlint: allow({ids}) -- {REASON}".encode() + _eol(data, position)
        edits.append((position, position, comment))
        inserted.append(line0)
    out = bytearray(data)
    for start, end, content in sorted(edits, reverse=True):
        out[start:end] = content
    return _Plan(bytes(out), inserted, extended, uncovered)


def verify(path: Path, old: bytes, plan: _Plan, findings: list[Finding]) -> str | None:
    """Why the planned text must not be written, or None: it parses no worse than before and
    every finding (but those left uncovered) is covered by an allow naming its rule."""
    from burnlint.rust.syntax import parse

    if syntax_error_count(plan.data) > syntax_error_count(old):
        return "the edited text would not parse"
    source = SourceFile(path, plan.data, parse(plan.data))
    index = AllowIndex(parse_directives(source).allows)
    inserted = sorted(plan.inserted_lines)
    skipped = {id(f) for f in plan.uncovered}
    for finding in findings:
        if id(finding) in skipped:
            continue
        line = finding.location.span.start_line
        line += bisect_right(inserted, line - 1)  # the comments inserted above it
        if not index.hits(finding.rule_id, line):
            return f"the comment for {finding.rule_id} on line {line} would not cover it"
    return None


def _anchor(source: SourceFile, finding: Finding) -> tuple[int, tuple[int, int]] | None:
    """The 0-based line to put the comment above, and the lines it will cover (1-based, as
    ``suppress`` computes them), for the innermost statement around the finding that works."""
    root = source.root
    start = min(finding.location.span.start_byte, max(len(source.data) - 1, 0))
    node = root.descendant_for_byte_range(start, start + 1)
    line = finding.location.span.start_line
    statement = statement_of(node) if node is not None else None
    while statement is not None and statement.parent is not None:
        line0 = statement.start_point[0]
        covered = _covered_from(source, line0)
        if covered is not None and covered[0] <= line <= covered[1]:
            return line0, covered
        statement = statement_of(statement.parent)
    return None


def _covered_from(source: SourceFile, line0: int) -> tuple[int, int] | None:
    """The lines an allow put above ``line0`` would cover; None when a comment cannot go there
    (the line starts inside a multi-line string or comment)."""
    data = source.data
    position, indent = _line_start(data, source, line0)
    first = position + len(indent)
    if first >= len(data) or data[first : first + 1] in (b"\r", b"\n"):
        return None
    leaf = source.root.descendant_for_byte_range(first, first + 1)
    if leaf is None or leaf.start_byte != first:
        return None
    first_line, last_line = next_statement(source, source.root, position)
    return (first_line, last_line) if first_line <= last_line else None


def _line_start(data: bytes, source: SourceFile, line0: int) -> tuple[int, bytes]:
    """Where a comment line goes above ``line0`` (after a BOM), and the line's indentation."""
    position = source.line_starts[line0]
    if line0 == 0 and data.startswith(BOM):
        position += len(BOM)
    end = position
    while end < len(data) and data[end : end + 1] in (b" ", b"\t"):
        end += 1
    return position, data[position:end]


def _eol(data: bytes, position: int) -> bytes:
    """The line ending of the line at ``position``, else the file's."""
    newline = data.find(b"\n", position)
    if newline > 0:
        return b"\r\n" if data[newline - 1 : newline] == b"\r" else b"\n"
    return b"\r\n" if b"\r\n" in data else b"\n"


def _extend(data: bytes, allow: Allow, rule_ids: set[str]) -> tuple[int, int, bytes] | None:
    """The edit that adds the ids ``allow`` does not name yet; None when it names them all."""
    named = {i.rule_id for i in allow.ids}
    missing = sorted(rule_ids - named)
    if not missing:
        return None
    text = data[allow.ids_start : allow.ids_end].decode("utf-8")
    stripped = text.rstrip()
    core = stripped.rstrip(",").rstrip()
    new = f"{core}, {', '.join(missing)}{text[len(stripped) :]}"
    return allow.ids_start, allow.ids_end, new.encode("utf-8")


def _note(
    path: Path, message: str, line: int | None = None, level: Level = Level.WARNING
) -> Notification:
    return Notification(path, message, kind=NotificationKind.FILE, level=level, line=line)
