"""The persistent cache (``.burnlint_cache/`` at the project root, like ``.ruff_cache``).

Layout::

    .burnlint_cache/
        CACHEDIR.TAG                      backup tools skip the directory
        .gitignore                        `*`: never committed
        <release>-<code digest>/          one per burnlint build: its facts' shapes
            scan-<digest>.pickle          each file's stat, digest and prefilter verdict
            <settings digest>/
                <group digest>.pickle     a crate group's ``memo.GroupMemo``

The code digest covers burnlint's own source (every module), so a cache written by another
build, even at the same release number during development, is never read. The settings digest
covers what changes findings: the rules and their levels, per-file ignores, the configured
burn version, the prefilter, the size limit and the project root.

Entries are written to a temporary file and renamed into place: a reader sees a whole entry
or none, and two runs at once leave one or the other. Whatever cannot be read back (another
format, truncated, corrupt, not a regular file, or data of the wrong types) counts as absent
and is rebuilt; what cannot be written is said once on stderr (``Cache.problems``), never in
a report. Every entry carries an HMAC under this user's key, kept outside the project
(``cache_key.py``): an entry that does not verify (planted, committed, another user's or
machine's) is a miss. Unpickling allows burnlint's own data classes and enums and a few
built-in types only, so even a verified entry cannot run code; an entry is opened without
following a link or waiting for a writer, so a FIFO or a link to ``/dev/stdin`` cannot hang a
run; what was loaded is checked against its classes' annotations (``conform.py``) before it
is used. A root that is not burnlint's (``cache_root.py``) is neither read nor written.
"""

from __future__ import annotations

import enum
import hashlib
import io
import os
import pickle
import shutil
import tempfile
from dataclasses import dataclass, field, is_dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, cast

from burnlint import __version__
from burnlint.engine.cache_key import CacheKeyError, load_key, seal, unseal
from burnlint.engine.cache_root import TAG_NAME, TEMPORARY_PREFIX, is_tagged, not_ours, write_tag
from burnlint.engine.conform import conforms
from burnlint.engine.stable import stable_digest
from burnlint.findings import Level
from burnlint.fsutil import RACY_NS, now_ns, read_regular_file

if TYPE_CHECKING:
    from burnlint.engine.memo import GroupMemo
    from burnlint.options import EngineOptions

CACHE_DIR_NAME = ".burnlint_cache"
CACHE_ENV = "BURNLINT_CACHE_DIR"


class Stat(NamedTuple):
    """What says a file is unchanged without reading it. The change time is there because
    the rest can be put back after an edit (``touch -d``, ``tar`` with a fixed ``--mtime``,
    ``rsync --inplace -t``, ``cp -p``), and it cannot: every write and every ``utime`` sets
    it to now (git's index trusts a file on the same grounds)."""

    size: int
    mtime_ns: int
    inode: int
    ctime_ns: int

    @classmethod
    def of(cls, result: os.stat_result) -> Stat:
        return cls(result.st_size, result.st_mtime_ns, result.st_ino, result.st_ctime_ns)


class Scan(NamedTuple):
    """What reading and prefiltering one file found (a tuple: thousands cross processes)."""

    size: int = 0
    candidate: bool = False
    skipped: str | None = None  # why the file is skipped: a notification's message
    level: Level = Level.WARNING
    # the sha256 of the bytes (``finish.digest``), when the cache is on: the cache's identity
    # of a file's bytes, and what --fix and --add-allow compare before writing it
    digest: str | None = None
    cached: bool = False  # taken from the cache's index, unread


class ScanEntry(NamedTuple):
    """A file's prefilter verdict and digest, valid while its stat is ``stat``."""

    stat: Stat
    scan: Scan
    scanned_ns: int  # when it was read (``RACY_NS``)

    def valid_for(self, stat: Stat) -> bool:
        return stat == self.stat and self.stat.mtime_ns + RACY_NS < self.scanned_ns


@cache
def code_digest() -> str:
    """The digest of burnlint's own modules: a cache written by other code is never read.
    Read with ``os.walk`` (a few ms for the package's 1.2 MB; the same walk through
    ``importlib.resources`` costs 30 ms, at every run)."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    found: list[tuple[str, bytes]] = []
    for directory, subdirectories, names in os.walk(root):
        subdirectories[:] = [d for d in subdirectories if not d.startswith(("_", "."))]
        for name in names:
            if name.endswith(".py"):
                path = os.path.join(directory, name)
                with open(path, "rb") as fh:
                    found.append((os.path.relpath(path, root), fh.read()))
    hasher = hashlib.blake2b(digest_size=8)
    for name, data in sorted(found):
        hasher.update(name.encode() + b"\0" + data)
    return hasher.hexdigest()


def settings_digest(options: EngineOptions) -> str:
    """The digest of the settings that change what a check finds (module docstring)."""
    return stable_digest(
        sorted(options.rule_ids),
        sorted(options.severity),
        sorted((pattern, sorted(rules)) for pattern, rules in options.per_file_ignores),
        options.exclude_root,
        options.burn_version,
        options.prefilter,
        options.max_file_bytes,
        options.project_root,
    )


class CacheError(Exception):
    """A directory that is not burnlint's cache was to be removed."""


def remove_cache(directory: Path) -> bool:
    """Remove the cache ``directory`` (``burnlint clean``); False when there is none. What
    is not burnlint's by the rule runs follow (``cache_root.not_ours``: a link, or no
    ``CACHEDIR.TAG`` of burnlint's) is left alone (``--cache-dir ~`` must not empty a home
    directory)."""
    if not os.path.lexists(directory):
        return False
    reason = not_ours(directory)
    if reason is None and not is_tagged(directory):
        reason = f"it has no {TAG_NAME} of burnlint's"
    if reason is not None:
        raise CacheError(f"{directory} is not a burnlint cache: {reason}")
    try:
        shutil.rmtree(directory)
    except OSError as exc:
        raise CacheError(f"cannot remove {directory}: {exc.strerror or exc}") from None
    return True


def default_cache_dir(project_root: Path) -> Path:
    """``BURNLINT_CACHE_DIR`` when set, else ``.burnlint_cache`` in the project root."""
    configured = os.environ.get(CACHE_ENV)
    return Path(configured) if configured else project_root / CACHE_DIR_NAME


@dataclass
class Cache:
    """One run's view of the cache directory ``root`` (``EngineOptions.cache_dir``)."""

    root: Path
    problems: list[str] = field(default_factory=list)  # for stderr, once each
    # this user's key (``cache_key.py``); None: read when first needed (a worker process)
    key: bytes | None = None

    @property
    def base(self) -> Path:
        return self.root / f"{__version__}-{code_digest()}"

    # -- the scan index: one per prefilter setting and size limit

    def _scan_path(self, options: EngineOptions) -> Path:
        return self.base / f"scan-{stable_digest(options.prefilter, options.max_file_bytes)}.pickle"

    def load_scans(self, options: EngineOptions) -> dict[str, ScanEntry]:
        return self._load_index(self._scan_path(options))

    def _load_index(self, path: Path) -> dict[str, ScanEntry]:
        found = self._load(path)
        return cast("dict[str, ScanEntry]", found) if conforms(found, dict[str, ScanEntry]) else {}

    def save_scans(self, options: EngineOptions, entries: dict[str, ScanEntry]) -> list[str]:
        """Write the scan index; the problems met so far (``problems``)."""
        self._save(self._scan_path(options), entries)
        return self.problems

    # -- the groups' memos

    def _group_path(self, options: EngineOptions, leader: str) -> Path:
        return self.base / settings_digest(options) / f"{stable_digest(leader)}.pickle"

    def load_group(self, options: EngineOptions, leader: str) -> GroupMemo:
        from burnlint.engine.memo import GroupMemo

        path = self._group_path(options, leader)
        stat = _stat_of(path)
        held = _HELD.get(path)
        if held is not None and held[0] == stat:
            _hold(path, held)
            return held[1]
        found = self._load(path) if stat is not None else None
        memo = found if isinstance(found, GroupMemo) and _is_memo(found) else GroupMemo()
        _hold(path, (stat, memo))
        return memo

    def forget_group(self, options: EngineOptions, leader: str) -> None:
        """Stop holding the group's memo in this process (it failed to be used): the next
        load reads the file, which the group's next write replaces."""
        _HELD.pop(self._group_path(options, leader), None)

    def save_group(self, options: EngineOptions, leader: str, memo: GroupMemo) -> list[str]:
        """Write a group's memo; the problems met so far (``problems``)."""
        memo.changed = False
        path = self._group_path(options, leader)
        self._save(path, memo)
        _hold(path, (_stat_of(path), memo))
        return self.problems

    # -- what --fix and --add-allow found out

    def drop_stale(self, path: Path, checked: str) -> bool:
        """Whether the digest ``checked`` that ``path`` was checked with came from a stale
        entry of the scan index: one the index would still give for the file as it is, whose
        bytes have another digest (a file system that keeps the change time, an entry from
        elsewhere). Such an entry is dropped. False when the file changed since the entry was
        made (the index would not give it again), and for a root that is not to be used."""
        from burnlint.engine.cache_root import refusal

        stat = _stat_of(path)
        if stat is None or refusal(self.root) is not None:
            return False
        dropped = False
        for index_path in sorted(self.base.glob("scan-*.pickle")):
            index = self._load_index(index_path)
            entry = index.get(os.fspath(path))
            if entry is not None and entry.scan.digest == checked and entry.valid_for(stat):
                del index[os.fspath(path)]
                self._save(index_path, index)
                dropped = True
        return dropped

    # -- reading and writing

    def _key(self) -> bytes | None:
        """The key entries are signed with; None when it cannot be used (said once)."""
        if self.key is None:
            try:
                self.key = load_key()
            except CacheKeyError as exc:
                if str(exc) not in self.problems:
                    self.problems.append(str(exc))
                return None
        return self.key

    def _name(self, path: Path) -> str:
        """The entry's place in the cache, which its HMAC covers: an entry moved elsewhere
        (under other settings, another group) does not verify."""
        return os.path.relpath(path, self.root).replace(os.sep, "/")

    def _load(self, path: Path) -> object:
        key = self._key()
        if key is None:
            return None
        try:
            # a regular file only, opened without waiting for a writer (a FIFO) and not
            # through a link (to `/dev/stdin`: a language server's client messages)
            data = unseal(key, self._name(path), read_regular_file(path, follow_symlinks=False))
            if data is None:  # not written by this user here: a miss, recomputed
                return None
            return _Unpickler(io.BytesIO(data)).load()
        except Exception:  # a cache entry that cannot be read is rebuilt
            return None

    def _save(self, path: Path, value: object) -> None:
        key = self._key()
        if key is None:
            return
        try:
            self._prepare(path.parent)
            data = seal(
                key, self._name(path), pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
            )
            handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=TEMPORARY_PREFIX)
            try:
                with os.fdopen(handle, "wb") as fh:
                    fh.write(data)
                os.replace(temporary, path)
            except BaseException:
                Path(temporary).unlink(missing_ok=True)
                raise
        except OSError as exc:
            problem = f"cannot write the cache in {self.root}: {exc.strerror or exc}"
            if problem not in self.problems:
                self.problems.append(problem)

    def _prepare(self, directory: Path) -> None:
        """Create ``directory`` inside the cache; the cache's root gets its tag and its
        ``.gitignore`` when it is created (or found empty). Raises ``OSError``."""
        if directory.is_dir():
            return
        if not is_tagged(self.root):
            # a new or empty root is made burnlint's, the tag first; anything else is not
            # written into (``cache_root``: what ``burnlint clean`` would refuse to remove)
            self.root.mkdir(parents=True, exist_ok=True)
            reason = not_ours(self.root)
            if reason is not None:
                raise OSError(reason)
            write_tag(self.root)
            _write_new(self.root / ".gitignore", "# Created by burnlint.\n*\n")
        if not self.base.is_dir():
            self._prune()
        directory.mkdir(parents=True, exist_ok=True)

    def _prune(self) -> None:
        """Remove what other burnlint builds wrote (this one cannot read it), before the
        first write of this build: the cache holds one build's entries, not one per upgrade."""
        for entry in self.root.iterdir():
            if entry.is_dir() and entry != self.base and not entry.name.startswith("."):
                shutil.rmtree(entry, ignore_errors=True)


# The last memos this process loaded or wrote, by file, with the file's stat then: a
# long-lived process (the language server) checks one group again and again, and takes the
# memo from here while the file is the one it read or wrote. Only a few are held: a run over
# many crates must not keep them all.
_HELD: dict[Path, tuple[Stat | None, GroupMemo]] = {}
_HELD_MEMOS = 4


def _hold(path: Path, entry: tuple[Stat | None, GroupMemo]) -> None:
    _HELD.pop(path, None)
    _HELD[path] = entry
    while len(_HELD) > _HELD_MEMOS:
        del _HELD[next(iter(_HELD))]


def _is_memo(found: object) -> bool:
    from burnlint.engine.memo import GroupMemo, annotation_names

    return conforms(found, GroupMemo, annotation_names())


def _stat_of(path: Path) -> Stat | None:
    try:
        return Stat.of(os.stat(path))
    except OSError:
        return None


def _write_new(path: Path, text: str) -> None:
    try:
        with open(path, "x", encoding="utf-8") as fh:
            fh.write(text)
    except FileExistsError:
        pass


# Built-in types a cache entry may hold besides burnlint's own classes.
_ALLOWED_BUILTINS = {
    ("builtins", "frozenset"),
    ("builtins", "set"),
    ("pathlib", "Path"),
    ("pathlib", "PosixPath"),
    ("pathlib", "WindowsPath"),
    ("pathlib._local", "PosixPath"),
    ("pathlib._local", "WindowsPath"),
    ("collections", "Counter"),
}


class _Unpickler(pickle.Unpickler):
    """Unpickles burnlint's data classes, named tuples and enums and ``_ALLOWED_BUILTINS``
    only: anything else in a cache file (a function, a module) makes it unreadable."""

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) in _ALLOWED_BUILTINS:
            return super().find_class(module, name)
        if module == "burnlint" or module.startswith("burnlint."):
            found = super().find_class(module, name)
            if isinstance(found, type) and (
                is_dataclass(found) or issubclass(found, (tuple, enum.Enum))
            ):
                return found
        raise pickle.UnpicklingError(f"{module}.{name} is not allowed in a cache entry")


__all__ = [
    "Cache",
    "CacheError",
    "Scan",
    "ScanEntry",
    "Stat",
    "default_cache_dir",
    "now_ns",
    "remove_cache",
    "settings_digest",
]
