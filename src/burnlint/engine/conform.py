"""Whether data read back from the cache has the types its classes declare.

The unpickler (``cache._Unpickler``) lets only burnlint's own classes and a few built-in types
through, but a well-formed entry may still hold a string where a record belongs: code that
uses it would fail far from the cache, in every run until ``burnlint clean``. An entry is
therefore checked against the annotations of its classes, all of it, once when it is loaded;
one that does not conform is a miss. The check of each type is built once per process and
costs about as much as unpickling (20 ms for the memos of the burn repository).
"""

from __future__ import annotations

import collections.abc
import dataclasses
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any

Check = Callable[[object], bool]

_CHECKS: dict[object, Check] = {}


def conforms(value: object, kind: object, names: Mapping[str, object] | None = None) -> bool:
    """Whether ``value`` is a ``kind`` (a class or an annotation such as ``dict[str, X]``)
    with every field, member, key and value of the type declared. ``names`` resolves the
    annotations a module imports only for type checking. Never raises: data nested too
    deeply (``RecursionError``) does not conform either. An annotation that cannot be
    resolved is burnlint's own mistake, and raises."""
    check = _checker(kind, names or {})
    try:
        return check(value)
    except Exception:
        return False


def _checker(kind: object, names: Mapping[str, object]) -> Check:
    found = _CHECKS.get(kind)
    if found is None:
        # a class may hold itself (a tree of nodes): its fields find this stand-in while
        # the real check is built
        made: list[Check] = []
        _CHECKS[kind] = lambda value: made[0](value)
        try:
            made.append(_build(kind, names))
        except BaseException:
            del _CHECKS[kind]
            raise
        found = _CHECKS[kind] = made[0]
    return found


def _build(kind: Any, names: Mapping[str, object]) -> Check:
    if kind is Any or kind is object:
        return lambda value: True
    if kind is None or kind is type(None):
        return lambda value: value is None
    origin = typing.get_origin(kind)
    arguments = typing.get_args(kind)
    if origin is typing.Union or origin is types.UnionType:
        options = tuple(_checker(a, names) for a in arguments)
        return lambda value: any(check(value) for check in options)
    if origin is typing.Literal:
        return lambda value: value in arguments
    if origin is tuple:
        return _tuple_check(arguments, names)
    if origin in (list, set, frozenset, collections.abc.Sequence, collections.abc.Set):
        container, member = origin, _checker(arguments[0], names)
        return lambda value: isinstance(value, container) and all(member(m) for m in value)
    if origin in (dict, collections.abc.Mapping, collections.Counter):
        container = origin
        key = _checker(arguments[0], names)
        item = _checker(arguments[1], names) if len(arguments) > 1 else (lambda value: True)
        return lambda value: (
            isinstance(value, container) and all(key(k) and item(v) for k, v in value.items())
        )
    if origin is not None or not isinstance(kind, type):
        raise TypeError(f"no check for {kind!r}")
    fields = _field_names(kind)
    if fields is not None:
        hints = typing.get_type_hints(kind, localns=dict(names))
        checks = tuple((name, _checker(hints[name], names)) for name in fields)

        def check(value: object) -> bool:
            if type(value) is not kind:
                # a subclass, where the annotation names its base: checked as what it is
                return isinstance(value, kind) and _checker(type(value), names)(value)
            return all(member(getattr(value, name)) for name, member in checks)

        return check
    if kind is float:
        return lambda value: isinstance(value, (int, float))
    return lambda value: isinstance(value, kind)


def _tuple_check(arguments: tuple[Any, ...], names: Mapping[str, object]) -> Check:
    if len(arguments) == 2 and arguments[1] is Ellipsis:
        member = _checker(arguments[0], names)
        return lambda value: isinstance(value, tuple) and all(member(m) for m in value)
    members = tuple(_checker(a, names) for a in arguments)
    return lambda value: (
        isinstance(value, tuple)
        and len(value) == len(members)
        and all(check(m) for check, m in zip(members, value, strict=True))
    )


def _field_names(kind: type) -> tuple[str, ...] | None:
    """The fields of a data class or a named tuple, in order; None for any other class."""
    if dataclasses.is_dataclass(kind):
        return tuple(f.name for f in dataclasses.fields(kind))
    found = getattr(kind, "_fields", None)
    if issubclass(kind, tuple) and isinstance(found, tuple):
        return found
    return None
