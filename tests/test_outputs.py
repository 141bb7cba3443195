"""Where reports go: ``-`` is stdout for ``-o`` and ``--output-format``, and no output replaces
an input of the run (a file checked, a configuration read, a Cargo manifest or lock file)."""

from __future__ import annotations

import json
import os
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


def test_write_baseline_dash_writes_the_baseline_to_stdout(runner: CliRunner, crate: Path) -> None:
    """It created a file named `-`; the report goes to a file, the baseline to stdout."""
    out = run(runner, "-o", "r.txt", "--write-baseline", "-", ".")
    assert out.exit_code == 1
    assert json.loads(out.stdout)["findings"][0]["rule_id"] == "BL001"
    assert "wrote 1 finding to stdout" in out.stderr
    assert "--> src/main.rs:5:13" in (crate / "r.txt").read_text()
    assert not (crate / "-").exists()
    # with --diff too: the diff holds stdout
    out = run(runner, "--diff", "--write-baseline", "-", ".")
    assert out.exit_code == 2
    assert "--diff prints the diff on stdout: `--write-baseline -` cannot write there" in (
        out.stderr
    )
    assert not (crate / "-").exists()


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
        (
            ["--write-baseline", "-"],
            "the report (without -o) and `--write-baseline -` would both write to stdout",
        ),
        (
            ["-o", "-", "--write-baseline", "-"],
            "`-o -` and `--write-baseline -` would both write to stdout",
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


# --- no output replaces an input ---


@pytest.fixture
def project(crate: Path) -> Path:
    (crate / "Cargo.toml").write_text('[package]\nname = "c"\nversion = "0.1.0"\n')
    (crate / "Cargo.lock").write_text("version = 3\n")
    (crate / "burnlint.toml").write_text('select = ["ALL"]\n')
    (crate / "src" / "import.rs").write_text(STORE_CODE)
    return crate


def inputs(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".json" not in p.name
    }


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["-o", "src/main.rs"],
            "`-o src/main.rs` would replace `src/main.rs`, a file being checked",
        ),
        (
            ["--write-baseline", "src/import.rs"],
            "`--write-baseline src/import.rs` would replace `src/import.rs`, a file being checked",
        ),
        (
            ["-o", "burnlint.toml"],
            "`-o burnlint.toml` would replace `burnlint.toml`, a configuration file",
        ),
        (
            ["--output-format", "sarif=Cargo.toml"],
            "`--output-format sarif=Cargo.toml` would replace `Cargo.toml`, a Cargo manifest",
        ),
        (["-o", "Cargo.lock"], "`-o Cargo.lock` would replace `Cargo.lock`, a lock file"),
        # the same file by another name: a symbolic link, a hard link
        (["-o", "link.json"], "`-o link.json` would replace `src/main.rs`, a file being checked"),
        (
            ["--output-format", "json=hard.json"],
            "`--output-format json=hard.json` would replace `src/import.rs`, a file being checked",
        ),
    ],
)
def test_an_output_never_replaces_an_input(
    runner: CliRunner, project: Path, args: list[str], message: str
) -> None:
    (project / "link.json").symlink_to(project / "src" / "main.rs")
    os.link(project / "src" / "import.rs", project / "hard.json")
    before = inputs(project)
    for more in ([], ["--fix"], ["--format", "json"]):
        out = run(runner, *args, *more, ".")
        assert out.exit_code == 2
        assert out.stderr == f"burnlint: error: {message}; write the report to another file\n"
        assert inputs(project) == before
    # the same with a broken configuration (its problem is still reported in every output)
    (project / "burnlint.toml").write_text("selct = []\n")
    out = run(runner, *args, ".")
    assert out.exit_code == 2
    assert message in out.stderr
    assert (project / "burnlint.toml").read_text() == "selct = []\n"


def test_an_output_beside_the_inputs_is_written(runner: CliRunner, project: Path) -> None:
    """A report that already exists is replaced as before; with `--stdin-filename`, the file
    checked and the rest of its crate are inputs too."""
    (project / "report.json").write_text("old\n")
    assert run(runner, "--format", "json", "-o", "report.json", ".").exit_code == 1
    assert json.loads((project / "report.json").read_text())["findings"]
    out = runner.invoke(
        cli.cli,
        ["--no-cache", "--stdin-filename", "src/new.rs", "-o", "src/import.rs"],
        input=STORE_CODE,
    )
    assert out.exit_code == 2
    assert "`-o src/import.rs` would replace `src/import.rs`, a file being checked" in out.stderr
    out = runner.invoke(
        cli.cli,
        ["--no-cache", "--stdin-filename", "src/main.rs", "-o", "src/main.rs"],
        input=STORE_CODE,
    )
    assert out.exit_code == 2
    assert (project / "src" / "main.rs").read_text() == STORE_CODE
