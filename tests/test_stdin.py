"""--stdin-filename: the source read from stdin is checked as if it were PATH, with its crate."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from burnlint import cli, engine
from burnlint.options import EngineOptions
from burnlint.rules.registry import resolve

TESTDATA = Path(__file__).resolve().parent.parent / "testdata"
# report/concise.py's documented regex: what an editor's problem matcher relies on
CONCISE = re.compile(r"^(.+):(\d+):(\d+): (error|warning|note)\[(BL\d+)\] (.+)$")


@pytest.fixture
def crate(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A crate whose binary saves through helpers defined in its lib (other files)."""
    root = tmp_path / "checkpoint-helper"
    shutil.copytree(TESTDATA / "crates" / "checkpoint-helper", root)
    monkeypatch.chdir(root)
    return root


def run(runner: CliRunner, root: Path, *args: str, stdin: bytes = b"") -> Result:
    return runner.invoke(
        cli.cli, ["--project-root", str(root), *args], input=stdin, catch_exceptions=False
    )


def findings(out: Result) -> list[tuple[str, int, str]]:
    rows = []
    for line in out.stdout.splitlines():
        match = CONCISE.match(line)
        if match:
            rows.append((match.group(1), int(match.group(2)), match.group(5)))
    return rows


def test_stdin_gets_the_crate_context_of_its_path(runner: CliRunner, crate: Path) -> None:
    main = crate / "src" / "main.rs"
    on_disk = run(runner, crate, "--format", "concise", "src/main.rs")
    expected = [
        ("src/main.rs", 24, "BL002"),
        ("src/main.rs", 29, "BL001"),
        ("src/main.rs", 34, "BL001"),
    ]
    assert findings(on_disk) == expected
    data = main.read_bytes()
    out = run(runner, crate, "--format", "concise", "--stdin-filename", "src/main.rs", stdin=data)
    assert out.exit_code == 1
    assert findings(out) == expected  # the helpers of src/checkpoint.rs are known
    assert out.stdout.endswith("found 3 problems in 1 file checked\n")
    # `-` as the only path says the same
    dash = run(
        runner, crate, "--format", "concise", "--stdin-filename", "src/main.rs", "-", stdin=data
    )
    assert dash.stdout == out.stdout


def test_the_unsaved_buffer_is_checked_and_nothing_is_written(
    runner: CliRunner, crate: Path
) -> None:
    main = crate / "src" / "main.rs"
    before = main.read_bytes()
    stat = os.stat(main)
    edited = before.replace(
        b"save_best(&model, &dir).ok(); // expect: BL001", b"save_best(&model, &dir)?;"
    )
    assert edited != before
    out = run(runner, crate, "--format", "concise", "--stdin-filename", "src/main.rs", stdin=edited)
    assert findings(out) == [("src/main.rs", 24, "BL002"), ("src/main.rs", 34, "BL001")]
    assert main.read_bytes() == before
    assert os.stat(main).st_mtime_ns == stat.st_mtime_ns


def test_a_new_file_that_is_not_on_disk_yet(runner: CliRunner, crate: Path) -> None:
    source = b"""\
use checkpoint_helper::checkpoint::save_best;
use checkpoint_helper::model::Mlp;

fn main() {
    let model = Mlp::new(&Default::default());
    let _ = save_best(&model, std::path::Path::new("runs"));
}
"""
    out = run(
        runner,
        crate,
        "--format",
        "concise",
        "--stdin-filename",
        "src/bin/new_tool.rs",
        stdin=source,
    )
    assert out.exit_code == 1
    assert findings(out) == [("src/bin/new_tool.rs", 6, "BL001")]
    assert not (crate / "src" / "bin" / "new_tool.rs").exists()


def test_other_formats_and_configuration_apply(runner: CliRunner, crate: Path) -> None:
    data = (crate / "src" / "main.rs").read_bytes()
    (crate / "burnlint.toml").write_text('[per-file-ignores]\n"src/main.rs" = ["BL001"]\n')
    out = run(runner, crate, "--format", "concise", "--stdin-filename", "src/main.rs", stdin=data)
    assert findings(out) == [("src/main.rs", 24, "BL002")]
    json_out = run(runner, crate, "--format", "json", "--stdin-filename", "src/main.rs", stdin=data)
    assert '"path": "src/main.rs"' in json_out.stdout


def test_force_exclude_skips_an_excluded_path(runner: CliRunner, crate: Path) -> None:
    data = (crate / "src" / "main.rs").read_bytes()
    args = ["--format", "concise", "--exclude", "src/main.rs", "--stdin-filename", "src/main.rs"]
    assert len(findings(run(runner, crate, *args, stdin=data))) == 3  # named: checked
    out = run(runner, crate, *args, "--force-exclude", stdin=data)
    assert findings(out) == []
    assert out.exit_code == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-"], "`-` reads the source from stdin: give --stdin-filename PATH as well"),
        (
            ["--stdin-filename", "src/main.rs", "src"],
            "--stdin-filename checks the source read from stdin: give no PATHS, or `-`",
        ),
        (
            ["--stdin-filename", "src/main.rs", "--fix"],
            "--fix, --diff and --add-allow edit files: they cannot check stdin",
        ),
        (
            ["--stdin-filename", "src/main.rs", "--diff"],
            "--fix, --diff and --add-allow edit files: they cannot check stdin",
        ),
    ],
)
def test_usage_errors(runner: CliRunner, crate: Path, args: list[str], message: str) -> None:
    out = run(runner, crate, *args, stdin=b"fn main() {}\n")
    assert out.exit_code == 2
    assert out.stderr == f"burnlint: error: {message}\n"


def test_lint_source_reads_the_crate_but_reports_only_the_path(crate: Path) -> None:
    options = EngineOptions(rule_ids=resolve(), project_root=crate)
    main = crate / "src" / "main.rs"
    data = main.read_bytes()
    alone = engine.lint_files([main], options, overrides={main: data})
    assert alone.findings == ()  # without the crate, the helpers are unknown
    result = engine.lint_source(main, data, options)
    assert [(f.location.path, f.rule_id) for f in result.findings] == [
        (main, "BL002"),
        (main, "BL001"),
        (main, "BL001"),
    ]
    assert result.stats.files_checked == 1
    assert result.findings == engine.lint_paths([main], options).findings
    # outside any crate the file stands alone
    loose = crate.parent / "loose.rs"
    assert engine.lint_source(loose, data, options).stats.files_checked == 1
    assert not loose.exists()
