"""Where reports go: ``-`` is stdout for ``-o`` and ``--output-format``, and no output replaces
an input of the run (a file checked, a configuration read, a Cargo manifest or lock file)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from burnlint import cli

STORE_CODE = """\
use burn_store::{ModuleSnapshot, SafetensorsStore};

fn save<M: ModuleSnapshot>(model: &M) {
    let mut store = SafetensorsStore::from_file("model.safetensors").overwrite(true);
    let _ = model.save_into(&mut store);
}
"""
CONCISE_FINDING = "src/main.rs:5:13: error[BL001]"


@pytest.fixture
def crate(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "main.rs").write_text(STORE_CODE)
    return tmp_path


def run(runner: CliRunner, *args: str) -> Result:
    out = runner.invoke(cli.cli, ["--no-cache", *args], catch_exceptions=False)
    assert "Traceback" not in out.stdout + out.stderr
    return out


# --- `-` is stdout ---


def test_dash_writes_the_report_to_stdout(runner: CliRunner, crate: Path) -> None:
    out = run(runner, "--format", "concise", "-o", "-", ".")
    assert out.exit_code == 1
    assert out.stdout.startswith(CONCISE_FINDING)
    out = run(runner, "--format", "sarif", "-o", "r.sarif", "--output-format", "json=-", ".")
    assert out.exit_code == 1
    assert json.loads(out.stdout)["findings"][0]["rule_id"] == "BL001"
    assert json.loads((crate / "r.sarif").read_text())["runs"][0]["results"]
    assert not (crate / "-").exists()
    # `./-` still names a file called `-`
    assert run(runner, "--format", "concise", "-o", "./-", ".").exit_code == 1
    assert (crate / "-").read_text().startswith(CONCISE_FINDING)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--output-format", "json=-"],
            "the report (without -o) and `--output-format json=-` would both write to stdout",
        ),
        (
            ["-o", "-", "--output-format", "json=-"],
            "`-o -` and `--output-format json=-` would both write to stdout",
        ),
        (["--diff", "-o", "-"], "--diff prints the diff on stdout: `-o -` cannot write there"),
        (
            ["--diff", "--output-format", "sarif=-"],
            "--diff prints the diff on stdout: `--output-format sarif=-` cannot write there",
        ),
    ],
)
def test_two_reports_on_stdout_are_refused(
    runner: CliRunner, crate: Path, args: list[str], message: str
) -> None:
    out = run(runner, *args, ".")
    assert out.exit_code == 2
    assert message in out.stderr
    assert out.stdout == ""
    assert not (crate / "-").exists()
