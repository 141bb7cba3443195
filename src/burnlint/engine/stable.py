"""Digests of plain data that are the same in every process and every run.

The cache compares the facts a file was checked with against the facts of this run (the
summaries it could see, the items of its target, a layout) by digest. ``hash()`` and
``pickle`` will not do: the order of a ``frozenset`` of strings, and so its pickle, changes
with each process's hash seed. Here a set is fed in the order of its members' digests.
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
from collections.abc import Callable
from pathlib import PurePath

_Update = Callable[[bytes], object]


def stable_digest(*values: object) -> str:
    """A digest of ``values`` that depends on their content only. Raises ``TypeError`` for
    anything that is not plain data (a syntax node, a function): such a value cannot be
    compared between runs."""
    hasher = hashlib.blake2b(digest_size=16)
    for value in values:
        _feed(hasher.update, value)
    return hasher.hexdigest()


def _feed(update: _Update, value: object) -> None:
    kind = type(value)
    # the commonest kinds first, by exact type (a subclass takes the general branches)
    if kind is str:
        update(f"str:{value!r}\x1f".encode())
    elif kind is tuple or kind is list:
        update(b"[")
        for member in value:  # type: ignore[attr-defined]
            _feed(update, member)
        update(b"]")
    elif (names := _field_names(kind)) is not None:
        update(f"D:{kind.__qualname__}(".encode())
        for name in names:
            _feed(update, getattr(value, name))
        update(b")")
    elif value is None or isinstance(value, (bool, int, float, str)):
        # the type's name keeps 1, 1.0, True and "1" apart
        update(f"{type(value).__name__}:{value!r}\x1f".encode())
    elif isinstance(value, bytes):
        update(b"b%d:" % len(value) + value)
    elif isinstance(value, enum.Enum):
        update(f"E:{type(value).__qualname__}.{value.name}\x1f".encode())
    elif isinstance(value, PurePath):
        update(f"P:{value.as_posix()}\x1f".encode())
    elif isinstance(value, (tuple, list)):
        update(b"[")
        for member in value:
            _feed(update, member)
        update(b"]")
    elif isinstance(value, (set, frozenset)):
        update(b"{")
        for member in sorted(stable_digest(m) for m in value):
            update(member.encode())
        update(b"}")
    elif isinstance(value, dict):
        update(b"<")
        for key, member in sorted((stable_digest(k), v) for k, v in value.items()):
            update(key.encode())
            _feed(update, member)
        update(b">")
    else:
        raise TypeError(f"not plain data: {type(value).__qualname__}")


_FIELD_NAMES: dict[type, tuple[str, ...] | None] = {}


def _field_names(kind: type) -> tuple[str, ...] | None:
    """The names of the fields of ``kind``, the type of a value, in order, when it is a
    dataclass; None for any other type."""
    if kind not in _FIELD_NAMES:
        found = dataclasses.is_dataclass(kind)
        _FIELD_NAMES[kind] = tuple(f.name for f in dataclasses.fields(kind)) if found else None
    return _FIELD_NAMES[kind]
