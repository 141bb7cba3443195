"""burnlint's own JSON report, schema version 1 (documented in ``docs/json-format.md``).

The schema is stable: fields are only ever added; a rename, a removal or a change of meaning
bumps ``version``. Keys are written in a fixed order and findings in report order (path, line,
column, rule), so the output is byte-identical across runs.

A file name that is not UTF-8 has its bytes percent-encoded (``caf%E9.rs``), as SARIF's URIs
do (``paths.percent_undecodable``): written as is, it would be a lone surrogate, which strict
JSON decoders reject. Baselines match on the path as written here (``app/baseline.py``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from burnlint import TOOL_NAME
from burnlint.findings import Finding, Fix, Level, LintResult, Location, Notification, Span
from burnlint.paths import percent_undecodable
from burnlint.report.base import (
    ReportContext,
    finding_tags,
    rule_meta,
    sorted_edits,
    sorted_findings,
    sorted_notifications,
)

SCHEMA_VERSION = 1


def render(result: LintResult, ctx: ReportContext) -> str:
    return json.dumps(build(result, ctx), indent=2, ensure_ascii=False) + "\n"


def build(result: LintResult, ctx: ReportContext) -> dict[str, Any]:
    findings = sorted_findings(result.findings, ctx)
    outcome = result.baseline
    document: dict[str, Any] = {
        "version": SCHEMA_VERSION,
        "tool": {"name": TOOL_NAME, "version": ctx.tool_version},
        "burn_version": result.burn_version,
        "successful": result.successful,
        "files_checked": result.stats.files_checked,
        "files_skipped": result.stats.files_skipped,
        "suppressed": result.stats.suppressed,
        "rules_run": sorted(meta.id for meta in result.rules),
        "findings": [_finding(finding, result, ctx) for finding in findings],
        "notifications": [
            _notification(note, ctx) for note in sorted_notifications(result.notifications, ctx)
        ],
        "summary": _summary(findings),
    }
    if outcome is not None:  # only with --baseline: the findings above are the new ones
        document["baseline"] = {"file": percent_undecodable(outcome.file), **outcome.states()}
    return document


def _start(span: Span) -> dict[str, int]:
    return {
        "line": span.start_line,
        "column": span.start_col,
        "utf16_column": span.start_col_utf16,
        "byte": span.start_byte,
    }


def _end(span: Span) -> dict[str, int]:
    return {
        "line": span.end_line,
        "column": span.end_col,
        "utf16_column": span.end_col_utf16,
        "byte": span.end_byte,
    }


def _path(path: Path, ctx: ReportContext) -> str:
    """A path as the JSON report writes it: as shown, the bytes of a name that is not UTF-8
    percent-encoded."""
    return percent_undecodable(ctx.display(path))


def _location(location: Location, ctx: ReportContext) -> dict[str, Any]:
    return {
        "path": _path(location.path, ctx),
        "start": _start(location.span),
        "end": _end(location.span),
    }


def _fix(fix: Fix | None, ctx: ReportContext) -> dict[str, Any] | None:
    if fix is None:
        return None
    return {
        "title": fix.title,
        "applicability": fix.applicability.value,
        "edits": [
            {
                "path": _path(edit.path, ctx),
                "start_byte": edit.start_byte,
                "end_byte": edit.end_byte,
                "content": edit.content,
            }
            for edit in sorted_edits(fix.edits, ctx)
        ],
    }


def _finding(finding: Finding, result: LintResult, ctx: ReportContext) -> dict[str, Any]:
    return {
        "rule_id": finding.rule_id,
        "rule_name": finding.rule_name,
        "level": finding.level.value,
        "message": finding.message,
        "help": finding.help,
        "label": finding.label,
        "note": finding.note,
        **_location(finding.location, ctx),
        "related": [
            {**_location(related.location, ctx), "message": related.message}
            for related in finding.related
        ],
        "fix": _fix(finding.fix, ctx),
        "fingerprint": finding.fingerprint,
        "tags": list(finding_tags(finding, rule_meta(result, finding.rule_id))),
    }


def _notification(note: Notification, ctx: ReportContext) -> dict[str, Any]:
    return {
        "path": _path(note.path, ctx) if note.path is not None else None,
        "line": note.line,
        "level": note.level.value,
        "kind": note.kind.value,
        "message": percent_undecodable(note.message),  # it may name a file
        "rule_id": note.rule_id,
    }


def _summary(findings: list[Finding]) -> dict[str, Any]:
    by_level = {level.value: 0 for level in Level}
    by_rule: dict[str, int] = {}
    for finding in findings:
        by_level[finding.level.value] += 1
        by_rule[finding.rule_id] = by_rule.get(finding.rule_id, 0) + 1
    return {
        "total": len(findings),
        "by_level": by_level,
        "by_rule": dict(sorted(by_rule.items())),
    }
