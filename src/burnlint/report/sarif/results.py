"""One SARIF result per finding: its message, locations, snippets and fixes."""

from __future__ import annotations

from typing import Any

import sarif_om as om

from burnlint.findings import (
    FINGERPRINT_KEY,
    Applicability,
    BaselineOutcome,
    Edit,
    Finding,
    Fix,
    Location,
    Span,
)
from burnlint.report.base import ReportContext, one_line, sorted_edits
from burnlint.report.sarif.serialize import _om
from burnlint.report.sarif.uris import _artifact_location

# Longer region and context snippets are left out (the region still locates the code): a
# finding on a minified 100 kB line must not copy the line into the log, once per finding.
SNIPPET_LIMIT = 4096
UNSAFE_SUFFIX = " (unsafe: changes behaviour)"


def escape_text(text: str) -> str:
    """Escape a plain-text SARIF message so that no ``[...](...)`` in it reads as a link."""
    return text.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")


def _sentence(text: str) -> str:
    text = text.rstrip()
    return text if not text or text.endswith((".", "!", "?")) else text + "."


def _capitalized(text: str) -> str:
    return text[:1].upper() + text[1:] if text[:1].islower() else text


def result_message(finding: Finding) -> str:
    """The rustc-style message, its related locations as links, then the note and the help as
    sentences::

    the second save fails (see [the store is built here](1)). Set `.overwrite(true)`.
    """
    text = escape_text(one_line(finding.full_message).strip())
    if finding.related:
        links = ", ".join(
            f"[{escape_text(one_line(related.message).strip()) or 'here'}]({index})"
            for index, related in enumerate(finding.related, start=1)
        )
        text += f" (see {links})"
    text = _sentence(text)
    if finding.note and finding.note.strip():
        text += " " + _sentence(_capitalized(escape_text(one_line(finding.note).strip())))
    if finding.help and finding.help.strip():
        text += " " + _sentence(_capitalized(escape_text(one_line(finding.help).strip())))
    return text


def _utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def region_text(finding: Finding) -> str:
    """The source text of the finding's span, cut out of ``finding.snippet`` (whole lines).

    Lines are sliced by character columns; the UTF-16 columns must agree with them, else (a
    snippet that does not match the span) the text is left out rather than guessed. Line breaks
    inside a multi-line span are written as ``\\n``. A snippet cut out of long lines gives the
    text when it holds the whole span.
    """
    span = finding.location.span
    if not finding.snippet or span.end_line < span.start_line:
        return ""
    lines = finding.snippet.split("\n")
    count = span.end_line - span.start_line + 1
    if len(lines) < count:
        return ""
    first, last = lines[0], lines[count - 1]
    shift = finding.snippet_start  # the first line's characters left out of the snippet
    start = span.start_col - 1 - shift
    end = span.end_col - 1 - (shift if count == 1 else 0)
    if not (0 <= start <= len(first) and 0 <= end <= len(last)):
        return ""
    if shift == 0:
        agrees = (
            _utf16_len(first[:start]) + 1 == span.start_col_utf16
            and _utf16_len(last[:end]) + 1 == span.end_col_utf16
        )
    elif count == 1:  # the characters before the snippet are not there: count the span's own
        agrees = span.start_col_utf16 + _utf16_len(first[start:end]) == span.end_col_utf16
    else:  # likewise on the first line; the last line is whole from its start
        agrees = _utf16_len(last[:end]) + 1 == span.end_col_utf16
    if not agrees:
        return ""
    if count == 1:
        return first[start:end]
    return "\n".join([first[start:], *lines[1 : count - 1], last[:end]])


def _region(span: Span, snippet: str = "") -> Any:
    return _om(
        om.Region,
        start_line=span.start_line,
        start_column=span.start_col_utf16,
        end_line=span.end_line,
        end_column=span.end_col_utf16,
        snippet=_om(om.ArtifactContent, text=snippet) if snippet else None,
    )


def _physical_location(
    location: Location, ctx: ReportContext, snippet: str = "", context: str = ""
) -> Any:
    span = location.span
    return _om(
        om.PhysicalLocation,
        artifact_location=_artifact_location(ctx.display(location.path)),
        region=_region(span, snippet),
        context_region=(
            _om(
                om.Region,
                start_line=span.start_line,
                end_line=span.end_line,
                snippet=_om(om.ArtifactContent, text=context),
            )
            if context
            else None
        ),
    )


def context_text(finding: Finding) -> str:
    """The whole lines of the finding (``finding.snippet``), for ``contextRegion``, when the
    snippet has exactly the span's lines (and none is cut)."""
    if finding.snippet_start or finding.snippet_cut:
        return ""
    span = finding.location.span
    lines = finding.snippet.split("\n") if finding.snippet else []
    return finding.snippet if len(lines) == span.end_line - span.start_line + 1 else ""


def _bounded(snippet: str) -> str:
    return snippet if len(snippet) <= SNIPPET_LIMIT else ""


def _result(
    finding: Finding,
    ctx: ReportContext,
    rule_index: int,
    baseline_state: str | None = None,
    outcome: BaselineOutcome | None = None,
) -> Any:
    related = [
        _om(
            om.Location,
            id=index,
            physical_location=_physical_location(item.location, ctx),
            message=_om(om.Message, text=escape_text(one_line(item.message).strip())),
        )
        for index, item in enumerate(finding.related, start=1)
    ]
    return _om(
        om.Result,
        rule_id=finding.rule_id,
        rule_index=rule_index,
        level=finding.level.value,
        message=_om(om.Message, text=result_message(finding)),
        locations=[
            _om(
                om.Location,
                physical_location=_physical_location(
                    finding.location,
                    ctx,
                    _bounded(region_text(finding)),
                    _bounded(context_text(finding)),
                ),
            )
        ],
        partial_fingerprints=(
            {FINGERPRINT_KEY: finding.fingerprint} if finding.fingerprint else None
        ),
        related_locations=related,
        suppressions=(
            [
                {
                    "kind": "external",
                    "status": "accepted",
                    "justification": f"in the baseline {outcome.file}",
                }
            ]
            if baseline_state == "unchanged" and outcome is not None
            else None
        ),
        baseline_state=baseline_state,
        fixes=[_fix(finding.fix, ctx)] if finding.fix is not None else None,
        # result-level tags say where the finding is (e.g. test-code); the rule's own tags
        # are on its reportingDescriptor
        properties=(_om(om.PropertyBag, tags=sorted(set(finding.tags))) if finding.tags else None),
    )


def fix_description(fix: Fix) -> str:
    unsafe = UNSAFE_SUFFIX if fix.applicability is Applicability.UNSAFE else ""
    return one_line(fix.title).strip() + unsafe


def _deleted_region(edit: Edit) -> Any:
    """Lines and UTF-16 columns when known (what the VS Code SARIF Viewer applies), else
    bytes."""
    span = edit.span
    if span is None:
        return _om(
            om.Region, byte_offset=edit.start_byte, byte_length=edit.end_byte - edit.start_byte
        )
    return _region(span)


def _fix(fix: Fix, ctx: ReportContext) -> Any:
    by_path: dict[str, list[Edit]] = {}
    for edit in sorted_edits(fix.edits, ctx):
        by_path.setdefault(ctx.display(edit.path), []).append(edit)
    changes = [
        _om(
            om.ArtifactChange,
            artifact_location=_artifact_location(path),
            replacements=[
                _om(
                    om.Replacement,
                    deleted_region=_deleted_region(edit),
                    inserted_content=_om(om.ArtifactContent, text=edit.content),
                )
                for edit in edits
            ],
        )
        for path, edits in sorted(by_path.items())
    ]
    return _om(
        om.Fix,
        description=_om(om.Message, text=escape_text(fix_description(fix))),
        artifact_changes=changes,
    )
