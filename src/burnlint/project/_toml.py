"""TOML reading on every supported Python: ``tomllib`` from 3.11, the ``tomli`` backport before.

One place for the version switch, typed so that mypy (which checks for Python 3.10, where
``tomli`` may not be installed in the checking environment) sees the same interface either way.
"""

from __future__ import annotations

import sys
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib as _toml
else:  # pragma: no cover - Python 3.10
    import tomli as _toml  # type: ignore[import-not-found, unused-ignore]

# Both raise a subclass of ValueError; callers catch this.
TOMLDecodeError: type[ValueError] = _toml.TOMLDecodeError


def loads(text: str) -> dict[str, Any]:
    """The document; raises ``ValueError`` (``TOMLDecodeError`` or a number too long to read,
    its ``str`` the reason) or ``RecursionError`` on absurd nesting."""
    try:
        document: dict[str, Any] = _toml.loads(text)
    except TOMLDecodeError:
        raise
    except ValueError:
        # the parser's int() refuses more than 4300 digits (`sys.set_int_max_str_digits`):
        # its message names a Python setting, not what is wrong with the file
        raise ValueError("an integer has too many digits") from None
    return document
