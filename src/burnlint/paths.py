"""How reports name files: relative to a root (the project root, a configuration's directory)
when inside it, with ``/`` on every platform (the one place a path is made relative); how a
path is written as text (``escape_controls``); and which directory is the project root when
none is given."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path, PurePath


def relative_path(path: PurePath, root: PurePath, *, resolve: bool = False) -> str | None:
    """``path`` relative to ``root``, POSIX-style (``src/a.rs``); None when it is not inside.

    Pure by default, so Windows paths are handled anywhere as ``PureWindowsPath``s (whose
    comparison ignores case, as Windows does). With ``resolve``, symbolic links are looked
    through as well: ``root`` as given and resolved, each against ``path`` as given and
    resolved, in that order (a file reached through a link still lies in its directory).
    """
    for base in _forms(root, resolve):
        for candidate in _forms(path, resolve):
            try:
                return candidate.relative_to(base).as_posix()
            except ValueError:
                continue
    return None


def display_path(path: PurePath, root: PurePath, *, resolve: bool = False) -> str:
    """How reports name ``path``: relative to ``root`` when inside it (``relative_path``),
    else absolute, with ``/`` on every platform (``src/a.rs``, ``C:/elsewhere/b.rs``,
    ``//server/share/c.rs``)."""
    if not resolve:
        return _pure_display_path(type(path), str(path), type(root), str(root))
    return _shown(path, root, resolve=True)


@lru_cache(maxsize=65536)
def _pure_display_path(
    path_type: type[PurePath], path: str, root_type: type[PurePath], root: str
) -> str:
    # a function of the two paths (a long-lived process names the same files at every
    # check), kept by their text: Windows paths that differ in case are equal, not the same
    return _shown(path_type(path), root_type(root), resolve=False)


def _shown(path: PurePath, root: PurePath, *, resolve: bool) -> str:
    relative = relative_path(path, root, resolve=resolve)
    return relative if relative is not None else path.as_posix()


# Unicode category Cc: C0 (U+0000-U+001F), DEL and C1 (U+0080-U+009F). A file name may hold
# any of them; shown raw, a newline starts a line of its own in a report (a file named
# `x\n::error title=..::..` would forge a GitHub workflow command in a CI log) and the others
# move the cursor or restyle the user's terminal.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")
_NAMED_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def escape_controls(text: str) -> str:
    """``text`` with each control character written as an escape (``\\n``, ``\\r``, ``\\t``,
    else ``\\x1b``): how every report and message shows a path as text, in every format.
    Structured fields (JSON strings, SARIF URIs) carry the path itself, escaped by their own
    syntax."""
    if _CONTROL.search(text) is None:
        return text
    return _CONTROL.sub(lambda m: _NAMED_ESCAPES.get(m[0], f"\\x{ord(m[0]):02x}"), text)


def shown_path(path: PurePath, root: PurePath, *, resolve: bool = False) -> str:
    """``display_path`` written as text (``escape_controls``): for a path inside a message or a
    line-oriented report."""
    return escape_controls(display_path(path, root, resolve=resolve))


def percent_undecodable(text: str) -> str:
    """``text`` with the bytes of a file name that is not UTF-8 (which reach us as lone
    surrogates, ``\\udcff``) percent-encoded (``%FF``), as SARIF URIs write them: strict JSON
    decoders reject a lone surrogate."""
    if text.isascii():
        return text
    return "".join(f"%{ord(ch) - 0xDC00:02X}" if "\udc80" <= ch <= "\udcff" else ch for ch in text)


def _forms(path: PurePath, resolve: bool) -> Iterator[PurePath]:
    """``path``, then (with ``resolve``) the path its symbolic links lead to, computed only
    when asked for."""
    yield path
    if resolve:
        yield Path(os.path.realpath(path))


def default_project_root() -> Path:
    """The git work tree around the current directory, else the current directory. The work
    tree is the nearest directory holding a ``.git`` (a directory, or the file of a linked
    worktree or a submodule): what ``git rev-parse --show-toplevel`` answers, without the
    cost of starting git at every run."""
    cwd = Path.cwd()
    for directory in (cwd, *cwd.parents):
        if os.path.lexists(directory / ".git"):
            return directory
    return cwd
