"""Sizes in configuration and on the command line: ``2000000``, ``"20MB"``, ``"512 KiB"``."""

from __future__ import annotations

import re
from decimal import Decimal

from burnlint.config.helpers import _kind

_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmg]i?b?|b)?\s*$", re.IGNORECASE)
_SIZE_UNITS = {
    "": 1,
    "b": 1,
    "k": 1000,
    "kb": 1000,
    "m": 1000**2,
    "mb": 1000**2,
    "g": 1000**3,
    "gb": 1000**3,
    "ki": 1024,
    "kib": 1024,
    "mi": 1024**2,
    "mib": 1024**2,
    "gi": 1024**3,
    "gib": 1024**3,
}

# The largest size a limit may have. A file is read whole and parsed in memory that is many
# times its size, and tree-sitter's byte offsets are 32-bit (it cannot parse 4 GiB at all):
# 1 GiB, 500 times the default, is more than any Rust source, and the bound keeps a value such
# as 99999999999999999999999999999 from reaching the read, where it overflowed.
MAX_SIZE = 1024**3
SIZE_RANGE = "from 1 byte to 1GiB"

# How much of a value a message repeats: a value of a million digits is shown by its start.
_SHOWN = 40


def parse_size(value: object) -> int:
    """``2000000``, ``"20MB"``, ``"512 KiB"`` -> bytes, from 1 to ``MAX_SIZE``. Raises
    ``ValueError`` with the reason."""
    if isinstance(value, bool):
        raise ValueError('expected a size in bytes or a string like "20MB"')
    amount: Decimal | int
    if isinstance(value, int):
        amount = value
    elif isinstance(value, str):
        match = _SIZE.match(value)
        if match is None:
            raise ValueError(
                f'expected a size like 2000000, "20MB" or "512KiB", found {_shown(value)}'
            )
        digits, unit = match.groups()
        # exact, and never a float: "1e400" does not match, but 400 digits would overflow one
        amount = Decimal(digits) * _SIZE_UNITS[(unit or "").lower()]
    else:
        raise ValueError(f'expected a size in bytes or a string like "20MB", found {_kind(value)}')
    if not 1 <= amount <= MAX_SIZE:
        raise ValueError(f"expected a size {SIZE_RANGE}, found {_shown(value)}")
    return int(amount)


def _shown(value: str | int) -> str:
    text = value if isinstance(value, str) else str(value)
    if len(text) > _SHOWN:
        text = f"{text[:_SHOWN]}..."
    return f'"{text}"' if isinstance(value, str) else text
