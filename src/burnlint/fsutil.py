"""Writing files so that a reader never sees half of one and a failure leaves the old one;
reading them within bounds; and when a file's stat may stand for its content."""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from functools import lru_cache
from pathlib import Path
from typing import BinaryIO, Literal, TextIO

# Paths that name the process's own standard streams: the report goes to the open stream (a
# pipe, a terminal, a file opened for appending), never to a file replaced under it.
_STREAM_PATHS = {
    "/dev/stdout": 1,
    "/dev/stderr": 2,
    "/dev/fd/1": 1,
    "/dev/fd/2": 2,
    "/proc/self/fd/1": 1,
    "/proc/self/fd/2": 2,
}


class NotRegularFileError(OSError):
    """A path that was to be read as a file is a FIFO, a device or a socket."""


def read_regular_file(path: Path | str, limit: int = -1, *, follow_symlinks: bool = True) -> bytes:
    """The bytes of the regular file ``path`` (its first ``limit`` bytes, when given).

    A FIFO opened for reading waits for a writer, and a device can be endless: neither is
    read. The file is opened without blocking and checked once open (no window between a
    check and the read); a directory raises ``IsADirectoryError``, anything else that is not
    a regular file ``NotRegularFileError``. Without ``follow_symlinks``, a symbolic link
    raises ``OSError`` (``ELOOP``) instead of being read through (where ``O_NOFOLLOW``
    exists). Raises ``OSError``.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    if not follow_symlinks:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags)
    with os.fdopen(fd, "rb") as handle:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
        if not stat.S_ISREG(mode):
            raise NotRegularFileError(errno.EINVAL, "not a regular file", str(path))
        return handle.read(limit)


def write_report(path: Path, text: str) -> None:
    """Write a report to ``path``, the way its kind of file needs.

    ``/dev/stdout`` and ``/dev/stderr`` (and their ``/dev/fd`` and ``/proc/self/fd`` names) get
    the text on the open stream. A character device (``/dev/null``), a FIFO or a socket is
    written into directly: replacing it with a regular file would delete a device node for
    every later user of it, and a FIFO's reader would never get the report. Anything else (a
    regular file, or nothing yet) is replaced atomically (``write_text_atomic``). Raises
    ``OSError``.
    """
    stream = _STREAM_PATHS.get(path.as_posix()) if os.name == "posix" else None
    if stream is not None:
        _write_stream(sys.stdout if stream == 1 else sys.stderr, text)
        return
    try:
        mode = os.stat(path).st_mode
    except OSError:
        mode = None  # nothing there yet (or unreachable): the atomic write says why
    if mode is not None and not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):
        with open(path, "w", encoding="utf-8", errors="backslashreplace", newline="") as handle:
            handle.write(text)
        return
    write_text_atomic(path, text)


def _write_stream(stream: TextIO, text: str) -> None:
    """``text`` as UTF-8 on a standard stream, after what was already written to it."""
    stream.flush()
    buffer: BinaryIO | None = getattr(stream, "buffer", None)
    if buffer is None:  # a stream without a byte layer (replaced by a test harness)
        stream.write(text)
        stream.flush()
        return
    buffer.write(text.encode("utf-8", errors="backslashreplace"))
    buffer.flush()


def write_text_atomic(path: Path, text: str, *, encoding: str = "utf-8") -> None:
    """``write_bytes_atomic`` of ``text``. Line endings are written as given (``\\n``) on every
    platform so outputs are byte-identical everywhere; a file name that is not valid UTF-8
    reaches a report as a lone surrogate, written backslash-escaped rather than making the
    whole report unwritable."""
    write_bytes_atomic(path, text.encode(encoding, errors="backslashreplace"))


def write_bytes_atomic(
    path: Path,
    data: bytes,
    *,
    owner: tuple[int, int] | None = None,
    before_replace: Callable[[], None] | None = None,
) -> None:
    """Replace ``path`` with ``data`` in one step.

    The bytes go to a temporary file in the same directory (so ``os.replace`` is a rename on
    one file system), are flushed to disk, then renamed over ``path``, which keeps its
    permissions. On any error (or an interrupt) the temporary file is removed, the old ``path``
    is untouched, and the exception propagates. A symbolic link is written through (its target
    gets the new bytes), not replaced by a regular file. ``owner`` (uid, gid) is given to the
    new file where allowed (root; a group of one's own), else it is the writer's.
    ``before_replace`` is called last before the rename (to refuse it by raising).
    """
    target = Path(os.path.realpath(path))
    mode = _mode_for(target)
    fd, temp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            try:
                os.fsync(handle.fileno())
            except OSError as exc:
                # Some file systems (FUSE, some network mounts) cannot fsync; the rename
                # below still gives readers all or nothing.
                if exc.errno not in (errno.EINVAL, errno.ENOTSUP):
                    raise
        if owner is not None:
            _chown(temp_name, owner)
        # after chown, which clears the set-id bits
        os.chmod(temp_name, mode)
        if before_replace is not None:
            before_replace()
        os.replace(temp_name, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp_name)
        raise


def _chown(name: str, owner: tuple[int, int]) -> None:
    """Give ``name`` the owner and group of the file it replaces: a rename by root would
    otherwise hand a user's file to root. Someone else may not do it (EPERM): the file is then
    theirs, as any editor's save would make it."""
    if not hasattr(os, "chown"):
        return
    found = os.stat(name)
    if (found.st_uid, found.st_gid) == owner:
        return
    with contextlib.suppress(PermissionError):
        os.chown(name, *owner)


def _mode_for(target: Path) -> int:
    """Keep an existing file's permissions; a new file gets what ``open`` would give it
    (``mkstemp`` alone would make it private, 0600)."""
    try:
        return stat.S_IMODE(target.stat().st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


# A file modified this close to the moment it is read may change again within the same
# modification time (coarse file-system clocks): its stat is not trusted, its bytes are read.
RACY_NS = 2_000_000_000


def now_ns() -> int:
    return time.time_ns()


# (mode, size, modification time in ns, inode) of a path; None: absent
Stamp = tuple[int, int, int, int] | None
Stamps = tuple[tuple[str, Stamp], ...]


def stamps(paths: Iterable[str]) -> Stamps | None:
    """The stamp of each of ``paths`` (files or directories), in path order, for telling later
    whether any of them changed (``unchanged``); None when one cannot be trusted: modified in
    the last moments (``RACY_NS``), or not statted for another reason than its absence."""
    found: list[tuple[str, Stamp]] = []
    now = now_ns()
    for path in sorted(set(paths)):
        stamp = _stamp(path)
        if stamp is False:
            return None
        if stamp is not None and stamp[2] + RACY_NS >= now:
            return None
        found.append((path, stamp))
    return tuple(found)


def unchanged(stamped: Stamps) -> bool:
    """Whether every path of ``stamped`` is as it was (absent ones still absent)."""
    return all(_stamp(path) == stamp for path, stamp in stamped)


def _stamp(path: str) -> Stamp | Literal[False]:
    try:
        found = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError:
        return False
    return (found.st_mode, found.st_size, found.st_mtime_ns, found.st_ino)


# No platform has a shorter PATH_MAX (macOS: 1024): a shorter path needs no probe.
_SHORTEST_PATH_MAX = 1024


@lru_cache(maxsize=1024)
def name_too_long(directory: str, name: str) -> str | None:
    """Why ``name`` in ``directory`` cannot be looked up (ENAMETOOLONG: the path is over the
    system's ``PATH_MAX``), or None. A function of the path: the answer is kept."""
    probe = os.path.join(directory, name)
    if len(os.fsencode(probe)) < _SHORTEST_PATH_MAX:
        return None
    try:
        os.lstat(probe)
    except OSError as exc:
        if exc.errno == errno.ENAMETOOLONG:
            return exc.strerror or "File name too long"
    return None
