"""Strange input never produces a traceback: each case gives a clear message and a defined
exit code, and nothing is written unless ``--fix`` was asked for.

Exit codes (README, "Exit codes"): 0 clean, 1 findings, 2 usage, configuration or internal
error. A file named on the command line that cannot be read or decoded is an error; one found
by the walk a warning while other files are checked; a file skipped for its size a note; when
every file found is skipped, whatever the reason, the exit code is 2 (``test_skipped_inputs``).
"""

from __future__ import annotations

import builtins
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

import burnlint.engine.crate
import burnlint.engine.scan
from burnlint import cli
from burnlint.engine import lint_paths
from burnlint.options import EngineOptions
from burnlint.rules.registry import resolve

STORE_CODE = """\
use burn_store::{ModuleSnapshot, SafetensorsStore};

fn save<M: ModuleSnapshot>(model: &M) {
    let mut store = SafetensorsStore::from_file("model.safetensors").overwrite(true);
    let _ = model.save_into(&mut store);
}
"""
FINDING_LINE = 5


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(runner: CliRunner, *args: str) -> Result:
    out = runner.invoke(cli.cli, list(args), catch_exceptions=True)
    assert out.exception is None or isinstance(out.exception, SystemExit), out.exception
    assert "Traceback" not in out.stdout + out.stderr
    return out


def run_process(*args: str, cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(
        [sys.executable, "-m", "burnlint", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        check=False,
        timeout=timeout,
        env={**os.environ, "BURNLINT_DEBUG": "", "NO_COLOR": "1"},
    )
    assert "Traceback" not in proc.stdout + proc.stderr
    return proc


def snapshot(root: Path) -> dict[str, tuple[bytes, int]]:
    return {
        p.relative_to(root).as_posix(): (p.read_bytes(), p.stat().st_mtime_ns)
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


# --- paths ---


def test_nonexistent_path(runner: CliRunner, here: Path) -> None:
    out = run(runner, "no/such/dir")
    assert out.exit_code == 2
    assert "error: no/such/dir: path does not exist" in out.stdout
    proc = run_process("no-such-file.rs", cwd=here)
    assert proc.returncode == 2
    assert "error: no-such-file.rs: path does not exist" in proc.stdout


def test_directory_without_rust_files(runner: CliRunner, here: Path) -> None:
    (here / "notes.txt").write_text("hello\n")
    out = run(runner, ".")
    assert out.exit_code == 0
    assert out.stdout == "no problems found in 0 files checked\n"
    assert out.stderr == "burnlint: warning: no Rust files found in `.`\n"


def test_a_path_given_twice_is_checked_once(runner: CliRunner, here: Path) -> None:
    (here / "a.rs").write_text(STORE_CODE)
    out = run(runner, "--format", "concise", "a.rs", "./a.rs", str(here / "a.rs"), ".")
    assert out.exit_code == 1
    assert out.stdout.splitlines()[-1] == "found 1 problem in 1 file checked"


# --- files that cannot be used ---


def test_unreadable_file(runner: CliRunner, here: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (here / "locked.rs").write_text(STORE_CODE)
    (here / "ok.rs").write_text(STORE_CODE)
    real_open = builtins.open

    def deny(file: object, *args: object, **kwargs: object) -> object:
        if str(file).endswith("locked.rs"):
            raise PermissionError(13, "Permission denied", str(file))
        return real_open(file, *args, **kwargs)  # type: ignore[call-overload]

    # the engine's own `open` (a root user could read a chmod-000 file anyway)
    monkeypatch.setattr(burnlint.engine.scan, "open", deny, raising=False)
    monkeypatch.setattr(burnlint.engine.crate, "open", deny, raising=False)
    out = run(runner, "--format", "concise", "locked.rs")
    assert out.exit_code == 2  # named, and it could not be checked
    assert "locked.rs: error: cannot read: Permission denied" in out.stdout
    out = run(runner, "--format", "concise", ".")
    assert out.exit_code == 1  # the other file was checked and has a finding
    assert "locked.rs: warning: cannot read: Permission denied" in out.stdout
    assert "ok.rs:5:13: error[BL001]" in out.stdout


@pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root reads unreadable files"
)
def test_unreadable_file_for_real(runner: CliRunner, here: Path) -> None:
    locked = here / "locked.rs"
    locked.write_text(STORE_CODE)
    locked.chmod(0)
    try:
        out = run(runner, "locked.rs")
    finally:
        locked.chmod(0o644)
    assert out.exit_code == 2
    assert "cannot read: Permission denied" in out.stdout


def test_binary_file_with_a_rust_name(runner: CliRunner, here: Path) -> None:
    (here / "blob.rs").write_bytes(bytes(range(256)) * 4)
    out = run(runner, "blob.rs")
    assert out.exit_code == 2
    assert out.stdout == (
        "error: blob.rs: skipped: binary file (contains NUL bytes)\n\n"
        "no files checked (1 file skipped)\n"
    )
    (here / "ok.rs").write_text("fn main() {}\n")
    out = run(runner, ".")
    assert out.exit_code == 0  # a warning while another file is checked
    assert out.stdout.splitlines()[-1] == "no problems found in 1 file checked"


def test_invalid_utf8(runner: CliRunner, here: Path) -> None:
    latin1 = STORE_CODE.replace("fn save", "// réglé\nfn save").encode("latin-1")
    (here / "latin1.rs").write_bytes(latin1)
    out = run(runner, "latin1.rs")
    assert out.exit_code == 2
    assert "error: latin1.rs: skipped: not valid UTF-8 at byte offset 57" in out.stdout
    proc = run_process("latin1.rs", cwd=here)
    assert proc.returncode == 2


def test_utf8_with_bom(runner: CliRunner, here: Path) -> None:
    (here / "bom.rs").write_bytes(b"\xef\xbb\xbf" + STORE_CODE.encode())
    out = run(runner, "--format", "concise", "bom.rs")
    assert out.exit_code == 1
    assert out.stdout.startswith(f"bom.rs:{FINDING_LINE}:13: error[BL001]")


def test_crlf_line_endings(runner: CliRunner, here: Path) -> None:
    (here / "crlf.rs").write_bytes(STORE_CODE.replace("\n", "\r\n").encode())
    out = run(runner, "crlf.rs")
    assert out.exit_code == 1
    assert " --> crlf.rs:5:13" in out.stdout
    assert "\r" not in out.stdout
    assert "5 |     let _ = model.save_into(&mut store);\n" in out.stdout


def test_a_20_megabyte_file_is_skipped_with_a_note(runner: CliRunner, here: Path) -> None:
    big = here / "generated.rs"
    with big.open("w") as fh:
        line = "// " + "x" * 96 + "\n"
        fh.write(line * 210_000)  # 21 MB
    out = run(runner, ".")
    assert out.exit_code == 2  # nothing was checked
    assert out.stdout == (
        "note: generated.rs: skipped: 21,000,000 bytes is over the limit of 2,000,000\n\n"
        "no files checked (1 file skipped)\n"
    )
    (here / "ok.rs").write_text("fn main() {}\n")
    assert run(runner, ".").exit_code == 0  # a note while another file is checked
    (here / "ok.rs").unlink()
    out = run(runner, "--max-file-size", "25MB", ".")
    assert out.exit_code == 0
    assert out.stdout == "no problems found in 1 file checked\n"


@pytest.mark.parametrize(
    ("name", "data", "options"),
    [
        ("blob.rs", b"\x00\x01" * 100, []),
        ("latin1.rs", STORE_CODE.replace("fn", "// é\nfn", 1).encode("latin-1"), []),
        ("big.rs", b"// " + b"x" * 2000 + b"\n", ["--max-file-size", "1KB"]),
    ],
    ids=["binary", "not-utf8", "too-large"],
)
def test_every_file_skipped_exits_2_whatever_the_reason(
    runner: CliRunner, here: Path, name: str, data: bytes, options: list[str]
) -> None:
    """One rule: a run that found Rust files but checked none of them did not check the code,
    so it cannot pass (exit 2, even with --exit-zero), whichever reason skipped them."""
    (here / name).write_bytes(data)
    for args in ([], ["--exit-zero"], ["--format", "sarif"]):
        out = run(runner, *options, *args, ".")
        assert out.exit_code == 2, (args, out.stdout)
    (here / "ok.rs").write_text("fn main() {}\n")
    assert run(runner, *options, ".").exit_code == 0


@pytest.mark.parametrize(
    "code",
    [
        # 5,000 nested blocks with the finding at the bottom
        "fn save<M: ModuleSnapshot>(model: &M) "
        + "{" * 5000
        + '\nlet mut s = SafetensorsStore::from_file("m").overwrite(true);\n'
        + "let _ = model.save_into(&mut s);\n"
        + "}" * 5000,
        # 5,000 nested loops
        "fn save<M: ModuleSnapshot>(model: &M) {"
        + "for _ in 0..2 {" * 5000
        + '\nlet _ = model.save_into(&mut SafetensorsStore::from_file("m").overwrite(true));\n'
        + "}" * 5001,
        # 5,000 nested calls and parentheses around the save
        "fn save<M: ModuleSnapshot>(model: &M) { let _ = "
        + "f((" * 5000
        + 'model.save_into(&mut SafetensorsStore::from_file("m").overwrite(true))'
        + "))" * 5000
        + "; }",
    ],
    ids=["blocks", "loops", "calls"],
)
def test_deep_nesting(runner: CliRunner, here: Path, code: str) -> None:
    header = "use burn_store::{ModuleSnapshot, SafetensorsStore};\n"
    (here / "deep.rs").write_text(header + code + "\n")
    out = run(runner, "--format", "concise", "--select", "ALL", "deep.rs")
    assert out.exit_code in (0, 1)
    assert "internal error" not in out.stderr
    assert not any("crashed" in line for line in out.stdout.splitlines())


def test_a_file_that_is_only_a_syntax_error(runner: CliRunner, here: Path) -> None:
    (here / "broken.rs").write_text("use burn_store::SafetensorsStore; fn ((((( }}} ))\n")
    out = run(runner, "broken.rs")
    assert out.exit_code == 0
    assert out.stdout == (
        "note: broken.rs:1: syntax error near line 1; findings in this file may be incomplete\n\n"
        "no problems found in 1 file checked\n"
    )


def test_an_empty_file(runner: CliRunner, here: Path) -> None:
    (here / "empty.rs").write_bytes(b"")
    out = run(runner, "empty.rs")
    assert out.exit_code == 0
    assert out.stdout == "no problems found in 1 file checked\n"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs")
def test_fifos_never_block_a_run(here: Path) -> None:
    """A FIFO named `*.rs` in a checked directory, or given as the configuration, is not
    read: reading it would wait for a writer forever."""
    (here / "ok.rs").write_text(STORE_CODE)
    os.mkfifo(here / "pipe.rs")
    proc = run_process("--format", "concise", ".", cwd=here, timeout=60)
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout.splitlines()[:2] == [
        "ok.rs:5:13: error[BL001] the `Result` of `save_into` is discarded: "
        "a failed save goes unnoticed and the file on disk keeps its old contents",
        "pipe.rs: warning: not a regular file, skipped",
    ]
    os.mkfifo(here / "settings.toml")
    proc = run_process("--config", "settings.toml", "ok.rs", cwd=here, timeout=60)
    assert proc.returncode == 2
    assert proc.stdout.startswith(
        "error: settings.toml: not a regular file (a FIFO or a device), not read\n"
    )


# --- configuration files ---


def test_a_broken_cargo_toml(runner: CliRunner, here: Path) -> None:
    (here / "Cargo.toml").write_text("[package\nname = 'x'\n")
    (here / "src").mkdir()
    (here / "src" / "main.rs").write_text(STORE_CODE)
    out = run(runner, "--format", "concise", ".")
    assert out.exit_code == 1  # the finding; the manifest only costs the burn version
    assert (
        "Cargo.toml: warning: not valid TOML: Expected ']' at the end of a table declaration "
        "(at line 1, column 9); the burn version is not read from it"
    ) in out.stdout


def test_a_burnlint_toml_that_is_not_toml(runner: CliRunner, here: Path) -> None:
    (here / "burnlint.toml").write_text("[select\nBL001\n")
    (here / "main.rs").write_text(STORE_CODE)
    out = run(runner, ".")
    assert out.exit_code == 2
    assert out.stdout.startswith("error: burnlint.toml:1: not valid TOML: ")
    proc = run_process("--format", "sarif", ".", cwd=here)
    assert proc.returncode == 2
    assert '"executionSuccessful": false' in proc.stdout
    assert "burnlint: error: burnlint.toml:1: not valid TOML" in proc.stderr


# --- nothing is written unless --fix ---


@pytest.fixture
def zoo(here: Path) -> Iterator[Path]:
    """Every kind of odd file in one tree, plus a fixable finding."""
    (here / "Cargo.toml").write_text("[package\n")
    (here / "blob.rs").write_bytes(b"\x00\x01" * 100)
    (here / "latin1.rs").write_bytes(STORE_CODE.replace("fn", "// é\nfn", 1).encode("latin-1"))
    (here / "bom.rs").write_bytes(b"\xef\xbb\xbf" + STORE_CODE.encode())
    (here / "crlf.rs").write_bytes(STORE_CODE.replace("\n", "\r\n").encode())
    (here / "empty.rs").write_bytes(b"")
    (here / "broken.rs").write_text("fn (((\n")
    (here / "stale.rs").write_text(
        STORE_CODE.replace("let _ =", "// burnlint: allow(BL003)\n    let _ =")
    )
    yield here


def test_no_file_is_written_unless_fix(runner: CliRunner, zoo: Path) -> None:
    before = snapshot(zoo)
    for fmt in ("text", "concise", "json", "sarif", "github"):
        out = run(runner, "--format", fmt, "--statistics", ".")
        assert out.exit_code == 1, (fmt, out.stdout)
    assert run(runner, "--diff", ".").exit_code == 1
    assert run(runner, "config").exit_code == 0
    assert snapshot(zoo) == before
    out = run(runner, "--fix", ".")
    after = snapshot(zoo)
    changed = sorted(name for name in after if after[name] != before[name])
    assert changed == ["stale.rs"]  # the unused suppression is removed: a safe fix
    assert b"burnlint: allow" not in after["stale.rs"][0]


def test_a_non_utf8_file_is_skipped_whatever_the_prefilter(tmp_path: Path) -> None:
    """A file that is not UTF-8 is skipped and said so, with the prefilter on (it holds no
    trigger word) as with it off: the counts and the exit code do not depend on it."""
    (tmp_path / "odd.rs").write_bytes(b"// caf\xe9\nfn main() {}\n")
    (tmp_path / "ok.rs").write_bytes(b"fn main() {}\n")
    for prefilter in (True, False):
        result = lint_paths(
            [tmp_path],
            EngineOptions(rule_ids=resolve(), project_root=tmp_path, prefilter=prefilter),
        )
        assert (result.stats.files_checked, result.stats.files_skipped) == (1, 1)
        assert [n.message for n in result.notifications] == [
            "skipped: not valid UTF-8 at byte offset 6"
        ]
