"""What the Rust ``regex`` crate certainly rejects in a pattern (BL010).

burn-store compiles its patterns with ``regex::Regex::new`` (regex 1.12, whose parser is
regex-syntax 0.8). No maintained Python binding of that crate fits here (one wraps it
behind Python's ``re`` syntax, another is an experiment last released in 2024), so this is a
conservative reading of regex-syntax's parser: it reports a pattern only for errors that parser
raises whatever the crate's features, and gives up (reports nothing) where it is not sure,
such as under the verbose flag ``x``, inside ``\\p{..}`` or after a non-ASCII escape.

Reported: unclosed and unopened groups, unclosed classes, a repetition operator with nothing
before it (``*a``, ``(+)``, ``a|?``, ``(?i)*``, ``{2}``), malformed counted repetitions
(``a{``, ``a{,2}``, ``a{3,2}``), look-around, back-references (``\\1``, ``(?P=name)``),
atomic and comment groups, unknown flags, empty, malformed or duplicate group names, and
escapes the crate does not know (``\\Z``, ``\\e``, ``\\Q``). Accepted as the crate does:
named groups ``(?<name>..)`` and ``(?P<name>..)``, nested repetitions (``a**``), a ``]`` or
``-`` first in a class, nested classes and their set operations, POSIX classes.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class RegexProblem(enum.Enum):
    """Why regex-syntax rejects a pattern, as its error kinds say it."""

    UNCLOSED_GROUP = "unclosed group"
    UNOPENED_GROUP = "unopened group"
    UNCLOSED_CLASS = "unclosed character class"
    REPETITION_MISSING = "repetition operator missing expression"
    COUNTED_REPETITION = "invalid counted repetition"
    LOOK_AROUND = "look-around is not supported"
    BACKREFERENCE = "backreferences are not supported"
    UNSUPPORTED_GROUP = "unsupported group syntax"
    FLAG = "unrecognized flag"
    GROUP_NAME = "invalid capture group name"
    ESCAPE = "unrecognized escape sequence"


@dataclass(frozen=True)
class RegexError:
    problem: RegexProblem
    offset: int  # the character offset in the pattern where the problem is
    detail: str  # the text at fault, as written in the pattern


class _GiveUp(Exception):
    """The pattern uses syntax this reading does not follow: say nothing."""


# Escapes of ASCII letters that regex-syntax knows outside a class: special characters,
# Perl classes, assertions; `x`, `u`, `U`, `p`, `P` take an argument.
_LETTER_ESCAPES = frozenset("afnrtvdDsSwWbBAz")
_CLASS_LETTER_ESCAPES = frozenset("afnrtvdDsSwW")
_ARGUMENT_ESCAPES = {"x": 2, "u": 4, "U": 8}
_HEX = frozenset("0123456789abcdefABCDEF")
_FLAGS = frozenset("imsRUu")
_POSIX = frozenset(
    {
        "alnum",
        "alpha",
        "ascii",
        "blank",
        "cntrl",
        "digit",
        "graph",
        "lower",
        "print",
        "punct",
        "space",
        "upper",
        "word",
        "xdigit",
    }
)
_WORD_BOUNDARIES = frozenset({"start", "end", "start-half", "end-half"})
_NAME_PUNCTUATION = frozenset("_.[]")
_SPACE = " \t\n\r\f\v"


def regex_error(pattern: str) -> RegexError | None:
    """The first error regex-syntax certainly reports for ``pattern``; None when there is
    none, or when this reading cannot tell."""
    try:
        return _Parser(pattern).run()
    except _GiveUp:
        return None


class _Parser:
    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        self.index = 0
        self.groups: list[int] = []  # offsets of the open groups' `(`
        self.names: set[str] = set()
        # whether the current concatenation ends in something a repetition applies to
        self.atom = False

    def error(self, problem: RegexProblem, start: int, end: int | None = None) -> RegexError:
        stop = end if end is not None else start + 1
        return RegexError(problem, start, self.pattern[start:stop])

    def peek(self, offset: int = 0) -> str:
        at = self.index + offset
        return self.pattern[at] if at < len(self.pattern) else ""

    def run(self) -> RegexError | None:
        pattern = self.pattern
        while self.index < len(pattern):
            char = pattern[self.index]
            start = self.index
            if char == "(":
                found = self.group_open()
            elif char == ")":
                if not self.groups:
                    return self.error(RegexProblem.UNOPENED_GROUP, start)
                self.groups.pop()
                self.index += 1
                self.atom = True
                found = None
            elif char == "|":
                self.index += 1
                self.atom = False
                found = None
            elif char in "*+?":
                if not self.atom:
                    return self.error(RegexProblem.REPETITION_MISSING, start)
                self.index += 1
                if self.peek() == "?":
                    self.index += 1
                found = None
            elif char == "{":
                found = self.counted_repetition()
            elif char == "[":
                found = self.character_class()
                self.atom = True
            elif char == "\\":
                found = self.escape(in_class=False)
                self.atom = True
            else:
                self.index += 1
                self.atom = True
                found = None
            if found is not None:
                return found
        if self.groups:
            return self.error(RegexProblem.UNCLOSED_GROUP, self.groups[-1])
        return None

    # -- groups -----------------------------------------------------------------------------
    def group_open(self) -> RegexError | None:
        start = self.index
        pattern = self.pattern
        self.index += 1
        if self.peek() != "?":
            self.groups.append(start)
            self.atom = False
            return None
        self.index += 1
        rest = pattern[self.index :]
        for opener in ("=", "!", "<=", "<!"):
            if rest.startswith(opener):
                return self.error(RegexProblem.LOOK_AROUND, start, self.index + len(opener))
        if rest.startswith("P="):
            close = pattern.find(")", self.index)
            end = close + 1 if close >= 0 else len(pattern)
            return self.error(RegexProblem.BACKREFERENCE, start, end)
        if rest[:1] in (">", "#"):
            return self.error(RegexProblem.UNSUPPORTED_GROUP, start, self.index + 1)
        if rest.startswith("P<") or rest.startswith("<"):
            self.index += 2 if rest.startswith("P") else 1
            return self.group_name(start)
        return self.flags(start)

    def group_name(self, start: int) -> RegexError | None:
        pattern = self.pattern
        close = pattern.find(">", self.index)
        if close < 0:
            return self.error(RegexProblem.GROUP_NAME, start, len(pattern))
        name = pattern[self.index : close]
        valid = bool(name) and all(
            c.isalpha() or c in _NAME_PUNCTUATION or (c.isdigit() and i > 0)
            for i, c in enumerate(name)
        )
        if not valid:
            if any(not c.isascii() for c in name):
                raise _GiveUp  # regex-syntax's Unicode letter test is not Python's
            return self.error(RegexProblem.GROUP_NAME, start, close + 1)
        if name in self.names:
            return self.error(RegexProblem.GROUP_NAME, start, close + 1)
        self.names.add(name)
        self.index = close + 1
        self.groups.append(start)
        self.atom = False
        return None

    def flags(self, start: int) -> RegexError | None:
        pattern = self.pattern
        seen: set[str] = set()
        negated = False
        last = ""
        while self.index < len(pattern):
            char = pattern[self.index]
            if char in (":", ")"):
                if last == "-":  # a dangling `-`
                    return self.error(RegexProblem.FLAG, start, self.index + 1)
                self.index += 1
                if char == ":":
                    self.groups.append(start)
                # `(?i)` is no expression: a repetition right after it has nothing to repeat
                self.atom = False
                return None
            if char == "x":
                raise _GiveUp  # verbose mode: spaces and `#` comments change meaning
            if char == "-":
                if negated:
                    return self.error(RegexProblem.FLAG, start, self.index + 1)
                negated = True
            elif char in _FLAGS:
                if char in seen:
                    return self.error(RegexProblem.FLAG, start, self.index + 1)
                seen.add(char)
            else:
                return self.error(RegexProblem.FLAG, start, self.index + 1)
            last = char
            self.index += 1
        return self.error(RegexProblem.UNCLOSED_GROUP, start, len(pattern))

    # -- repetitions ------------------------------------------------------------------------
    def counted_repetition(self) -> RegexError | None:
        start = self.index
        if not self.atom:
            return self.error(RegexProblem.REPETITION_MISSING, start)
        pattern = self.pattern
        close = pattern.find("}", start)
        if close < 0:
            return self.error(RegexProblem.COUNTED_REPETITION, start, len(pattern))
        inner = pattern[start + 1 : close]
        low, comma, high = inner.partition(",")
        low, high = low.strip(_SPACE), high.strip(_SPACE)
        bad = RegexProblem.COUNTED_REPETITION
        if not _decimal(low) or (high and not _decimal(high)):
            if not all(c.isascii() for c in inner):
                raise _GiveUp
            return self.error(bad, start, close + 1)
        if int(low) > 0xFFFFFFFF or (high and int(high) > 0xFFFFFFFF):
            return self.error(bad, start, close + 1)
        if comma and high and int(low) > int(high):
            return self.error(bad, start, close + 1)
        self.index = close + 1
        if self.peek() == "?":
            self.index += 1
        return None

    # -- classes ----------------------------------------------------------------------------
    def character_class(self) -> RegexError | None:
        """A bracketed class, nested ones included: the index ends after its `]`."""
        pattern = self.pattern
        start = self.index
        depth = 0
        first = False  # at the first item of the innermost class (a `]` there is literal)
        while self.index < len(pattern):
            char = pattern[self.index]
            if char == "[":
                if depth > 0 and self._posix_class():
                    first = False
                    continue
                depth += 1
                self.index += 1
                if self.peek() == "^":
                    self.index += 1
                first = True
                # a `-` first is literal too; it changes nothing here
                continue
            if char == "]" and not first:
                depth -= 1
                self.index += 1
                if depth == 0:
                    return None
                continue
            first = False
            if char in "&-~" and self.peek(1) == char:
                self.index += 2  # a set operation: `&&`, `--`, `~~`
                continue
            found = self._class_item()
            if found is not None:
                return found
            if self.peek() == "-" and self.peek(1) not in ("]", "-", ""):
                # a range: its end is one item, whatever it is (`?-[` ends at a literal `[`)
                self.index += 1
                found = self._class_item()
                if found is not None:
                    return found
        return self.error(RegexProblem.UNCLOSED_CLASS, start)

    def _class_item(self) -> RegexError | None:
        if self.peek() == "\\":
            return self.escape(in_class=True)
        self.index += 1
        return None

    def _posix_class(self) -> bool:
        """``[:alpha:]`` or ``[:^alpha:]`` at the index: consume it; else leave the index (the
        `[` opens a nested class, as regex-syntax reads it)."""
        rest = self.pattern[self.index :]
        if not rest.startswith("[:"):
            return False
        body = rest[2:]
        if body.startswith("^"):
            body = body[1:]
        end = body.find(":]")
        if end < 0 or body[:end] not in _POSIX:
            return False
        self.index += len(rest) - len(body) + end + 2
        return True

    # -- escapes ----------------------------------------------------------------------------
    def escape(self, *, in_class: bool) -> RegexError | None:
        start = self.index
        pattern = self.pattern
        self.index += 1
        if self.index >= len(pattern):
            return self.error(RegexProblem.ESCAPE, start)
        char = pattern[self.index]
        self.index += 1
        if char.isdigit() and char.isascii():
            problem = RegexProblem.BACKREFERENCE if char != "0" else RegexProblem.ESCAPE
            return self.error(problem, start, self.index)
        if not char.isascii():
            raise _GiveUp
        if char in _ARGUMENT_ESCAPES:
            return self._hex_escape(start, _ARGUMENT_ESCAPES[char])
        if char in "pP":
            if self.peek() == "{":
                raise _GiveUp  # Unicode property names: not checked here
            if not self.peek():
                return self.error(RegexProblem.ESCAPE, start, self.index)
            raise _GiveUp
        if not char.isalpha():
            if in_class and char in "<>":
                raise _GiveUp
            return None  # escaped punctuation is a literal (`\<`, `\>`: word boundaries)
        known = _CLASS_LETTER_ESCAPES if in_class else _LETTER_ESCAPES
        if char not in known:
            return self.error(RegexProblem.ESCAPE, start, self.index)
        if char == "b" and not in_class and self.peek() == "{":
            close = pattern.find("}", self.index)
            name = pattern[self.index + 1 : close] if close >= 0 else ""
            if name in _WORD_BOUNDARIES:
                self.index = close + 1
            else:
                raise _GiveUp  # `\b{2}` is a repetition of `\b`; other forms: not checked
        return None

    def _hex_escape(self, start: int, width: int) -> RegexError | None:
        pattern = self.pattern
        if self.peek() == "{":
            close = pattern.find("}", self.index)
            digits = pattern[self.index + 1 : close] if close >= 0 else ""
            if close < 0 or not digits or not set(digits) <= _HEX:
                end = close + 1 if close >= 0 else len(pattern)
                return self.error(RegexProblem.ESCAPE, start, end)
            value = int(digits, 16) if len(digits) <= 8 else 0x110000
            self.index = close + 1
        else:
            digits = pattern[self.index : self.index + width]
            if len(digits) < width or not set(digits) <= _HEX:
                return self.error(RegexProblem.ESCAPE, start, self.index + len(digits))
            value = int(digits, 16)
            self.index += width
        if value > 0x10FFFF or 0xD800 <= value <= 0xDFFF:
            return self.error(RegexProblem.ESCAPE, start, self.index)
        return None


def _decimal(text: str) -> bool:
    return bool(text) and text.isascii() and text.isdigit()
