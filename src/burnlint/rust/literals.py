"""The value of a Rust string literal, as rustc decodes it (the Reference, "Tokens: string
literals"): escapes in ``"..."``, none in raw strings ``r"..."`` / ``r#"..."#``."""

from __future__ import annotations

import re

_SIMPLE_ESCAPES = {"n": "\n", "r": "\r", "t": "\t", "\\": "\\", "0": "\0", "'": "'", '"': '"'}
_HEX = frozenset("0123456789abcdefABCDEF")
_RAW = re.compile(r'r(#*)"(.*)"\1', re.DOTALL)
_CONTINUATION_SPACE = " \t\n\r"


def string_value(literal: str) -> str | None:
    """The ``str`` value of the literal written as ``literal`` (quotes and prefix included);
    None when it is not a ``str`` literal (a byte or C string) or does not compile."""
    if literal.startswith("r"):
        match = _RAW.fullmatch(literal)
        return match.group(2) if match is not None else None
    if len(literal) < 2 or literal[0] != '"' or literal[-1] != '"':
        return None
    return _unescape(literal[1:-1])


def _unescape(body: str) -> str | None:
    out: list[str] = []
    index = 0
    length = len(body)
    while index < length:
        char = body[index]
        if char != "\\":
            out.append(char)
            index += 1
            continue
        if index + 1 >= length:
            return None
        kind = body[index + 1]
        index += 2
        if kind in _SIMPLE_ESCAPES:
            out.append(_SIMPLE_ESCAPES[kind])
        elif kind == "x":
            digits = body[index : index + 2]
            if len(digits) != 2 or not set(digits) <= _HEX or int(digits, 16) > 0x7F:
                return None
            out.append(chr(int(digits, 16)))
            index += 2
        elif kind == "u":
            close = body.find("}", index)
            if not body.startswith("{", index) or close < 0:
                return None
            digits = body[index + 1 : close].replace("_", "")
            if not 1 <= len(digits) <= 6 or not set(digits) <= _HEX:
                return None
            value = int(digits, 16)
            if value > 0x10FFFF or 0xD800 <= value <= 0xDFFF:
                return None
            out.append(chr(value))
            index = close + 1
        elif kind == "\n" or (kind == "\r" and body.startswith("\n", index)):
            # a line continuation: the newline and the whitespace after it are skipped
            while index < length and body[index] in _CONTINUATION_SPACE:
                index += 1
        else:
            return None
    return "".join(out)
