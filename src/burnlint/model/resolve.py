"""Resolving calls by path and type, or not at all (DESIGN.md section 2b).

A target's ``CrateView`` joins the ``FileItems`` of its own files and of the targets its code
can name: its package's lib (``my_crate::m::f``) and the libs of its path dependencies. A call
resolves to one ``FnKey``:

- ``f(..)``, ``m::f(..)``, ``crate::``/``self::``/``super::`` paths, through the module tree and
  the ``use`` declarations in scope. A name a glob brings resolves only when exactly one glob
  of a known module defines it: Rust rejects a name two globs bring, so one the code uses
  cannot also come from a module that was not parsed (the prefilter's skipped files);
- ``T::f(..)`` and ``x.f(..)`` only in the impls of ``T``, a type of the crate whose name is
  defined once in everything the target sees (the skipped files are scanned for it too), and
  ``x``'s type only when it is written or built right there (``ResolvedType`` in the model).

Anything else is unresolved, and an unresolved call yields no finding.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field

from burnlint.model.items import FileItems, FnDef, Module, UseDecl
from burnlint.model.limits import MAX_RESOLVE_DEPTH
from burnlint.project.targets import Target


@dataclass(frozen=True, order=True)
class FnKey:
    target: Target
    module: Module
    owner: str  # "" for a free function
    name: str

    def display(self) -> str:
        """How messages name the function: ``Trainer::save`` or ``checkpoint::save``."""
        if self.owner:
            return f"{self.owner}::{self.name}"
        return self.name


@dataclass(frozen=True)
class _Place:
    target: Target
    module: Module


_PrefixQuestion = tuple[_Place, tuple[str, ...], tuple[UseDecl, ...]]


@dataclass
class CrateView:
    """Everything one target's calls can reach (see the module docstring)."""

    target: Target
    # the items of every file the view holds, by target
    items: dict[Target, list[FileItems]] = field(default_factory=dict)
    # modules known from file paths (also of files that were not parsed), by target
    file_modules: Mapping[Target, AbstractSet[Module]] = field(default_factory=dict)
    # crate names in code -> the lib target they name (the package's lib, path dependencies)
    crate_names: dict[str, Target] = field(default_factory=dict)
    # how often each type name appears in the files that were not parsed (a byte scan,
    # ``scan_type_names``): a type defined there too is not one type
    unparsed_types: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._functions: dict[tuple[Target, Module, str, str], list[FnDef]] = defaultdict(list)
        self._methods: dict[tuple[str, str], list[FnKey]] = defaultdict(list)
        self._types: dict[tuple[Target, Module], set[str]] = defaultdict(set)
        self._type_count: dict[str, int] = defaultdict(int)
        self._uses: dict[tuple[Target, Module], list[UseDecl]] = defaultdict(list)
        self._modules: dict[Target, set[Module]] = defaultdict(set)
        # a struct's fields (name -> type path as written), with where it is defined
        self._fields: dict[str, tuple[_Place, dict[str, tuple[str, ...]]]] = {}
        self._prefixes: dict[
            tuple[_Place, tuple[str, ...], tuple[UseDecl, ...]], _Place | str | None
        ] = {}
        for target, modules in self.file_modules.items():
            for module in modules:
                for depth in range(len(module) + 1):
                    self._modules[target].add(module[:depth])
        for target, files in self.items.items():
            for items in files:
                self._modules[target].add(items.module)
                for module in items.modules:
                    self._modules[target].add(module)
                for function in items.functions:
                    key = (target, function.module, function.owner, function.name)
                    self._functions[key].append(function)
                    if function.owner:
                        self._methods[(function.owner, function.name)].append(FnKey(*key))
                for type_def in items.types:
                    self._types[(target, type_def.module)].add(type_def.name)
                    self._type_count[type_def.name] += 1
                    if type_def.fields:
                        place = _Place(target, type_def.module)
                        self._fields[type_def.name] = (place, dict(type_def.fields))
                for use in items.uses:
                    if use.scope is None:
                        self._uses[(target, use.module)].append(use)

    # the facts of a resolved function ----------------------------------------------------------
    def definition(self, key: FnKey) -> FnDef | None:
        """The function ``key`` names, when it is defined exactly once."""
        found = self._functions.get((key.target, key.module, key.owner, key.name), [])
        return found[0] if len(found) == 1 else None

    def local_type(self, name: str) -> bool:
        """Whether ``name`` is one type of the crate: defined once, in a parsed file."""
        return self._type_count.get(name, 0) == 1 and self.unparsed_types.get(name, 0) == 0

    def field_type(self, owner: str, name: str) -> str:
        """The crate type of field ``name`` of struct ``owner``: its written type resolved
        where the struct is defined (``other_crate::Linear`` is not the crate's ``Linear``)."""
        if not self.local_type(owner) or owner not in self._fields:
            return ""
        place, fields = self._fields[owner]
        found = self._type_at(place, list(fields.get(name, ())), [])
        return found or ""

    def method(self, owner: str, name: str) -> FnKey | None:
        """``owner::name`` or ``x.name()`` on an ``owner``: one definition in its impls."""
        if not self.local_type(owner):
            return None
        found = self._methods.get((owner, name), [])
        if len(found) != 1 or self.definition(found[0]) is None:
            return None
        return found[0]

    # paths -----------------------------------------------------------------------------------
    def resolve_call(
        self, module: Module, path: list[str], local_uses: Iterable[UseDecl] = ()
    ) -> FnKey | None:
        """The function a call path names, seen from ``module`` of this view's target;
        ``local_uses`` are the ``use`` declarations of the function the call is in."""
        if not path:
            return None
        place = _Place(self.target, module)
        scoped = list(local_uses)
        if len(path) == 1:
            return self._function_in_scope(place, path[0], scoped, 0)
        if path[-2] == "Self":
            return None  # the model resolves `Self::f` with the impl it is in
        base = self._prefix(place, path[:-1], scoped, 0)
        if base is None:
            return None
        if isinstance(base, str):
            return self.method(base, path[-1])
        return self._function_in(base, path[-1], 0)

    def resolve_type(
        self, module: Module, path: list[str], local_uses: Iterable[UseDecl] = ()
    ) -> str | None:
        """The crate type a type path names (its name), or None for anything else."""
        return self._type_at(_Place(self.target, module), path, list(local_uses))

    def type_at(self, target: Target, module: Module, path: list[str]) -> str | None:
        """``resolve_type`` seen from ``module`` of ``target`` (one this view holds): how a
        function's signature there names a type."""
        return self._type_at(_Place(target, module), path, [])

    def _type_at(self, place: _Place, path: list[str], scoped: list[UseDecl]) -> str | None:
        if not path:
            return None
        if len(path) == 1:
            found = self._type_in_scope(place, path[0], scoped, 0)
        else:
            base = self._prefix(place, path[:-1], scoped, 0)
            found = (
                path[-1] if isinstance(base, _Place) and self._type_in(base, path[-1], 0) else None
            )
        return found if found is not None and self.local_type(found) else None

    def _prefix(
        self, place: _Place, segments: list[str], scoped: list[UseDecl], depth: int
    ) -> _Place | str | None:
        """What the segments before a path's last name stand for: a module, or a type (its
        name) when the last of them is one. Kept per question: globs that import each other
        would otherwise be asked again and again (a cycle, while asked, is unresolved)."""
        if depth > MAX_RESOLVE_DEPTH or not segments:
            return None
        key = (place, tuple(segments), tuple(scoped))
        if key in self._prefixes:
            return self._prefixes[key]
        self._prefixes[key] = None
        found = self._find_prefix(place, segments, scoped, depth)
        self._prefixes[key] = found
        return found

    def _find_prefix(
        self, place: _Place, segments: list[str], scoped: list[UseDecl], depth: int
    ) -> _Place | str | None:
        first, rest = segments[0], segments[1:]
        current: _Place | None
        if first == "crate":
            current = _Place(place.target, ())
        elif first == "self":
            current = place
        elif first == "super":
            current = _Place(place.target, place.module[:-1]) if place.module else None
        else:
            current = self._module_in_scope(place, first, scoped, depth)
            if current is None:
                # a type in scope: by the name it is defined with (`use a::Net as Model;`)
                return self._type_in_scope(place, first, scoped, depth + 1) if not rest else None
        for index, segment in enumerate(rest):
            if current is None:
                return None
            if segment == "super":
                current = _Place(current.target, current.module[:-1]) if current.module else None
                continue
            child = _Place(current.target, (*current.module, segment))
            if child.module in self._modules[current.target]:
                current = child
                continue
            if index == len(rest) - 1 and self._type_in(current, segment, depth):
                return segment
            current = self._module_reexport(current, segment, depth)
        return current

    def _module_in_scope(
        self, place: _Place, name: str, scoped: list[UseDecl], depth: int
    ) -> _Place | None:
        for use in self._named_uses(place, name, scoped):
            found = self._prefix(_Place(place.target, use.module), list(use.path), [], depth + 1)
            return found if isinstance(found, _Place) else None
        child = _Place(place.target, (*place.module, name))
        if child.module in self._modules[place.target]:
            return child
        target = self.crate_names.get(name)
        if target is not None and target != place.target:
            return _Place(target, ())
        return None

    def _module_reexport(self, place: _Place, name: str, depth: int) -> _Place | None:
        """``pub use inner::m;`` in ``place`` makes ``place::m`` a module too."""
        for use in self._uses.get((place.target, place.module), []):
            if use.name == name:
                found = self._prefix(place, list(use.path), [], depth + 1)
                return found if isinstance(found, _Place) else None
        return None

    def _named_uses(self, place: _Place, name: str, scoped: list[UseDecl]) -> list[UseDecl]:
        local = [u for u in scoped if u.name == name]
        if local:
            return local[:1]
        return [u for u in self._uses.get((place.target, place.module), []) if u.name == name][:1]

    def _globs(self, place: _Place, scoped: list[UseDecl]) -> list[UseDecl]:
        module_level = self._uses.get((place.target, place.module), [])
        return [u for u in (*scoped, *module_level) if not u.name]

    # functions -------------------------------------------------------------------------------
    def _function_in_scope(
        self, place: _Place, name: str, scoped: list[UseDecl], depth: int
    ) -> FnKey | None:
        for use in self._named_uses(place, name, scoped):
            return self._function_at(_Place(place.target, use.module), list(use.path), depth + 1)
        if (place.target, place.module, "", name) in self._functions:
            return self._defined(place, name)
        return self._from_globs(
            place, scoped, depth, lambda module: self._function_in(module, name, depth + 1)
        )

    def _function_at(self, place: _Place, path: list[str], depth: int) -> FnKey | None:
        if depth > MAX_RESOLVE_DEPTH or not path:
            return None
        if len(path) == 1:
            return self._function_in_scope(place, path[0], [], depth + 1)
        base = self._prefix(place, path[:-1], [], depth + 1)
        if isinstance(base, str):
            return self.method(base, path[-1])
        return self._function_in(base, path[-1], depth + 1) if base is not None else None

    def _function_in(self, place: _Place, name: str, depth: int) -> FnKey | None:
        """``place::name``: defined there, or re-exported there by a ``use``."""
        if depth > MAX_RESOLVE_DEPTH:
            return None
        if (place.target, place.module, "", name) in self._functions:
            return self._defined(place, name)
        for use in self._uses.get((place.target, place.module), []):
            if use.name == name:
                return self._function_at(place, list(use.path), depth + 1)
        return self._from_globs(
            place, [], depth, lambda module: self._function_in(module, name, depth + 1)
        )

    def _defined(self, place: _Place, name: str) -> FnKey | None:
        key = FnKey(place.target, place.module, "", name)
        return key if self.definition(key) is not None else None

    def _from_globs(
        self,
        place: _Place,
        scoped: list[UseDecl],
        depth: int,
        find: Callable[[_Place], FnKey | None],
    ) -> FnKey | None:
        found: set[FnKey] = set()
        for glob in self._globs(place, scoped):
            module = self._prefix(_Place(place.target, glob.module), list(glob.path), [], depth + 1)
            if isinstance(module, _Place) and module != place:
                key = find(module)
                if key is not None:
                    found.add(key)
        return found.pop() if len(found) == 1 else None

    # types -----------------------------------------------------------------------------------
    def _type_in(self, place: _Place, name: str, depth: int) -> bool:
        if name in self._types.get((place.target, place.module), ()):
            return True
        if depth > MAX_RESOLVE_DEPTH:
            return False
        for use in self._uses.get((place.target, place.module), []):
            if use.name == name:
                base = self._prefix(place, list(use.path[:-1]), [], depth + 1)
                return isinstance(base, _Place) and self._type_in(base, use.path[-1], depth + 1)
        return False

    def _type_in_scope(
        self, place: _Place, name: str, scoped: list[UseDecl], depth: int
    ) -> str | None:
        uses = self._named_uses(place, name, scoped)
        if uses:
            use = uses[0]
            if len(use.path) < 2:
                return None
            base = self._prefix(
                _Place(place.target, use.module), list(use.path[:-1]), [], depth + 1
            )
            ok = isinstance(base, _Place) and self._type_in(base, use.path[-1], depth + 1)
            return use.path[-1] if ok else None
        if name in self._types.get((place.target, place.module), ()):
            return name
        for glob in self._globs(place, scoped):
            module = self._prefix(_Place(place.target, glob.module), list(glob.path), [], depth + 1)
            if isinstance(module, _Place) and self._type_in(module, name, depth + 1):
                return name
        return None


_TYPE_DEFINITION = re.compile(rb"\b(?:struct|enum|type|union|trait)\s+([A-Z][A-Za-z0-9_]*)")


def scan_type_names(data: bytes) -> Iterable[str]:
    """The type names a file that was not parsed may define (a byte scan: it may find more
    than there are, which only makes a type name ambiguous, never a wrong resolution)."""
    for match in _TYPE_DEFINITION.finditer(data):
        yield match.group(1).decode("ascii", errors="replace")
