"""Crate-local helpers: functions that return a store, or the ``Result`` of a store operation.

Facts are keyed by the function's name and whether it is a method (takes ``self``). A name
defined twice with different facts in one target is ambiguous and dropped: a finding must be
certain.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from burnlint.model.ops import Direction
from burnlint.model.stores import StoreBuild


@dataclass(frozen=True)
class OpHelper:
    name: str
    direction: Direction
    store: StoreBuild | None
    path: str
    line: int
    # indices (among the non-self parameters) of the parameters the store's path is built
    # from; () for a fixed path; None when the path depends on something else
    path_params: tuple[int, ...] | None = None
    inner: str | None = None  # the burn method whose error it hands back (`save_file`, ..)


@dataclass
class HelperTable:
    stores: dict[tuple[str, bool], StoreBuild] = field(default_factory=dict)
    ops: dict[tuple[str, bool], OpHelper] = field(default_factory=dict)
    ambiguous: set[tuple[str, bool]] = field(default_factory=set)
    # every function the table's files define, facts or not: a target's own definitions
    # shadow the lib's helpers of the same name
    defined: set[tuple[str, bool]] = field(default_factory=set)

    def store_helper(self, name: str, *, method: bool) -> StoreBuild | None:
        return self.stores.get((name, method))

    def op_helper(self, name: str, *, method: bool) -> OpHelper | None:
        return self.ops.get((name, method))

    def names(self) -> frozenset[str]:
        return frozenset(name for name, _ in self.stores) | frozenset(name for name, _ in self.ops)

    def add_store(self, name: str, method: bool, build: StoreBuild) -> None:
        key = (name, method)
        if key in self.ambiguous:
            return
        if key in self.stores and self.stores[key].kind != build.kind:
            del self.stores[key]
            self.ambiguous.add(key)
            return
        self.stores.setdefault(key, build)

    def add_op(self, name: str, method: bool, helper: OpHelper) -> None:
        key = (name, method)
        if key in self.ambiguous:
            return
        if key in self.ops and self.ops[key].direction != helper.direction:
            del self.ops[key]
            self.ambiguous.add(key)
            return
        self.ops.setdefault(key, helper)

    def shadowed_by(self, own: HelperTable) -> HelperTable:
        """The lib's table as a target with its own definitions ``own`` sees it."""
        return HelperTable(
            {k: v for k, v in self.stores.items() if k not in own.defined},
            {k: v for k, v in self.ops.items() if k not in own.defined},
            self.ambiguous - own.defined,
            set(self.defined),
        )

    def merged(self, other: HelperTable) -> HelperTable:
        table = HelperTable(
            dict(self.stores), dict(self.ops), set(self.ambiguous), self.defined | other.defined
        )
        for (name, method), build in other.stores.items():
            table.add_store(name, method, build)
        for (name, method), helper in other.ops.items():
            table.add_op(name, method, helper)
        for key in other.ambiguous:
            table.ambiguous.add(key)
            table.stores.pop(key, None)
            table.ops.pop(key, None)
        return table

    def signature(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """A comparable summary, to detect when a fixpoint iteration stops changing."""
        return (
            tuple(
                sorted(
                    f"{n}/{m}/{b.kind.value}/{sorted(b.options)}"
                    for (n, m), b in self.stores.items()
                )
            ),
            tuple(
                sorted(
                    f"{n}/{m}/{h.direction.value}/{h.store is not None}"
                    for (n, m), h in self.ops.items()
                )
            ),
        )
