"""What ``burnlint check`` was asked to do: the command line's parameters, parsed, as data."""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from burnlint.config import CliSettings
from burnlint.findings import Level

# `-o -` and `--output-format FORMAT=-`: the report goes to stdout. The front end gives this
# very object for a bare `-` (compared by identity: `./-` names a file called `-`).
STDOUT = Path("-")


def is_stdout(path: Path | None) -> bool:
    """Whether an output path is ``STDOUT``, not a file."""
    return path is STDOUT


class RequestError(Exception):
    """The request cannot run as asked (options that exclude each other, an output that would
    replace the baseline being read, a bad command-line setting): nothing has run yet."""


def read_stdin() -> bytes:
    """The bytes on stdin; ``RequestError`` when it is closed (``<&-``) or cannot be read."""
    try:
        if sys.stdin is None:  # its descriptor was closed when Python started
            raise OSError(errno.EBADF, os.strerror(errno.EBADF))
        return sys.stdin.buffer.read()
    except (OSError, ValueError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) else None
        raise RequestError(
            f"cannot read the source from stdin: {reason or os.strerror(errno.EBADF)}"
        ) from None


@dataclass(frozen=True)
class CheckRequest:
    """One check, as the command line asks for it.

    ``paths`` as given (none: the current directory); ``settings`` the options that override
    the configuration files; ``project_root`` None for the git work tree around the current
    directory (else the directory itself). ``color`` is whether the report on stdout may be
    coloured (the front end knows its terminal); ``format_given`` whether ``--format`` was
    given rather than left at its default. ``jobs`` 0 means one worker process per CPU.
    ``output`` None or ``STDOUT`` writes the report to stdout, and so does an extra output to
    ``STDOUT``. ``read_stdin`` gives the source checked as ``stdin_filename``. ``cache`` False
    neither reads nor writes the persistent cache (``engine/cache.py``). ``debug``: an unexpected
    exception propagates instead of becoming an internal-error notification.
    """

    paths: tuple[Path, ...] = ()
    settings: CliSettings = field(default_factory=CliSettings)
    config_file: Path | None = None
    output_format: str = "text"
    format_given: bool = False
    output: Path | None = None
    extra_outputs: tuple[tuple[str, Path], ...] = ()
    fail_on: Level = Level.NOTE
    exit_zero: bool = False
    jobs: int = 0
    project_root: Path | None = None
    prefilter: bool = True
    color: bool = False
    quiet: bool = False
    statistics: bool = False
    category: str | None = None
    fix: bool = False
    unsafe_fixes: bool = False
    diff: bool = False
    baseline: Path | None = None
    write_baseline: Path | None = None
    add_allow: bool = False
    stdin_filename: Path | None = None
    cache: bool = True
    cache_dir: Path | None = None  # None: ``BURNLINT_CACHE_DIR``, else in the project root
    read_stdin: Callable[[], bytes] = read_stdin
    debug: bool = False

    @property
    def report_file(self) -> Path | None:
        """The file the report is written to; None for stdout (no ``-o``, or ``-o -``)."""
        return None if self.output is None or is_stdout(self.output) else self.output

    @property
    def edits_files(self) -> bool:
        """--fix, --diff and --add-allow (--diff reads the files it would edit)."""
        return self.fix or self.diff or self.add_allow
