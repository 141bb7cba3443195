"""Machine-readable outputs: SARIF (DESIGN.md §5), burnlint's JSON, GitHub workflow commands,
and golden files of every format.

Refresh the golden files in tests/golden/ after an intended change of output with:

    UPDATE_GOLDEN=1 python -m pytest tests/test_report_formats.py

The SARIF Multitool test installs the npm package `@microsoft/sarif-multitool` into
$BURNLINT_SARIF_MULTITOOL_DIR (default: <tmp>/burnlint-sarif-multitool) once and reuses it; it is
skipped when npm is not installed or the install fails (offline).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft4Validator

from burnlint.engine import lint_files, lint_paths
from burnlint.findings import (
    Applicability,
    Edit,
    Finding,
    Fix,
    Level,
    LintResult,
    Location,
    Notification,
    NotificationKind,
    RelatedLocation,
    RunStats,
    Span,
)
from burnlint.options import EngineOptions
from burnlint.report import FORMATS, ReportContext, sarif
from burnlint.report import github as github_format
from burnlint.report import json as json_format
from burnlint.report.base import one_line
from burnlint.report.sarif import rules as sarif_rules
from burnlint.report.sarif import serialize as sarif_serialize
from burnlint.rules import registry
from burnlint.rules.registry import resolve
from factories import PROJECT, at

REPO = Path(__file__).resolve().parent.parent
TESTDATA = REPO / "testdata"
GOLDEN = Path(__file__).resolve().parent / "golden"
SCHEMA: dict[str, Any] = json.loads((TESTDATA / "sarif-schema-2.1.0.json").read_text("utf-8"))
FIXTURES = sorted(TESTDATA.rglob("*.rs"))
CTX = ReportContext(color=False, project_root=PROJECT, tool_version="0.1.0")
# for the results of runs with TESTDATA as the project root (``lint``)
TESTDATA_CTX = ReportContext(color=False, project_root=TESTDATA, tool_version="0.1.0")
ALL = resolve(select=["ALL"])
LINK = re.compile(r"(?<!\\)\[((?:[^\\\[\]]|\\.)*)\]\((\d+)\)")


@dataclass(frozen=True)
class CategoryContext(ReportContext):
    """Stands in for a ``ReportContext`` with ``--category`` until the CLI passes one."""

    category: str | None = None


# --- builders -----------------------------------------------------------------------------------


def _u16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def span_in(line_text: str, needle: str, line: int = 4, line_start: int = 100) -> Span:
    """The exact span of ``needle`` in ``line_text`` (all three column kinds and bytes)."""
    start = line_text.index(needle)
    end = start + len(needle)
    return Span(
        start_byte=line_start + len(line_text[:start].encode()),
        end_byte=line_start + len(line_text[:end].encode()),
        start_line=line,
        start_col=start + 1,
        end_line=line,
        end_col=end + 1,
        start_col_utf16=_u16(line_text[:start]) + 1,
        end_col_utf16=_u16(line_text[:end]) + 1,
    )


SAVE_LINE = "    let _ = model.save_into(&mut store);"


def make_finding(
    path: str = "src/train.rs",
    *,
    line_text: str = SAVE_LINE,
    needle: str = "model.save_into(&mut store)",
    line: int = 4,
    rule: str = "BL001",
    level: Level | None = None,
    message: str = "the `Result` of `save_into` is discarded: a failed save goes unnoticed",
    help: str | None = "propagate the error with `?`",
    related: tuple[RelatedLocation, ...] = (),
    fix: Fix | None = None,
    fingerprint: str | None = None,
) -> Finding:
    meta = registry.by_id(rule)
    return Finding(
        location=Location(at(path), span_in(line_text, needle, line)),
        rule_id=rule,
        rule_name=meta.name,
        level=level or meta.level,
        message=message,
        help=help,
        related=related,
        fix=fix,
        fingerprint=fingerprint or f"{rule}-{path}-{line}",
        snippet=line_text,
    )


def rich_result() -> LintResult:
    """Every feature at once: related locations, fixes, odd paths, brackets, notifications."""
    store_line = '    let mut store = BurnpackStore::from_file("ckpt.bpk");'
    related = (
        RelatedLocation(
            Location(at("src/train.rs"), span_in(store_line, "BurnpackStore::from_file", 2)),
            "the store [0] is built here",
        ),
        RelatedLocation(
            Location(at("src/train.rs"), span_in("    for epoch in 0..n {", "for", 3)),
            "the loop",
        ),
    )
    fix = Fix(
        "add `.overwrite(true)`",
        Applicability.UNSAFE,
        (Edit(at("src/train.rs"), 160, 160, ".overwrite(true)"),),
    )
    findings = (
        make_finding(),
        make_finding(
            "src/train.rs",
            rule="BL003",
            line_text=SAVE_LINE,
            line=6,
            message="the second save of `weights[0]` returns `File already exists`",
            help="add `.overwrite(true)` [unsafe]",
            related=related,
            fix=fix,
        ),
        make_finding(
            "src/my dir/#1 模型.rs",
            rule="BL002",
            line_text="\t/* 检查点🔥 */ if let Err(e) = model.save_into(&mut s) { log(e) }",
            needle="model.save_into(&mut s)",
            message="the error of `save_into` is only logged",
            help=None,
        ),
        make_finding("./src/dotted.rs", rule="BL007", level=Level.NOTE, message="a note"),
        make_finding("/outside/abs path.rs", rule="BL001", message="outside the project root"),
    )
    # in report order: about no file, then by path as shown
    notifications = (
        Notification(None, "no Rust files found", level=Level.NOTE),
        Notification(
            at("burnlint.toml"),
            "unknown key `selec` (did you mean `select`?)",
            NotificationKind.CONFIG,
        ),
        Notification(at("src/broken.rs"), "syntax error near line 3", level=Level.NOTE, line=3),
        Notification(
            at("src/train.rs"),
            "rule BL002 (store-error-only-logged) crashed on this file: KeyError: 'x'",
            kind=NotificationKind.INTERNAL,
            level=Level.ERROR,
            rule_id="BL002",
        ),
        Notification(at("src/unreadable.rs"), "cannot read: Permission denied"),
    )
    return LintResult(
        findings=findings,
        notifications=notifications,
        stats=RunStats(files_checked=7, files_skipped=1),
        # BL007 at `note`, as `[severity]` would set it (its findings above are notes)
        rules=tuple(meta.effective({"BL007": Level.NOTE}) for meta in registry.ALL),
        burn_version="0.22.1",
    )


def lint(files: list[Path], root: Path = TESTDATA) -> LintResult:
    return lint_files(files, EngineOptions(rule_ids=ALL, project_root=root))


def sarif_of(result: LintResult, ctx: ReportContext = CTX) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(sarif.render(result, ctx))
    return data


def validate(log: dict[str, Any]) -> None:
    errors = sorted(Draft4Validator(SCHEMA).iter_errors(log), key=lambda e: list(e.path))
    assert not errors, "\n".join(f"{list(e.path)}: {e.message}" for e in errors[:10])


def fixture_id(path: Path) -> str:
    return path.relative_to(TESTDATA).as_posix()


# --- SARIF: validity ----------------------------------------------------------------------------


def test_schema_copy_is_the_official_draft4_schema() -> None:
    assert SCHEMA["$schema"] == "http://json-schema.org/draft-04/schema#"
    assert SCHEMA["properties"]["version"]["enum"] == ["2.1.0"]
    Draft4Validator.check_schema(SCHEMA)


def test_fixtures_exist() -> None:
    assert len(FIXTURES) >= 10


@pytest.mark.parametrize("fixture", FIXTURES, ids=fixture_id)
def test_fixture_sarif_is_schema_valid(fixture: Path) -> None:
    result = lint([fixture])
    log = sarif_of(result, ReportContext(False, TESTDATA, "0.1.0"))
    validate(log)
    run = log["runs"][0]
    assert len(run["results"]) == len(result.findings)
    for item in run["results"]:
        uri = item["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        assert uri == fixture_id(fixture)


def test_rich_sarif_is_schema_valid() -> None:
    validate(sarif_of(rich_result()))
    validate(sarif_of(rich_result(), CategoryContext(False, Path("/p"), "1.0", category="x/")))
    validate(sarif_of(LintResult(findings=(), notifications=())))


def _check_order(value: Any, definition: dict[str, Any], where: str) -> None:
    if "$ref" in definition:
        definition = SCHEMA["definitions"][definition["$ref"].rsplit("/", 1)[1]]
    if isinstance(value, list):
        for index, item in enumerate(value):
            _check_order(item, definition.get("items", {}), f"{where}[{index}]")
        return
    if not isinstance(value, dict):
        return
    properties = definition.get("properties")
    if properties is None:
        extra = definition.get("additionalProperties")
        if isinstance(extra, dict):
            for key, item in value.items():
                _check_order(item, extra, f"{where}.{key}")
        return
    order = [key for key in properties if key in value]
    assert list(value) == order, f"{where}: keys {list(value)} are not in schema order {order}"
    for key, item in value.items():
        if key != "properties":  # property bags are free-form
            _check_order(item, properties[key], f"{where}.{key}")


def test_sarif_keys_follow_schema_order() -> None:
    _check_order(sarif_of(rich_result()), SCHEMA, "log")
    _check_order(sarif_of(lint(FIXTURES[:3]), TESTDATA_CTX), SCHEMA, "log")


# --- SARIF: contents ----------------------------------------------------------------------------


def test_log_and_run_header() -> None:
    ctx = CategoryContext(False, Path("/work/my repo"), "0.1.0", category="ci")
    log = sarif_of(rich_result(), ctx)
    assert list(log)[:3] == ["$schema", "version", "runs"]
    assert log["$schema"] == "https://json.schemastore.org/sarif-2.1.0.json"
    assert log["version"] == "2.1.0"
    assert len(log["runs"]) == 1
    run = log["runs"][0]
    assert run["columnKind"] == "utf16CodeUnits"
    assert run["originalUriBaseIds"] == {"%SRCROOT%": {"uri": "file:///work/my%20repo/"}}
    assert run["automationDetails"] == {"id": "ci/"}
    driver = run["tool"]["driver"]
    assert driver["name"] == "burnlint"
    assert driver["version"] == driver["semanticVersion"] == "0.1.0"
    assert "informationUri" not in driver


def test_automation_details_only_with_a_category() -> None:
    assert "automationDetails" not in sarif_of(rich_result())["runs"][0]
    for category, expected in [("lint/", "lint/"), ("burnlint/rust", "burnlint/rust/")]:
        ctx = CategoryContext(False, Path("/p"), "0.1.0", category=category)
        assert sarif_of(rich_result(), ctx)["runs"][0]["automationDetails"] == {"id": expected}


@pytest.mark.parametrize(
    ("version", "semver"),
    [("0.1.0", True), ("1.2.3-rc.1+build.5", True), ("0.1.0.dev3", False), ("0.1", False)],
)
def test_semantic_version_only_when_valid(version: str, semver: bool) -> None:
    ctx = ReportContext(False, Path("/p"), version)
    driver = sarif_of(rich_result(), ctx)["runs"][0]["tool"]["driver"]
    assert driver["version"] == version
    assert ("semanticVersion" in driver) is semver


def test_rule_descriptors() -> None:
    result = rich_result()
    driver = sarif_of(result)["runs"][0]["tool"]["driver"]
    ids = [rule["id"] for rule in driver["rules"]]
    assert ids == sorted(meta.id for meta in result.rules)
    for descriptor in driver["rules"]:
        rule = registry.by_id(descriptor["id"])
        assert descriptor["name"] == rule.name
        assert descriptor["shortDescription"] == {"text": rule.summary}
        full = descriptor["fullDescription"]
        assert 0 < len(full["text"]) <= 1024 and 0 < len(full["markdown"]) <= 1024
        assert descriptor["help"]["text"] and descriptor["help"]["markdown"]
        assert descriptor["properties"]["tags"] == list(rule.tags)
        assert descriptor["properties"]["precision"] == rule.precision
        assert descriptor["properties"]["precision"] in {"very-high", "high", "medium", "low"}
    levels = {rule["id"]: rule["defaultConfiguration"]["level"] for rule in driver["rules"]}
    # the effective level: BL007 was reported as a note in this run, BL001 keeps its own
    assert levels["BL007"] == "note"
    assert levels["BL001"] == "error"


def test_rule_help_comes_from_the_doc() -> None:
    from burnlint.docs import rule_doc

    driver = sarif_of(rich_result())["runs"][0]["tool"]["driver"]
    for descriptor in driver["rules"]:
        doc = rule_doc(descriptor["id"])
        if doc is None:
            continue
        body = doc.split("## What it does", 1)[1].strip()
        first_paragraph = sarif_rules._strip_local_links(" ".join(body.split("\n\n", 1)[0].split()))
        assert descriptor["fullDescription"]["markdown"].rstrip("…") in first_paragraph
        assert descriptor["help"]["markdown"].startswith(f"# {descriptor['id']}")
        assert "](BL00" not in descriptor["help"]["markdown"]  # no dead relative links
        assert "#" not in descriptor["help"]["text"].split("\n", 1)[0]
        assert "```" not in descriptor["help"]["text"]


def test_markdown_to_text() -> None:
    doc = (
        "# BL009 demo\n\n## What it does\n\nChecks **this** and\n[that](BL001-x.md), see\n"
        "[the book](https://burn.dev/x).\n\n- one\n  continued\n- `a[0](1)`\n\n"
        "```rust\nlet x = 1;\n```\n"
    )
    assert sarif.markdown_to_text(doc) == (
        "BL009 demo\n\nWhat it does\n\nChecks this and that, see the book (https://burn.dev/x).\n\n"
        "- one continued\n- `a[0](1)`\n\n    let x = 1;\n"
    )


def test_results_have_explicit_level_and_right_rule_index() -> None:
    log = sarif_of(rich_result())
    run = log["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    levels = Counter(item["level"] for item in run["results"])
    assert levels == {"error": 3, "warning": 1, "note": 1}
    for item in run["results"]:
        assert rules[item["ruleIndex"]]["id"] == item["ruleId"]
    assert '"level": "warning"' in sarif.render(rich_result(), CTX)


def test_results_from_the_engine_keep_warning_level() -> None:
    result = lint(sorted((TESTDATA / "rules" / "BL002").glob("*.rs")))
    run = sarif_of(result, TESTDATA_CTX)["runs"][0]
    warnings = [item for item in run["results"] if item["ruleId"] == "BL002"]
    assert warnings and all(item["level"] == "warning" for item in warnings)
    for item in run["results"]:
        assert run["tool"]["driver"]["rules"][item["ruleIndex"]]["id"] == item["ruleId"]


def test_message_links_resolve_and_other_brackets_are_escaped() -> None:
    run = sarif_of(rich_result())["runs"][0]
    item = next(r for r in run["results"] if r["ruleId"] == "BL003")
    text = item["message"]["text"]
    assert text == (
        "the second save of `weights\\[0\\]` returns `File already exists` (see "
        "[the store \\[0\\] is built here](1), [the loop](2)). "
        "Add `.overwrite(true)` \\[unsafe\\]."
    )
    ids = [loc["id"] for loc in item["relatedLocations"]]
    assert ids == [1, 2]
    targets = [int(m.group(2)) for m in LINK.finditer(text)]
    assert targets == [1, 2]
    # with the links removed, no unescaped bracket is left
    unescaped_brackets = re.sub(r"\\.", "", LINK.sub("", text))
    assert "[" not in unescaped_brackets and "]" not in unescaped_brackets
    assert item["relatedLocations"][0]["message"]["text"] == "the store \\[0\\] is built here"
    for other in run["results"]:
        if "relatedLocations" not in other:
            assert not LINK.search(other["message"]["text"])


def test_message_is_sentences() -> None:
    run = sarif_of(rich_result())["runs"][0]
    first = run["results"][3]["message"]["text"]  # src/train.rs:4, the plain BL001
    assert first == (
        "the `Result` of `save_into` is discarded: a failed save goes unnoticed. "
        "Propagate the error with `?`."
    )
    assert all(r["message"]["text"].endswith(".") for r in run["results"])


def test_uris_are_relative_percent_encoded_without_dot_slash() -> None:
    run = sarif_of(rich_result())["runs"][0]
    locations = [r["locations"][0]["physicalLocation"]["artifactLocation"] for r in run["results"]]
    assert {"uri": "src/my%20dir/%231%20%E6%A8%A1%E5%9E%8B.rs", "uriBaseId": "%SRCROOT%"} in (
        locations
    )
    assert {"uri": "src/dotted.rs", "uriBaseId": "%SRCROOT%"} in locations
    assert {"uri": "file:///outside/abs%20path.rs"} in locations
    for location in locations:
        assert not location["uri"].startswith("./")
        assert " " not in location["uri"] and "#" not in location["uri"]


def test_path_uri() -> None:
    assert sarif.path_uri("a b/c#d%e.rs") == ("a%20b/c%23d%25e.rs", True)
    assert sarif.path_uri("././src/x.rs") == ("src/x.rs", True)
    assert sarif.path_uri("/abs/ü.rs") == ("file:///abs/%C3%BC.rs", False)
    assert sarif.path_uri("C:/w/x.rs") == ("file:///C:/w/x.rs", False)


def test_region_columns_are_utf16_and_snippet_is_the_span_text() -> None:
    run = sarif_of(rich_result())["runs"][0]
    item = next(r for r in run["results"] if r["ruleId"] == "BL002")
    region = item["locations"][0]["physicalLocation"]["region"]
    # "\t/* 检查点🔥 */ if let Err(e) = " is 28 characters but 29 UTF-16 code units (the emoji
    # takes two): SARIF columns count code units
    assert region == {
        "startLine": 4,
        "startColumn": 30,
        "endLine": 4,
        "endColumn": 53,
        "snippet": {"text": "model.save_into(&mut s)"},
    }


def test_region_text_multiline_and_mismatch() -> None:
    lines = "    let _ = model\n        .save_into(&mut store);"
    span = Span(104, 140, 4, 13, 5, 31, 13, 31)
    finding = Finding(Location(at("a.rs"), span), "BL001", "x", Level.ERROR, "m", snippet=lines)
    assert sarif.region_text(finding) == "model\n        .save_into(&mut store)"
    odd = Span(104, 140, 4, 13, 5, 31, 14, 31)  # UTF-16 column disagrees with the text
    assert (
        sarif.region_text(Finding(Location(at("a.rs"), odd), "BL001", "x", Level.ERROR, "m")) == ""
    )
    assert (
        sarif.region_text(
            Finding(Location(at("a.rs"), odd), "BL001", "x", Level.ERROR, "m", snippet=lines)
        )
        == ""
    )


def test_fixes() -> None:
    run = sarif_of(rich_result())["runs"][0]
    item = next(r for r in run["results"] if r["ruleId"] == "BL003")
    assert item["fixes"] == [
        {
            "description": {"text": "add `.overwrite(true)` (unsafe: changes behaviour)"},
            "artifactChanges": [
                {
                    "artifactLocation": {"uri": "src/train.rs", "uriBaseId": "%SRCROOT%"},
                    "replacements": [
                        {
                            "deletedRegion": {"byteOffset": 160, "byteLength": 0},
                            "insertedContent": {"text": ".overwrite(true)"},
                        }
                    ],
                }
            ],
        }
    ]
    safe = Fix("add `?`", Applicability.SAFE, (Edit(at("src/a.rs"), 5, 9, ""),))
    log = sarif_of(LintResult((make_finding(fix=safe),), (), RunStats(files_checked=1)))
    (fix,) = log["runs"][0]["results"][0]["fixes"]
    assert fix["description"] == {"text": "add `?`"}
    replacement = fix["artifactChanges"][0]["replacements"][0]
    assert replacement == {
        "deletedRegion": {"byteOffset": 5, "byteLength": 4},
        "insertedContent": {"text": ""},
    }


def _utf16_offset(text: str, line: int, column: int) -> int:
    """The string index of a 1-based SARIF line and UTF-16 column."""
    start = 0
    for _ in range(line - 1):
        start = text.index("\n", start) + 1
    units = 0
    index = start
    while units < column - 1:
        units += len(text[index].encode("utf-16-le")) // 2
        index += 1
    return index


def test_fixes_apply_by_line_and_column_like_the_engine() -> None:
    """A SARIF viewer applies a fix by line and UTF-16 column: doing so gives exactly the
    text burnlint --fix writes."""
    from burnlint.app.fix import apply_edits

    fixtures = sorted((TESTDATA / "rules").rglob("*.rs"))
    result = lint(fixtures)
    fixed = [f for f in result.findings if f.fix is not None]
    assert fixed
    run = sarif_of(result, TESTDATA_CTX)["runs"][0]
    by_fingerprint = {f.fingerprint + TESTDATA_CTX.display(f.location.path): f for f in fixed}
    checked = 0
    for item in run["results"]:
        for fix in item.get("fixes", []):
            uri = item["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            finding = by_fingerprint[item["partialFingerprints"]["burnlint/v1"] + uri]
            assert finding.fix is not None
            for change in fix["artifactChanges"]:
                data = (TESTDATA / change["artifactLocation"]["uri"]).read_bytes()
                text = data.decode("utf-8")
                edits = sorted(finding.fix.edits, key=lambda e: (e.start_byte, e.end_byte))
                for replacement, edit in zip(change["replacements"], edits, strict=True):
                    region = replacement["deletedRegion"]
                    assert "byteOffset" not in region
                    start = _utf16_offset(text, region["startLine"], region["startColumn"])
                    end = _utf16_offset(text, region["endLine"], region["endColumn"])
                    by_columns = text[:start] + replacement["insertedContent"]["text"] + text[end:]
                    assert by_columns.encode() == apply_edits(data, [edit])[0]
                    checked += 1
    assert checked >= len(fixed)


def test_fingerprints() -> None:
    result = lint(FIXTURES)
    assert result.findings
    run = sarif_of(result, TESTDATA_CTX)["runs"][0]
    per_file: dict[str, list[str]] = {}
    for item in run["results"]:
        fingerprints = item["partialFingerprints"]
        assert list(fingerprints) == ["burnlint/v1"]
        uri = item["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        per_file.setdefault(uri, []).append(fingerprints["burnlint/v1"])
    for uri, values in per_file.items():
        assert len(values) == len(set(values)), f"{uri}: two findings share a fingerprint"
    assert "primaryLocationLineHash" not in sarif.render(result, CTX)


def test_invocation_and_notifications() -> None:
    run = sarif_of(rich_result())["runs"][0]
    rules = [rule["id"] for rule in run["tool"]["driver"]["rules"]]
    (invocation,) = run["invocations"]
    assert invocation["executionSuccessful"] is False
    assert invocation["properties"] == {"burnVersion": "0.22.1"}
    execution = invocation["toolExecutionNotifications"]
    assert [n["level"] for n in execution] == ["note", "note", "error", "warning"]
    assert execution[1]["locations"][0]["physicalLocation"] == {
        "artifactLocation": {"uri": "src/broken.rs", "uriBaseId": "%SRCROOT%"},
        "region": {"startLine": 3},
    }
    assert execution[1]["message"] == {"text": "syntax error near line 3."}
    crash = execution[2]
    assert crash["associatedRule"] == {"id": "BL002", "index": rules.index("BL002")}
    assert "locations" not in execution[0]
    (config,) = invocation["toolConfigurationNotifications"]
    assert config["level"] == "warning"
    assert config["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "burnlint.toml"


def test_successful_run_has_no_empty_notification_arrays() -> None:
    log = sarif_of(LintResult((), (), RunStats(files_checked=3)))
    run = log["runs"][0]
    assert run["invocations"] == [{"executionSuccessful": True}]
    assert run["results"] == []


def test_serializer_keeps_defaults_and_drops_only_none_and_empty() -> None:
    import sarif_om as om

    region = sarif_serialize._om(om.Region, start_line=1, start_column=1, byte_offset=0)
    assert sarif_serialize.to_json(region) == {"startLine": 1, "startColumn": 1, "byteOffset": 0}
    configuration = sarif_serialize._om(om.ReportingConfiguration, level="warning")
    assert sarif_serialize.to_json(configuration) == {"level": "warning"}
    result = sarif_serialize._om(
        om.Result, message=sarif_serialize._om(om.Message, text="m"), level="warning"
    )
    assert sarif_serialize.to_json(result) == {"level": "warning", "message": {"text": "m"}}
    invocation = sarif_serialize._om(
        om.Invocation, execution_successful=False, tool_execution_notifications=[]
    )
    assert sarif_serialize.to_json(invocation) == {"executionSuccessful": False}


def test_unknown_rule_in_a_hand_made_result_still_resolves() -> None:
    finding = make_finding()
    odd = Finding(
        finding.location, "XX999", "made-up", Level.WARNING, "m", fingerprint="f", snippet=""
    )
    log = sarif_of(LintResult((odd,), (), RunStats(files_checked=1)))
    validate(log)
    run = log["runs"][0]
    assert run["tool"]["driver"]["rules"] == [
        {
            "id": "XX999",
            "name": "made-up",
            "shortDescription": {"text": "made-up"},
            "defaultConfiguration": {"level": "warning"},
        }
    ]
    assert "snippet" not in run["results"][0]["locations"][0]["physicalLocation"]["region"]


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


@settings(max_examples=200, deadline=None)
@given(
    message=st.text(min_size=1),
    help=st.none() | st.text(),
    related=st.lists(st.text(), max_size=3),
)
def test_any_message_stays_valid_and_links_only_related(
    message: str, help: str | None, related: list[str]
) -> None:
    where = Location(at("src/a.rs"), span_in(SAVE_LINE, "model"))
    finding = make_finding(
        message=message,
        help=help,
        related=tuple(RelatedLocation(where, text) for text in related),
    )
    log = sarif_of(LintResult((finding,), (), RunStats(files_checked=1)))
    validate(log)
    text = log["runs"][0]["results"][0]["message"]["text"]
    links = [(m.group(1), int(m.group(2))) for m in LINK.finditer(text)]
    assert [target for _, target in links] == list(range(1, len(related) + 1))
    unescaped_brackets = re.sub(r"\\.", "", LINK.sub("", text))
    assert "[" not in unescaped_brackets and "]" not in unescaped_brackets
    assert _unescape(text).startswith(one_line(message).strip())


@given(st.text())
def test_github_escaping_round_trips(text: str) -> None:
    def unescape(value: str) -> str:
        for code, char in [("%0D", "\r"), ("%0A", "\n"), ("%3A", ":"), ("%2C", ","), ("%25", "%")]:
            value = value.replace(code, char)
        return value

    data = github_format.escape_data(text)
    prop = github_format.escape_property(text)
    assert "\n" not in data and "\r" not in data and "\n" not in prop
    assert ":" not in prop and "," not in prop
    assert unescape(prop) == text


# --- columns through the engine: CJK, emoji, tab --------------------------------------------------

WIDE_SOURCE = """use burn_store::{ModuleSnapshot, SafetensorsStore};

pub fn save(model: &Mlp) {
    let mut store = SafetensorsStore::from_file("模型.safetensors").overwrite(true);
\tlet _ = /* 检查点🔥 */ model.save_into(&mut store);
}
"""


def test_columns_with_cjk_emoji_and_tab(tmp_path: Path) -> None:
    path = tmp_path / "训练 #1.rs"
    path.write_text(WIDE_SOURCE, encoding="utf-8")
    result = lint([path], tmp_path)
    ctx = ReportContext(color=False, project_root=tmp_path, tool_version="0.1.0")
    (_finding,) = [f for f in result.findings if f.rule_id == "BL001"]
    line = WIDE_SOURCE.splitlines()[4]
    prefix = line[: line.index("model.save_into")]
    assert prefix == "\tlet _ = /* 检查点🔥 */ "
    chars, units = len(prefix), _u16(prefix)
    assert (chars, units) == (20, 21)

    region = sarif_of(result, ctx)["runs"][0]["results"][0]["locations"][0]["physicalLocation"]
    assert region["artifactLocation"]["uri"] == "%E8%AE%AD%E7%BB%83%20%231.rs"
    assert region["region"] == {
        "startLine": 5,
        "startColumn": units + 1,
        "endLine": 5,
        "endColumn": units + 1 + len("model.save_into(&mut store)"),
        "snippet": {"text": "model.save_into(&mut store)"},
    }

    data = json.loads(json_format.render(result, ctx))["findings"][0]
    assert data["start"] == {
        "line": 5,
        "column": chars + 1,
        "utf16_column": units + 1,
        "byte": WIDE_SOURCE.encode().index(b"model.save_into"),
    }
    assert data["tags"] == list(registry.by_id("BL001").tags)
    assert f"--> 训练 #1.rs:5:{chars + 1}\n" in FORMATS["text"](result, ctx)
    assert f"训练 #1.rs:5:{chars + 1}: error[BL001]" in FORMATS["concise"](result, ctx)
    assert f"line=5,endLine=5,col={chars + 1}," in github_format.render(result, ctx)


# --- determinism --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def two_runs() -> tuple[LintResult, LintResult]:
    """All fixtures linted twice, given in opposite orders."""
    return lint(FIXTURES), lint(list(reversed(FIXTURES)))


@pytest.mark.parametrize("name", ["sarif", "json", "github", "text", "concise"])
def test_rendering_is_byte_identical(name: str, two_runs: tuple[LintResult, LintResult]) -> None:
    render = FORMATS[name]
    assert render(rich_result(), CTX) == render(rich_result(), CTX)
    first, second = two_runs
    assert render(first, CTX) == render(second, CTX)
    assert render(first, CTX) == render(first, CTX)


# --- JSON ---------------------------------------------------------------------------------------


def test_json_format() -> None:
    data = json.loads(json_format.render(rich_result(), CTX))
    assert list(data) == [
        "version",
        "tool",
        "burn_version",
        "successful",
        "files_checked",
        "files_skipped",
        "suppressed",
        "rules_run",
        "findings",
        "notifications",
        "summary",
    ]
    assert data["version"] == 1
    assert data["tool"] == {"name": "burnlint", "version": "0.1.0"}
    assert data["burn_version"] == "0.22.1"
    assert data["successful"] is False
    assert data["summary"] == {
        "total": 5,
        "by_level": {"error": 3, "warning": 1, "note": 1},
        "by_rule": {"BL001": 2, "BL002": 1, "BL003": 1, "BL007": 1},
    }
    bl003 = next(f for f in data["findings"] if f["rule_id"] == "BL003")
    assert bl003["fix"] == {
        "title": "add `.overwrite(true)`",
        "applicability": "unsafe",
        "edits": [
            {
                "path": "src/train.rs",
                "start_byte": 160,
                "end_byte": 160,
                "content": ".overwrite(true)",
            }
        ],
    }
    assert bl003["related"][1] == {
        "path": "src/train.rs",
        "start": {"line": 3, "column": 5, "utf16_column": 5, "byte": 104},
        "end": {"line": 3, "column": 8, "utf16_column": 8, "byte": 107},
        "message": "the loop",
    }
    bl002 = next(f for f in data["findings"] if f["rule_id"] == "BL002")
    assert bl002["start"]["column"] == 29 and bl002["start"]["utf16_column"] == 30
    assert bl002["fix"] is None and bl002["help"] is None
    assert bl002["tags"] == list(registry.by_id("BL002").tags)
    crash = data["notifications"][3]
    assert crash == {
        "path": "src/train.rs",
        "line": None,
        "level": "error",
        "kind": "internal",
        "message": "rule BL002 (store-error-only-logged) crashed on this file: KeyError: 'x'",
        "rule_id": "BL002",
    }
    assert data["notifications"][0]["path"] is None


def _keys(value: Any) -> set[str]:
    if isinstance(value, dict):
        keys = {k for k in value if not re.fullmatch(r"BL\d{3}|error|warning|note", k)}
        return keys.union(*(_keys(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(_keys(v) for v in value))
    return set()


def test_json_format_is_documented() -> None:
    doc = (REPO / "docs" / "json-format.md").read_text("utf-8")
    data = json.loads(json_format.render(rich_result(), CTX))
    missing = sorted(key for key in _keys(data) if f"`{key}`" not in doc)
    assert not missing, f"docs/json-format.md does not describe {missing}"
    assert f'`"version": {json_format.SCHEMA_VERSION}`' in doc


# --- GitHub -------------------------------------------------------------------------------------


def test_github_escaping() -> None:
    assert github_format.escape_data("100% a:b,c\r\nd") == "100%25 a:b,c%0D%0Ad"
    assert github_format.escape_property("100% a:b,c\r\nd") == "100%25 a%3Ab%2Cc%0D%0Ad"
    finding = make_finding(
        "src/a,b:c%.rs",
        message="50% of `a::b`, then\nmore\r",
        help="use `x,y`",
    )
    out = github_format.render(LintResult((finding,), (), RunStats(files_checked=1)), CTX)
    assert out == (
        "::error file=src/a%2Cb%3Ac%25.rs,line=4,endLine=4,col=13,endColumn=40,"
        "title=BL001 discarded-store-result::50%25 of `a::b`, then%0Amore%0D%0Ahelp: use `x,y`\n"
    )


def test_github_levels_multiline_spans_and_notifications() -> None:
    out = github_format.render(rich_result(), CTX).splitlines()
    commands = [line.split(" ", 1)[0].split("::")[1] for line in out]
    # in report order: /outside/abs path.rs, src/dotted.rs, src/my dir/.., src/train.rs
    findings = ["error", "notice", "warning", "error", "error"]
    assert commands == [*findings, "notice", "warning", "notice", "error", "warning"]
    assert out[3].startswith("::error file=src/train.rs,line=4,endLine=4,col=13,endColumn=40,")
    assert out[-3] == "::notice file=src/broken.rs,line=3,title=burnlint::syntax error near line 3"
    assert out[-5] == "::notice title=burnlint::no Rust files found"
    multiline = Finding(
        Location(at("a.rs"), Span(0, 30, 1, 5, 3, 2, 5, 2)), "BL001", "n", Level.WARNING, "m"
    )
    assert github_format.render(LintResult((multiline,), (), RunStats(files_checked=1)), CTX) == (
        "::warning file=a.rs,line=1,endLine=3,title=BL001 n::m\n"
    )
    assert github_format.render(LintResult((), (), RunStats(files_checked=1)), CTX) == ""


# --- golden files -------------------------------------------------------------------------------

DEMO = TESTDATA / "demo"
GOLDEN_CTX = ReportContext(color=False, project_root=Path("/PROJECT"), tool_version="0.0.0-golden")
GOLDEN_FORMATS = {"sarif": "demo.sarif", "json": "demo.json", "github": "demo.github"}
GOLDEN_FORMATS |= {"text": "demo.txt", "concise": "demo.concise"}


def _golden_result() -> tuple[LintResult, Path]:
    """The demo crate with the default rules (what `burnlint check` runs)."""
    return lint_paths([DEMO], EngineOptions(rule_ids=resolve(), project_root=DEMO)), DEMO


@pytest.mark.parametrize("name", list(GOLDEN_FORMATS))
def test_golden(name: str) -> None:
    result, root = _golden_result()
    # reported relative to the run's root, shown as /PROJECT
    out = FORMATS[name](result, replace(GOLDEN_CTX, project_root=root))
    out = out.replace(root.as_uri(), "file:///PROJECT").replace(str(root), "/PROJECT")
    path = GOLDEN / GOLDEN_FORMATS[name]
    if os.environ.get("UPDATE_GOLDEN"):
        path.parent.mkdir(exist_ok=True)
        path.write_text(out, encoding="utf-8", newline="\n")
    assert path.exists(), f"{path} is missing: run UPDATE_GOLDEN=1 python -m pytest {__file__}"
    assert out == path.read_text(encoding="utf-8"), (
        f"{path.name} differs; if the change is intended, refresh with "
        "UPDATE_GOLDEN=1 python -m pytest tests/test_report_formats.py"
    )


def test_golden_sarif_is_valid() -> None:
    validate(json.loads((GOLDEN / "demo.sarif").read_text("utf-8")))


# --- SARIF Multitool ----------------------------------------------------------------------------

MULTITOOL_VERSION = "5.7.0"
MULTITOOL_PLATFORMS = {"linux": "linux", "darwin": "darwin"}


def _multitool() -> Path:
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip("npm is not installed: cannot install @microsoft/sarif-multitool")
    platform = MULTITOOL_PLATFORMS.get(sys.platform)
    if platform is None:
        pytest.skip(f"no Sarif.Multitool test set up for {sys.platform}")
    default = Path(tempfile.gettempdir()) / "burnlint-sarif-multitool"
    cache = Path(os.environ.get("BURNLINT_SARIF_MULTITOOL_DIR", default))
    binary = (
        cache / "node_modules" / "@microsoft" / f"sarif-multitool-{platform}" / "Sarif.Multitool"
    )
    if not binary.exists():
        cache.mkdir(parents=True, exist_ok=True)
        install = subprocess.run(
            [
                npm,
                "install",
                "--no-audit",
                "--no-fund",
                "--prefix",
                str(cache),
                f"@microsoft/sarif-multitool@{MULTITOOL_VERSION}",
            ],
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        if install.returncode != 0 or not binary.exists():
            pytest.skip(f"cannot install @microsoft/sarif-multitool: {install.stderr[-500:]}")
    binary.chmod(binary.stat().st_mode | 0o111)  # npm does not always run its postinstall chmod
    return binary


def _testdata_logs(directory: Path) -> list[Path]:
    """One SARIF log per fixture file, per fixture crate, for the demo, and a hand-made one."""
    written = []
    ctx = ReportContext(False, TESTDATA, "0.1.0")
    for fixture in sorted((TESTDATA / "rules").rglob("*.rs")):
        log = sarif.render(lint([fixture]), ctx)
        name = fixture_id(fixture).replace("/", "__") + ".sarif"
        written.append(directory / name)
        written[-1].write_text(log, encoding="utf-8")
    for crate in [*sorted(p.parent for p in TESTDATA.glob("*/*/Cargo.toml")), DEMO]:
        if not any(crate.rglob("*.rs")):
            continue
        result = lint_paths([crate], EngineOptions(rule_ids=ALL, project_root=TESTDATA))
        written.append(
            directory / (crate.relative_to(TESTDATA).as_posix().replace("/", "__") + ".sarif")
        )
        written[-1].write_text(sarif.render(result, ctx), encoding="utf-8")
    rich_ctx = CategoryContext(False, PROJECT, "0.1.0", category="burnlint")
    written.append(directory / "hand-made.sarif")
    written[-1].write_text(sarif.render(rich_result(), rich_ctx), encoding="utf-8")
    return written


def _is_failure(item: dict[str, Any]) -> bool:
    """Any error; a warning (or error) of a GitHub rule (GH1001...)."""
    level = item.get("level", "warning")  # the SARIF default, which the Multitool relies on
    return level == "error" or (str(item.get("ruleId", "")).startswith("GH") and level != "note")


def test_sarif_multitool_validate(tmp_path: Path) -> None:
    binary = _multitool()
    logs_dir = tmp_path / "logs"
    logs_dir.mkdir()
    logs = _testdata_logs(logs_dir)
    assert len(logs) >= 10
    report = tmp_path / "validation.sarif"
    run = subprocess.run(
        [
            str(binary),
            "validate",
            "--rule-kind",
            "Sarif;Ghas",
            "--level",
            "Error;Warning;Note",
            "--output",
            str(report),
            str(logs_dir / "*.sarif"),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        # the self-contained .NET binary needs libicu unless globalization is invariant
        env={**os.environ, "DOTNET_SYSTEM_GLOBALIZATION_INVARIANT": "1"},
    )
    assert run.returncode == 0 and report.exists(), run.stdout + run.stderr
    validation = json.loads(report.read_text("utf-8-sig"))["runs"][0]
    results = validation.get("results", [])
    notes = [
        n
        for invocation in validation.get("invocations", [])
        for n in invocation.get("toolExecutionNotifications", [])
    ]
    counts = Counter((r.get("ruleId"), r.get("level", "warning")) for r in results)
    print(f"{len(logs)} logs validated; findings by rule and level: {sorted(counts.items())}")
    failures = [
        line for line in run.stdout.splitlines() if re.search(r": (error|warning) GH\d+", line)
    ]
    failures += [line for line in run.stdout.splitlines() if re.search(r": error \w+:", line)]
    assert not failures, "\n".join(failures)
    assert not [r for r in results if _is_failure(r)], run.stdout
    assert not [n for n in notes if n.get("level") == "error"], notes


# --- tags ---------------------------------------------------------------------------------------


def test_a_finding_carries_its_own_tags_and_reports_add_its_rules() -> None:
    """``Finding.tags`` holds what is particular to the finding (``test-code``); JSON lists the
    rule's tags before it, SARIF keeps the rule's on its reportingDescriptor."""
    own = replace(make_finding(), tags=("test-code",))
    result = LintResult(
        findings=(own, make_finding(line=9)), notifications=(), stats=RunStats(files_checked=1)
    )
    rule_tags = list(registry.by_id("BL001").tags)
    tags = [f["tags"] for f in json.loads(json_format.render(result, CTX))["findings"]]
    assert tags == [[*rule_tags, "test-code"], rule_tags]
    results = sarif_of(result)["runs"][0]["results"]
    assert [r.get("properties") for r in results] == [{"tags": ["test-code"]}, None]
