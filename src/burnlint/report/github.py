"""GitHub Actions workflow commands: one annotation per finding, shown on the pull request diff::

    ::error file=src/a.rs,line=4,endLine=4,col=9,endColumn=36,title=BL001 discarded-...::the ...

``error``/``warning``/``notice`` for error/warning/note findings. Columns are 1-based character
columns, end exclusive; they are given only for a span on one line (GitHub ignores columns
when ``line`` and ``endLine`` differ). The help follows the message on a second line.
Notifications become ``::error``/``::warning``/``::notice`` with ``title=burnlint``, and
``file``/``line`` when they are about a file.

Escaping is that of GitHub's toolkit (``@actions/core``, ``command.ts``): in the message
``%`` -> ``%25``, CR -> ``%0D``, LF -> ``%0A``; in property values also ``:`` -> ``%3A`` and
``,`` -> ``%2C``. The ``file`` is the path as every format shows it (``ReportContext.shown``:
control characters written as ``\\n``, ``\\x1b``).
"""

from __future__ import annotations

from burnlint.findings import Finding, Level, LintResult, Notification
from burnlint.report.base import ReportContext, sorted_findings, sorted_notifications

COMMANDS: dict[Level, str] = {
    Level.ERROR: "error",
    Level.WARNING: "warning",
    Level.NOTE: "notice",
}


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def command(name: str, properties: list[tuple[str, str]], message: str) -> str:
    """``::name key=value,key=value::message`` with every part escaped."""
    props = ",".join(f"{key}={escape_property(value)}" for key, value in properties)
    return f"::{name}{' ' + props if props else ''}::{escape_data(message)}"


def _finding(finding: Finding, ctx: ReportContext) -> str:
    span = finding.location.span
    properties = [
        ("file", ctx.shown(finding.location.path)),
        ("line", str(span.start_line)),
        ("endLine", str(span.end_line)),
    ]
    if span.start_line == span.end_line:
        properties += [("col", str(span.start_col)), ("endColumn", str(span.end_col))]
    properties.append(("title", f"{finding.rule_id} {finding.rule_name}"))
    message = finding.full_message
    if finding.note:
        message += f"\nnote: {finding.note}"
    if finding.help:
        message += f"\nhelp: {finding.help}"
    return command(COMMANDS[finding.level], properties, message)


def _notification(note: Notification, ctx: ReportContext) -> str:
    properties: list[tuple[str, str]] = []
    if note.path is not None:
        properties.append(("file", ctx.shown(note.path)))
        if note.line is not None:
            properties.append(("line", str(note.line)))
    properties.append(("title", "burnlint"))
    message = note.message
    if note.rule_id and note.rule_id not in message:
        message += f" ({note.rule_id})"
    return command(COMMANDS[note.level], properties, message)


def render(result: LintResult, ctx: ReportContext) -> str:
    lines = [_finding(finding, ctx) for finding in sorted_findings(result.findings, ctx)]
    lines += [_notification(note, ctx) for note in sorted_notifications(result.notifications, ctx)]
    return "\n".join(lines) + "\n" if lines else ""
