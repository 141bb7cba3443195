"""Helper summaries: what each function of a file does with stores, for its callers.

Read from the code, never from a type's name: which store errors the function hands back
(``errors``), where the ``ApplyResult`` of a load it performs ends up in its Ok value (``ok``:
whole, in a tuple, in a struct field), what of it the function checks itself, the store it
returns, and the store it builds and saves into with the parameters its path is made of.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from burnlint.findings import Edit, Location
from burnlint.model.apply_checks import (
    ERRORS,
    MISSING,
    NOTHING,
    WHOLE,
    ApplyReads,
    Check,
    ok_map_call,
)
from burnlint.model.apply_trace import CARRYING, RESULT, ApplyTrace
from burnlint.model.burn_api import Direction
from burnlint.model.helpers import ForeignStore, HelperSummary, OkFlow
from burnlint.model.items import is_self_parameter
from burnlint.model.limits import MAX_TRACE_STEPS
from burnlint.model.loops import PURE_FUNCTIONS, PURE_METHODS
from burnlint.model.places import in_repaired_code
from burnlint.model.reads import CallSiteReads
from burnlint.model.resolve import FnKey
from burnlint.model.result_forms import UseClass
from burnlint.model.scopes import CAPTURE
from burnlint.model.stores import Backing
from burnlint.rust.syntax import (
    arguments_of,
    call_path,
    is_tail_expression,
    method_call_parts,
    outer_parens,
    strip_reference,
    text,
    unmut,
    walk,
)

if TYPE_CHECKING:
    import pathlib

    from tree_sitter import Node

    from burnlint.model.items import FileItems
    from burnlint.model.ops import StoreOp
    from burnlint.model.result_forms import ResultUse
    from burnlint.model.stores import StoreBuild, StoreEvaluator
    from burnlint.rust.source import SourceFile
    from burnlint.rust.syntax import Ancestry

Path = tuple[int | str, ...]


class SummaryReads(ApplyReads, CallSiteReads, Protocol):
    """What summarising a file's functions reads of it: its tree, items and source, its store
    operations, stores and their results' uses, and what callees read of an ``ApplyResult``."""

    @property
    def path(self) -> pathlib.Path: ...
    @property
    def source(self) -> SourceFile: ...
    @property
    def items(self) -> FileItems: ...
    @property
    def ops(self) -> list[StoreOp]: ...
    @property
    def stores(self) -> StoreEvaluator: ...
    def result_use(self, op: StoreOp) -> ResultUse: ...


def summarise(model: SummaryReads) -> dict[FnKey, HelperSummary]:
    """The summary of each function the file defines that does something with a store."""
    view = model.view
    nodes = {n.start_byte: n for n in model.source.nodes_of_type("function_item")}
    ops: dict[int, list[StoreOp]] = {}  # by the node id of the enclosing function
    for op in model.ops:
        function = enclosing_function(op.node, model.ancestry)
        if function is not None:
            ops.setdefault(function.id, []).append(op)
    found: dict[FnKey, HelperSummary] = {}
    for definition in model.items.functions:
        node = nodes.get(definition.start_byte)
        if node is None:
            continue
        key = FnKey(view.target, definition.module, definition.owner, definition.name)
        if view.definition(key) is None:
            continue  # defined more than once (`#[cfg(..)]` variants): never resolved
        summary = _summarise(model, key, node, ops.get(node.id, []))
        if summary is not None:
            found[key] = summary
    return found


def _summarise(
    model: SummaryReads, key: FnKey, function: Node, ops: list[StoreOp]
) -> HelperSummary | None:
    errors: list[str] = []
    directions: set[Direction] = set()
    saves: ForeignStore | None = None
    path_params: tuple[int, ...] | None = None
    path_param: int | None = None
    return_type = function.child_by_field_name("return_type")
    returns_result = return_type is not None and b"Result" in (return_type.text or b"")
    for op in ops:
        if not (returns_result and op.returns_result):
            continue
        use = model.result_use(op)
        if use.use is not UseClass.PROPAGATED or not _escapes(use.decided_at, function):
            continue
        if op.summary is not None:
            names: tuple[str, ...] = op.summary.errors
            directions |= op.summary.directions
        else:
            names = (op.method,)
            directions.add(op.direction)
        errors.extend(n for n in names if n not in errors)
        if saves is None and op.is_save and op.store is not None:
            saves = foreign_store(model, op.store, key.display())
            path_params, path_param = _save_path_params(model, op, function)
    store, in_result, store_path_params = _returned_store(model, function, key.display())
    ok = _ok_flow(model, function, ops)
    param_checks = _param_checks(model, function)
    if not errors and ok is None and store is None and not param_checks:
        return None
    name = function.child_by_field_name("name") or function
    return HelperSummary(
        key,
        errors=tuple(errors),
        directions=frozenset(directions),
        ok=ok,
        store=store,
        store_in_result=in_result,
        store_path_params=store_path_params,
        saves=saves,
        path_params=path_params,
        path_param=path_param,
        param_checks=param_checks,
        location=Location(model.path, model.source.node_span(name)),
    )


def foreign_store(model: SummaryReads, build: StoreBuild, helper: str) -> ForeignStore:
    """``build`` as the callers of ``helper`` see it; a store that already comes from
    elsewhere keeps where it was built."""
    options = tuple(
        sorted((name, setting.value, setting.definite) for name, setting in build.options.items())
    )
    if build.origin is not None and build.helper is not None:
        origin, builder, edit = build.origin, build.helper, build.overwrite_edit
    else:
        end = build.constructor_node.end_byte
        origin = Location(model.path, model.source.node_span(build.constructor_node))
        builder = helper
        # none into a call the parser repaired: it would land inside (`from_file(p.overwrite(..)`)
        repaired = in_repaired_code(build.constructor_node, model.ancestry)
        span = None if repaired else model.source.span(end, end)
        edit = None if span is None else Edit(model.path, end, end, ".overwrite(true)", span=span)
    return ForeignStore(
        build.kind, build.constructor, build.backing is Backing.FILE, options, build.adapters,
        build.remaps, origin, builder, edit, build.filters,
    )  # fmt: skip


def _returned_store(
    model: SummaryReads, function: Node, helper: str
) -> tuple[ForeignStore | None, bool, tuple[int, ...] | None]:
    """The store the function returns as its tail: itself, or inside ``Ok(..)``; and the
    parameters its path is made of, when it is built here."""
    body = function.child_by_field_name("body")
    if body is None:
        return None, False, None
    named = [c for c in body.named_children if c.type not in ("line_comment", "block_comment")]
    if not named or not is_tail_expression(named[-1], model.ancestry):
        return None, False, None
    tail = named[-1]
    in_result = False
    if tail.type == "call_expression" and call_path(tail) == ["Ok"]:
        arguments = arguments_of(tail)
        if len(arguments) != 1:
            return None, False, None
        tail, in_result = arguments[0], True
    build = model.stores.store_of(tail)
    if build is None:
        return None, False, None
    path_params = None
    if build.helper is None and build.path_argument is not None:
        path_params = _path_params(model, build.path_argument, function)
    return foreign_store(model, build, helper), in_result, path_params


def _ok_flow(model: SummaryReads, function: Node, ops: list[StoreOp]) -> OkFlow | None:
    """Where an ``ApplyResult`` that still needs checking leaves the function, if one does."""
    for op in ops:
        if not op.returns_apply_result:
            continue
        required, reasons = leniency(op, model)
        inner: tuple[tuple[str, Path], ...] = ((RESULT, ()),)
        # the lenient load itself, also when it sits in a helper this function calls
        origin = Location(model.path, model.source.node_span(op.node))
        if op.summary is not None and op.summary.ok is not None:
            required = op.summary.ok.required - op.summary.ok.checked
            reasons = op.summary.ok.reasons
            inner = op.summary.ok.carried
            origin = op.summary.ok.origin
        if not required:
            continue
        trace = ApplyTrace(model, function)
        if op.returns_result:
            if ok_map_call(op.node, model.ancestry) is not None:
                continue  # `.map(|r| (net, r))`: where it ends up is the closure's to say
            use = model.result_use(op)
            if use.ok_escapes and _escapes(use.decided_at, function):
                trace.paths.update(inner)
            for what, path in inner:
                for value in use.ok_values:
                    trace.value(value, path, what)
                for binding in use.ok_bindings:
                    trace.binding(binding, binding.node.end_byte, path, what)
                for pattern in use.ok_patterns:
                    trace.pattern(pattern, path, what)
        else:
            for what, path in inner:
                trace.value(op.node, path, what)
        if not trace.paths:
            continue  # the function keeps it: its own finding, if any, is there
        if not required - trace.checked:
            continue
        return OkFlow(
            tuple(sorted(trace.paths, key=repr)),
            frozenset(required),
            frozenset(trace.checked),
            reasons,
            origin,
        )
    return None


def leniency(op: StoreOp, model: SummaryReads) -> tuple[Check, tuple[str, ...]]:
    """What reading the op's ApplyResult must verify, and why (BL007)."""
    if op.summary is not None:
        return NOTHING, ()
    if op.method == "apply":
        if _reapplies_collected(op, model):
            return NOTHING, ()
        # `apply` puts a chosen set of tensors into the module: the ones it is not given are
        # `missing` by design, while a shape mismatch only lands in `errors`
        return frozenset({ERRORS}), ("`apply` never fails",)
    store = op.store
    if store is None:
        return NOTHING, ()
    required: set[str] = set()
    reasons: list[str] = []
    # a store chosen by `if`/`match`: lenient when one of the branches' stores is
    if any(v.is_set_true("allow_partial") for v in store.variants):
        required.add(MISSING)
        reasons.append("`.allow_partial(true)`")
    if any(
        (validate := v.option("validate")) is not None and validate.value is not True
        for v in store.variants
    ):
        required.add(ERRORS)
        reasons.append("`.validate(false)`")
    if not reasons:
        return NOTHING, ()
    return frozenset(required), (f"the store has {' and '.join(reasons)}",)


def _reapplies_collected(op: StoreOp, model: SummaryReads) -> bool:
    """``model.apply(snapshots, ..)`` where the snapshots are the same module's own
    ``model.collect(..)``, re-valued (``.into_iter().map(..).collect()``): every path the
    module has is there by construction, so the result says nothing a reader must check."""
    arguments = arguments_of(op.node)
    if op.receiver is None or not arguments:
        return False
    owner = text(strip_reference(op.receiver))
    node: Node | None = strip_reference(arguments[0])
    for _step in range(MAX_TRACE_STEPS):
        if node is None:
            return False
        node = outer_parens(node, model.ancestry)
        if node.type == "identifier":
            binding = model.resolution.binding_of(node)
            if binding is None or binding.assignments or len(binding.uses) != 1:
                return False  # used (perhaps changed: `snapshots.extend(..)`) on the way
            node = binding.value
            continue
        parts = method_call_parts(node) if node.type == "call_expression" else None
        if parts is None:
            return False
        receiver, method, _ = parts
        if method == "collect" and text(strip_reference(receiver)) == owner:
            # `ModuleSnapshot::collect(filter, adapter[, skip_enum_variants])`, not `Iterator`'s
            return len(arguments_of(node)) in (2, 3)
        if method not in CARRYING:
            return False
        node = receiver
    return False


def enclosing_function(node: Node, ancestry: Ancestry) -> Node | None:
    current = ancestry.parent(node)
    while current is not None:
        if current.type == "function_item":
            return current
        if current.type == "closure_expression":
            return None
        current = ancestry.parent(current)
    return None


def _escapes(decided_at: Node, function: Node) -> bool:
    """`?`, `return`, or the function's tail: the caller receives the error."""
    if decided_at.type in ("try_expression", "return_expression"):
        return True
    body = function.child_by_field_name("body")
    return decided_at == body


def _param_checks(model: SummaryReads, function: Node) -> tuple[tuple[int, Check], ...]:
    """What the function reads of each ``ApplyResult`` parameter (its type names one, as
    `ApplyResult` or an alias ending so), where that is less than all of it: a caller that
    passes its result here has checked only that."""
    parameters = function.child_by_field_name("parameters")
    if parameters is None or b"ApplyResult" not in (parameters.text or b""):
        return ()
    found: list[tuple[int, Check]] = []
    for index, param in enumerate(_function_params(function)):
        written = param.child_by_field_name("type")
        pattern = param.child_by_field_name("pattern")
        if written is None or pattern is None or _type_name(written) is None:
            continue
        pattern = unmut(pattern)
        binding = model.resolution.binding_of(pattern) if pattern.type == "identifier" else None
        if binding is None:
            continue
        trace = ApplyTrace(model, function, returning=False)
        trace.binding(binding, param.end_byte, ())
        if trace.checked != WHOLE:
            found.append((index, frozenset(trace.checked)))
    return tuple(found)


def _type_name(written: Node) -> str | None:
    """The name of an ``ApplyResult`` type as a parameter is written: ``ApplyResult``,
    ``&burn_store::ApplyResult``, ``&mut ApplyResult``, an alias ending in ``ApplyResult``."""
    while written.type == "reference_type":
        inner = written.child_by_field_name("type")
        if inner is None:
            return None
        written = inner
    if written.type not in ("type_identifier", "scoped_type_identifier"):
        return None
    name = text(written).rsplit("::", 1)[-1]
    return name if name.endswith("ApplyResult") else None


def helper_argument(model: CallSiteReads, op: StoreOp, index: int) -> Node | None:
    """The argument a call of a crate-local function (``op.summary``) gives its non-self
    parameter ``index``."""
    if op.summary is None:
        return None
    return call_argument(model, op.node, op.summary.key, index)


def call_argument(model: CallSiteReads, call: Node, key: FnKey, index: int) -> Node | None:
    """The argument ``call`` of the function ``key`` gives its non-self parameter ``index``."""
    arguments = arguments_of(call)
    position = index + _receiver_offset(model, call, key)
    return arguments[position] if position < len(arguments) else None


def parameter_index(model: CallSiteReads, call: Node, key: FnKey, argument: Node) -> int | None:
    """The non-self parameter of the function ``key`` that ``call`` gives ``argument``; None
    for the receiver, or a node that is not one of the call's arguments."""
    position = next((i for i, a in enumerate(arguments_of(call)) if a == argument), None)
    if position is None:
        return None
    index = position - _receiver_offset(model, call, key)
    return index if index >= 0 else None


def _receiver_offset(model: CallSiteReads, call: Node, key: FnKey) -> int:
    """1 when ``call`` names a method by its path: in ``Trainer::save(&trainer, path)`` the
    receiver is the first argument, in ``t.save(path)`` it is not one."""
    definition = model.view.definition(key)
    function = call.child_by_field_name("function")
    if function is not None and function.type == "generic_function":
        function = function.child_by_field_name("function")
    method_syntax = function is not None and function.type == "field_expression"
    return 1 if not method_syntax and definition is not None and definition.method else 0


def _save_path_params(
    model: SummaryReads, op: StoreOp, function: Node
) -> tuple[tuple[int, ...] | None, int | None]:
    """Which parameters of ``function`` the path of the store ``op`` saves into is made of
    (see ``HelperSummary.path_params``), and the one that is the path itself, if any: from
    the constructor's path argument for a store built here, from the arguments a helper's
    path parameters get for a store a helper builds (``save(m, &dir.join("latest.bpk"))``)."""
    store = op.store
    if store is None:
        return None, None
    if store.helper is None:
        if store.path_argument is None:
            return None, None
        path = store.path_argument
        return _path_params(model, path, function), _param_itself(model, path, function)
    summary = op.summary
    if summary is None or summary.path_params is None:
        return None, None
    indices: set[int] = set()
    for index in summary.path_params:
        argument = helper_argument(model, op, index)
        found = _path_params(model, argument, function) if argument is not None else None
        if found is None:
            return None, None
        indices.update(found)
    itself = None
    if summary.path_param is not None:
        argument = helper_argument(model, op, summary.path_param)
        itself = _param_itself(model, argument, function) if argument is not None else None
    return tuple(sorted(indices)), itself


def _function_params(function: Node) -> list[Node]:
    parameters = function.child_by_field_name("parameters")
    if parameters is None:
        return []
    return [
        p for p in parameters.named_children if p.type == "parameter" and not is_self_parameter(p)
    ]


def _param_itself(model: SummaryReads, argument: Node, function: Node) -> int | None:
    """The index of the parameter ``argument`` is, references and parentheses aside."""
    node = strip_reference(argument)
    while node.type == "parenthesized_expression" and node.named_children:
        node = strip_reference(node.named_children[0])
    if node.type != "identifier":
        return None
    binding = model.resolution.binding_of(node)
    params = _function_params(function)
    if binding is None or binding.kind != "param" or binding.declaration not in params:
        return None
    return params.index(binding.declaration)


def _path_params(model: SummaryReads, expression: Node, function: Node) -> tuple[int, ...] | None:
    """Which parameters of ``function`` the path ``expression`` is made of; None when it
    depends on anything else."""
    params = _function_params(function)
    indices: set[int] = set()
    for node in walk(expression):
        if node.type == "call_expression":
            parts = method_call_parts(node)
            path = call_path(node)
            pure = (parts is not None and parts[1] in PURE_METHODS) or (
                len(path) >= 2 and (path[-2], path[-1]) in PURE_FUNCTIONS
            )
            if not pure:
                return None
        elif (
            node.type == "identifier"
            and (parent := model.ancestry.parent(node)) is not None
            and parent.type not in ("scoped_identifier", "macro_invocation")
        ):
            binding = model.resolution.binding_of(node)
            if binding is None:
                if node.text is not None and node.text.decode().isupper():
                    continue
                return None
            if binding.kind != "param" or binding.declaration not in params:
                return None
            indices.add(params.index(binding.declaration))
        elif node.type in ("string_literal", "raw_string_literal"):
            # `format!("{dir}/{epoch}.mpk")`: the names a format string captures
            for name in CAPTURE.findall(text(node)):
                captured = model.resolution.captures_of(node, name)
                if captured is None:
                    if name.isupper():
                        continue
                    return None
                if captured.kind != "param" or captured.declaration not in params:
                    return None
                indices.add(params.index(captured.declaration))
    return tuple(sorted(indices))
