"""``StoreOp``: a save into or a load from a store, found as a call in the syntax tree."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from burnlint.model.burn_api import BurnStoreApi, Direction, OpSpec
from burnlint.model.helpers import HelperSummary
from burnlint.model.stores import StoreBuild, StoreEvaluator
from burnlint.rust.syntax import arguments_of, method_call_parts

if TYPE_CHECKING:
    from tree_sitter import Node

    from burnlint.model.imports import ImportFacts


class OpReads(Protocol):
    """What finding store operations reads of the file: the burn-store API assumed, its
    imports and whether burn-store and burn's ``Module`` are in scope, its stores
    (``StoreEvaluator``) and what the crate-local function a call calls does."""

    @property
    def api(self) -> BurnStoreApi: ...
    @property
    def imports(self) -> ImportFacts: ...
    @property
    def in_burn_store_scope(self) -> bool: ...
    @property
    def module_trait_in_scope(self) -> bool: ...
    @property
    def stores(self) -> StoreEvaluator: ...
    def helper_called(self, call: Node) -> HelperSummary | None: ...


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
        return self.burn_method in BurnStoreApi.record_methods

    @property
    def returns_apply_result(self) -> bool:
        if self.summary is not None:
            return self.summary.ok is not None
        return self.is_load and not self.is_record


def detect_op(call: Node, model: OpReads) -> StoreOp | None:
    """The store operation ``call`` performs, if any."""
    parts = method_call_parts(call)
    if parts is not None:
        receiver, method, _ = parts
        if method in model.api.ops:
            spec = model.api.op_spec(method, len(arguments_of(call)))
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
    call: Node, receiver: Node, method: str, spec: OpSpec, model: OpReads
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
        if spec.trait == model.api.record_trait:
            if not model.module_trait_in_scope:
                return None
        elif spec.trait is not None and not model.imports.trait_in_scope(spec.trait):
            return None
        # A type of the user's own with an inherent `save_into` shadows the trait method.
        if (spec.trait is not None or method in model.api.record_methods) and (
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
