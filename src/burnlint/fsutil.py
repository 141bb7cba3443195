"""Writing files so that a reader never sees half of one and a failure leaves the old one."""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from pathlib import Path


def write_text_atomic(path: Path, text: str, *, encoding: str = "utf-8") -> None:
    """Replace ``path`` with ``text`` in one step.

    The text goes to a temporary file in the same directory (so ``os.replace`` is a rename on
    one file system), is flushed to disk, then renamed over ``path``. On any error the
    temporary file is removed, the old ``path`` is untouched, and the ``OSError`` propagates.
    A symbolic link is written through, not replaced by a regular file. Line endings are
    written as given (``\\n``) on every platform so outputs are byte-identical everywhere.
    """
    target = Path(os.path.realpath(path))
    mode = _mode_for(target)
    fd, temp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        # backslashreplace: a file name that is not valid UTF-8 reaches the report as a lone
        # surrogate; it must not make the whole report unwritable.
        with os.fdopen(fd, "w", encoding=encoding, errors="backslashreplace", newline="") as handle:
            handle.write(text)
            handle.flush()
            try:
                os.fsync(handle.fileno())
            except OSError as exc:
                # Some file systems (FUSE, some network mounts) cannot fsync; the rename
                # below still gives readers all or nothing.
                if exc.errno not in (errno.EINVAL, errno.ENOTSUP):
                    raise
        os.chmod(temp_name, mode)
        os.replace(temp_name, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp_name)
        raise


def _mode_for(target: Path) -> int:
    """Keep an existing file's permissions; a new file gets what ``open`` would give it
    (``mkstemp`` alone would make it private, 0600)."""
    try:
        return stat.S_IMODE(target.stat().st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask
