"""Human output in rustc's style::

    error[BL001]: the `Result` of `save_into` is discarded; a failed save goes unnoticed
      --> src/train.rs:42:17
       |
    42 |         let _ = model.save_into(&mut store);
       |                 ^^^^^^^^^^^^^^^^^^^^^^^^^^^ the error is dropped here
       |
       = help: propagate it with `?` or handle the `Err`

Carets are placed by display width, not by character count: a tab is shown as four spaces
(in the code line and in the caret line alike), wide CJK characters take two cells, combining
marks none. Control and bidi-override characters in the source are shown as U+FFFD so that a
file cannot move the cursor or hide code in the user's terminal.

A source line longer than ``MAX_SHOWN`` characters (minified or generated code) is cut to a
window around the carets, with ``...`` where text is left out: the report of such a file stays
small, and the time spent on a finding does not grow with the length of its line.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from burnlint.findings import Applicability, Finding, LintResult, Notification
from burnlint.report.base import (
    LEVEL_COLORS,
    ReportContext,
    level_counts,
    nothing_checked,
    notification_location,
    one_line,
    plural,
    sorted_findings,
    sorted_notifications,
    styled,
)

TAB_WIDTH = 4
# Longer source lines are shown as a window around the carets (`_window`).
MAX_SHOWN = 300
_CONTEXT = 100  # characters kept before the carets, and after them when there is room
_ELLIPSIS = "..."
_REPLACEMENT = "\N{REPLACEMENT CHARACTER}"
# Trojan Source (CVE-2021-42574): these reorder the displayed text.
_BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)


@dataclass(frozen=True)
class _SourceLine:
    number: int
    text: str  # already made printable
    caret_start: int  # display cells before the first caret
    caret_width: int


def render(result: LintResult, ctx: ReportContext) -> str:
    """The whole report: findings, then notifications, then one summary line."""
    lines: list[str] = []
    for finding in sorted_findings(result.findings, ctx):
        lines.extend(_finding_lines(finding, ctx))
        lines.append("")
    for notification in sorted_notifications(result.notifications, ctx):
        lines.append(_notification_line(notification, ctx))
    if result.notifications:
        lines.append("")
    if not ctx.quiet:
        lines.append(styled(ctx, summary(result), bold=True))
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines) + "\n" if lines else ""


def summary(result: LintResult) -> str:
    """``found 3 problems (1 error, 2 warnings) in 12 files checked`` or ``no problems found
    in ...``, plus the burn version the rules assumed. The count is of the files checked, not
    of those with problems."""
    files = plural(result.stats.files_checked, "file")
    nothing = nothing_checked(result)
    if nothing is not None:
        text = nothing
    elif result.findings:
        found = plural(len(result.findings), "problem")
        text = f"found {found} ({level_counts(result)}) in {files} checked"
    else:
        text = f"no problems found in {files} checked"
    if result.burn_version:
        text += f" (assuming burn {result.burn_version})"
    return text


def _finding_lines(finding: Finding, ctx: ReportContext) -> list[str]:
    color = LEVEL_COLORS[finding.level]
    span = finding.location.span
    source = _source_lines(finding)
    numbers = [item.number for item in source if item is not None]
    gutter = len(str(max(numbers, default=span.start_line)))
    pad = " " * gutter

    def frame(text: str) -> str:
        return styled(ctx, text, fg="blue", bold=True)

    header = styled(ctx, f"{finding.level.value}[{finding.rule_id}]", fg=color, bold=True)
    shown = ctx.shown(finding.location.path)
    out = [
        header + styled(ctx, f": {one_line(finding.message)}", bold=True),
        f"{pad}{frame('-->')} {shown}:{span.start_line}:{span.start_col}",
    ]
    if source:
        out.append(f"{pad} {frame('|')}")
        last = len(source) - 1
        for index, item in enumerate(source):
            if item is None:  # lines left out of a long span
                out.append(frame("..."))
                continue
            out.append(f"{frame(str(item.number).rjust(gutter) + ' |')} {item.text}".rstrip())
            carets = " " * item.caret_start + styled(
                ctx, "^" * item.caret_width, fg=color, bold=True
            )
            if index == last and finding.label:
                carets += " " + styled(ctx, one_line(finding.label), fg=color, bold=True)
            out.append(f"{pad} {frame('|')} {carets}")

    trailer = [("help", text) for text in help_lines(finding)]
    if finding.note:
        trailer.append(("note", finding.note))
    for related in finding.related:
        where = related.location
        trailer.append(
            (
                "note",
                f"{ctx.shown(where.path)}:{where.span.start_line}:{where.span.start_col}: "
                f"{related.message}",
            )
        )
    if trailer:
        out.append(f"{pad} {frame('|')}")
        for kind, text in trailer:
            out.append(f"{pad} {frame('=')} {styled(ctx, kind + ':', bold=True)} {one_line(text)}")
    return out


def help_lines(finding: Finding) -> list[str]:
    """The help, with the fix marked where the help names it (``add `.overwrite(true)` (unsafe
    fix) to the store, ...``); a fix the help does not name gets a line of its own."""
    lines = [finding.help] if finding.help else []
    fix = finding.fix
    if fix is None:
        return lines
    kind = "unsafe fix" if fix.applicability is Applicability.UNSAFE else "safe fix"
    marked = f"{fix.title} ({kind})"
    if lines and fix.title in lines[0]:
        lines[0] = lines[0].replace(fix.title, marked, 1)
    else:
        lines.append(marked)
    return lines


def _source_lines(finding: Finding) -> list[_SourceLine | None]:
    """The code lines to show with their caret ranges; ``None`` where lines are left out.

    A one-line span gets carets under exactly its characters. A longer span shows its first
    line (carets to the end of the line) and its last line (carets from the first non-blank
    character to the end of the span), with ``...`` between them when lines are skipped.

    A snippet cut out of long lines (``Finding.snippet_start``, ``snippet_cut``) is shown the
    same way: ``...`` where the source has text the snippet left out.
    """
    if not finding.snippet:
        return []
    raw = [line.removesuffix("\r") for line in finding.snippet.split("\n")]
    span = finding.location.span
    shift = finding.snippet_start  # the first line's characters left out: columns move by it
    first_no = span.start_line
    last_no, end_col = span.end_line, span.end_col
    # An exclusive end at column 1 ends on the previous line: do not underline an empty start.
    if last_no > first_no and end_col <= 1 and last_no - first_no < len(raw):
        last_no -= 1
        end_col = len(raw[last_no - first_no]) + 1 + (shift if last_no == first_no else 0)
    first = raw[0]
    cut_index = len(raw) - 1 if finding.snippet_cut else -1  # the line the snippet cuts short
    if last_no <= first_no:
        return [
            _make_line(
                first_no, first, span.start_col - shift, end_col - shift, shift > 0, cut_index == 0
            )
        ]
    # carets to the end of the line's text, or of what the snippet kept of it
    first_end = len(first) if cut_index == 0 else len(first.rstrip())
    shown: list[_SourceLine | None] = [
        _make_line(
            first_no, first, span.start_col - shift, first_end + 1, shift > 0, cut_index == 0
        )
    ]
    last_index = last_no - first_no
    if last_index >= len(raw):
        return shown  # the snippet stops early: show what there is
    last = raw[last_index]
    if cut_index == last_index and not last.strip():
        return shown  # cut within the line's indentation: where its code starts is not known
    if last_index > 1:
        shown.append(None)
    indent = len(last) - len(last.lstrip())
    shown.append(_make_line(last_no, last, indent + 1, end_col, False, cut_index == last_index))
    return shown


def _make_line(
    number: int,
    line: str,
    start_col: int,
    end_col: int,
    text_before: bool = False,
    text_after: bool = False,
) -> _SourceLine:
    """Columns are 1-based, in Unicode scalar values, end exclusive; out-of-range columns are
    clamped so a stale or odd span still renders. ``text_before``/``text_after``: the source
    line goes on beyond ``line`` (a cut snippet)."""
    start = min(max(start_col - 1, 0), len(line))
    end = min(max(end_col - 1, start), len(line))
    if len(line) > MAX_SHOWN or text_before or text_after:
        line, start, end = _window(line, start, end, text_before, text_after)
    cells = [_cell(ch) for ch in line]
    text = "".join(shown for shown, _ in cells)
    before = sum(width for _, width in cells[:start])
    width = sum(width for _, width in cells[start:end])
    return _SourceLine(number=number, text=text, caret_start=before, caret_width=max(width, 1))


def _window(
    line: str, start: int, end: int, text_before: bool = False, text_after: bool = False
) -> tuple[str, int, int]:
    """At most ``MAX_SHOWN`` characters of ``line`` around ``[start, end)``, with ``...``
    where text is cut; the columns moved to match (carets stop at the end of the window)."""
    low = max(0, start - _CONTEXT)
    high = min(len(line), max(end, start + 1) + _CONTEXT, low + MAX_SHOWN)
    prefix = _ELLIPSIS if low > 0 or text_before else ""
    suffix = _ELLIPSIS if high < len(line) or text_after else ""
    shift = len(prefix) - low
    return prefix + line[low:high] + suffix, start + shift, min(end, high) + shift


def _cell(ch: str) -> tuple[str, int]:
    """How a source character is shown, and how many terminal cells it takes."""
    if ch == "\t":
        return " " * TAB_WIDTH, TAB_WIDTH
    category = unicodedata.category(ch)
    if category == "Cc" or ch in _BIDI_CONTROLS:
        return _REPLACEMENT, 1
    if category in ("Mn", "Me", "Cf"):
        return ch, 0
    if unicodedata.east_asian_width(ch) in ("W", "F"):
        return ch, 2
    return ch, 1


def _notification_line(notification: Notification, ctx: ReportContext) -> str:
    level = notification.level
    label = styled(ctx, level.value, fg=LEVEL_COLORS[level], bold=True)
    where = notification_location(notification, ctx)
    message = one_line(notification.message)
    if notification.rule_id and notification.rule_id not in message:
        message += f" ({notification.rule_id})"
    return f"{label}: {where}: {message}" if where else f"{label}: {message}"
