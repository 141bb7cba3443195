"""Where SARIF points: the ``%SRCROOT%`` base URI of the project root, ``file:`` URIs and
the artifact locations of reported paths."""

from __future__ import annotations

import re
import urllib.parse
from pathlib import Path, PurePath, PurePosixPath, PureWindowsPath
from typing import Any

import sarif_om as om

from burnlint.report.sarif.serialize import _om

SRCROOT = "%SRCROOT%"

_WINDOWS_ABSOLUTE = re.compile(r"[A-Za-z]:[/\\]")
_DRIVE = re.compile(r"[A-Za-z]:(?:/|$)")


def root_uri(root: PurePath) -> str:
    """The project root as an absolute ``file://`` URI ending with ``/``."""
    if isinstance(root, Path) and not root.is_absolute():
        root = root.absolute()
    uri = file_uri(root)
    return uri if uri.endswith("/") else uri + "/"


def file_uri(path: PurePath) -> str:
    r"""An absolute path as an RFC 8089 ``file:`` URI, percent-encoded as UTF-8, for POSIX and
    Windows paths alike and the same on every Python version (``PurePath.as_uri`` is
    deprecated since Python 3.14)::

        /home/me/a b.rs           file:///home/me/a%20b.rs
        C:\Users\me\x.rs          file:///C:/Users/me/x.rs
        \\server\share\x.rs       file://server/share/x.rs
        \\?\C:\x.rs               file:///C:/x.rs (verbatim paths lose their prefix)
    """
    if not path.is_absolute():
        raise ValueError(f"a file URI needs an absolute path, not {str(path)!r}")
    text = path.as_posix()
    if not isinstance(path, PureWindowsPath):
        return "file://" + _quote_path(text)
    if text.startswith("//?/UNC/"):  # verbatim UNC path
        text = "//" + text[len("//?/UNC/") :]
    elif text.startswith("//?/"):  # verbatim drive path
        text = text[len("//?/") :]
    if text.startswith("//"):  # UNC: the server is the authority
        server, _, rest = text[2:].partition("/")
        return f"file://{_quote_path(server)}/{_quote_path(rest)}"
    if _DRIVE.match(text):
        return f"file:///{text[:2]}{_quote_path(text[2:])}"
    return "file://" + _quote_path(text)


def _quote_path(text: str) -> str:
    """Percent-encode everything but unreserved characters and ``/`` (so ``:`` too: a relative
    reference whose first segment holds a colon would read as a scheme). A file name that is
    not UTF-8 reaches us with surrogate escapes: its raw bytes are encoded (``\xff`` -> ``%FF``)."""
    return urllib.parse.quote(text.encode("utf-8", "surrogateescape"), safe="/")


def path_uri(path: str) -> tuple[str, bool]:
    """The URI of a reported path and whether it is relative to ``%SRCROOT%``.

    Reported paths are POSIX-style (``paths.display_path``). Relative paths are
    percent-encoded (spaces, ``#``, ``%``, ``\\``, non-ASCII; ``/`` kept) and lose any leading
    ``./``; absolute paths (a file outside the project root) become ``file:`` URIs: ``C:/x.rs``
    and ``//server/share/x.rs`` are Windows paths, other paths starting with ``/`` POSIX ones.
    """
    if _WINDOWS_ABSOLUTE.match(path) or path.startswith("//"):
        windows = PureWindowsPath(path)
        if windows.is_absolute():
            return file_uri(windows), False
    if path.startswith("/"):
        return file_uri(PurePosixPath(path)), False
    while path.startswith("./"):
        path = path[2:]
    return _quote_path(path), True


def _artifact_location(path: str) -> Any:
    uri, relative = path_uri(path)
    return _om(om.ArtifactLocation, uri=uri, uri_base_id=SRCROOT if relative else None)
