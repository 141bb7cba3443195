"""The sarif-om log of one run: the tool and its rules, the results and the invocation."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

import sarif_om as om

from burnlint import TOOL_NAME
from burnlint.findings import (
    BaselineOutcome,
    Finding,
    Level,
    LintResult,
    Notification,
    NotificationKind,
)
from burnlint.report.base import ReportContext, one_line, sorted_findings, sorted_notifications
from burnlint.report.sarif.results import _result, _sentence, escape_text
from burnlint.report.sarif.rules import _rule_descriptor
from burnlint.report.sarif.serialize import _om
from burnlint.report.sarif.uris import SRCROOT, _artifact_location, root_uri

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
SARIF_VERSION = "2.1.0"
COLUMN_KIND = "utf16CodeUnits"

# https://semver.org/#is-there-a-suggested-regular-expression-regex-to-check-a-semver-string
_SEMVER = re.compile(
    r"(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)"
    r"(?:-((?:0|[1-9][0-9]*|[0-9]*[a-zA-Z-][0-9a-zA-Z-]*)"
    r"(?:\.(?:0|[1-9][0-9]*|[0-9]*[a-zA-Z-][0-9a-zA-Z-]*))*))?"
    r"(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?",
    re.ASCII,
)


def build_log(result: LintResult, ctx: ReportContext) -> Any:
    """The ``sarif_om.SarifLog`` of one run.

    With a baseline (``--baseline``) every result carries ``baselineState``: ``new`` for the
    findings reported, ``unchanged`` for those the baseline accepts, listed too (so the log
    still holds every finding and GitHub keeps their alerts open as existing ones) with an
    external, accepted suppression, so viewers and gates that honour suppressions leave them
    out. Baseline entries that are gone are counted in the invocation's properties, not listed:
    GitHub code scanning reads neither ``baselineState`` nor ``suppressions`` and would open an
    alert for each.
    """
    outcome = result.baseline
    listed = _listed(sorted_findings(result.findings, ctx), outcome, ctx)
    findings = [finding for finding, _ in listed]
    rule_ids = sorted(
        {meta.id for meta in result.rules}
        | {finding.rule_id for finding in findings}
        | {n.rule_id for n in result.notifications if n.rule_id}
    )
    rule_index = {rule_id: index for index, rule_id in enumerate(rule_ids)}
    levels = _effective_levels(result)
    names = {finding.rule_id: finding.rule_name for finding in findings}
    driver = _om(
        om.ToolComponent,
        name=TOOL_NAME,
        version=ctx.tool_version,
        semantic_version=ctx.tool_version if is_semver(ctx.tool_version) else None,
        rules=[_rule_descriptor(rule_id, levels, names.get(rule_id)) for rule_id in rule_ids],
    )
    category = _category(ctx)
    run = _om(
        om.Run,
        tool=_om(om.Tool, driver=driver),
        invocations=[_invocation(result, ctx, rule_index, outcome)],
        original_uri_base_ids={SRCROOT: _om(om.ArtifactLocation, uri=root_uri(ctx.project_root))},
        results=[
            _result(finding, ctx, rule_index[finding.rule_id], state, outcome)
            for finding, state in listed
        ],
        automation_details=(
            _om(om.RunAutomationDetails, id=automation_id(category)) if category else None
        ),
        column_kind=COLUMN_KIND,
    )
    return _om(om.SarifLog, schema_uri=SCHEMA_URI, version=SARIF_VERSION, runs=[run])


def _listed(
    findings: list[Finding], outcome: BaselineOutcome | None, ctx: ReportContext
) -> list[tuple[Finding, str | None]]:
    """The findings to list with their ``baselineState`` (None without a baseline)."""
    if outcome is None:
        return [(finding, None) for finding in findings]
    listed: list[tuple[Finding, str | None]] = [(finding, "new") for finding in findings]
    listed += [(finding, "unchanged") for finding in outcome.unchanged]
    return sorted(listed, key=lambda item: item[0].sort_key(ctx.display))


def _category(ctx: ReportContext) -> str | None:
    """``--category``: read from the context when it carries one (``ReportContext.category``)."""
    value = ctx.category
    return value if isinstance(value, str) and value.strip() else None


def automation_id(category: str) -> str:
    """``automationDetails.id`` for a category: a trailing ``/`` makes it a category only, so
    GitHub keeps one analysis per category and replaces it on the next upload."""
    category = category.strip()
    return category if category.endswith("/") else category + "/"


def is_semver(version: str) -> bool:
    return _SEMVER.fullmatch(version) is not None


def _effective_levels(result: LintResult) -> dict[str, Level]:
    """Each rule's level in this run, severity overrides included: from the result's rules,
    else from what its findings carry (a hand-built result without ``rules``)."""
    levels: dict[str, Level] = {meta.id: meta.level for meta in result.rules}
    for finding in result.findings:
        levels.setdefault(finding.rule_id, finding.level)
    return levels


# --- invocation ---------------------------------------------------------------------------------


def _invocation(
    result: LintResult,
    ctx: ReportContext,
    rule_index: Mapping[str, int],
    outcome: BaselineOutcome | None = None,
) -> Any:
    notes = sorted_notifications(result.notifications, ctx)
    execution = [n for n in notes if n.kind is not NotificationKind.CONFIG]
    configuration = [n for n in notes if n.kind is NotificationKind.CONFIG]
    properties: dict[str, Any] = {}
    if result.burn_version:
        properties["burnVersion"] = result.burn_version
    if outcome is not None:
        properties["baseline"] = {"file": outcome.file, **outcome.states()}
    return _om(
        om.Invocation,
        tool_execution_notifications=_notifications(execution, ctx, rule_index),
        tool_configuration_notifications=_notifications(configuration, ctx, rule_index),
        execution_successful=result.successful,
        properties=properties or None,
    )


def _notifications(
    notes: Iterable[Notification], ctx: ReportContext, rule_index: Mapping[str, int]
) -> list[Any]:
    out = []
    for note in notes:
        locations = []
        if note.path is not None:
            region = _om(om.Region, start_line=note.line) if note.line else None
            physical = _om(
                om.PhysicalLocation,
                artifact_location=_artifact_location(ctx.display(note.path)),
                region=region,
            )
            locations.append(_om(om.Location, physical_location=physical))
        associated = None
        if note.rule_id:
            # SARIF §3.58.5: `associatedRule` names the rule that was running; `descriptor` would
            # name a notification descriptor in `driver.notifications`, which burnlint has none of.
            associated = _om(
                om.ReportingDescriptorReference,
                id=note.rule_id,
                index=rule_index.get(note.rule_id),
            )
        text = _sentence(escape_text(one_line(note.message).strip()))
        out.append(
            _om(
                om.Notification,
                locations=locations,
                message=_om(om.Message, text=text),
                level=note.level.value,
                associated_rule=associated,
            )
        )
    return out
