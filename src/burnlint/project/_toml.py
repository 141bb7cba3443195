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
    """The document; raises ``TOMLDecodeError`` (or ``RecursionError`` on absurd nesting)."""
    document: dict[str, Any] = _toml.loads(text)
    return document
