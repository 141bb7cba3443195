"""``--fix`` and ``--diff``: byte-range edits, verified and written atomically.

A file is written only when it still has the bytes that were linted (else it changed under
us), when the edited text parses with no more syntax errors than before, and then through a
temporary file in the same directory renamed over the original, keeping its permissions and
owner (``filewrite``: under a lock against other runs, checked again right before the rename,
refused when read-only, written in place when hard-linked). The
rest of the file is kept byte for byte, so line endings and a BOM survive.
"""

from __future__ import annotations

import difflib
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from burnlint.app.console import Console
from burnlint.app.filewrite import Editing, FileChangedError, edit_file
from burnlint.engine.finish import digest
from burnlint.findings import (
    Applicability,
    Edit,
    Finding,
    Level,
    LintResult,
    Notification,
    NotificationKind,
)
from burnlint.paths import display_path, escape_controls, shown_path


@dataclass
class FixOutcome:
    """What applying (or previewing) fixes did."""

    fixed: dict[Path, int] = field(default_factory=dict)  # file -> fixes applied
    diffs: list[str] = field(default_factory=list)
    notifications: list[Notification] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(self.fixed.values())


def applicable_fixes(findings: Iterable[Finding], unsafe: bool) -> dict[Path, list[Edit]]:
    """Edits per file from the findings whose fixes may be applied, deduplicated."""
    edits: dict[Path, list[Edit]] = defaultdict(list)
    for finding in findings:
        fix = finding.fix
        if fix is None or (fix.applicability is Applicability.UNSAFE and not unsafe):
            continue
        for edit in fix.edits:
            if edit not in edits[edit.path]:
                edits[edit.path].append(edit)
    return dict(edits)


def apply_edits(data: bytes, edits: Iterable[Edit]) -> tuple[bytes, int]:
    """Apply non-overlapping edits (an edit overlapping an earlier one is left for the next
    run); returns the new bytes and how many edits were applied."""
    ordered = sorted(edits, key=lambda e: (e.start_byte, e.end_byte, e.content))
    out = bytearray()
    position = 0
    applied = 0
    for edit in ordered:
        if (
            edit.start_byte < position
            or edit.end_byte > len(data)
            or edit.start_byte > edit.end_byte
        ):
            continue
        out += data[position : edit.start_byte]
        out += edit.content.encode("utf-8")
        position = edit.end_byte
        applied += 1
    out += data[position:]
    return bytes(out), applied


def syntax_error_count(data: bytes) -> int:
    from burnlint.rust.syntax import parse, syntax_errors

    return sum(1 for _ in syntax_errors(parse(data).root_node))


def fix_files(
    findings: Iterable[Finding],
    *,
    root: Path,
    digests: Mapping[Path, str],
    unsafe: bool,
    write: bool,
    stale: StaleCheck | None = None,
) -> FixOutcome:
    """Apply (``write``) or preview (``write=False``: diffs only) the fixes of ``findings``.

    ``digests`` maps each file's absolute path to the sha256 of the bytes that were linted.
    Files are named relative to ``root`` in diffs, and taken in that order. ``stale`` says
    whether a file whose bytes differ was checked from a stale cache entry (and drops it).
    """
    outcome = FixOutcome()
    by_file = applicable_fixes(findings, unsafe)
    for display, path in sorted((display_path(path, root), path) for path in by_file):
        try:
            with edit_file(path) as editing:
                note = _fix_file(
                    editing, path, display, by_file[path], digests, stale, write, outcome
                )
        except FileChangedError:
            note = _fail(path, CHANGED_WHILE_FIXING, Level.ERROR)
        except OSError as exc:
            note = _fail(path, f"cannot read for fixing: {exc.strerror or exc}")
        if note is not None:
            outcome.notifications.append(note)
    return outcome


# an editor's save (or another tool's write) between the read and the write: not lost
CHANGED_WHILE_FIXING = "the file changed while it was being fixed: not written"


def _fix_file(
    editing: Editing,
    path: Path,
    display: str,
    edits: list[Edit],
    digests: Mapping[Path, str],
    stale: StaleCheck | None,
    write: bool,
    outcome: FixOutcome,
) -> Notification | None:
    """Fix one file, read and locked (``edit_file``); why it was left alone, or None. Raises
    ``FileChangedError`` when it changed before the write."""
    data = editing.data
    if digests.get(path) != digest(data):
        reason = changed(path, digests, stale)
        return _fail(path, f"not fixed: {reason}", changed_level(reason))
    new, applied = apply_edits(data, edits)
    if applied == 0 or new == data:
        return None
    if syntax_error_count(new) > syntax_error_count(data):
        return _fail(path, "not fixed: the fixed text would not parse")
    if write:
        try:
            editing.write(new)
        except OSError as exc:
            return _fail(path, f"not fixed: cannot write: {exc.strerror or exc}")
    else:
        outcome.diffs.append(unified_diff(display, data, new))
    outcome.fixed[path] = applied
    return None


# whether the digest a file was checked with came from a stale cache entry, which it then
# drops (``cache.Cache.drop_stale``)
StaleCheck = Callable[[Path, str], bool]


def changed(path: Path, digests: Mapping[Path, str], stale: StaleCheck | None) -> str:
    """Why a file whose bytes are not those checked is left alone: it changed since, or the
    cache gave what it held for other bytes (dropped now: the next run reads the file)."""
    checked = digests.get(path)
    if stale is not None and checked is not None and stale(path, checked):
        return "stale cache entry (dropped: run burnlint again)"
    return CHANGED_SINCE_CHECKED


CHANGED_SINCE_CHECKED = "the file changed since it was checked"


def changed_level(reason: str) -> Level:
    """An edit made since the check (another run's, an editor's) is kept and the run fails
    (exit 2): it did not do what it was asked. A stale cache entry stays a warning."""
    return Level.ERROR if reason == CHANGED_SINCE_CHECKED else Level.WARNING


def unified_diff(display: str, old: bytes, new: bytes) -> str:
    """The diff of one file, its name as text in the headers (``paths.escape_controls``: a
    newline in a file name would end the header line)."""
    display = escape_controls(display)
    old_lines = old.decode("utf-8", errors="replace").splitlines(keepends=True)
    new_lines = new.decode("utf-8", errors="replace").splitlines(keepends=True)
    return "".join(difflib.unified_diff(old_lines, new_lines, f"a/{display}", f"b/{display}"))


def _fail(path: Path, message: str, level: Level = Level.WARNING) -> Notification:
    return Notification(path, message, kind=NotificationKind.FILE, level=level)


# Fixes are applied, the files checked again, and so on: a fix skipped because it overlapped
# another is applied in the next pass. Each pass fixes at least one thing or stops.
MAX_FIX_PASSES = 8


def fix_until_stable(
    result: LintResult,
    *,
    root: Path,
    unsafe: bool,
    recheck: Callable[[], LintResult],
    console: Console,
    stale: StaleCheck | None = None,
    quiet: bool = False,
) -> LintResult:
    """``--fix``: apply the fixes of ``result``, check again (``recheck``) and repeat while
    passes fix something; the result of the last check, with the files left unfixed noted.
    ``quiet`` (-q) drops the count line, as ruff's ``check --fix -q`` does: what was not fixed
    is still in the report."""
    notes: list[Notification] = []
    fixed = 0
    for _ in range(MAX_FIX_PASSES):
        outcome = fix_files(
            result.findings,
            root=root,
            digests=result.digests,
            unsafe=unsafe,
            write=True,
            stale=stale,
        )
        notes.extend(outcome.notifications)
        if outcome.total == 0:
            break
        fixed += outcome.total
        result = recheck()
    hidden = 0 if unsafe else hidden_fixes(result.findings)
    if (fixed or hidden) and not quiet:
        console.err(fix_count("fixed", fixed, hidden))
    if notes:
        result = result.with_notifications(notes)
    return result


def preview(
    result: LintResult,
    *,
    root: Path,
    unsafe: bool,
    console: Console,
    stale: StaleCheck | None = None,
    quiet: bool = False,
) -> int:
    """``--diff``: what ``--fix`` would change, as a unified diff on stdout; edits nothing
    (but a stale cache entry). The number of fixes it would apply; ``quiet`` (-q) drops the
    count line (as ruff's ``--diff -q``), not the warnings about files left alone."""
    outcome = fix_files(
        result.findings,
        root=root,
        digests=result.digests,
        unsafe=unsafe,
        write=False,
        stale=stale,
    )
    console.out("".join(outcome.diffs), newline=False)
    for note in outcome.notifications:
        shown = shown_path(note.path, root) if note.path is not None else "burnlint"
        console.warning(f"{shown}: {note.message}")
    count = outcome.total
    hidden = 0 if unsafe else hidden_fixes(result.findings)
    if (count or hidden) and not quiet:
        console.err(fix_count("would fix", count, hidden))
    return count


def hidden_fixes(findings: Iterable[Finding]) -> int:
    """Fixes left out for want of ``--unsafe-fixes``."""
    return sum(
        1
        for finding in findings
        if finding.fix is not None and finding.fix.applicability is Applicability.UNSAFE
    )


def fix_count(verb: str, count: int, hidden: int) -> str:
    """``fixed 2 problems (1 more fix with `--unsafe-fixes`)``."""
    text = f"{verb} {count} problem{'s' if count != 1 else ''}"
    if hidden:
        more = "more " if count else ""
        text += f" ({hidden} {more}fix{'es' if hidden != 1 else ''} with `--unsafe-fixes`)"
    return text
