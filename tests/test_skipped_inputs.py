"""Inputs that cannot be checked, and the exit code: one rule (README, "Exit codes").

- A path named on the command line that cannot be checked (missing, not a regular file or a
  directory, unreadable, binary, not UTF-8) is an error: exit 2, whatever else is checked.
- A Rust file found by the walk that cannot be checked (unreadable, binary, not UTF-8, a FIFO,
  a broken link, a path too long) is a warning; one skipped by choice (over `max-file-size`,
  a link out of the checked directory) a note. Either way the run goes on and, while other
  files are checked, the exit code is theirs.
- Rust files found but none checked, whatever the reason: exit 2. No Rust file at all: exit 0,
  with a warning.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

STORE_CODE = """\
use burn_store::{ModuleSnapshot, SafetensorsStore};

fn save<M: ModuleSnapshot>(model: &M) {
    let mut store = SafetensorsStore::from_file("model.safetensors").overwrite(true);
    let _ = model.save_into(&mut store);
}
"""
CLEAN = "fn main() {}\n"


def run(
    *args: str, cwd: Path, stdin: int | None = subprocess.DEVNULL, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(
        [sys.executable, "-m", "burnlint", "--no-cache", "--format", "concise", *args],
        stdin=stdin,
        capture_output=True,
        text=True,
        cwd=cwd,
        check=False,
        timeout=timeout,
        env={**os.environ, "BURNLINT_DEBUG": "", "NO_COLOR": "1"},
    )
    assert "Traceback" not in proc.stdout + proc.stderr
    return proc


# --- a path longer than PATH_MAX ---


def _deep_directory(base: Path, length: int) -> str:
    """A directory whose absolute path is ``length`` bytes, holding `c.rs`, made step by step
    from ``base`` (a path that long cannot be passed to mkdir whole). Returns its path."""
    fd = os.open(base, os.O_RDONLY)
    path = str(base)
    try:
        while len(path) < length:
            name = "d" * min(200, length - len(path) - 1)
            os.mkdir(name, dir_fd=fd)
            inner = os.open(name, os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd, path = inner, f"{path}/{name}"
        handle = os.open("c.rs", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd)
        os.write(handle, STORE_CODE.encode())
        os.close(handle)
    finally:
        os.close(fd)
    return path


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux's PATH_MAX")
def test_a_path_longer_than_path_max_is_skipped_with_a_warning(tmp_path: Path) -> None:
    """`c.rs` can be read, but its crate's `Cargo.toml` cannot even be named: the file is
    skipped like one in an unreadable directory, and the run goes on."""
    path_max = os.pathconf("/", "PC_PATH_MAX")
    deep = _deep_directory(tmp_path, path_max - len("/Cargo.toml") + 2)
    (tmp_path / "ok.rs").write_text(STORE_CODE)
    proc = run(".", cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr  # the finding in ok.rs
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("ok.rs:5:13: error[BL001]")
    shown = deep[len(str(tmp_path)) + 1 :]
    assert lines[1] == (
        f"{shown}/c.rs: warning: path too long to look for its Cargo.toml "
        "(File name too long), skipped"
    )
    assert lines[2] == "found 1 problem in 1 file checked"
    (tmp_path / "ok.rs").unlink()
    proc = run(".", cwd=tmp_path)
    assert proc.returncode == 2  # Rust files found, none checked
