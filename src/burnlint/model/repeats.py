"""Saves that hit the same file store more than once: the facts behind BL003.

A file store saved into from a loop writes the same path again in the next iteration when it
was built before the loop, or built in the loop from a loop-invariant path, or built by a
crate-local helper that the loop calls with invariant arguments. Exempt: a save followed
unconditionally by ``break``/``return`` (it runs once) and a ``remove_file`` of the same path in
the same iteration. A condition around the save never exempts: it fires on the second
improvement as surely as on the second epoch.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, TypeGuard

from burnlint.model.burn_api import BurnStoreApi, StoreKind
from burnlint.model.loops import InvarianceChecker, LoopContext, within
from burnlint.model.ops import StoreOp
from burnlint.model.paths import Extension, PathValue, path_value
from burnlint.model.reads import CallSiteReads, SyntaxReads
from burnlint.model.result_forms import OK_KEEPING
from burnlint.model.stores import Backing, StoreBuild
from burnlint.model.summaries import call_argument, helper_argument
from burnlint.rust.syntax import (
    arguments_of,
    call_path,
    method_call_parts,
    strip_reference,
    text,
    walk_with_cursor,
)

if TYPE_CHECKING:
    from tree_sitter import Node

    from burnlint.model.helpers import HelperSummary
    from burnlint.model.scopes import Binding
    from burnlint.rust.syntax import Ancestry

_SPACE = re.compile(r"\s+")
# `Result` methods and unwrapping that may stand between a call of a store-returning helper and
# the store it gives (store builders may too: ``BurnStoreApi.builders``)
_AROUND_HELPER_CALL = OK_KEEPING | {"unwrap", "expect"}


class RepeatReads(SyntaxReads, CallSiteReads, Protocol):
    """What finding saves repeated in a loop reads of the file: its tree, the burn-store API
    assumed, its store operations, the loops around them and what stays the same in them,
    and what the crate-local function a call calls does."""

    @property
    def api(self) -> BurnStoreApi: ...
    @property
    def ops(self) -> list[StoreOp]: ...
    @property
    def invariance(self) -> InvarianceChecker: ...
    def loop_of(self, node: Node) -> LoopContext | None: ...
    def helper_called(self, call: Node) -> HelperSummary | None: ...


def refuses_overwrite(
    store: StoreBuild | None, model: RepeatReads | None = None
) -> TypeGuard[StoreBuild]:
    """A file store that will return `File already exists` for an existing path: no explicit
    `.overwrite(..)` at all (an explicit `false` is a deliberate choice).

    Not a `BurnpackStore` with `.auto_extension(..)` other than `true` and a path that may lack
    an extension, unless burn 0.21 or older is assumed: from 0.22 the store checks `latest` but
    writes `latest.bpk`, so it never finds what it wrote (``model`` gives the path's facts and
    the burn release; without it both are unknown)."""
    if (
        store is None
        or store.kind not in BurnStoreApi.overwrite_refusing
        or store.backing is not Backing.FILE
        or store.option("overwrite") is not None
    ):
        return False
    if store.kind is StoreKind.BURNPACK and _auto_extension(store) is not True:
        api = model.api if model is not None else BurnStoreApi.for_version(None)
        if api.writer_adds_extension:
            return _path_of(store, model).extension is Extension.SOME
    return True


def _auto_extension(store: StoreBuild) -> bool | None:
    """Whether a Burnpack store appends `.bpk` to a path without an extension: by default
    yes; None when set to something not a literal, or only on some paths."""
    setting = store.option("auto_extension")
    if setting is None:
        return BurnStoreApi.default(StoreKind.BURNPACK, "auto_extension")
    return setting.value if setting.definite else None


def _path_of(store: StoreBuild, model: RepeatReads | None) -> PathValue:
    """What the store's path argument names (nothing known for a store built in another
    file: its nodes are not this file's)."""
    if store.path_argument is None or store.helper is not None or model is None:
        return PathValue("?", None)
    return path_value(store.path_argument, model.resolution)


def _checked_paths(store: StoreBuild, model: RepeatReads) -> tuple[PathValue, ...] | None:
    """The paths a save may check for an existing file, when the store's automatic `.bpk`
    makes them differ from its path argument: the path with `.bpk` (and the argument itself
    when `auto_extension` is not a literal). None when they are the argument."""
    if store.kind is not StoreKind.BURNPACK:
        return None
    auto = _auto_extension(store)
    if auto is False:
        return None
    path = _path_of(store, model)
    if path.extension is not Extension.NONE:
        return None  # it has one, or it cannot be known: the argument
    with_bpk = path.with_extension(BurnStoreApi.burnpack_extension)
    if with_bpk is None:
        return None
    return (with_bpk,) if auto else (with_bpk, path)


@dataclass
class RepeatedSave:
    """One store (one build site) saved into repeatedly by a loop."""

    store: StoreBuild
    report_at: Node  # the constructor when it is in this file, else the call in the loop
    loop: LoopContext
    saves: list[StoreOp] = field(default_factory=list)
    # "built before the loop", "built in the loop from a path that never changes", ...
    why: str = ""


def _normalise(node: Node) -> str:
    return _SPACE.sub("", text(strip_reference(node)))


class _LoopExits:
    """Whether a node of one loop's body is followed, in its own block or an enclosing one
    inside the loop, by an unconditional `break` or `return`: then it runs at most once per
    loop. The saves of a loop share their ancestors (an else-if chain of a thousand
    branches, a block of a thousand saves), so the answers are kept per node, and each block
    is searched once for its last exit."""

    def __init__(self, loop: Node, ancestry: Ancestry) -> None:
        self._loop_id = loop.id
        self._ancestry = ancestry
        self._exits: dict[int, bool] = {}  # node id -> an exit follows it or an ancestor
        self._last_exit: dict[int, int] = {}  # block id -> start of its last exit, or -1

    def followed_by_exit(self, node: Node) -> bool:
        chain: list[Node] = []
        current: Node | None = node
        while current is not None and current.id != self._loop_id:
            if current.id in self._exits:
                break
            chain.append(current)
            current = self._ancestry.parent(current)
        exits = current is not None and self._exits.get(current.id, False)
        for inner in reversed(chain):
            exits = exits or self._exit_after(inner)
            self._exits[inner.id] = exits
        return exits

    def _exit_after(self, node: Node) -> bool:
        block = self._ancestry.parent(node)
        if block is None or block.type != "block":
            return False
        last = self._last_exit.get(block.id)
        if last is None:
            last = -1
            for child in block.named_children:
                statement = (
                    child.named_children[0]
                    if child.type == "expression_statement" and child.named_children
                    else child
                )
                if statement.type in ("break_expression", "return_expression"):
                    last = child.start_byte
            self._last_exit[block.id] = last
        return node.start_byte < last


class _LoopRemovals:
    """What the `remove_file`/`remove` calls of one loop body (nested functions excluded)
    remove: their first arguments, references stripped. Gathered once per loop, as a loop
    can hold many saves."""

    def __init__(self, loop: Node, model: RepeatReads) -> None:
        self._model = model
        self._texts: set[str] = set()  # normalised
        self._identifiers: list[Node] = []
        self._arguments: list[Node] = []
        self._values: list[PathValue] | None = None  # of the arguments, read on first need
        self._bindings: dict[int, Binding] | None = None  # by id(), resolved on first need
        for node in walk_with_cursor(loop, skip=frozenset({"function_item"})):
            if node.type != "call_expression":
                continue
            path = call_path(node)
            if not path or path[-1] not in ("remove_file", "remove"):
                continue
            arguments = arguments_of(node)
            if not arguments:
                continue
            argument = strip_reference(arguments[0])
            self._arguments.append(argument)
            self._texts.add(_normalise(argument))
            if argument.type == "identifier":
                self._identifiers.append(argument)

    def removes_path_of(self, store: StoreBuild) -> bool:
        """A call removes the path the save checks: the same expression, the same binding or
        the same ``PathValue``; for a Burnpack path without an extension, the path with the
        `.bpk` the store adds (removing `latest` does not remove `latest.bpk`)."""
        if store.path_argument is None:
            return False
        checked = _checked_paths(store, self._model)
        if checked is not None:
            values = self._removed_values()
            # the argument itself counts only when `auto_extension` may be off
            return any(value in values for value in checked)
        if store.helper is None and _path_of(store, self._model) in self._removed_values():
            return True
        if _normalise(store.path_argument) in self._texts:
            return True
        stripped = strip_reference(store.path_argument)
        if stripped.type != "identifier":
            return False
        wanted = self._model.resolution.binding_of(stripped)
        return wanted is not None and id(wanted) in self._removed_bindings()

    def removes_helper_path(self, op: StoreOp, store: StoreBuild) -> bool:
        """A call removes the path a crate-local function's store saves to, given as one of
        its arguments as is (`save(&m, &latest)` after `remove_file(&latest)`). For a
        Burnpack store, only a path with an extension: the `.bpk` it may add is not known."""
        summary = op.summary
        if summary is None or summary.path_param is None:
            return False
        argument = helper_argument(self._model, op, summary.path_param)
        if argument is None:
            return False
        value = path_value(argument, self._model.resolution)
        if store.kind is StoreKind.BURNPACK and value.extension is not Extension.SOME:
            return False
        if value in self._removed_values() or _normalise(argument) in self._texts:
            return True
        stripped = strip_reference(argument)
        if stripped.type != "identifier":
            return False
        wanted = self._model.resolution.binding_of(stripped)
        return wanted is not None and id(wanted) in self._removed_bindings()

    def _removed_values(self) -> list[PathValue]:
        if self._values is None:
            resolution = self._model.resolution
            self._values = [path_value(argument, resolution) for argument in self._arguments]
        return self._values

    def _removed_bindings(self) -> dict[int, Binding]:
        if self._bindings is None:
            self._bindings = {}
            for identifier in self._identifiers:
                binding = self._model.resolution.binding_of(identifier)
                if binding is not None:
                    self._bindings[id(binding)] = binding
        return self._bindings


def repeated_saves(model: RepeatReads) -> list[RepeatedSave]:
    found: dict[int, RepeatedSave] = {}
    removals: dict[int, _LoopRemovals] = {}  # by loop node id
    exits: dict[int, _LoopExits] = {}  # by loop node id
    for op in model.ops:
        if not op.is_save or not refuses_overwrite(op.store, model):
            continue
        store = op.store
        loop = model.loop_of(op.node)
        if loop is None:
            continue
        loop_exits = exits.get(loop.node.id)
        if loop_exits is None:
            loop_exits = exits[loop.node.id] = _LoopExits(loop.node, model.ancestry)
        if loop_exits.followed_by_exit(op.node):
            continue  # it runs once
        verdict = _repeats(op, store, loop, model)
        if verdict is None:
            continue
        report_at, why = verdict
        loop_removals = removals.get(loop.node.id)
        if loop_removals is None:
            loop_removals = removals[loop.node.id] = _LoopRemovals(loop.node, model)
        if loop_removals.removes_path_of(store) or loop_removals.removes_helper_path(op, store):
            continue
        entry = found.get(report_at.id)
        if entry is None:
            entry = found[report_at.id] = RepeatedSave(store, report_at, loop, why=why)
        entry.saves.append(op)
    return sorted(found.values(), key=lambda r: r.report_at.start_byte)


def _repeats(
    op: StoreOp, store: StoreBuild, loop: LoopContext, model: RepeatReads
) -> tuple[Node, str] | None:
    """Where to report, and why the path repeats; None when it does not (or is not certain)."""
    invariance = model.invariance
    if op.summary is not None:
        # The helper builds and saves; the loop calls it. Its path parameters must be
        # invariant at this call.
        summary = op.summary
        if summary.path_params is None:
            return None
        for index in summary.path_params:
            argument = helper_argument(model, op, index)
            if argument is None or not invariance.invariant(argument, loop.node):
                return None
        return (
            op.node,
            f"`{op.helper}` builds it from a path that never changes",
        )
    local_ctor = store.helper is None
    argument = _store_argument(op)
    if argument is None:
        return None
    argument = strip_reference(argument)
    if argument.type in ("identifier", "self"):
        binding = model.resolution.binding_of(argument)
        if binding is None or binding.value is None:
            return None
        site = binding.declaration
        if not within(site, loop.node):
            anchor = store.constructor_node if local_ctor else binding.value
            return anchor, "built before the loop"
        # built in the loop: the path decides
        if local_ctor and within(store.constructor_node, loop.node):
            return _invariant_path(store, loop, model)
        if not local_ctor:
            return _built_by_helper_in_loop(binding.value, store, loop, model)
        return None
    if local_ctor and within(store.constructor_node, loop.node):
        return _invariant_path(store, loop, model)
    if not local_ctor:
        return _built_by_helper_in_loop(argument, store, loop, model)
    return None


def _built_by_helper_in_loop(
    value: Node, store: StoreBuild, loop: LoopContext, model: RepeatReads
) -> tuple[Node, str] | None:
    """A store a crate-local function returns, called in the loop (``make_store(&p)?``,
    ``.expect(..)``, a builder chain after it) with arguments that never change where its
    path parameters are."""
    call = _helper_call(value, model.api)
    if call is None or not within(call, loop.node):
        return None
    summary = model.helper_called(call)
    if summary is None or summary.store is None or summary.store_path_params is None:
        return None
    for index in summary.store_path_params:
        argument = call_argument(model, call, summary.key, index)
        if argument is None or not model.invariance.invariant(argument, loop.node):
            return None
    return call, f"`{store.helper}` builds it in the loop from a path that never changes"


def _helper_call(value: Node, api: BurnStoreApi) -> Node | None:
    """The call behind ``make_store(p)?``, ``make_store(p).unwrap()``, a `Result` adapter
    (``.context(..)``) or store builders (``.allow_partial(true)``) around it."""
    current = strip_reference(value)
    for _ in range(64):
        if current.type == "try_expression" and current.named_children:
            current = strip_reference(current.named_children[0])
            continue
        if current.type != "call_expression":
            return None
        parts = method_call_parts(current)
        if parts is None:
            return current
        receiver, method, _arguments = parts
        if method in _AROUND_HELPER_CALL or method in api.builders:
            current = strip_reference(receiver)
            continue
        return current
    return None


def _invariant_path(
    store: StoreBuild, loop: LoopContext, model: RepeatReads
) -> tuple[Node, str] | None:
    if store.path_argument is None:
        return None
    if not model.invariance.invariant(store.path_argument, loop.node):
        return None
    return (
        store.constructor_node,
        "built in the loop from a path that never changes",
    )


def _store_argument(op: StoreOp) -> Node | None:
    if op.method == "collect_from":
        return op.receiver
    arguments = arguments_of(op.node)
    return arguments[0] if arguments else None
