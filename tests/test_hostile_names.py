"""File names an attacker chooses: a control character in a path never reaches a report or a
message raw, whatever the format (a newline would start a line of its own: a file named
``x\\n::error title=..::..`` forges a GitHub workflow command in a CI log), and a name that is
not UTF-8 never makes the JSON report invalid."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from burnlint import cli
from burnlint.paths import escape_controls

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX file names")

STORE_CODE = """\
use burn_store::{ModuleSnapshot, SafetensorsStore};

fn save<M: ModuleSnapshot>(model: &M) {
    // burnlint: allow(BL005)
    let mut store = SafetensorsStore::from_file("model.safetensors").overwrite(true);
    let _ = model.save_into(&mut store);
}
"""
# a finding (BL001) and a safe fix (BL008: the allow suppresses nothing)
FORGED = "x\n::error title=FAKE::forged\ny.rs"
ESCAPED = "x\\n::error title=FAKE::forged\\ny.rs"
FORMATS = ("text", "concise", "github", "json", "sarif")


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "src").mkdir()
    return tmp_path


def run(runner: CliRunner, *args: str) -> Result:
    out = runner.invoke(cli.cli, ["--no-cache", *args], catch_exceptions=False)
    assert "Traceback" not in out.stdout + out.stderr
    return out


def forged_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.lstrip().startswith("::error title=FAKE")]


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("src/a.rs", "src/a.rs"),
        ("a\nb\rc\td", "a\\nb\\rc\\td"),
        ("\x1b[31mred\x00\x7f", "\\x1b[31mred\\x00\\x7f"),
        ("next\x85line\x9b", "next\\x85line\\x9b"),  # C1: NEL, CSI
        ("é ü \u2028 \\n", "é ü \u2028 \\n"),  # not control characters: kept
    ],
)
def test_escape_controls(text: str, shown: str) -> None:
    assert escape_controls(text) == shown


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_newline_in_a_file_name_never_starts_a_line(
    runner: CliRunner, here: Path, fmt: str
) -> None:
    (here / "src" / FORGED).write_text(STORE_CODE)
    (here / "src" / "b\x1b[2Jc.rs").write_bytes(b"\x00")  # a warning about a file
    out = run(runner, "--format", fmt, ".")
    assert out.exit_code == 1
    assert forged_lines(out.stdout + out.stderr) == []
    assert "\x1b" not in out.stdout + out.stderr
    if fmt in ("text", "concise"):
        assert ESCAPED in out.stdout
        assert "b\\x1b[2Jc.rs" in out.stdout
    if fmt == "github":  # one annotation a line, `:` escaped in properties as GitHub's toolkit does
        assert [line.split(" ", 1)[0] for line in out.stdout.splitlines()] == [
            "::notice",
            "::error",
            "::warning",
        ]
        assert ESCAPED.replace(":", "%3A") in out.stdout
        assert "file=src/b\\x1b[2Jc.rs," in out.stdout
    if fmt == "json":  # a structured field: the path itself, escaped by JSON
        paths = {finding["path"] for finding in json.loads(out.stdout)["findings"]}
        assert paths == {f"src/{FORGED}"}


def test_a_newline_in_a_path_never_starts_a_line_of_a_message(
    runner: CliRunner, here: Path
) -> None:
    """Diff headers, stderr lines and the messages inside reports."""
    (here / "src" / FORGED).write_text(STORE_CODE)
    out = run(runner, "--diff", ".")
    assert out.exit_code == 1
    assert forged_lines(out.stdout + out.stderr) == []
    assert f"--- a/src/{ESCAPED}\n+++ b/src/{ESCAPED}\n" in out.stdout
    empty = here / "empty\n::error title=FAKE::forged"
    empty.mkdir()
    out = run(runner, "--format", "sarif", empty.name)
    assert out.exit_code == 0
    assert forged_lines(out.stderr) == []
    assert "no Rust files found in `empty\\n::error title=FAKE::forged`" in out.stderr
    baseline = "base\n::error title=FAKE::forged.json"
    for fmt in FORMATS:
        out = run(runner, "--format", fmt, "--baseline", baseline, ".")
        assert out.exit_code == 2
        assert forged_lines(out.stdout + out.stderr) == [], fmt
        assert "base\\n::error title=FAKE::forged.json" in out.stdout + out.stderr


@pytest.mark.skipif(sys.platform == "darwin", reason="APFS names are UTF-8")
def test_a_name_that_is_not_utf8_gives_strict_json(runner: CliRunner, here: Path) -> None:
    """JSON writes the bytes of such a name percent-encoded, as SARIF's URIs do: a lone
    surrogate (``\\udcff``) is rejected by strict decoders."""
    name = os.fsdecode(b"src/caf\xe9.rs")
    Path(name).write_text(STORE_CODE)
    for fmt in ("json", "sarif"):
        report = here / f"report.{fmt}"
        assert run(runner, "--format", fmt, "-o", str(report), ".").exit_code == 1
        text = report.read_bytes().decode("utf-8")  # strict
        assert "\\udc" not in text
        document = json.loads(text)
        if fmt == "json":
            assert document["findings"][0]["path"] == "src/caf%E9.rs"
        else:
            uri = document["runs"][0]["results"][0]["locations"][0]["physicalLocation"]
            assert uri["artifactLocation"]["uri"] == "src/caf%E9.rs"
    out = run(runner, "--format", "json", ".")
    json.loads(out.stdout)
    assert "\\udc" not in out.stdout
    # a baseline written so still matches the finding it holds
    for baseline in ("base.json", "base.sarif"):
        assert run(runner, "--format", "json", "--write-baseline", baseline, ".").exit_code == 1
        out = run(runner, "--format", "json", "--baseline", baseline, ".")
        assert out.exit_code == 0, out.stdout
        assert json.loads(out.stdout)["baseline"]["unchanged"] == 2
