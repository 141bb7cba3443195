"""--baseline and --write-baseline: only new findings are reported, matched by fingerprint.

Also the per-file-ignores recipe for test code documented in README.md ("Adopting burnlint on an
existing code base").
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import Any

import pytest
from click.testing import CliRunner, Result
from jsonschema import Draft4Validator

from burnlint import cli
from burnlint.app import baseline
from burnlint.app.baseline import Baseline, BaselineEntry, BaselineError
from burnlint.findings import LintResult, RunStats
from burnlint.report import sarif
from burnlint.rules import registry
from factories import PROJECT, finding

TESTDATA = Path(__file__).resolve().parent.parent / "testdata"
SCHEMA = json.loads((TESTDATA / "sarif-schema-2.1.0.json").read_text("utf-8"))

TRAIN = """\
use burn_store::{ModuleSnapshot, SafetensorsStore};

fn save<M: ModuleSnapshot>(model: &M) {
    let mut store = SafetensorsStore::from_file("model.safetensors");
    let _ = model.save_into(&mut store);
}

fn export<M: ModuleSnapshot>(model: &M) {
    model.save_into(&mut SafetensorsStore::from_file("export.safetensors")).ok();
}
"""

NEW_FUNCTION = """
fn snapshot<M: ModuleSnapshot>(model: &M) {
    let _ = model.save_into(&mut SafetensorsStore::from_file("snap.safetensors"));
}
"""


@pytest.fixture
def crate(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "Cargo.toml").write_text('[package]\nname = "demo"\nversion = "0.1.0"\n')
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "main.rs").write_text(TRAIN)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(runner: CliRunner, crate: Path, *args: str) -> Result:
    return runner.invoke(cli.cli, ["--project-root", str(crate), *args], catch_exceptions=False)


def concise_lines(out: Result) -> list[str]:
    return [line for line in out.stdout.splitlines() if "[BL" in line]


def json_of(text: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(text)
    return data


def _check_order(value: Any, definition: dict[str, Any]) -> None:
    """Keys in the order of the SARIF schema (as the reporter promises)."""
    if "$ref" in definition:
        definition = SCHEMA["definitions"][definition["$ref"].rsplit("/", 1)[1]]
    if isinstance(value, list):
        for item in value:
            _check_order(item, definition.get("items", {}))
        return
    properties = definition.get("properties")
    if not isinstance(value, dict) or properties is None:
        return
    assert list(value) == [key for key in properties if key in value]
    for key, item in value.items():
        if key != "properties":
            _check_order(item, properties[key])


# --- the command line ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["base.json", "base.sarif"])
def test_baseline_accepts_todays_findings_and_reports_new_ones(
    runner: CliRunner, crate: Path, name: str
) -> None:
    first = run(runner, crate, "--write-baseline", name, "--format", "concise")
    assert first.exit_code == 1  # the run reports as usual
    assert len(concise_lines(first)) == 2
    assert f"burnlint: wrote 2 findings to `{name}`" in first.stderr
    written = json_of((crate / name).read_text("utf-8"))
    assert ("runs" in written) is name.endswith(".sarif")

    same = run(runner, crate, "--baseline", name, "--format", "concise")
    assert same.exit_code == 0, same.stdout
    assert concise_lines(same) == []
    assert f"burnlint: baseline `{name}`: 0 new, 2 unchanged, 0 absent" in same.stderr

    # moved code keeps its fingerprint: lines inserted above, and the functions swapped
    main = crate / "src" / "main.rs"
    head, _, tail = TRAIN.partition("fn export")
    main.write_text("// a comment\n\nuse std::fs;\n" + "fn export" + tail + "\n" + head)
    moved = run(runner, crate, "--baseline", name, "--format", "concise")
    assert moved.exit_code == 0, moved.stdout
    assert concise_lines(moved) == []

    # a new finding is reported, and only it counts for the exit code
    main.write_text(main.read_text() + NEW_FUNCTION)
    new = run(runner, crate, "--baseline", name, "--format", "concise")
    assert new.exit_code == 1
    [line] = concise_lines(new)
    assert line.startswith("src/main.rs:17:13: error[BL001]")
    assert "1 new, 2 unchanged, 0 absent" in new.stderr
    assert run(runner, crate, "--baseline", name, "--fail-on", "error").exit_code == 1
    assert run(runner, crate, "--baseline", name, "--exit-zero").exit_code == 0


TWINS = """\
use burn_store::{ModuleSnapshot, SafetensorsStore};

fn save<M: ModuleSnapshot>(model: &M) {
    println!("saving");
    println!("the model");
    println!("to disk");
    let _ = model.save_into(&mut SafetensorsStore::from_file("model.safetensors"));
}
"""
TWIN = '    let _ = model.save_into(&mut SafetensorsStore::from_file("model.safetensors"));\n'


@pytest.mark.parametrize("name", ["base.json", "base.sarif"])
def test_an_identical_finding_added_above_an_accepted_one_is_the_new_one(
    runner: CliRunner, crate: Path, name: str
) -> None:
    """By ordinal, the added finding took the accepted one's fingerprint and the accepted
    line was reported as new: identical findings are matched by distance from the
    baselined line."""
    main = crate / "src" / "main.rs"
    main.write_text(TWINS)
    first = run(runner, crate, "--write-baseline", name, "--format", "concise")
    assert [line.split(": ")[0] for line in concise_lines(first)] == ["src/main.rs:7:13"]
    head, sep, tail = TWINS.partition("    println!")
    main.write_text(head + TWIN + sep + tail)  # line 4; the accepted one moves to line 8
    out = run(runner, crate, "--baseline", name, "--format", "concise")
    assert out.exit_code == 1
    [line] = concise_lines(out)
    assert line.startswith("src/main.rs:4:13: error[BL001]")
    assert "1 new, 1 unchanged, 0 absent" in out.stderr
    # added below it, the new one is the lower one, as before
    main.write_text(TWINS.replace(TWIN, TWIN + "    println!();\n" + TWIN))
    out = run(runner, crate, "--baseline", name, "--format", "concise")
    [line] = concise_lines(out)
    assert line.startswith("src/main.rs:9:13: error[BL001]")


def test_sarif_carries_baseline_state(runner: CliRunner, crate: Path) -> None:
    assert run(runner, crate, "--write-baseline", "base.json", "-q").exit_code == 1
    main = crate / "src" / "main.rs"
    main.write_text(main.read_text() + NEW_FUNCTION)
    out = run(runner, crate, "--baseline", "base.json", "--format", "sarif")
    assert out.exit_code == 1
    log = json_of(out.stdout)
    assert not list(Draft4Validator(SCHEMA).iter_errors(log))
    _check_order(log, SCHEMA)
    run_ = log["runs"][0]
    states = [
        (r["locations"][0]["physicalLocation"]["region"]["startLine"], r["baselineState"])
        for r in run_["results"]
    ]
    assert states == [(5, "unchanged"), (9, "unchanged"), (13, "new")]
    for result in run_["results"]:
        if result["baselineState"] == "unchanged":
            assert result["suppressions"] == [
                {
                    "kind": "external",
                    "status": "accepted",
                    "justification": "in the baseline base.json",
                }
            ]
        else:
            assert "suppressions" not in result
    properties = run_["invocations"][0]["properties"]
    assert properties["baseline"] == {"file": "base.json", "new": 1, "unchanged": 2, "absent": 0}

    # the log of a baselined run is a complete baseline: it lists the unchanged findings too
    (crate / "next.sarif").write_text(out.stdout, encoding="utf-8")
    again = run(runner, crate, "--baseline", "next.sarif", "--format", "concise")
    assert again.exit_code == 0
    assert "0 new, 3 unchanged, 0 absent" in again.stderr


def test_without_a_baseline_sarif_and_json_say_nothing_of_it(
    runner: CliRunner, crate: Path
) -> None:
    log = json_of(run(runner, crate, "--format", "sarif").stdout)
    assert all(
        "baselineState" not in r and "suppressions" not in r for r in log["runs"][0]["results"]
    )
    assert "baseline" not in log["runs"][0]["invocations"][0].get("properties", {})
    assert "baseline" not in json_of(run(runner, crate, "--format", "json").stdout)


def test_json_report_with_a_baseline(runner: CliRunner, crate: Path) -> None:
    run(runner, crate, "--write-baseline", "base.json", "-q")
    main = crate / "src" / "main.rs"
    main.write_text(TRAIN.replace("    let _ = model.save_into(&mut store);\n", "") + NEW_FUNCTION)
    report = json_of(run(runner, crate, "--baseline", "base.json", "--format", "json").stdout)
    assert [f["start"]["line"] for f in report["findings"]] == [12]
    assert report["summary"]["total"] == 1
    assert report["baseline"] == {"file": "base.json", "new": 1, "unchanged": 1, "absent": 1}


def test_a_renamed_file_is_not_matched(runner: CliRunner, crate: Path) -> None:
    run(runner, crate, "--write-baseline", "base.json", "-q")
    (crate / "src" / "main.rs").rename(crate / "src" / "train.rs")
    out = run(runner, crate, "--baseline", "base.json", "--format", "json")
    report = json_of(out.stdout)
    assert out.exit_code == 1
    assert {f["path"] for f in report["findings"]} == {"src/train.rs"}
    assert report["baseline"] == {"file": "base.json", "new": 2, "unchanged": 0, "absent": 2}


def test_absent_counts_only_rules_that_ran_and_paths_checked(
    runner: CliRunner, crate: Path
) -> None:
    (crate / "src" / "other.rs").write_text(TRAIN)
    run(runner, crate, "--write-baseline", "base.json", "-q")
    only_main = json_of(
        run(runner, crate, "--baseline", "base.json", "--format", "json", "src/main.rs").stdout
    )
    assert only_main["baseline"] == {"file": "base.json", "new": 0, "unchanged": 2, "absent": 0}
    other_rule = json_of(
        run(
            runner, crate, "--baseline", "base.json", "--format", "json", "--select", "BL003"
        ).stdout
    )
    assert other_rule["baseline"]["absent"] == 0


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "cannot read baseline `base.json`: No such file or directory"),
        ("{not json", "baseline `base.json` is not valid JSON: "),
        # the decoder recursed into a RecursionError, and no output was written
        ("[" * 100_000, "baseline `base.json` is not valid JSON: nested too deeply"),
        ('{"findings": ' + "9" * 5000 + "}", "baseline `base.json` is not valid JSON: a number"),
        ("[]", "baseline `base.json` is neither a burnlint SARIF log nor a burnlint JSON report"),
        (
            '{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "semgrep"}}}]}',
            "baseline `base.json` is a SARIF log of `semgrep`, not of burnlint",
        ),
        (
            '{"runs": [{"tool": {"driver": {"name": "burnlint"}}, '
            '"results": [{"ruleId": "BL001"}]}]}',
            "baseline `base.json`: result 0 has no location or no `burnlint/v1` partial "
            "fingerprint",
        ),
        (
            '{"version": 1, "tool": {"name": "burnlint"}, "findings": [{"path": "a.rs"}]}',
            "baseline `base.json`: finding 0 has no `path` and `fingerprint`",
        ),
        (
            '{"version": 2, "tool": {"name": "burnlint"}, "findings": []}',
            "baseline `base.json` has JSON schema version 2; this burnlint reads version 1",
        ),
    ],
)
def test_an_unusable_baseline_is_a_configuration_error(
    runner: CliRunner, crate: Path, content: str | None, message: str
) -> None:
    if content is not None:
        (crate / "base.json").write_text(content)
    out = run(
        runner, crate, "--baseline", "base.json", "--format", "json", "-o", "report.json",
        "--output-format", "sarif=report.sarif",
    )  # fmt: skip
    assert out.exit_code == 2
    assert f"burnlint: error: {message}" in out.stderr
    report = json_of((crate / "report.json").read_text("utf-8"))
    assert report["successful"] is False
    assert any(
        n["kind"] == "config" and n["message"].startswith(message) for n in report["notifications"]
    )
    assert len(report["findings"]) == 2  # no baseline applied
    log = json_of((crate / "report.sarif").read_text("utf-8"))
    invocation = log["runs"][0]["invocations"][0]
    assert invocation["executionSuccessful"] is False
    assert invocation["toolConfigurationNotifications"][0]["level"] == "error"


def test_an_unusable_baseline_shows_in_the_terminal_report(runner: CliRunner, crate: Path) -> None:
    out = run(runner, crate, "--baseline", "missing.json", "--format", "concise")
    assert out.exit_code == 2
    assert "burnlint: error: cannot read baseline `missing.json`" in out.stdout
    assert len(concise_lines(out)) == 2


def test_an_incomplete_run_writes_no_baseline(runner: CliRunner, crate: Path) -> None:
    (crate / "base.json").write_text("precious\n")
    out = run(runner, crate, "--write-baseline", "base.json", "src", "missing")
    assert out.exit_code == 2
    assert "burnlint: error: `base.json` not written: the check did not complete" in out.stderr
    assert (crate / "base.json").read_text() == "precious\n"


def test_write_baseline_with_a_baseline_writes_every_finding(
    runner: CliRunner, crate: Path
) -> None:
    run(runner, crate, "--write-baseline", "base.json", "-q")
    main = crate / "src" / "main.rs"
    main.write_text(main.read_text() + NEW_FUNCTION)
    out = run(runner, crate, "--baseline", "base.json", "--write-baseline", "base.json")
    assert out.exit_code == 1  # the new finding is reported...
    assert len(json_of((crate / "base.json").read_text("utf-8"))["findings"]) == 3  # ...and kept
    assert run(runner, crate, "--baseline", "base.json").exit_code == 0


@pytest.mark.parametrize(
    "args",
    [
        ["-o", "base.json"],
        ["--format", "json", "--output", "./base.json"],
        ["--output-format", "json=base.json"],
        ["--output-format", "sarif=link.json"],  # a symbolic link to it
    ],
)
def test_an_output_that_is_the_baseline_is_refused(
    runner: CliRunner, crate: Path, args: list[str]
) -> None:
    """Writing the report over the baseline would leave the new findings only in it: the next
    run would call every accepted finding new."""
    run(runner, crate, "--write-baseline", "base.json", "-q")
    accepted = (crate / "base.json").read_bytes()
    try:
        (crate / "link.json").symlink_to(crate / "base.json")
    except (OSError, NotImplementedError) as exc:
        if "link.json" in args[-1]:
            pytest.skip(f"cannot create symlinks: {exc}")
    main = crate / "src" / "main.rs"
    main.write_text(main.read_text() + NEW_FUNCTION)
    out = run(runner, crate, "--baseline", "base.json", *args)
    assert out.exit_code == 2
    assert out.stdout == ""
    [line] = out.stderr.splitlines()
    assert line.startswith("burnlint: error: `")
    assert line.endswith(
        " would replace the baseline being read with a report of the new findings only; "
        "to update the baseline, use `--write-baseline base.json`"
    )
    assert (crate / "base.json").read_bytes() == accepted


def test_two_outputs_into_one_file_are_refused(runner: CliRunner, crate: Path) -> None:
    out = run(runner, crate, "-o", "r.json", "--output-format", "sarif=./r.json")
    assert out.exit_code == 2
    assert out.stderr == (
        "burnlint: error: `-o r.json` and `--output-format sarif=r.json` write the same file\n"
    )
    assert not (crate / "r.json").exists()
    out = run(runner, crate, "--output-format", "json=b.json", "--write-baseline", "b.json")
    assert out.exit_code == 2
    assert "write the same file" in out.stderr
    # a device takes any number of outputs
    if Path("/dev/null").exists():
        out = run(runner, crate, "-o", "/dev/null", "--output-format", "sarif=/dev/null")
        assert out.exit_code == 1, out.stderr


# --- the module ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        "src/main.rs",
        "src/my dir/#1 模型.rs",
        "a%b/c[d].rs",
        "/outside/abs path.rs",
        "C:/Users/me/x.rs",
        "//server/share/x.rs",
    ],
)
def test_sarif_uris_read_back_as_reported_paths(path: str) -> None:
    uri, _ = sarif.path_uri(path)
    assert baseline.uri_to_path(uri) == path


def test_path_uri_of_windows_paths_reads_back() -> None:
    uri = sarif.file_uri(PureWindowsPath("C:\\Users\\me\\a b.rs"))
    assert baseline.uri_to_path(uri) == "C:/Users/me/a b.rs"
    assert baseline.uri_to_path(sarif.file_uri(PurePosixPath("/x/y.rs"))) == "/x/y.rs"


def test_compare_matches_on_path_and_fingerprint() -> None:
    a = replace(finding("src/a.rs", 3, 5, 9), fingerprint="f1")
    b = replace(finding("src/b.rs", 3, 5, 9), fingerprint="f1")
    known = Baseline("base.json", (BaselineEntry("src/a.rs", "f1", "BL001", 3),))
    result = LintResult(
        findings=(a, b),
        notifications=(),
        stats=RunStats(files_checked=2),
        rules=(registry.by_id("BL001"),),
    )
    outcome = baseline.compare(result, known, root=PROJECT)
    assert outcome.unchanged == (a,)
    assert outcome.new == (b,)  # the same fingerprint in another file is another finding
    applied = baseline.apply(result, outcome)
    assert applied.findings == (b,)
    assert applied.baseline is outcome


def test_identical_findings_are_matched_nearest_first() -> None:
    """Five identical findings (their fingerprints f0..f4 by ordinal), three accepted at lines
    10, 20 and 30 before two were added at 5 and 25 and the rest moved down a line: the added
    ones are new, whatever their ordinals."""
    lines = [5, 11, 21, 25, 31]
    twins = [
        replace(finding("src/a.rs", line, 5, 9), fingerprint=f"f{index}", twins="f0")
        for index, line in enumerate(lines)
    ]
    accepted = tuple(
        BaselineEntry("src/a.rs", f"f{index}", "BL001", line)
        for index, line in enumerate([10, 20, 30])
    )
    result = LintResult(findings=tuple(twins), notifications=(), stats=RunStats(files_checked=1))
    outcome = baseline.compare(result, Baseline("b.json", accepted), root=PROJECT)
    assert [f.location.span.start_line for f in outcome.new] == [5, 25]
    assert outcome.absent == ()
    # without lines to compare (a SARIF log without regions): by fingerprint, as written
    unplaced = tuple(replace(entry, line=None) for entry in accepted)
    outcome = baseline.compare(result, Baseline("b.json", unplaced), root=PROJECT)
    assert [f.location.span.start_line for f in outcome.new] == [25, 31]
    # findings that are not twins (another `twins`) are never paired by line
    alone = replace(twins[0], twins="")
    outcome = baseline.compare(
        replace(result, findings=(alone,)), Baseline("b.json", accepted[1:]), root=PROJECT
    )
    assert outcome.new == (alone,) and len(outcome.absent) == 2


def test_thousands_of_twins_are_paired_in_n_log_n() -> None:
    count = 20_000
    twins = tuple(
        replace(finding("src/a.rs", line, 5, 9), fingerprint=f"f{line}", twins="f0")
        for line in range(count)
    )
    accepted = tuple(
        BaselineEntry("src/a.rs", f"f{line}", "BL001", line + 1) for line in range(count - 1)
    )
    result = LintResult(findings=twins, notifications=(), stats=RunStats(files_checked=1))
    outcome = baseline.compare(result, Baseline("b.json", accepted), root=PROJECT)
    assert len(outcome.new) == 1 and len(outcome.unchanged) == count - 1


def test_load_skips_absent_results_and_rejects_binary(tmp_path: Path) -> None:
    log = {
        "runs": [
            {
                "tool": {"driver": {"name": "burnlint"}},
                "results": [
                    {
                        "ruleId": "BL001",
                        "baselineState": "absent",
                        "partialFingerprints": {"burnlint/v1": "gone"},
                        "locations": [{"physicalLocation": {"artifactLocation": {"uri": "a.rs"}}}],
                    },
                    {
                        "ruleId": "BL001",
                        "partialFingerprints": {"burnlint/v1": "kept"},
                        "locations": [
                            {
                                "physicalLocation": {
                                    "artifactLocation": {"uri": "my%20dir/a.rs"},
                                    "region": {"startLine": 4},
                                }
                            }
                        ],
                    },
                ],
            }
        ]
    }
    file = tmp_path / "b.sarif"
    file.write_text(json.dumps(log), encoding="utf-8")
    assert baseline.load(file).entries == (BaselineEntry("my dir/a.rs", "kept", "BL001", 4),)
    file.write_bytes(b"\xff\xfe{}")
    with pytest.raises(BaselineError, match="not UTF-8"):
        baseline.load(file)


# --- test code: the per-file-ignores recipe ---------------------------------------------------

LOADER = """\
use burn_store::{ModuleSnapshot, PytorchStore};

// a mirror of PyTorch's Sequential: `PytorchStore`'s default renumbering breaks it (BL005)
#[derive(Module, Debug)]
enum Layer<B: Backend> { Linear(Linear<B>), Relu(Relu) }
#[derive(Module, Debug)]
struct Mlp<B: Backend> { net: Vec<Layer<B>> }

fn load<M: ModuleSnapshot>(model: &mut M) -> Result<(), Box<dyn std::error::Error>> {
    let mut store = PytorchStore::from_file("weights.pt");
    model.load_from(&mut store)?;
    Ok(())
}
"""


def test_per_file_ignores_recipe_silences_bl005_in_tests_only(
    runner: CliRunner, crate: Path
) -> None:
    (crate / "src" / "main.rs").write_text(LOADER)
    for test_file in ("tests/load.rs", "benches/load.rs", "src/model/tests/load.rs"):
        (crate / test_file).parent.mkdir(parents=True, exist_ok=True)
        (crate / test_file).write_text(LOADER)

    def bl005_paths() -> set[str]:
        report = json_of(run(runner, crate, "--format", "json", "--select", "BL005").stdout)
        return {f["path"] for f in report["findings"]}

    everything = json_of(run(runner, crate, "--format", "json", "--select", "BL005").stdout)
    tagged = {f["path"] for f in everything["findings"] if "test-code" in f["tags"]}
    assert tagged == {"tests/load.rs", "benches/load.rs", "src/model/tests/load.rs"}
    assert bl005_paths() == tagged | {"src/main.rs"}
    (crate / "burnlint.toml").write_text(
        '[per-file-ignores]\n"**/tests/**" = ["BL005"]\n"**/benches/**" = ["BL005"]\n'
    )
    assert bl005_paths() == {"src/main.rs"}
