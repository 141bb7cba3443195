"""Whose directory the cache's root is: what burnlint may read, write and remove.

A root is burnlint's when it holds burnlint's ``CACHEDIR.TAG``; an absent or empty directory
becomes burnlint's when the first entry is written (the tag first). Anything else is refused,
for reading, writing and ``burnlint clean`` alike, and the run goes on without the cache:

- a symbolic link: burnlint would write, and read, wherever it points;
- a directory with other things in it and no tag of burnlint's (``--cache-dir ~``).
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

from burnlint.fsutil import read_regular_file

TAG_NAME = "CACHEDIR.TAG"
TAG = (
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This file is a cache directory tag created by burnlint.\n"
    "# For information about cache directory tags see https://bford.info/cachedir/\n"
)
# what a writer leaves in the root for a moment (``cache.Cache._save``, ``write_tag``): a
# directory holding only these is empty
TEMPORARY_PREFIX = ".tmp-"


def refusal(root: Path) -> str | None:
    """Why the cache in ``root`` is not to be used in this run (one line for stderr), or
    None."""
    root = Path(os.path.abspath(root))
    reason = not_ours(root)
    return f"not using the cache in {root}: {reason}" if reason else None


def not_ours(root: Path) -> str | None:
    """Why ``root`` is not burnlint's to read, write or remove (see the module), said of
    "it", or None: it is (tagged), may become so (absent or empty), or is no directory
    (writing says so)."""
    try:
        found = os.lstat(root)
    except OSError:
        return None
    if stat.S_ISLNK(found.st_mode):
        return "it is a symbolic link"
    if not stat.S_ISDIR(found.st_mode) or is_tagged(root) or _empty(root):
        return None
    return f"it is not empty and has no {TAG_NAME} of burnlint's"


def is_tagged(root: Path) -> bool:
    """``root`` holds burnlint's tag (a regular file, not a link, read without waiting)."""
    try:
        data = read_regular_file(root / TAG_NAME, len(TAG) + 1, follow_symlinks=False)
    except OSError:
        return False
    return data == TAG.encode()


def write_tag(root: Path) -> None:
    """Tag ``root`` (an empty directory) as burnlint's, in one step: a run starting meanwhile
    sees an empty directory, or the whole tag. Raises ``OSError``."""
    handle, temporary = tempfile.mkstemp(dir=root, prefix=TEMPORARY_PREFIX)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as fh:
            fh.write(TAG)
        os.chmod(temporary, 0o644)
        os.replace(temporary, root / TAG_NAME)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _empty(root: Path) -> bool:
    try:
        with os.scandir(root) as entries:
            return all(entry.name.startswith(TEMPORARY_PREFIX) for entry in entries)
    except OSError:
        return False
