"""Cache entries carry an HMAC under this user's key (issue 26, defect 2): an entry planted
in the cache (a committed one, another user's) is a miss, and a key another user could read
or write is refused (``engine/cache_key.py``)."""

from __future__ import annotations

import os
import pickle
import stat
from dataclasses import replace
from pathlib import Path

import pytest

from burnlint.engine.cache import CACHE_DIR_NAME, Cache
from burnlint.engine.cache_key import KEY_NAME, MAGIC, seal, unseal
from burnlint.engine.memo import GroupMemo
from test_cache import CHECKPOINT, LIB, MAIN, MANIFEST, age, report, rules_at, write
from test_cache_hostile import _warnings, findings_of, group_memos, load, run_cli


@pytest.fixture
def crate(tmp_path: Path) -> Path:
    root = tmp_path / "trainer"
    files = {"src/lib.rs": LIB, "src/checkpoint.rs": CHECKPOINT, "src/main.rs": MAIN}
    write(root, {"Cargo.toml": MANIFEST, **files})
    return root


@pytest.fixture
def key_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A key directory of the test's own (the runs in subprocesses inherit it)."""
    found = tmp_path / "keys"
    monkeypatch.setenv("BURNLINT_KEY_DIR", str(found))
    return found


def _without_findings(memo: GroupMemo) -> GroupMemo:
    """What a planted cache could hold: every finding taken out."""
    for record in memo.files.values():
        for key, checked in record.checks.items():
            record.checks[key] = replace(checked, findings=())
    return memo


@pytest.mark.parametrize("how", ["another key", "no hmac", "moved"])
def test_an_entry_this_user_did_not_write_is_a_miss(
    crate: Path,
    key_dir: Path,
    how: str,
) -> None:
    age(crate)
    cold = report(crate, cache=False)
    assert rules_at(cold)
    assert findings_of(run_cli(crate).stdout) == findings_of(cold)  # the cache is written
    root = crate / CACHE_DIR_NAME
    for path in group_memos(crate):
        memo = _without_findings(load(crate, path))  # type: ignore[arg-type]
        data = pickle.dumps(memo, protocol=pickle.HIGHEST_PROTOCOL)
        if how == "another key":
            planted = seal(b"k" * 32, os.path.relpath(path, root), data)
        elif how == "no hmac":
            planted = data
        else:  # signed with this user's key, for another place in the cache
            planted = seal((key_dir / KEY_NAME).read_bytes(), "elsewhere.pickle", data)
        path.write_bytes(planted)
    done = run_cli(crate)
    assert done.returncode == 0, done.stderr
    assert findings_of(done.stdout) == findings_of(cold)
    assert not _warnings(done.stderr)
    for path in group_memos(crate):  # recomputed and written again, signed
        assert path.read_bytes().startswith(MAGIC)
        assert load(crate, path) is not None


def test_the_same_entry_with_its_own_hmac_is_served(
    crate: Path,
    key_dir: Path,
) -> None:
    # the counterpart of the test above: an entry this user signed is trusted as it is
    age(crate)
    assert rules_at(report(crate))
    for path in group_memos(crate):
        Cache(crate / CACHE_DIR_NAME)._save(path, _without_findings(load(crate, path)))  # type: ignore[arg-type]
    assert rules_at(report(crate)) == []


def test_the_key_is_created_private(crate: Path, key_dir: Path) -> None:
    done = run_cli(crate)
    assert done.returncode == 0, done.stderr
    key = key_dir / KEY_NAME
    found = os.lstat(key)
    assert stat.S_ISREG(found.st_mode)
    assert stat.S_IMODE(found.st_mode) == 0o600
    assert stat.S_IMODE(os.stat(key_dir).st_mode) & 0o077 == 0
    assert len(key.read_bytes()) == 32
    assert [p.name for p in key_dir.iterdir()] == [KEY_NAME]  # no temporary file left
    before = key.read_bytes()
    assert run_cli(crate).returncode == 0
    assert key.read_bytes() == before  # made once


def _symlink(key: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere-key"
    elsewhere.write_bytes(b"k" * 32)
    elsewhere.chmod(0o600)
    key.symlink_to(elsewhere)


def _readable_by_others(key: Path, tmp_path: Path) -> None:
    key.write_bytes(b"k" * 32)
    key.chmod(0o644)


def _a_directory(key: Path, tmp_path: Path) -> None:
    key.mkdir()


def _another_owner(key: Path, tmp_path: Path) -> None:
    key.write_bytes(b"k" * 32)
    key.chmod(0o600)
    os.chown(key, os.getuid() + 1, -1)


def _too_short(key: Path, tmp_path: Path) -> None:
    key.write_bytes(b"k" * 8)
    key.chmod(0o600)


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="no owners and modes here")
@pytest.mark.parametrize(
    ("plant", "said"),
    [
        (_symlink, "is a symbolic link"),
        (_readable_by_others, "has mode 0644"),
        (_a_directory, "is not a regular file"),
        (_another_owner, "is owned by another user"),
        (_too_short, "is not 32 bytes long"),
    ],
)
def test_a_key_others_could_read_or_write_is_refused(
    crate: Path,
    key_dir: Path,
    tmp_path: Path,
    plant: object,
    said: str,
) -> None:
    if plant is _another_owner and os.getuid() != 0:
        pytest.skip("only root can give a file to another user")
    age(crate)
    cold = report(crate, cache=False)
    key_dir.mkdir(mode=0o700)
    plant(key_dir / KEY_NAME, tmp_path)  # type: ignore[operator]
    done = run_cli(crate)
    assert done.returncode == 0, done.stderr
    assert findings_of(done.stdout) == findings_of(cold)  # the run goes on, without the cache
    assert "Traceback" not in done.stderr
    (warning,) = _warnings(done.stderr)
    assert said in warning
    assert str(key_dir / KEY_NAME) in warning
    assert not list((crate / CACHE_DIR_NAME).rglob("*.pickle"))  # nothing written


def test_seal_and_unseal() -> None:
    sealed = seal(b"a" * 32, "x/y.pickle", b"data")
    assert unseal(b"a" * 32, "x/y.pickle", sealed) == b"data"
    assert unseal(b"b" * 32, "x/y.pickle", sealed) is None
    assert unseal(b"a" * 32, "x/z.pickle", sealed) is None
    assert unseal(b"a" * 32, "x/y.pickle", sealed[:-1] + b"!") is None
    assert unseal(b"a" * 32, "x/y.pickle", b"data") is None
