"""Builders for findings and results, for tests that do not run the engine.

Findings hold absolute paths, as the engine makes them; a relative path given here is taken
under ``PROJECT``, the project root of the tests' report contexts.
"""

from __future__ import annotations

from pathlib import Path, PurePath

from burnlint.findings import (
    Applicability,
    Edit,
    Finding,
    Fix,
    Level,
    LintResult,
    Location,
    Notification,
    RelatedLocation,
    RunStats,
    Span,
)

PROJECT = Path("/project")


def at(path: str | PurePath) -> Path:
    """``path`` as a finding holds it: absolute (a relative one under ``PROJECT``)."""
    if isinstance(path, str):
        return PROJECT / path
    return path  # type: ignore[return-value]  # a PureWindowsPath stands in for a Windows run


def span(line: int, col: int, end_col: int, end_line: int | None = None) -> Span:
    """A span with made-up byte offsets (reporters other than fixes never read them)."""
    return Span(
        start_byte=0,
        end_byte=max(end_col - col, 0),
        start_line=line,
        start_col=col,
        end_line=end_line if end_line is not None else line,
        end_col=end_col,
        start_col_utf16=col,
        end_col_utf16=end_col,
    )


def finding(
    path: str | PurePath = "src/train.rs",
    line: int = 42,
    col: int = 17,
    end_col: int = 44,
    *,
    end_line: int | None = None,
    rule_id: str = "BL001",
    rule_name: str = "discarded-store-result",
    level: Level = Level.ERROR,
    message: str = "the `Result` of `save_into` is discarded; a failed save goes unnoticed",
    snippet: str = "        let _ = model.save_into(&mut store);",
    help: str | None = None,
    label: str | None = None,
    related: tuple[RelatedLocation, ...] = (),
    fix: Fix | None = None,
) -> Finding:
    return Finding(
        location=Location(at(path), span(line, col, end_col, end_line)),
        rule_id=rule_id,
        rule_name=rule_name,
        level=level,
        message=message,
        help=help,
        label=label,
        related=related,
        fix=fix,
        snippet=snippet,
    )


def related(path: str | PurePath, line: int, col: int, message: str) -> RelatedLocation:
    return RelatedLocation(Location(at(path), span(line, col, col + 1)), message)


def unsafe_fix(title: str) -> Fix:
    return Fix(title, Applicability.UNSAFE, (Edit(at("src/train.rs"), 0, 0, ".overwrite(true)"),))


def result(
    *findings: Finding,
    notifications: tuple[Notification, ...] = (),
    files_checked: int = 12,
    burn_version: str | None = None,
) -> LintResult:
    return LintResult(
        findings=tuple(findings),
        notifications=notifications,
        stats=RunStats(files_checked=files_checked),
        burn_version=burn_version,
    )
