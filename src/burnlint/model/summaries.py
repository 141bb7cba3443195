"""Helper summaries: what each function of a file does with stores, for its callers.

Read from the code, never from a type's name: which store errors the function hands back
(``errors``), where the ``ApplyResult`` of a load it performs ends up in its Ok value (``ok``:
whole, in a tuple, in a struct field), what of it the function checks itself, the store it
returns, and the store it builds and saves into with the parameters its path is made of.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from burnlint.findings import Edit, Location
from burnlint.model.helpers import Direction, ForeignStore, HelperSummary, OkFlow
from burnlint.model.loops import PURE_FUNCTIONS, PURE_METHODS
from burnlint.model.resolve import FnKey
from burnlint.model.results import (
    ERRORS,
    FIELD_CHECKS,
    MISSING,
    NOTHING,
    WHOLE,
    Check,
    UseClass,
    macro_use_checks,
)
from burnlint.model.stores import Backing
from burnlint.syntax import (
    arguments_of,
    call_path,
    field_of,
    is_tail_expression,
    is_unterminated_statement,
    method_call_parts,
    outer_parens,
    strip_reference,
    text,
    walk,
)

if TYPE_CHECKING:
    from tree_sitter import Node

    from burnlint.model.file_model import FileModel
    from burnlint.model.ops import StoreOp
    from burnlint.model.scopes import Binding
    from burnlint.model.stores import StoreBuild
    from burnlint.syntax import Ancestry

MAX_TRACE_STEPS = 200  # uses followed for one ApplyResult; past it, counted as checked
Path = tuple[int | str, ...]


def summarise(model: FileModel) -> dict[FnKey, HelperSummary]:
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
    model: FileModel, key: FnKey, function: Node, ops: list[StoreOp]
) -> HelperSummary | None:
    errors: list[str] = []
    directions: set[Direction] = set()
    saves: ForeignStore | None = None
    path_params: tuple[int, ...] | None = None
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
            path_params = (
                _path_params(model, op.store, function) if op.store.helper is None else None
            )
    store, in_result = _returned_store(model, function, key.display())
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
        saves=saves,
        path_params=path_params,
        param_checks=param_checks,
        location=Location(model.path, model.source.node_span(name)),
    )


def foreign_store(model: FileModel, build: StoreBuild, helper: str) -> ForeignStore:
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
        edit = Edit(model.path, end, end, ".overwrite(true)", span=model.source.span(end, end))
    return ForeignStore(
        build.kind,
        build.constructor,
        build.backing is Backing.FILE,
        options,
        build.adapters,
        build.remaps,
        origin,
        builder,
        edit,
    )


def _returned_store(
    model: FileModel, function: Node, helper: str
) -> tuple[ForeignStore | None, bool]:
    """The store the function returns as its tail: itself, or inside ``Ok(..)``."""
    body = function.child_by_field_name("body")
    if body is None:
        return None, False
    named = [c for c in body.named_children if c.type not in ("line_comment", "block_comment")]
    if not named or not is_tail_expression(named[-1], model.ancestry):
        return None, False
    tail = named[-1]
    in_result = False
    if tail.type == "call_expression" and call_path(tail) == ["Ok"]:
        arguments = arguments_of(tail)
        if len(arguments) != 1:
            return None, False
        tail, in_result = arguments[0], True
    build = model.stores.store_of(tail)
    if build is None:
        return None, False
    return foreign_store(model, build, helper), in_result


def _ok_flow(model: FileModel, function: Node, ops: list[StoreOp]) -> OkFlow | None:
    """Where an ``ApplyResult`` that still needs checking leaves the function, if one does."""
    for op in ops:
        if not op.returns_apply_result:
            continue
        required, reasons = leniency(op)
        inner: tuple[tuple[str, Path], ...] = ((RESULT, ()),)
        if op.summary is not None and op.summary.ok is not None:
            required = op.summary.ok.required - op.summary.ok.checked
            reasons = op.summary.ok.reasons
            inner = op.summary.ok.carried
        if not required:
            continue
        trace = ApplyTrace(model, function)
        if op.returns_result:
            use = model.result_use(op)
            if use.ok_escapes and _escapes(use.decided_at, function):
                trace.paths.update(inner)
            for what, path in inner:
                for value in use.ok_values:
                    trace.value(value, path, what)
                for binding in use.ok_bindings:
                    trace.binding(binding, binding.node.end_byte, path, what)
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
            Location(model.path, model.source.node_span(op.node)),
        )
    return None


def leniency(op: StoreOp) -> tuple[Check, tuple[str, ...]]:
    """What reading the op's ApplyResult must verify, and why (BL007)."""
    if op.summary is not None:
        return NOTHING, ()
    if op.method == "apply":
        return WHOLE, ("`apply` never fails",)
    store = op.store
    if store is None:
        return NOTHING, ()
    required: set[str] = set()
    reasons: list[str] = []
    if store.is_set_true("allow_partial"):
        required.add(MISSING)
        reasons.append("`.allow_partial(true)`")
    validate = store.option("validate")
    if validate is not None and validate.value is not True:
        required.add(ERRORS)
        reasons.append("`.validate(false)`")
    if not reasons:
        return NOTHING, ()
    return frozenset(required), (f"the store has {' and '.join(reasons)}",)


RESULT = "result"  # what a trace follows: the ApplyResult, or one of its fields' values
# Methods through which a `missing`/`errors` list keeps flowing (its value is carried on), and
# in-place changes of an accumulator that neither read nor carry it.
_CARRYING = frozenset(
    {
        "into_iter",
        "iter",
        "map",
        "collect",
        "cloned",
        "copied",
        "clone",
        "filter",
        "filter_map",
        "to_vec",
        "into",
        "drain",
        "to_owned",
        "chain",
    }
)
_IN_PLACE = frozenset(
    {"retain", "sort", "sort_by", "sort_by_key", "sort_unstable", "dedup", "dedup_by_key"}
)
_ACCUMULATING = frozenset({"extend", "push", "append", "extend_from_slice", "insert"})


class ApplyTrace:
    """Follows an ``ApplyResult`` through a function, or the value of its ``missing`` or
    ``errors`` field (``what``), at ``path`` inside a value: what of it is read, and where it
    is returned (the function carries it to its caller). With ``returning`` False (a
    caller's check of what a helper returned), returning or passing it on counts as checking
    it. A field list moved into a report of the function's own (``LoadReport { missing:
    r.missing.into_iter().map(..).collect(), .. }``, or gathered with ``extend``) is carried,
    not checked; any other use of it is a check."""

    def __init__(self, model: FileModel, function: Node | None, *, returning: bool = True):
        self.model = model
        self.function = function
        self.returning = returning
        self.ancestry: Ancestry = model.ancestry
        self.paths: set[tuple[str, Path]] = set()
        self.checked: set[str] = set()
        self._steps = 0

    def _check(self, what: str) -> None:
        self.checked |= WHOLE if what == RESULT else {what}

    def _returned(self, what: str, path: Path) -> None:
        if self.returning:
            self.paths.add((what, path))
        else:
            self._check(what)

    def binding(self, binding: Binding, after: int, path: Path, what: str = RESULT) -> None:
        for use in binding.uses:
            if use.node.start_byte < after:
                continue
            if use.macro is not None:
                self.checked |= macro_use_checks(use, what, path)
                continue
            self.value(use.node, path, what)

    def value(self, node: Node, path: Path, what: str = RESULT) -> None:
        self._steps += 1
        if self._steps > MAX_TRACE_STEPS:
            self._check(what)  # too much to follow: count it as checked (a finding is certain)
            return
        ancestry = self.ancestry
        node = outer_parens(node, ancestry)
        parent = ancestry.parent(node)
        if parent is None:
            return
        kind = parent.type
        if kind == "field_expression" and field_of(node, ancestry) == "value":
            self._field(parent, path, what)
            return
        if kind == "let_declaration" and field_of(node, ancestry) == "value":
            pattern = parent.child_by_field_name("pattern")
            if pattern is not None:
                self._pattern(pattern, parent.end_byte, path, what)
            return
        if kind == "return_expression":
            self._returned(what, path)
            return
        if kind == "expression_statement" or (
            kind == "block" and is_tail_expression(node, ancestry)
        ):
            block = parent if kind == "block" else ancestry.parent(parent)
            if kind == "expression_statement" and not is_unterminated_statement(parent, ancestry):
                if what != RESULT and not path:
                    self._check(what)  # `r.missing;` as a statement: dropped, read or not
                return
            owner = ancestry.parent(block) if block is not None else None
            if owner is None:
                return
            if owner.type == "function_item":
                if owner == self.function:
                    self._returned(what, path)
                else:
                    self._check(what)
            elif owner.type == "closure_expression":
                self._check(what)
            elif owner.type in ("if_expression", "else_clause", "match_arm", "block"):
                self.value(owner, path, what)
            return
        if kind in ("else_clause", "match_arm"):
            self.value(parent, path, what)
            return
        if kind == "arguments":
            call = ancestry.parent(parent)
            if call is None:
                return
            callee = call_path(call)[-1:]
            parts = method_call_parts(call)
            if callee in (["Ok"], ["Some"]):
                self.value(call, path, what)
            elif callee == ["drop"]:
                pass
            elif what != RESULT and not path and parts is not None and parts[1] in _ACCUMULATING:
                # `missing.extend(r.missing)`: the accumulator carries it on
                receiver = strip_reference(parts[0])
                binding = (
                    self.model.resolution.binding_of(receiver)
                    if receiver.type == "identifier"
                    else None
                )
                if binding is not None:
                    self.binding(binding, call.end_byte, (), what)
                else:
                    self._check(what)
            elif what == RESULT and not path:
                # passed on: a crate-local function may be known to read only some of it
                self.checked |= self.model.argument_checks(node)
            elif path == (what,):
                # an `ApplyResult` rebuilt around the list (`ApplyResult { missing, .. }`)
                if what in self.model.argument_checks(node):
                    self._check(what)
            else:
                self._check(what)  # passed on
            return
        if kind == "tuple_expression":
            index = [c for c in parent.named_children if c.type not in _COMMENTS].index(node)
            self.value(parent, (index, *path), what)
            return
        if kind == "field_initializer":
            struct = _struct_of(parent, ancestry)
            if struct is not None:
                self.value(struct, (text(parent.child_by_field_name("field")), *path), what)
            return
        if kind == "shorthand_field_initializer":
            struct = _struct_of(parent, ancestry)
            if struct is not None:
                self.value(struct, (text(node), *path), what)
            return
        if kind in ("reference_expression", "try_expression"):
            self.value(parent, path, what)
            return
        if kind == "assignment_expression" and field_of(node, ancestry) == "right":
            left = parent.child_by_field_name("left")
            binding = (
                self.model.resolution.binding_of(left)
                if left is not None and left.type == "identifier"
                else None
            )
            if binding is not None:
                self.binding(binding, parent.end_byte, path, what)
            else:
                self._check(what)
            return
        if kind in ("match_expression", "array_expression", "macro_invocation"):
            self._check(what)
            return
        # any other use: of the ApplyResult itself, not a check (`let _ = r` is handled above,
        # `drop(r)` too); of a value holding it or of a field list, counted as a check
        if path or what != RESULT:
            self._check(what)

    def _field(self, access: Node, path: Path, what: str) -> None:
        """``value.name``, where ``value`` holds what is followed at ``path``."""
        ancestry = self.ancestry
        name = text(access.child_by_field_name("field"))
        call = ancestry.parent(access)
        is_method = (
            call is not None
            and call.type == "call_expression"
            and field_of(access, ancestry) == "function"
        )
        if path:
            if name == str(path[0]) and not is_method:
                self.value(access, path[1:], what)
            elif is_method:
                self._check(what)  # a method of the value holding it may read it
            return
        if what == RESULT:
            if self.returning and not is_method and name in (MISSING, ERRORS):
                self.value(access, (), name)  # where the list goes: read, or carried on
            else:
                self.checked |= FIELD_CHECKS.get(name, NOTHING)
            return
        if is_method and call is not None:
            if name in _CARRYING:
                self.value(call, (), what)
            elif name not in _IN_PLACE:
                self._check(what)  # `missing.is_empty()`, `errors.len()`, ...
            return
        self._check(what)

    def _pattern(self, pattern: Node, after: int, path: Path, what: str) -> None:
        if pattern.type == "mut_pattern":
            pattern = next((c for c in pattern.named_children if c.type == "identifier"), pattern)
        if pattern.type == "identifier":
            binding = self.model.resolution.binding_of(pattern)
            if binding is not None:
                self.binding(binding, after, path, what)
            return
        if not path:
            if what != RESULT:
                self._check(what)
            elif pattern.type == "struct_pattern":
                for child in walk(pattern):
                    if child.type in ("shorthand_field_identifier", "field_identifier"):
                        self.checked |= FIELD_CHECKS.get(text(child), NOTHING)
            return
        head, rest = path[0], path[1:]
        if pattern.type == "tuple_pattern" and isinstance(head, int):
            elements = [c for c in pattern.named_children if c.type not in _COMMENTS]
            if any(e.type == "remaining_field_pattern" for e in elements[: head + 1]):
                self._check(what)  # `(a, .., r)`: the index is not counted from the start
                return
            if head < len(elements):
                self._pattern(elements[head], after, rest, what)
            return
        if pattern.type == "struct_pattern" and isinstance(head, str):
            for child in pattern.named_children:
                if child.type == "field_pattern":
                    name = child.child_by_field_name("name")
                    inner = child.child_by_field_name("pattern")
                    if text(name) == head:
                        if inner is not None:
                            self._pattern(inner, after, rest, what)
                        else:  # shorthand `S { report, .. }`
                            target = next(
                                (c for c in child.named_children if c.type == "identifier"), None
                            )
                            if target is not None:
                                self._pattern(target, after, rest, what)
                        return
                elif child.type == "shorthand_field_identifier" and text(child) == head:
                    binding = self.model.resolution.binding_of(child)
                    if binding is not None:
                        self.binding(binding, after, rest, what)
                    else:
                        self._check(what)
                    return
            return  # not bound: dropped
        self._check(what)  # a pattern not followed here


_COMMENTS = frozenset({"line_comment", "block_comment"})


def _struct_of(initializer: Node, ancestry: Ancestry) -> Node | None:
    listing = ancestry.parent(initializer)
    struct = ancestry.parent(listing) if listing is not None else None
    return struct if struct is not None and struct.type == "struct_expression" else None


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


def _param_checks(model: FileModel, function: Node) -> tuple[tuple[int, Check], ...]:
    """What the function reads of each ``ApplyResult`` parameter (its type names one, as
    `ApplyResult` or an alias ending so), where that is less than all of it: a caller that
    passes its result here has checked only that."""
    parameters = function.child_by_field_name("parameters")
    if parameters is None or b"ApplyResult" not in (parameters.text or b""):
        return ()
    found: list[tuple[int, Check]] = []
    params = [p for p in parameters.named_children if p.type == "parameter"]
    for index, param in enumerate(params):
        written = param.child_by_field_name("type")
        pattern = param.child_by_field_name("pattern")
        if written is None or pattern is None or _type_name(written) is None:
            continue
        if pattern.type == "mut_pattern":
            pattern = next((c for c in pattern.named_children if c.type == "identifier"), pattern)
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


def _path_params(model: FileModel, store: StoreBuild, function: Node) -> tuple[int, ...] | None:
    """Which parameters of ``function`` the store's path is made of (see ``HelperSummary``)."""
    if store.path_argument is None:
        return None
    parameters = function.child_by_field_name("parameters")
    if parameters is None:
        return None
    params = [p for p in parameters.named_children if p.type == "parameter"]
    indices: set[int] = set()
    for node in walk(store.path_argument):
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
    return tuple(sorted(indices))
