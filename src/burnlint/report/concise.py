"""One line per finding, for editor problem matchers and grep::

    src/train.rs:42:17: error[BL001] the `Result` of `save_into` is discarded; ...
    src/broken.rs: warning: the file has syntax errors; it was checked as far as it parses
    found 1 problem in 12 files checked

Findings always match ``^(.+):(\\d+):(\\d+): (error|warning|note)\\[(BL\\d+)\\] (.+)$``;
notifications ``^(.+?)(?::(\\d+))?: (error|warning|note): (.+)$`` (``burnlint`` stands for the
path when a notification is about no file). The last line is the count, left out with
``--quiet``.
"""

from __future__ import annotations

from burnlint.findings import LintResult
from burnlint.report.base import (
    LEVEL_COLORS,
    ReportContext,
    nothing_checked,
    notification_location,
    one_line,
    plural,
    sorted_findings,
    sorted_notifications,
    styled,
)


def render(result: LintResult, ctx: ReportContext) -> str:
    lines: list[str] = []
    for finding in sorted_findings(result.findings, ctx):
        span = finding.location.span
        shown = ctx.shown(finding.location.path)
        where = styled(ctx, f"{shown}:{span.start_line}:{span.start_col}:", bold=True)
        code = styled(
            ctx,
            f"{finding.level.value}[{finding.rule_id}]",
            fg=LEVEL_COLORS[finding.level],
            bold=True,
        )
        lines.append(f"{where} {code} {one_line(finding.full_message)}")
    for notification in sorted_notifications(result.notifications, ctx):
        where = notification_location(notification, ctx) or "burnlint"
        level = styled(
            ctx,
            notification.level.value,
            fg=LEVEL_COLORS[notification.level],
            bold=True,
        )
        lines.append(f"{where}: {level}: {one_line(notification.message)}")
    if not ctx.quiet:
        files = plural(result.stats.files_checked, "file")
        nothing = nothing_checked(result)
        if nothing is not None:
            lines.append(nothing)
        elif result.findings:
            lines.append(f"found {plural(len(result.findings), 'problem')} in {files} checked")
        else:
            lines.append(f"no problems found in {files} checked")
    return "\n".join(lines) + "\n" if lines else ""
