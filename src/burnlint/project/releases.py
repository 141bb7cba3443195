"""How burn versions are ordered and stated: a run whose crates build against different
releases (or whose configurations name different ones) states them all, lowest first."""

from __future__ import annotations

import re
from collections.abc import Iterable

_NUMBERS = re.compile(r"\d+")


def version_key(version: str) -> tuple[tuple[int, ...], int, str]:
    """Orders ``0.9`` < ``0.22.0-pre.2`` < ``0.22.0`` < ``0.22.1`` (pre-releases first)."""
    core, _, pre = version.partition("-")
    numbers = tuple(int(n) for n in _NUMBERS.findall(core)[:3])
    return numbers, 0 if pre else 1, pre


def joined_versions(versions: Iterable[str]) -> str | None:
    """``0.21.0, 0.22.1``: each version once, lowest first; None when there is none."""
    return ", ".join(sorted(set(versions), key=version_key)) or None
