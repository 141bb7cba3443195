"""Standard streams and the working directory that cannot be used: stdout closed (``>&-``)
or full (``/dev/full``), stdin closed (``<&-``), the current directory deleted. Every
subcommand says so in one line and exits 2; never a traceback, never exit 0 with the output
lost. Run as real processes: the streams are the process's own."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX descriptors")

STORE_CODE = """\
use burn_store::{ModuleSnapshot, SafetensorsStore};

fn save<M: ModuleSnapshot>(model: &M) {
    // burnlint: allow(BL005)
    let mut store = SafetensorsStore::from_file("model.safetensors").overwrite(true);
    let _ = model.save_into(&mut store);
}
"""
# every subcommand that writes to stdout (`-q` with findings, `--diff` with a fix to show)
COMMANDS = [
    ["-q", "."],
    ["--format", "sarif", "."],
    ["--diff", "."],
    ["rules"],
    ["rule", "BL001"],
    ["config"],
    ["clean", "--cache-dir", "no-cache-here"],
    ["--help"],
    ["--version"],
]
CLOSED = "burnlint: error: cannot write the report to stdout: Bad file descriptor\n"
FULL = "burnlint: error: cannot write the report to stdout: No space left on device\n"


@pytest.fixture
def crate(tmp_path: Path) -> Path:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "main.rs").write_text(STORE_CODE)
    return tmp_path


def run(
    args: list[str],
    cwd: Path,
    *,
    stdout: int | None = None,
    stdin: int | None = subprocess.DEVNULL,
    before: Callable[[], None] | None = None,
) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(
        [sys.executable, "-m", "burnlint", *args],
        stdin=stdin,
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        cwd=cwd,
        check=False,
        timeout=120,
        preexec_fn=before,
        env={**os.environ, "BURNLINT_DEBUG": "", "NO_COLOR": "1"},
    )
    assert "Traceback" not in proc.stderr
    assert "Exception ignored" not in proc.stderr
    return proc


def _close_stdout() -> None:
    os.close(1)


def _close_stdin() -> None:
    os.close(0)


@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_stdout_closed(crate: Path, args: list[str]) -> None:
    proc = run(args, crate, before=_close_stdout)
    assert (proc.returncode, proc.stderr) == (2, CLOSED)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_stdout_full(crate: Path, args: list[str]) -> None:
    with open("/dev/full", "w") as full:
        proc = run(args, crate, stdout=full.fileno())
    assert proc.returncode == 2
    assert proc.stderr.endswith(FULL)  # after the count of `--diff`'s fixes
    assert proc.stderr.count("burnlint: error:") == 1


def test_a_run_that_writes_nothing_to_stdout_does_not_need_it(crate: Path) -> None:
    proc = run(["--format", "sarif", "-o", "out.sarif", "."], crate, before=_close_stdout)
    assert (proc.returncode, proc.stderr) == (1, "")  # the finding
    assert (crate / "out.sarif").stat().st_size > 0


def test_stdin_closed(crate: Path) -> None:
    proc = run(
        ["--stdin-filename", "src/main.rs"],
        crate,
        stdin=None,
        stdout=subprocess.PIPE,
        before=_close_stdin,
    )
    assert proc.returncode == 2
    assert (
        proc.stderr == "burnlint: error: cannot read the source from stdin: Bad file descriptor\n"
    )
    assert proc.stdout == ""


@pytest.mark.parametrize("args", [["."], ["config"], ["clean"]], ids=" ".join)
def test_the_working_directory_deleted(tmp_path: Path, args: list[str]) -> None:
    gone = tmp_path / "gone"
    gone.mkdir()
    proc = run(args, gone, before=gone.rmdir)  # after the child moved into it
    assert proc.returncode == 2
    assert proc.stderr == (
        "burnlint: error: cannot use the current directory: No such file or directory "
        "(was it deleted?)\n"
    )
    # what does not need it still works
    gone.mkdir()
    assert run(["rules"], gone, stdout=subprocess.DEVNULL, before=gone.rmdir).returncode == 0
