"""Whose directory the cache's root is: what burnlint may read, write and remove.

A root is burnlint's when it holds burnlint's ``CACHEDIR.TAG``; an absent or empty directory
becomes burnlint's when the first entry is written (the tag first). Anything else is refused,
for reading, writing and ``burnlint clean`` alike, and the run goes on without the cache:

- a symbolic link: burnlint would write, and read, wherever it points;
- a directory with other things in it and no tag of burnlint's (``--cache-dir ~``);
- a directory git tracks files in: a cache committed to the repository comes from whoever
  can push, and could hold any findings (``git ls-files`` says, in the work tree holding
  the root, when there is one and git is installed; a git that cannot answer in time counts
  as a refusal, not as a yes).
"""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
from pathlib import Path

from burnlint.fsutil import Stamps, read_regular_file, stamps

TAG_NAME = "CACHEDIR.TAG"
TAG = (
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This file is a cache directory tag created by burnlint.\n"
    "# For information about cache directory tags see https://bford.info/cachedir/\n"
)
# what a writer leaves in the root for a moment (``cache.Cache._save``, ``write_tag``): a
# directory holding only these is empty
TEMPORARY_PREFIX = ".tmp-"
# how long git may take to list what it tracks in the cache; `git ls-files` with a path
# reads the index only (2 ms on the burn repository)
GIT_SECONDS = 5.0


def refusal(root: Path) -> str | None:
    """Why the cache in ``root`` is not to be used in this run (one line for stderr), or
    None. The git answer is kept while git's index and the root are unchanged: the
    language server asks at every check."""
    root = Path(os.path.abspath(root))
    reason = not_ours(root) or _git_tracks(root)
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


# the last answer of git per root: (the stamps it holds for, the reason or None)
_GIT_ANSWERS: dict[Path, tuple[Stamps, str | None]] = {}


def _git_tracks(root: Path) -> str | None:
    """Why git makes ``root`` unusable: it tracks files in it, or cannot say; None when it
    tracks none, or when ``root`` is in no git work tree (or git is not installed)."""
    top = _work_tree(root)
    git = shutil.which("git") if top is not None else None
    if top is None or git is None or not os.path.isdir(root):
        return None
    import subprocess  # here: most runs have no cache in a work tree to ask git about

    index = os.environ.get("GIT_INDEX_FILE") or _index_of(top)
    kept = stamps([os.fspath(index)]) if index is not None else None
    if kept is not None:
        known = _GIT_ANSWERS.get(root)
        if known is not None and known[0] == kept:
            return known[1]
    command = [git, "--literal-pathspecs", "-c", "core.fsmonitor=false", "ls-files", "-z"]
    try:
        done = subprocess.run(
            [*command, "--", os.path.relpath(root, top)],
            cwd=top,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=GIT_SECONDS,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return f"cannot tell whether git tracks files in it (git took over {GIT_SECONDS:g} s)"
    except OSError as exc:
        return f"cannot tell whether git tracks files in it: {exc.strerror or exc}"
    if done.returncode != 0:
        said = done.stderr.decode("utf-8", "replace").strip().splitlines()
        why = said[0] if said else f"exit status {done.returncode}"
        return f"cannot tell whether git tracks files in it: {why}"
    found = "git tracks files in it (a committed cache is not trusted)" if done.stdout else None
    if kept is not None:
        _GIT_ANSWERS[root] = (kept, found)
    return found


def _work_tree(root: Path) -> Path | None:
    """The nearest directory above ``root`` holding a ``.git``, or None."""
    for directory in root.parents:
        if os.path.lexists(directory / ".git"):
            return directory
    return None


def _index_of(top: Path) -> str | None:
    """The index file of the work tree ``top``: in ``.git``, or in the directory a ``.git``
    file names (a linked work tree, a submodule); None when neither can be read."""
    dot_git = top / ".git"
    if dot_git.is_dir():
        return os.fspath(dot_git / "index")
    try:
        text = read_regular_file(dot_git, 4096).decode("utf-8", "replace")
    except OSError:
        return None
    if not text.startswith("gitdir:"):
        return None
    return os.fspath(top / text[len("gitdir:") :].strip() / "index")
