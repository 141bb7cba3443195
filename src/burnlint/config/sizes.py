"""Sizes in configuration and on the command line: ``2000000``, ``"20MB"``, ``"512 KiB"``."""

from __future__ import annotations

import re

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


def parse_size(value: object) -> int:
    """``2000000``, ``"20MB"``, ``"512 KiB"`` -> bytes. Raises ``ValueError`` with the reason."""
    if isinstance(value, bool):
        raise ValueError('expected a size in bytes or a string like "20MB"')
    if isinstance(value, int):
        number = value
    elif isinstance(value, str):
        match = _SIZE.match(value)
        if match is None:
            raise ValueError(f'expected a size like 2000000, "20MB" or "512KiB", found "{value}"')
        amount, unit = match.groups()
        number = int(float(amount) * _SIZE_UNITS[(unit or "").lower()])
    else:
        raise ValueError(f'expected a size in bytes or a string like "20MB", found {_kind(value)}')
    if number <= 0:
        raise ValueError(f"expected a size above 0, found {value!r}")
    return number
