"""How --fix and --add-allow write a file: never over an edit made meanwhile (the check right
before the rename, the lock between runs), never a read-only file, keeping its owner and its
hard links (issue 26, defects 1 and 7)."""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from burnlint.app import add_allow, fix
from burnlint.cli import cli

TESTDATA = Path(__file__).resolve().parent.parent / "testdata"
SEED = (TESTDATA / "fixes" / "seed_loop.rs").read_bytes()
FIXED = b".overwrite(true)"
MARK = b"\n// saved by an editor meanwhile\n"


def _seed(tmp_path: Path) -> Path:
    path = tmp_path / "train.rs"
    path.write_bytes(SEED)
    return path


def _fix(path: Path, *more: str) -> Result:
    args = ["check", str(path), "--project-root", str(path.parent), "--no-cache", *more]
    return CliRunner().invoke(cli, [*args, "--fix", "--unsafe-fixes"])


def _add_allow(path: Path) -> Result:
    args = ["check", str(path), "--project-root", str(path.parent), "--no-cache"]
    return CliRunner().invoke(cli, [*args, "--add-allow"])


def _editor_saves_during(monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> None:
    """An editor's save while the run works on the file: in the step between the read and
    the write (parsing the fixed text, verifying the comments)."""
    real = getattr(module, name)
    saved: list[Path] = []

    def step(*args: Any, **kwargs: Any) -> Any:
        if not saved:
            path = Path(os.environ["BURNLINT_TEST_FILE"])
            path.write_bytes(path.read_bytes() + MARK)
            saved.append(path)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, step)


def test_fix_keeps_an_edit_saved_while_it_worked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _seed(tmp_path)
    monkeypatch.setenv("BURNLINT_TEST_FILE", str(path))
    _editor_saves_during(monkeypatch, fix, "syntax_error_count")
    out = _fix(path)
    assert out.exit_code == 2, out.output
    assert "changed while it was being fixed: not written" in out.output
    assert path.read_bytes() == SEED + MARK
    assert sorted(p.name for p in tmp_path.iterdir()) == ["train.rs"]


def test_add_allow_keeps_an_edit_saved_while_it_worked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _seed(tmp_path)
    monkeypatch.setenv("BURNLINT_TEST_FILE", str(path))
    _editor_saves_during(monkeypatch, add_allow, "verify")
    out = _add_allow(path)
    assert out.exit_code == 2, out.output
    assert "changed while it was being edited: not written" in out.output
    assert path.read_bytes() == SEED + MARK


# Another run that holds the file's lock (burnlint's: an exclusive flock on the file), reads
# it, works on it for a while and writes it back through a rename, as `--fix` does.
HOLDER = """
import fcntl, os, sys

path = sys.argv[1]
fd = os.open(path, os.O_RDONLY)
fcntl.flock(fd, fcntl.LOCK_EX)
data = open(path, "rb").read()
print("locked", flush=True)
sys.stdin.readline()
with open(path + ".tmp", "wb") as handle:
    handle.write(data + b"\\n// the other run's edit\\n")
os.replace(path + ".tmp", path)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="flock")
def test_two_runs_take_turns(tmp_path: Path) -> None:
    """A run holding the lock (a real process) while `burnlint --fix` (another) checks the
    same file: the fix waits, and neither edit is lost without a word. The fix run lints
    first (that needs no lock), so it finds the other's edit when its turn comes and refuses
    (exit 2); if it linted after the other wrote, it fixes that text. Before the lock, the
    fix was written at once, then lost to the other's rename, and the run exited 0."""
    path = _seed(tmp_path)
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None and holder.stdin is not None
    assert holder.stdout.readline() == "locked\n"
    args = ["--project-root", str(tmp_path), "--no-cache", "--fix", "--unsafe-fixes", str(path)]
    runner = subprocess.Popen(
        [sys.executable, "-m", "burnlint", "check", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    with contextlib.suppress(subprocess.TimeoutExpired):
        runner.wait(4)  # time to lint, then to wait for the lock
    holder.stdin.write("go\n")
    holder.stdin.close()
    assert holder.wait(30) == 0
    output, _ = runner.communicate(timeout=60)
    text = path.read_bytes()
    assert b"the other run's edit" in text
    if FIXED in text:  # linted after the other run wrote: fixed that
        assert runner.returncode in (0, 1), output
    else:
        assert runner.returncode == 2, output
        assert "changed since it was checked" in output


@pytest.mark.skipif(not hasattr(os, "geteuid"), reason="POSIX modes")
@pytest.mark.parametrize("mode", [0o444, 0o400])
def test_a_read_only_file_is_refused(tmp_path: Path, mode: int) -> None:
    """Even as root (the rename needs only the directory's permission): the mode bits say
    the file is not to be written."""
    path = _seed(tmp_path)
    path.chmod(mode)
    out = _fix(path)
    assert "not fixed: cannot write: the file is read-only" in out.output
    assert path.read_bytes() == SEED
    assert stat.S_IMODE(path.stat().st_mode) == mode
    allowed = _add_allow(path)
    assert "no allow comments added: cannot write: the file is read-only" in allowed.output
    assert path.read_bytes() == SEED


def test_hard_links_keep_sharing_the_fixed_content(tmp_path: Path) -> None:
    path = _seed(tmp_path)
    other = tmp_path / "elsewhere"
    other.mkdir()
    link = other / "train.rs.orig"
    os.link(path, link)
    inode = path.stat().st_ino
    out = _fix(path)
    assert out.exit_code in (0, 1), out.output
    assert FIXED in path.read_bytes()
    assert link.read_bytes() == path.read_bytes()
    assert path.stat().st_ino == inode and path.stat().st_nlink == 2
    allowed = _add_allow(path)
    assert allowed.exit_code == 0, allowed.output
    assert b"// burnlint: allow(" in link.read_bytes()
    assert link.read_bytes() == path.read_bytes()


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root")
def test_root_keeps_the_owner_and_group(tmp_path: Path) -> None:
    path = _seed(tmp_path)
    os.chown(path, 12345, 23456)
    path.chmod(0o664)
    out = _fix(path)
    assert out.exit_code in (0, 1), out.output
    assert FIXED in path.read_bytes()
    found = path.stat()
    assert (found.st_uid, found.st_gid) == (12345, 23456)
    assert stat.S_IMODE(found.st_mode) == 0o664
    shutil.rmtree(tmp_path / ".burnlint_cache", ignore_errors=True)
