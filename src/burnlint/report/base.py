"""What every reporter shares: the context it renders in and a few small helpers.

Reporters are pure functions ``render(result, ctx) -> str``: no printing, no environment, no
clock. The CLI decides everything that depends on where the output goes (colour, paths).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path, PurePath

import click

from burnlint.findings import Edit, Finding, Level, LintResult, Notification, RuleMeta
from burnlint.paths import display_path, escape_controls


@dataclass(frozen=True)
class ReportContext:
    """How to render.

    ``color``: emit ANSI styles (the CLI turns it on for a terminal without ``NO_COLOR``).
    ``project_root``: the directory finding paths are shown relative to (SARIF's
    ``%SRCROOT%``): a finding holds its file's absolute path, ``display`` names it.
    ``tool_version``: burnlint's version, for formats that record it.
    ``quiet``: human-oriented formats leave out their summary line.
    ``category``: SARIF ``automationDetails.id`` (GitHub keeps one analysis per category).
    """

    color: bool
    project_root: Path
    tool_version: str
    quiet: bool = False
    category: str | None = None

    def display(self, path: PurePath) -> str:
        """How reports name ``path``: relative to the project root when inside it, else
        absolute, with ``/`` on every platform (``paths.display_path``)."""
        return display_path(path, self.project_root)

    def shown(self, path: PurePath) -> str:
        """``display`` written as text (``paths.escape_controls``): how a line-oriented report
        or a message names ``path``, so that no file name can start a line of its own."""
        return escape_controls(self.display(path))


Renderer = Callable[[LintResult, ReportContext], str]

LEVEL_COLORS: dict[Level, str] = {
    Level.ERROR: "red",
    Level.WARNING: "yellow",
    Level.NOTE: "cyan",
}


def styled(ctx: ReportContext, text: str, **style: object) -> str:
    """``click.style`` when colour is on; the bare text otherwise."""
    if not ctx.color:
        return text
    return click.style(text, **style)  # type: ignore[arg-type]


def sorted_findings(findings: Iterable[Finding], ctx: ReportContext) -> list[Finding]:
    """Findings in report order (path as shown, line, column, rule), whatever order the
    engine used."""
    return sorted(findings, key=lambda finding: finding.sort_key(ctx.display))


def sorted_notifications(
    notifications: Iterable[Notification], ctx: ReportContext
) -> list[Notification]:
    """Notifications in report order (about no file first, then path as shown, line,
    message), whatever order the engine used."""
    return sorted(notifications, key=lambda note: note.sort_key(ctx.display))


def sorted_edits(edits: Iterable[Edit], ctx: ReportContext) -> list[Edit]:
    """A fix's edits in report order: by file as shown, then by place."""
    return sorted(edits, key=lambda e: (ctx.display(e.path), e.start_byte, e.end_byte, e.content))


def nothing_checked(result: LintResult) -> str | None:
    """``no files checked (3 files skipped)`` when nothing was checked because of skips, a
    broken configuration or a crash: "no problems found" would read as a clean run."""
    if (
        result.stats.files_checked
        or result.findings
        or not (result.stats.files_skipped or not result.successful)
    ):
        return None
    text = "no files checked"
    if result.stats.files_skipped:
        text += f" ({plural(result.stats.files_skipped, 'file')} skipped)"
    return text


def plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def level_counts(result: LintResult) -> str:
    """``1 error, 2 warnings``: only the levels that occur, most severe first."""
    parts = []
    for level in Level:
        n = sum(1 for f in result.findings if f.level is level)
        if n:
            parts.append(plural(n, level.value))
    return ", ".join(parts)


def notification_location(notification: Notification, ctx: ReportContext) -> str:
    """``path`` or ``path:line``, the path as shown (``ReportContext.shown``); empty when the
    notification is about no file."""
    if notification.path is None:
        return ""
    shown = ctx.shown(notification.path)
    return f"{shown}:{notification.line}" if notification.line is not None else shown


def one_line(text: str) -> str:
    """Messages go on one line in line-oriented formats, whatever a rule or an OS error said."""
    return " ".join(text.split()) if ("\n" in text or "\r" in text) else text


def rule_meta(result: LintResult, rule_id: str) -> RuleMeta | None:
    """A rule's metadata as the run had it (``LintResult.rules``), else as registered (for a
    result built by hand); None for an id no rule has."""
    from burnlint.rules import registry  # not on the way of `burnlint --version`

    ran = next((meta for meta in result.rules if meta.id == rule_id), None)
    return ran if ran is not None else registry.find(rule_id)


def finding_tags(finding: Finding, meta: RuleMeta | None) -> tuple[str, ...]:
    """Every tag of a finding: its rule's, then its own (``test-code``), each once."""
    rule_tags = meta.tags if meta is not None else ()
    return tuple(dict.fromkeys((*rule_tags, *finding.tags)))
