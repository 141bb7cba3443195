"""Standard streams that cannot be written: stdout closed (``>&-``), full (``/dev/full``) or
gone (a closed pipe). A report that cannot reach stdout is one clean error, exit 2, for every
subcommand, never a traceback and never exit 0 with the output lost; stderr has nowhere to
say that it failed, so what cannot be written there is dropped.

``guarded`` puts ``Guarded`` proxies in ``sys.stdout`` and ``sys.stderr``: click and the commands
write through them unchanged, and a failed write or flush of stdout raises ``StdoutError``
(not an ``OSError``, so that no handler of file errors on the way swallows it).
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys
from collections.abc import Iterator
from typing import Any, TextIO


class StdoutError(Exception):
    """stdout cannot take what is written to it; ``reason`` says why (``strerror``)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Guarded:
    """A standard text stream (None: its descriptor was closed when Python started) whose
    failures are handled once: ``strict`` (stdout) raises ``StdoutError`` on the first and
    keeps it in ``error`` (a caller's ``except Exception`` may swallow the raise), then drops
    what follows; otherwise (stderr) every failure is dropped. Anything else is the stream's
    own (``buffer``, ``fileno``, ``encoding``)."""

    def __init__(self, stream: TextIO | None, *, strict: bool) -> None:
        self._stream = stream
        self._strict = strict
        self.failed = False
        self.error: StdoutError | None = None

    def write(self, text: str) -> int:
        if not isinstance(text, str):  # click tells text streams from binary ones so
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        if self.failed or not text:  # "" probes the stream (click): nothing to lose
            return len(text)
        if self._stream is None:
            self._fail(OSError(errno.EBADF, os.strerror(errno.EBADF)))
            return len(text)
        try:
            return self._stream.write(text)
        except (OSError, ValueError) as exc:
            self._fail(exc)
            return len(text)

    def flush(self) -> None:
        # a stream closed by its user (the language server's transport) has nothing pending
        if self.failed or self._stream is None or self._stream.closed:
            return
        try:
            self._stream.flush()
        except (OSError, ValueError) as exc:
            self._fail(exc)

    def isatty(self) -> bool:
        return self._stream is not None and not self.failed and self._stream.isatty()

    @property
    def encoding(self) -> str:
        return getattr(self._stream, "encoding", None) or "utf-8"

    @property
    def errors(self) -> str:
        return getattr(self._stream, "errors", None) or "backslashreplace"

    def __getattr__(self, name: str) -> Any:
        if self._stream is None:
            raise AttributeError(name)
        return getattr(self._stream, name)

    def _fail(self, exc: OSError | ValueError) -> None:
        self.failed = True
        # What is still buffered would fail again when Python flushes the stream at exit
        # ("Exception ignored ..."): the descriptor is pointed at /dev/null, which takes it.
        if self._stream is not None:
            with contextlib.suppress(OSError, ValueError, AttributeError):
                fd = self._stream.fileno()  # none for a stream a test harness put there
                null = os.open(os.devnull, os.O_WRONLY)
                os.dup2(null, fd)
                os.close(null)
        if self._strict:
            if isinstance(exc, OSError):
                reason = exc.strerror or os.strerror(exc.errno or errno.EIO)
            else:  # ValueError: the stream was closed
                reason = os.strerror(errno.EBADF)
            self.error = StdoutError(reason)
            raise self.error


@contextlib.contextmanager
def guarded() -> Iterator[Guarded]:
    """The guards in place while the block runs (``main`` may run in a test's process);
    yields stdout's."""
    saved = sys.stdout, sys.stderr
    stdout = Guarded(sys.stdout, strict=True)
    sys.stdout = stdout
    sys.stderr = Guarded(sys.stderr, strict=False)
    try:
        yield stdout
    finally:
        sys.stdout, sys.stderr = saved
