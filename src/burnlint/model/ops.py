"""``StoreOp``: a save into or a load from a store, found as a call in the syntax tree."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from burnlint.model.helpers import Direction, HelperSummary
from burnlint.model.stores import StoreBuild
from burnlint.syntax import arguments_of, call_path, method_call_parts
from burnlint.versions import Series

if TYPE_CHECKING:
    from tree_sitter import Node

    from burnlint.model.file_model import FileModel


@dataclass(frozen=True)
class OpSpec:
    direction: Direction
    store_side: bool  # the store is the receiver (collect_from/apply_to), not the argument
    trait: str | None  # the trait that must be in scope when the store is not known
    returns_result: bool
    arities: tuple[int, ...] = ()  # allowed argument counts, when the name alone is too common
    # the burn release series that have this signature (inclusive); None: every one
    since: Series | None = None
    until: Series | None = None

    def in_series(self, series: Series) -> bool:
        return (self.since is None or series >= self.since) and (
            self.until is None or series <= self.until
        )


# burn-core's record path (`Module::save_file`, `load_file`, `try_load_file`): no store and no
# `ApplyResult`; the loads consume the module. burn 0.22 dropped the recorders (burn-core
# `module/base.rs`): up to 0.21 `save_file(path, &recorder)` and `load_file(path, &recorder,
# &device)` return `Result<_, RecorderError>`; from 0.22 `save_file(path)` and
# `try_load_file(path)` return `Result<_, RecordError>`, and `load_file(path)` panics.
RECORD_METHODS = frozenset({"save_file", "load_file", "try_load_file"})
RECORD_TRAIT = "Module"  # burn's `Module`: the loads count only with it in scope
_BEFORE_0_22: Series = (0, 21)
_FROM_0_22: Series = (0, 22)

# Every op, by method name: one spec per signature, the first that fits the call's argument
# count and the assumed burn release wins. With the release unknown, any signature fits:
# burn's signatures of one name differ in their argument counts, never in what they return
# for one count.
OP_TABLE: dict[str, tuple[OpSpec, ...]] = {
    "save_into": (OpSpec(Direction.SAVE, False, "ModuleSnapshot", True),),
    "load_from": (OpSpec(Direction.LOAD, False, "ModuleSnapshot", True),),
    "collect_from": (OpSpec(Direction.SAVE, True, "ModuleStore", True),),
    "apply_to": (OpSpec(Direction.LOAD, True, "ModuleStore", True),),
    "save_file": (
        OpSpec(Direction.SAVE, False, None, True, arities=(2,), until=_BEFORE_0_22),
        OpSpec(Direction.SAVE, False, None, True, arities=(1,), since=_FROM_0_22),
    ),
    "load_file": (
        OpSpec(Direction.LOAD, False, RECORD_TRAIT, True, arities=(3,), until=_BEFORE_0_22),
        # panics on error: a load, but no Result to discard
        OpSpec(Direction.LOAD, False, RECORD_TRAIT, False, arities=(1,), since=_FROM_0_22),
    ),
    "try_load_file": (
        OpSpec(Direction.LOAD, False, RECORD_TRAIT, True, arities=(1,), since=_FROM_0_22),
    ),
    # ModuleSnapshot::apply(snapshots, filter, adapter, skip_enum_variants) -> ApplyResult
    "apply": (OpSpec(Direction.LOAD, False, "ModuleSnapshot", False, arities=(4,)),),
}


def op_spec(method: str, arity: int, series: Series | None) -> OpSpec | None:
    """The signature of burn's ``method`` that a call with ``arity`` arguments has under the
    assumed burn release ``series`` (None: unknown), if any."""
    for spec in OP_TABLE.get(method, ()):
        if spec.arities and arity not in spec.arities:
            continue
        if series is not None and not spec.in_series(series):
            continue
        return spec
    return None


@dataclass(frozen=True)
class StoreOp:
    """One operation. ``node`` is the call expression; ``store`` the build it uses, when
    known. ``summary`` is set for a call of a crate-local function that performs the
    operation for the caller (then ``method`` is that function's name)."""

    node: Node
    method: str
    direction: Direction
    returns_result: bool
    store: StoreBuild | None
    receiver: Node | None
    summary: HelperSummary | None = None

    @property
    def helper(self) -> str | None:
        """The crate-local function called, as messages name it (``Trainer::save``)."""
        return self.summary.name if self.summary is not None else None

    @property
    def is_save(self) -> bool:
        return self.direction is Direction.SAVE

    @property
    def is_load(self) -> bool:
        return self.direction is Direction.LOAD

    @property
    def burn_method(self) -> str | None:
        """The burn method performed: the call's own, or the one the helper calls."""
        if self.summary is None:
            return self.method
        return self.summary.errors[0] if len(self.summary.errors) == 1 else None

    @property
    def is_record(self) -> bool:
        """burn-core's record path (``save_file``, ``load_file``, ``try_load_file``)."""
        return self.burn_method in RECORD_METHODS

    @property
    def returns_apply_result(self) -> bool:
        if self.summary is not None:
            return self.summary.ok is not None
        return self.is_load and not self.is_record


def detect_op(call: Node, model: FileModel) -> StoreOp | None:
    """The store operation ``call`` performs, if any."""
    parts = method_call_parts(call)
    if parts is not None:
        receiver, method, _ = parts
        if method in OP_TABLE:
            spec = op_spec(method, len(arguments_of(call)), model.burn_series)
            if spec is not None:
                return _method_op(call, receiver, method, spec, model)
    summary = model.helper_called(call)
    if summary is None or not summary.is_op:
        return None
    store = model.stores.from_foreign(summary.saves, call) if summary.saves is not None else None
    return StoreOp(
        node=call,
        method=summary.key.name,
        direction=summary.direction,
        returns_result=bool(summary.errors),
        store=store,
        receiver=parts[0] if parts is not None else None,
        summary=summary,
    )


def _method_op(
    call: Node, receiver: Node, method: str, spec: OpSpec, model: FileModel
) -> StoreOp | None:
    arguments = arguments_of(call)
    if spec.store_side:
        store_node: Node | None = receiver
    else:
        store_node = arguments[0] if arguments else None
    store = (
        model.stores.store_of(store_node) if store_node is not None and method != "apply" else None
    )
    if store is None:
        if not model.in_burn_store_scope:
            return None
        if spec.trait == RECORD_TRAIT:
            if not model.module_trait_in_scope:
                return None
        elif spec.trait is not None and not model.imports.trait_in_scope(spec.trait):
            return None
        # A type of the user's own with an inherent `save_into` shadows the trait method.
        if (spec.trait is not None or method in RECORD_METHODS) and (
            method in model.imports.local_methods
        ):
            return None
    return StoreOp(
        node=call,
        method=method,
        direction=spec.direction,
        returns_result=spec.returns_result,
        store=store,
        receiver=receiver,
    )


def call_path_name(call: Node) -> str | None:
    path = call_path(call)
    return path[-1] if path else None
