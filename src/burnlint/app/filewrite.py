"""Rewriting a source file (``--fix``, ``--add-allow``) without losing an edit made meanwhile.

A run reads the file, spends a while on it (applying the edits, parsing both texts: about 2 s
for a 1 MB file), then writes it. ``edit_file`` takes an advisory lock on the file for that
whole time, so two burnlint runs take their turns instead of each writing over the other's
edits, and ``Editing.write`` checks, right before the new bytes replace the old, that the file
still is what was read: an editor does not take the lock, and its save in that window must not
be lost. A file that changed raises ``FileChangedError`` and is not written.

The write keeps what a rename would lose: a file its caller could not write is refused (root
too: a file without any write bit is refused, as ruff does, since a rename only needs the
directory's permission), the owner and group of the original are kept (as root), and a file
with more than one hard link is written in place, so every name keeps sharing its content
(that write is not atomic: a failure during it can leave part of the new bytes).
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import stat
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

from burnlint.fsutil import RACY_NS, NotRegularFileError, now_ns, write_bytes_atomic

fcntl: ModuleType | None
try:
    import fcntl
except ImportError:  # Windows: no advisory locks; the check before the write still holds
    fcntl = None

# How long a run waits for another run's lock on a file before giving up on it: a run holds it
# for one file's edits (seconds), so a longer wait means a run that hangs, not one that works.
LOCK_TIMEOUT_S = 60.0
_LOCK_POLL_S = 0.05
_ANY_WRITE_BIT = stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH


class FileChangedError(Exception):
    """The file changed after it was read (another program wrote it): it was not written.

    Not an ``OSError``: callers report it apart from a failed write (it is an error)."""


class NotWritableError(OSError):
    """The caller may not write the file (or, as root, it has no write bit)."""

    def __init__(self, path: Path) -> None:
        super().__init__(errno.EACCES, "the file is read-only", str(path))


class Editing:
    """A file read under its lock (``edit_file``): its bytes, and ``write`` for the new ones."""

    def __init__(self, target: Path, fd: int) -> None:
        self.target = target
        self._fd = fd
        # The stat before the read: a write that lands after it changes it (or falls within
        # the racy window, where the bytes are compared).
        self._stat = os.fstat(fd)
        with open(fd, "rb", closefd=False) as handle:
            self.data = handle.read()
        self._digest = _digest(self.data)

    def write(self, data: bytes) -> None:
        """Replace the file's bytes with ``data``, if it is still what was read. Raises
        ``FileChangedError``, ``NotWritableError`` or ``OSError``."""
        if not writable(self.target, self._stat):
            raise NotWritableError(self.target)
        self.check_unchanged()
        if self._stat.st_nlink > 1:
            self._write_in_place(data)
            return
        write_bytes_atomic(
            self.target,
            data,
            owner=(self._stat.st_uid, self._stat.st_gid),
            before_replace=self.check_unchanged,
        )

    def check_unchanged(self) -> None:
        """Raise ``FileChangedError`` unless the file still holds the bytes that were read:
        the stat says so when it is the same and old enough to be trusted, else the bytes."""
        try:
            now = os.stat(self.target)
        except OSError as exc:
            raise FileChangedError(str(exc)) from exc
        if _same(now, self._stat) and max(now.st_mtime_ns, now.st_ctime_ns) + RACY_NS < now_ns():
            return
        try:
            with open(self.target, "rb") as handle:
                current = handle.read()
        except OSError as exc:
            raise FileChangedError(str(exc)) from exc
        if _digest(current) != self._digest:
            raise FileChangedError(str(self.target))

    def _write_in_place(self, data: bytes) -> None:
        # A rename would give this name a new inode and leave the other links with the old
        # bytes; writing into the inode keeps them one file. Written first, truncated after:
        # the file is never empty on the way.
        fd = os.open(self.target, os.O_WRONLY | getattr(os, "O_CLOEXEC", 0))
        try:
            if not os.path.samestat(os.fstat(fd), self._stat):
                raise FileChangedError(str(self.target))
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            os.ftruncate(fd, len(data))
            with contextlib.suppress(OSError):
                os.fsync(fd)
        finally:
            os.close(fd)


def _digest(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def _same(a: os.stat_result, b: os.stat_result) -> bool:
    return (a.st_dev, a.st_ino, a.st_size, a.st_mtime_ns, a.st_ctime_ns) == (
        b.st_dev,
        b.st_ino,
        b.st_size,
        b.st_mtime_ns,
        b.st_ctime_ns,
    )


def writable(path: Path, found: os.stat_result) -> bool:
    """Whether the caller may write ``path``. Root may write anything, so for root the mode
    bits decide (as for ruff): a file with no write bit is meant to be left alone."""
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        return bool(found.st_mode & _ANY_WRITE_BIT)
    return os.access(path, os.W_OK)


@contextlib.contextmanager
def edit_file(path: Path) -> Iterator[Editing]:
    """Lock ``path`` (the file a symbolic link leads to) against other burnlint runs, read it,
    and yield it for ``Editing.write``; the lock is released on the way out, whatever
    happens. Raises ``OSError`` (``NotRegularFileError`` for a FIFO or a device)."""
    target = Path(os.path.realpath(path))
    fd = _open_locked(target)
    try:
        yield Editing(target, fd)
    finally:
        os.close(fd)  # closing the last descriptor releases the lock


def _open_locked(target: Path) -> int:
    """A descriptor of ``target`` holding its lock. The lock is on the inode: when the file
    was replaced (by the run that held the lock) while this one waited, the lock held is on
    the old inode, so it is taken again on the new one."""
    deadline = time.monotonic() + LOCK_TIMEOUT_S
    while True:
        flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
        fd = os.open(target, flags)
        try:
            found = os.fstat(fd)
            if not stat.S_ISREG(found.st_mode):
                raise NotRegularFileError(errno.EINVAL, "not a regular file", str(target))
            if fcntl is None:
                return fd
            _lock(fd, deadline, target)
            with contextlib.suppress(OSError):
                if os.path.samestat(os.stat(target), os.fstat(fd)):
                    return fd
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)


def _lock(fd: int, deadline: float, target: Path) -> None:
    assert fcntl is not None
    # Polled, not blocking: a run that hangs holding a lock must not hang this one too.
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() >= deadline:
                raise OSError(
                    errno.EAGAIN, "the file is locked by another burnlint run", str(target)
                ) from None
            time.sleep(_LOCK_POLL_S)
