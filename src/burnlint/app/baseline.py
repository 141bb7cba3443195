"""Baselines: accept today's findings, report only new ones (``--baseline``, ``--write-baseline``).

A baseline is a report burnlint wrote earlier, SARIF or JSON. Findings are matched on the
file they are in and burnlint's own fingerprint (``partialFingerprints["burnlint/v1"]`` in
SARIF, ``fingerprint`` in JSON): rule, enclosing item, normalised expression and ordinal,
hashed (``engine.finish.with_fingerprints``). Line numbers are not part of it, so code that moves
within its file stays matched; a renamed or moved file does not, nor does a finding whose
enclosing function is renamed or whose expression is edited. Identical findings in one file
differ only by their ordinal: when there are more of them than the baseline accepted, the ones
nearest the accepted lines are matched (``_match``), so one added above an accepted one is the
new one.

Each current finding is ``new`` (not in the baseline) or ``unchanged``; a baseline entry that
is not found any more is ``absent`` (fixed, or its code changed), counted only for rules that
ran and files under the checked paths. Paths are compared as reported, relative to the project
root, so a baseline is used with the same project root it was written with.
"""

from __future__ import annotations

import heapq
import json
import urllib.parse
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from burnlint import TOOL_NAME
from burnlint.app.console import Console
from burnlint.app.outputs import Output, write_output
from burnlint.app.request import is_stdout
from burnlint.findings import (
    FINGERPRINT_KEY,
    BaselineEntry,
    BaselineOutcome,
    Finding,
    Level,
    LintResult,
    Notification,
    NotificationKind,
)
from burnlint.paths import display_path, escape_controls, percent_undecodable
from burnlint.report import FORMATS, ReportContext


class BaselineError(Exception):
    """The baseline cannot be used: unreadable, not JSON, or not a burnlint report."""


@dataclass(frozen=True)
class Baseline:
    file: str  # how the baseline file was named (for messages)
    entries: tuple[BaselineEntry, ...]

    def keys(self) -> frozenset[tuple[str, str]]:
        return frozenset(entry.key for entry in self.entries)


def finding_key(finding: Finding, root: Path) -> tuple[str, str]:
    """What a baseline entry of ``finding`` holds: its file as reported (relative to the
    project ``root``, as the JSON report writes it: ``report.json``) and its fingerprint."""
    return (percent_undecodable(display_path(finding.location.path, root)), finding.fingerprint)


# --- reading --------------------------------------------------------------------------------------


def load(path: Path) -> Baseline:
    """Read a burnlint SARIF log or JSON report; ``BaselineError`` says what is wrong."""
    shown = escape_controls(path.as_posix())  # in messages and reports
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise BaselineError(f"cannot read baseline `{shown}`: {exc.strerror or exc}") from None
    try:
        document = json.loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise BaselineError(f"baseline `{shown}` is not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise BaselineError(
            f"baseline `{shown}` is not valid JSON: {exc.msg} (line {exc.lineno})"
        ) from None
    except RecursionError:  # `[` x 100000: the decoder recurses once per level
        raise BaselineError(f"baseline `{shown}` is not valid JSON: nested too deeply") from None
    except ValueError:  # int() refuses a number of more than 4300 digits
        raise BaselineError(
            f"baseline `{shown}` is not valid JSON: a number has too many digits"
        ) from None
    if isinstance(document, dict) and "runs" in document:
        entries = _from_sarif(document, shown)
    elif isinstance(document, dict) and "findings" in document:
        entries = _from_json(document, shown)
    else:
        raise BaselineError(
            f"baseline `{shown}` is neither a burnlint SARIF log nor a burnlint JSON report"
        )
    return Baseline(shown, tuple(sorted(set(entries))))


def _from_json(document: dict[str, Any], shown: str) -> list[BaselineEntry]:
    tool = document.get("tool")
    name = tool.get("name") if isinstance(tool, dict) else None
    if name != TOOL_NAME:
        raise BaselineError(f"baseline `{shown}` is a JSON report of `{name}`, not of burnlint")
    if document.get("version") != 1:
        raise BaselineError(
            f"baseline `{shown}` has JSON schema version {document.get('version')!r}; "
            "this burnlint reads version 1"
        )
    findings = document.get("findings")
    if not isinstance(findings, list):
        raise BaselineError(f"baseline `{shown}`: `findings` is not an array")
    entries = []
    for index, item in enumerate(findings):
        where = f"baseline `{shown}`: finding {index}"
        if not isinstance(item, dict):
            raise BaselineError(f"{where} is not an object")
        path, fingerprint, rule_id = item.get("path"), item.get("fingerprint"), item.get("rule_id")
        if not (isinstance(path, str) and isinstance(fingerprint, str) and fingerprint):
            raise BaselineError(f"{where} has no `path` and `fingerprint`")
        start = item.get("start")
        line = start.get("line") if isinstance(start, dict) else None
        entries.append(
            BaselineEntry(
                path,
                fingerprint,
                rule_id if isinstance(rule_id, str) else "",
                line if isinstance(line, int) else None,
            )
        )
    return entries


def _from_sarif(document: dict[str, Any], shown: str) -> list[BaselineEntry]:
    runs = document.get("runs")
    if not isinstance(runs, list):
        raise BaselineError(f"baseline `{shown}`: `runs` is not an array")
    entries = []
    for run in runs:
        driver = run.get("tool", {}).get("driver", {}) if isinstance(run, dict) else {}
        name = driver.get("name") if isinstance(driver, dict) else None
        if name != TOOL_NAME:
            raise BaselineError(f"baseline `{shown}` is a SARIF log of `{name}`, not of burnlint")
        results = run.get("results") or []
        if not isinstance(results, list):
            raise BaselineError(f"baseline `{shown}`: `results` is not an array")
        for index, result in enumerate(results):
            where = f"baseline `{shown}`: result {index}"
            if not isinstance(result, dict):
                raise BaselineError(f"{where} is not an object")
            if result.get("baselineState") == "absent":
                continue  # gone already when that log was written
            fingerprints = result.get("partialFingerprints")
            fingerprint = (
                fingerprints.get(FINGERPRINT_KEY) if isinstance(fingerprints, dict) else None
            )
            path = _sarif_path(result)
            if not (isinstance(fingerprint, str) and fingerprint) or path is None:
                raise BaselineError(
                    f"{where} has no location or no `{FINGERPRINT_KEY}` partial fingerprint"
                )
            rule_id = result.get("ruleId")
            entries.append(
                BaselineEntry(
                    path,
                    fingerprint,
                    rule_id if isinstance(rule_id, str) else "",
                    _sarif_line(result),
                )
            )
    return entries


def _physical(result: dict[str, Any]) -> dict[str, Any]:
    locations = result.get("locations")
    if not isinstance(locations, list) or not locations or not isinstance(locations[0], dict):
        return {}
    physical = locations[0].get("physicalLocation")
    return physical if isinstance(physical, dict) else {}


def _sarif_path(result: dict[str, Any]) -> str | None:
    artifact = _physical(result).get("artifactLocation")
    uri = artifact.get("uri") if isinstance(artifact, dict) else None
    return uri_to_path(uri) if isinstance(uri, str) and uri else None


def _sarif_line(result: dict[str, Any]) -> int | None:
    region = _physical(result).get("region")
    line = region.get("startLine") if isinstance(region, dict) else None
    return line if isinstance(line, int) else None


def uri_to_path(uri: str) -> str:
    """A SARIF result's URI back to the path burnlint reported (``report.sarif.path_uri``
    reversed): relative URIs are percent-decoded, ``file:`` URIs become absolute paths
    (``file:///C:/x.rs`` -> ``C:/x.rs``, ``file://server/share/x.rs`` -> ``//server/share/x.rs``).
    The bytes of a name that is not UTF-8 stay percent-encoded, as the JSON report writes them
    (``finding_key``).
    """

    def unquote(text: str) -> str:
        return percent_undecodable(urllib.parse.unquote(text, errors="surrogateescape"))

    if not uri.lower().startswith("file:"):
        return unquote(uri)
    parsed = urllib.parse.urlsplit(uri)
    path = unquote(parsed.path)
    if parsed.netloc:
        return f"//{unquote(parsed.netloc)}{path}"
    if len(path) >= 3 and path[0] == "/" and path[2] == ":" and path[1].isalpha():
        return path[1:]  # /C:/x.rs
    return path


# --- comparing ------------------------------------------------------------------------------------


def compare(
    result: LintResult,
    baseline: Baseline,
    *,
    root: Path,
    in_scope: Callable[[str], bool] = lambda _: True,
) -> BaselineOutcome:
    """Split the run's findings into new and unchanged ones, their files named relative to the
    project ``root`` as the baseline names them; ``in_scope(path)`` says whether a baseline
    entry's file was checked by this run (else it cannot be said to be absent)."""
    matched = _match(result.findings, baseline.entries, root)
    new = tuple(f for f in result.findings if id(f) not in matched)
    unchanged = tuple(f for f in result.findings if id(f) in matched)
    accepted = {id(entry) for entry in matched.values()}
    ran = {meta.id for meta in result.rules}
    absent = tuple(
        entry
        for entry in baseline.entries
        if id(entry) not in accepted
        and (not ran or not entry.rule_id or entry.rule_id in ran)
        and in_scope(entry.path)
    )
    return BaselineOutcome(baseline.file, new, unchanged, absent)


def _match(
    findings: Sequence[Finding], entries: Sequence[BaselineEntry], root: Path
) -> dict[int, BaselineEntry]:
    """The baseline entry each accepted finding matches (by ``id`` of the finding), one entry
    per finding.

    A finding matches the entry with its file and fingerprint. Identical findings in a file
    (``Finding.twins``) are numbered in order, so a PR that adds one above an accepted one
    shifts the numbers: the added one takes the accepted fingerprint and the accepted one
    turns new. When a file has more identical findings than the baseline accepted, those
    nearest the accepted lines are matched instead, the closest pair first; without the lines
    (a SARIF log without regions), by fingerprint as written.
    """
    by_key: dict[tuple[str, str], BaselineEntry] = {}
    for entry in entries:
        by_key.setdefault(entry.key, entry)
    twins: dict[tuple[str, str], list[tuple[Finding, tuple[str, str]]]] = {}
    for finding in findings:
        key = finding_key(finding, root)
        twins.setdefault((key[0], finding.twins or key[1]), []).append((finding, key))
    matched: dict[int, BaselineEntry] = {}
    for members in twins.values():
        known = [by_key[key] for _, key in members if key in by_key]
        if len(known) in (0, len(members)) or any(entry.line is None for entry in known):
            matched.update((id(f), by_key[key]) for f, key in members if key in by_key)
        else:
            matched.update(_nearest([f for f, _ in members], known))
    return matched


def _nearest(
    findings: Sequence[Finding], entries: Sequence[BaselineEntry]
) -> list[tuple[int, BaselineEntry]]:
    """Identical ``findings`` paired with fewer baseline ``entries`` by line: the closest pair
    first, then the closest of the rest, and so on; at equal distance, the finding with the
    entry's own fingerprint, then the upper pair.

    The closest pair of a finding and an entry is always next to each other in line order
    (anything between them would be closer to one of them), so only neighbours are compared,
    and neighbours again once a pair is taken out: n log n, also for thousands of twins.
    """
    points = sorted(
        [(f.location.span.start_line, 0, index) for index, f in enumerate(findings)]
        + [(entry.line or 0, 1, index) for index, entry in enumerate(entries)]
    )
    end = len(points)
    before = list(range(-1, end - 1))
    after = list(range(1, end + 1))
    taken = [False] * end
    heap: list[tuple[int, bool, int, int]] = []

    def offer(upper: int, lower: int) -> None:
        if upper < 0 or lower >= end or points[upper][1] == points[lower][1]:
            return
        finding, entry = sorted((points[upper], points[lower]), key=lambda p: p[1])
        other = findings[finding[2]].fingerprint != entries[entry[2]].fingerprint
        heapq.heappush(heap, (points[lower][0] - points[upper][0], other, upper, lower))

    for index in range(end - 1):
        offer(index, index + 1)
    pairs: list[tuple[int, BaselineEntry]] = []
    while heap:
        _, _, upper, lower = heapq.heappop(heap)
        if taken[upper] or taken[lower] or after[upper] != lower:
            continue  # one of them was paired since, or they are no longer neighbours
        taken[upper] = taken[lower] = True
        finding, entry = sorted((points[upper], points[lower]), key=lambda p: p[1])
        pairs.append((id(findings[finding[2]]), entries[entry[2]]))
        left, right = before[upper], after[lower]
        if left >= 0:
            after[left] = right
        if right < end:
            before[right] = left
        offer(left, right)
    return pairs


def apply(result: LintResult, outcome: BaselineOutcome) -> LintResult:
    """The result as reported with a baseline: only the new findings; the outcome rides along
    for the formats that show the rest (SARIF's ``baselineState``, JSON's counts)."""
    return replace(result, findings=outcome.new, baseline=outcome)


def under(paths: Iterable[Path], root: Path) -> Callable[[str], bool]:
    """``in_scope`` for ``compare``: whether a reported path lies at or below one of ``paths``."""
    import os

    bases = [Path(os.path.abspath(p)) for p in paths]
    resolved_root = Path(os.path.abspath(root))

    def inside(shown: str) -> bool:
        candidate = Path(shown)
        if not candidate.is_absolute():
            candidate = resolved_root / shown
        candidate = Path(os.path.abspath(candidate))
        return any(candidate == base or base in candidate.parents for base in bases)

    return inside


def load_or_problem(file: Path | None) -> tuple[Baseline | None, str | None]:
    """The baseline ``file`` names, or why it cannot be used (a configuration error: the run
    goes on, so that every output is written, and exits 2)."""
    if file is None:
        return None, None
    try:
        return load(file), None
    except BaselineError as exc:
        return None, str(exc)


def compared(
    result: LintResult, baseline: Baseline, targets: Sequence[Path], root: Path
) -> LintResult:
    """``result`` as reported with ``baseline``: only the new findings (``compare``, for the
    files under ``targets``)."""
    return apply(result, compare(result, baseline, root=root, in_scope=under(targets, root)))


def with_problem(result: LintResult, message: str) -> LintResult:
    """``result`` with a baseline that could not be used as its first notification."""
    problem = Notification(
        path=None, message=message, kind=NotificationKind.CONFIG, level=Level.ERROR
    )
    return replace(result, notifications=(problem, *result.notifications))


def write_baseline(
    file: Path,
    result: LintResult,
    *,
    complete: bool,
    ctx: ReportContext,
    quiet: bool,
    console: Console,
) -> Output | None:
    """``--write-baseline``: every finding of a ``complete`` run, as SARIF for a ``.sarif``
    file, else as JSON; None when the run is not complete (an incomplete one would replace a
    good baseline with a partial one: the run exits 2 anyway, for the reason that left it
    incomplete). ``file`` ``STDOUT`` (``-``): the JSON on stdout, where no other report goes
    (``outputs.check_stdout_outputs``)."""
    to_stdout = is_stdout(file)
    shown = "stdout" if to_stdout else f"`{escape_controls(file.as_posix())}`"
    if not complete:
        console.error(f"{shown} not written: the check did not complete")
        return None
    kind = "sarif" if file.suffix.lower() == ".sarif" else "json"
    text = FORMATS[kind](result, ctx)
    if to_stdout:
        console.out(text, newline=False)
        written = True
    else:
        written = write_output(file, text, console)
    if written and not quiet:
        count = len(result.findings)
        console.err(f"burnlint: wrote {count} finding{'s' if count != 1 else ''} to {shown}")
    return Output(kind, None if to_stdout else file, text, written)


def summary(outcome: BaselineOutcome) -> str:
    """``baseline `b.json`: 2 new, 86 unchanged, 1 absent``."""
    counts = ", ".join(f"{count} {state}" for state, count in outcome.states().items())
    return f"baseline `{outcome.file}`: {counts}"
