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


# --- one rule for what is skipped ---


def test_a_crate_whose_only_file_is_a_link_out_of_the_tree(tmp_path: Path) -> None:
    """The link is not followed (by choice: a note), but a Rust file was found and none was
    checked: exit 2, not "no Rust files found"."""
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "real.rs").write_text(STORE_CODE)
    crate = tmp_path / "crate"
    (crate / "src").mkdir(parents=True)
    (crate / "Cargo.toml").write_text('[package]\nname = "c"\nversion = "0.1.0"\n')
    (crate / "src" / "main.rs").symlink_to(tmp_path / "outside" / "real.rs")
    proc = run("crate", cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stdout == (
        "crate/src/main.rs: note: symbolic link leads outside the checked directory, skipped\n"
        "no files checked (1 file skipped)\n"
    )
    assert proc.stderr == ""
    (crate / "src" / "lib.rs").write_text(CLEAN)
    proc = run("crate", cwd=tmp_path)
    assert proc.returncode == 0  # a note while another file is checked
    assert proc.stdout.splitlines()[-1] == "no problems found in 1 file checked"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs")
def test_a_fifo(tmp_path: Path) -> None:
    """Named: an error, even beside a file that is checked. Found by the walk: a warning, and
    exit 2 only when nothing else was checked."""
    os.mkfifo(tmp_path / "x.rs")
    error = "x.rs: error: not a regular file or directory (a FIFO, a device, a socket)"
    proc = run("x.rs", cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stdout == f"{error}\nno files checked\n"
    assert proc.stderr == ""  # not "no Rust files found"
    (tmp_path / "ok.rs").write_text(CLEAN)
    proc = run("x.rs", "ok.rs", cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stdout.splitlines()[0] == error
    (tmp_path / "ok.rs").unlink()
    warning = "x.rs: warning: not a regular file, skipped"
    proc = run(".", cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stdout == f"{warning}\nno files checked (1 file skipped)\n"
    (tmp_path / "ok.rs").write_text(CLEAN)
    proc = run(".", cwd=tmp_path)
    assert proc.returncode == 0
    assert proc.stdout == f"{warning}\nno problems found in 1 file checked\n"


@pytest.mark.skipif(not os.path.exists("/dev/stdin"), reason="no /dev/stdin")
@pytest.mark.parametrize("stdin", ["pipe", "null"])
def test_dev_stdin_as_a_path(tmp_path: Path, stdin: str) -> None:
    """Whatever stdin is (a pipe, a device, a file), naming it is not the way to check it."""
    source = subprocess.PIPE if stdin == "pipe" else subprocess.DEVNULL
    proc = run("/dev/stdin", cwd=tmp_path, stdin=source)
    assert proc.returncode == 2
    assert proc.stdout == (
        "/dev/stdin: error: is standard input; to check it, use --stdin-filename PATH\n"
        "no files checked\n"
    )


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"\x00\x01" * 8, "skipped: binary file (contains NUL bytes)"),
        (b"// caf\xe9\nfn main() {}\n", "skipped: not valid UTF-8 at byte offset 6"),
    ],
    ids=["binary", "not-utf8"],
)
def test_a_file_that_cannot_be_decoded(tmp_path: Path, data: bytes, reason: str) -> None:
    (tmp_path / "blob.rs").write_bytes(data)
    (tmp_path / "ok.rs").write_text(CLEAN)
    for args, code, level in (
        (["blob.rs"], 2, "error"),
        (["blob.rs", "ok.rs"], 2, "error"),  # named: an error whatever else is checked
        (["--exit-zero", "blob.rs", "ok.rs"], 2, "error"),
        (["."], 0, "warning"),  # found by the walk, beside a file checked
    ):
        proc = run(*args, cwd=tmp_path)
        assert proc.returncode == code, args
        assert f"blob.rs: {level}: {reason}" in proc.stdout.splitlines(), args
    (tmp_path / "ok.rs").unlink()
    assert run(".", cwd=tmp_path).returncode == 2  # found, none checked


def test_what_is_not_rust_and_what_is_too_large(tmp_path: Path) -> None:
    """Left out by choice: a named file that is not `.rs` (a note, and no Rust file found:
    exit 0 with a warning); one over `max-file-size` (a note; exit 2 when nothing else is
    checked)."""
    (tmp_path / "notes.txt").write_text("hello\n")
    proc = run("notes.txt", cwd=tmp_path)
    assert proc.returncode == 0
    assert proc.stdout.splitlines()[0] == "notes.txt: note: not a Rust source file (`.rs`), skipped"
    assert proc.stderr == "burnlint: warning: no Rust files found in `notes.txt`\n"
    (tmp_path / "big.rs").write_text("// " + "x" * 2000 + "\n")
    proc = run("--max-file-size", "1KB", "big.rs", cwd=tmp_path)
    assert proc.returncode == 2
    (tmp_path / "ok.rs").write_text(CLEAN)
    proc = run("--max-file-size", "1KB", "big.rs", "ok.rs", cwd=tmp_path)
    assert proc.returncode == 0
    assert proc.stdout.splitlines()[0].startswith("big.rs: note: skipped: 2,004 bytes")
