"""What a check has to say on the terminal: the report on stdout when it goes there, and one
line on stderr for each warning, error and summary. Nothing here prints: the front end does,
in the order the messages come."""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass

from burnlint.paths import escape_controls

# Set (and not "0") to get a traceback instead of the one-line internal error.
DEBUG_ENV = "BURNLINT_DEBUG"


class Stream(enum.Enum):
    STDOUT = "stdout"
    STDERR = "stderr"


@dataclass(frozen=True)
class Message:
    """Text for one stream. ``newline``: a line break follows it; ``color``: keep its ANSI
    styles whatever the stream is (None: only on a terminal)."""

    text: str
    stream: Stream = Stream.STDERR
    newline: bool = True
    color: bool | None = None


Emit = Callable[[Message], None]


class Console:
    """The messages of one check, in order: kept, and handed to ``emit`` as they come, so
    that a warning shows before a long run and a crash when it happens."""

    def __init__(self, emit: Emit | None = None) -> None:
        self.messages: list[Message] = []
        self._emit = emit

    def say(self, message: Message) -> None:
        self.messages.append(message)
        if self._emit is not None:
            self._emit(message)

    def out(self, text: str, *, newline: bool = True, color: bool | None = None) -> None:
        """``text`` on stdout."""
        self.say(Message(text, Stream.STDOUT, newline, color))

    def err(self, text: str, *, newline: bool = True) -> None:
        """``text`` on stderr."""
        self.say(Message(text, Stream.STDERR, newline))

    def error(self, text: str) -> None:
        """One ``burnlint: error:`` line; a control character in it (from a path) is escaped,
        so that it stays one line (``paths.escape_controls``)."""
        self.err(f"burnlint: error: {escape_controls(text)}")

    def warning(self, text: str) -> None:
        """One ``burnlint: warning:`` line, escaped like ``error``."""
        self.err(f"burnlint: warning: {escape_controls(text)}")


def internal_error_message(exc: BaseException) -> str:
    """``burnlint: internal error: KeyError: 'x' (set BURNLINT_DEBUG=1 for a traceback)``: an
    exception burnlint did not expect, on one line."""
    detail = " ".join(str(exc).split())
    what = f"{type(exc).__name__}: {detail}" if detail else type(exc).__name__
    return f"burnlint: internal error: {what} (set {DEBUG_ENV}=1 for a traceback)"
