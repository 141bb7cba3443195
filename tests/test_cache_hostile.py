"""The persistent cache against what it may find on disk (issue 26, each section names the
defect it tests). Each case: no hang, no traceback, and the findings of a run without the
cache (``test_cache.py`` has the helpers and the crate)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from burnlint.engine.cache import CACHE_DIR_NAME, Cache, ScanEntry, Stat
from burnlint.engine.memo import GroupMemo
from test_cache import CHECKPOINT, LIB, MAIN, MANIFEST, age, report, rules_at, write

# a run that hangs on a cache entry is stopped after this long (a warm run takes about 1 s)
HANG_SECONDS = 60

needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")


@pytest.fixture
def crate(tmp_path: Path) -> Path:
    root = tmp_path / "trainer"
    files = {"src/lib.rs": LIB, "src/checkpoint.rs": CHECKPOINT, "src/main.rs": MAIN}
    write(root, {"Cargo.toml": MANIFEST, **files})
    return root


def run_cli(
    crate: Path, *args: str, cache: Path | None = None, stdin: int | None = subprocess.DEVNULL
) -> subprocess.CompletedProcess[str]:
    """``burnlint CRATE --format json --exit-zero ARGS`` in a process of its own, with the cache
    in ``cache`` (default: the crate's); stopped if it hangs."""
    env = {**os.environ, "BURNLINT_CACHE_DIR": str(cache or crate / CACHE_DIR_NAME)}
    command = [sys.executable, "-m", "burnlint", str(crate), "--format", "json", "--exit-zero"]
    return subprocess.run(
        [*command, *args],
        capture_output=True,
        text=True,
        check=False,
        env=env,
        cwd=crate,
        stdin=stdin,
        timeout=HANG_SECONDS,
    )


def findings_of(text: str) -> list[object]:
    found: list[object] = json.loads(text)["findings"]
    return found


def scan_index(crate: Path) -> Path:
    (found,) = (crate / CACHE_DIR_NAME).glob("*/scan-*.pickle")
    return found


def group_memos(crate: Path) -> list[Path]:
    found = sorted((crate / CACHE_DIR_NAME).glob("*/*/*.pickle"))
    assert found
    return found


# -- 3: an entry that is not a regular file


@needs_fifo
@pytest.mark.parametrize("entry", ["scan", "group"])
@pytest.mark.parametrize("kind", ["fifo", "link to a fifo", "link to stdin", "directory"])
def test_an_entry_that_is_no_regular_file_is_a_miss(
    crate: Path, tmp_path: Path, entry: str, kind: str
) -> None:
    age(crate)
    cold = report(crate, cache=False)
    report(crate)
    path = scan_index(crate) if entry == "scan" else group_memos(crate)[0]
    path.unlink()
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "link to a fifo":
        os.mkfifo(tmp_path / "fifo")
        path.symlink_to(tmp_path / "fifo")
    elif kind == "link to stdin":
        # a language server's stdin is its client's messages: a pipe that stays open
        path.symlink_to("/dev/stdin")
    else:
        path.mkdir()
    # stdin a pipe nobody writes to or closes, as a language server's is between messages
    reader, writer = os.pipe()
    try:
        done = run_cli(crate, stdin=reader)
    finally:
        os.close(reader)
        os.close(writer)
    assert done.returncode == 0, done.stderr
    assert findings_of(done.stdout) == findings_of(cold)
    assert "Traceback" not in done.stderr


# -- 6: a well-formed entry of the wrong types


def load(crate: Path, path: Path) -> object:
    """Read an entry as the cache reads it (``Cache._load``: its HMAC verified)."""
    found = Cache(crate / CACHE_DIR_NAME)._load(path)
    assert found is not None
    return found


def save(crate: Path, path: Path, value: object) -> None:
    """Write ``value`` as the cache writes its entries (``Cache._save``)."""
    cache = Cache(crate / CACHE_DIR_NAME)
    cache._save(path, value)
    assert not cache.problems


def _files_to_strings(memo: GroupMemo) -> None:
    memo.files = {path: "garbage" for path in memo.files}  # type: ignore[misc]


def _record_digest_to_number(memo: GroupMemo) -> None:
    for record in memo.files.values():
        record.digest = 7  # type: ignore[assignment]


def _finding_rule_to_number(memo: GroupMemo) -> None:
    for record in memo.files.values():
        for key, checked in record.checks.items():
            findings = tuple(replace(f, rule_id=1) for f in checked.findings)  # type: ignore[arg-type]
            record.checks[key] = replace(checked, findings=findings)


def _checks_to_strings(memo: GroupMemo) -> None:
    for record in memo.files.values():
        record.checks = {key: "checked" for key in record.checks}  # type: ignore[misc]


@pytest.mark.parametrize(
    "damage",
    [
        _files_to_strings,
        _record_digest_to_number,
        _finding_rule_to_number,
        _checks_to_strings,
    ],
)
def test_a_memo_of_the_wrong_types_is_a_miss(crate: Path, damage: object) -> None:
    age(crate)
    cold = report(crate, cache=False)
    report(crate)
    for path in group_memos(crate):
        memo = load(crate, path)
        assert isinstance(memo, GroupMemo)
        damage(memo)  # type: ignore[operator]
        save(crate, path, memo)
    assert report(crate) == cold
    assert report(crate) == cold  # rebuilt


@pytest.mark.parametrize("damage", ["size", "skipped", "index"])
def test_a_scan_index_of_the_wrong_types_is_a_miss(crate: Path, damage: str) -> None:
    age(crate)
    cold = report(crate, cache=False)
    report(crate)
    path = scan_index(crate)
    index = load(crate, path)
    assert isinstance(index, dict)
    entries: dict[str, ScanEntry] = index
    if damage == "size":
        entries = {k: e._replace(scan=e.scan._replace(size="big")) for k, e in entries.items()}
    elif damage == "skipped":
        entries = {k: e._replace(scan=e.scan._replace(skipped=5)) for k, e in entries.items()}
    save(crate, path, list(entries.items()) if damage == "index" else entries)
    assert report(crate) == cold
    assert report(crate) == cold


def test_a_memo_that_fails_when_used_is_dropped(
    crate: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # what conforms to its types but still makes the checks fail: the group is checked
    # without it, as a run without the cache would
    age(crate)
    cold = report(crate, cache=False)
    report(crate)
    real = GroupMemo.record

    def failing(memo: GroupMemo, path: Path, digest: str) -> object:
        if memo.files and not memo.changed:
            raise AttributeError("'str' object has no attribute 'digest'")
        return real(memo, path, digest)

    monkeypatch.setattr(GroupMemo, "record", failing)
    assert report(crate) == cold


# -- 9: a root that is not burnlint's


def _warnings(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if "not using the cache" in line]


def test_a_cache_root_that_is_a_link_is_not_used(crate: Path, tmp_path: Path) -> None:
    cold = report(crate, cache=False)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    link = crate / CACHE_DIR_NAME
    link.symlink_to(elsewhere)
    done = run_cli(crate, cache=link)
    assert done.returncode == 0, done.stderr
    assert findings_of(done.stdout) == findings_of(cold)
    (warning,) = _warnings(done.stderr)
    assert "is a symbolic link" in warning
    assert list(elsewhere.iterdir()) == []  # nothing written where it points
    # `burnlint clean` agrees: not burnlint's, left alone
    cleaned = subprocess.run(
        [sys.executable, "-m", "burnlint", "clean", "--cache-dir", str(link)],
        capture_output=True,
        text=True,
        check=False,
        timeout=HANG_SECONDS,
    )
    assert cleaned.returncode == 2
    assert "symbolic link" in cleaned.stderr
    assert link.is_symlink() and elsewhere.is_dir()


def test_a_directory_that_is_not_burnlints_is_not_used(crate: Path, tmp_path: Path) -> None:
    cold = report(crate, cache=False)
    home = tmp_path / "home"
    (home / "notes").mkdir(parents=True)
    done = run_cli(crate, cache=home)
    assert done.returncode == 0, done.stderr
    assert findings_of(done.stdout) == findings_of(cold)
    (warning,) = _warnings(done.stderr)
    assert "has no CACHEDIR.TAG" in warning
    assert [p.name for p in home.iterdir()] == ["notes"]


def test_an_empty_directory_becomes_a_cache_that_clean_removes(crate: Path, tmp_path: Path) -> None:
    from click.testing import CliRunner

    from burnlint.cli import cli

    empty = tmp_path / "empty"
    empty.mkdir()
    done = run_cli(crate, cache=empty)
    assert done.returncode == 0, done.stderr
    assert not _warnings(done.stderr)
    assert (empty / "CACHEDIR.TAG").is_file()
    # what was written is burnlint's: `burnlint clean` removes it
    cleaned = CliRunner().invoke(cli, ["clean", "--cache-dir", str(empty)])
    assert cleaned.exit_code == 0, cleaned.output
    assert not empty.exists()


# -- 2: a cache committed to git


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_a_cache_git_tracks_is_not_used(crate: Path) -> None:
    subprocess.run(["git", "init", "-q", str(crate)], check=True)
    age(crate)
    cold = report(crate, cache=False)
    assert rules_at(cold)
    assert findings_of(run_cli(crate).stdout) == findings_of(cold)  # the cache is written
    # what a committed cache could hold: every finding taken out
    for path in group_memos(crate):
        memo = load(crate, path)
        assert isinstance(memo, GroupMemo)
        for record in memo.files.values():
            for key, checked in record.checks.items():
                record.checks[key] = replace(checked, findings=())
        save(crate, path, memo)
    assert rules_at(report(crate)) == []  # taken from the cache while git does not track it
    subprocess.run(["git", "-C", str(crate), "add", "-f", CACHE_DIR_NAME], check=True)
    done = run_cli(crate)
    assert done.returncode == 0, done.stderr
    assert findings_of(done.stdout) == findings_of(cold)
    (warning,) = _warnings(done.stderr)
    assert "git tracks files in" in warning


# -- 4: a change behind a restored size, modification time and inode


def test_a_change_that_keeps_size_mtime_and_inode(crate: Path) -> None:
    age(crate)
    before = report(crate)
    assert before == report(crate, cache=False)
    assert ("BL001", "main.rs", 7) in rules_at(before)
    path = crate / "src/main.rs"
    kept = os.stat(path)
    # the discarded result unwrapped instead, one character taken out to keep the size
    text = MAIN.replace("let _ = ", "").replace("));", ")).unwrap();").replace("() {", "(){")
    assert len(text) == len(MAIN)
    with open(path, "r+b") as fh:  # in place: the same inode
        fh.write(text.encode())
    os.utime(path, ns=(kept.st_atime_ns, kept.st_mtime_ns))
    now = os.stat(path)
    assert (now.st_size, now.st_mtime_ns, now.st_ino) == (
        kept.st_size,
        kept.st_mtime_ns,
        kept.st_ino,
    )
    after = report(crate)
    assert after == report(crate, cache=False)
    assert ("BL001", "main.rs", 7) not in rules_at(after)


def test_a_fix_from_a_stale_entry_says_so_and_drops_it(crate: Path) -> None:
    # a file system that keeps the change time (or an entry from elsewhere): the index holds
    # the file's stat as it is now with the digest of its old bytes. --fix must not apply
    # the old bytes' edits, must say why, and the next run must read the file.
    age(crate)
    report(crate)
    path = crate / "src/checkpoint.rs"
    edited = "// checkpoints\n" + CHECKPOINT
    path.write_text(edited, "utf-8")
    age(crate)
    index_path = scan_index(crate)
    index = load(crate, index_path)
    assert isinstance(index, dict)
    index[str(path)] = index[str(path)]._replace(stat=Stat.of(os.stat(path)))
    save(crate, index_path, index)
    done = run_cli(crate, "--fix", "--unsafe-fixes")
    assert done.returncode == 0, done.stderr
    said = done.stdout + done.stderr
    assert "stale cache entry" in said, said
    assert "changed since it was checked" not in said
    assert path.read_text("utf-8") == edited  # no edit at the old bytes' offsets
    assert report(crate) == report(crate, cache=False)  # the entry is gone: the file is read
