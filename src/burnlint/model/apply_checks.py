"""``ApplyCheck``: which parts of a load's ``ApplyResult`` the code reads (BL007), followed
through bindings, tuples and structs, macros, `.map(|r| ..)`, and the crate functions it is
passed to."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from burnlint.model.limits import MAX_FOLLOW_DEPTH
from burnlint.model.reads import SyntaxReads
from burnlint.model.result_forms import OK_KEEPING, ResultUse
from burnlint.model.scopes import Binding, Use
from burnlint.rust.syntax import (
    arguments_of,
    call_path,
    field_of,
    holds_block_value,
    is_tail_expression,
    macro_name,
    method_call_parts,
    outer_parens,
    strip_reference,
    text,
    unmut,
    walk,
)

if TYPE_CHECKING:
    from tree_sitter import Node

    from burnlint.rust.syntax import Ancestry


# What reading an ``ApplyResult`` verifies: a set of these names. Formatting, returning or
# passing on the whole result verifies both (its Display lists missing paths and errors).
MISSING = "missing"  # `.missing` read
ERRORS = "errors"  # `.errors` read or `.is_success()` called
Check = frozenset[str]
NOTHING: Check = frozenset()
WHOLE: Check = frozenset({MISSING, ERRORS})


FIELD_CHECKS: dict[str, Check] = {
    "missing": frozenset({MISSING}),
    "errors": frozenset({ERRORS}),
    "is_success": frozenset({ERRORS}),
}


def ok_map_call(op_node: Node, ancestry: Ancestry) -> Node | None:
    """The ``.map(..)`` call in the chain of ``Result`` methods after the op, if any: the
    Ok value after it is no longer the op's but what the mapping makes of it."""
    node = op_node
    while True:
        node = outer_parens(node, ancestry)
        access = ancestry.parent(node)
        call = ancestry.parent(access) if access is not None else None
        if (
            access is None
            or access.type != "field_expression"
            or call is None
            or call.type != "call_expression"
            or field_of(access, ancestry) != "function"
        ):
            return None
        method = text(access.child_by_field_name("field"))
        if method == "map":
            return call
        if method not in OK_KEEPING:
            return None
        node = call


APPLIED = "applied"
_EQUALITY = ("==", "!=")
_EQUALITY_MACROS = frozenset({"assert_eq", "assert_ne", "debug_assert_eq", "debug_assert_ne"})
# what keeps a list of applied paths the same list (or its set of paths)
_SAME_PATHS = frozenset({"iter", "into_iter", "cloned", "collect", "clone", "to_vec", "into"})
_GATHERING = frozenset({"extend", "append"})


class ApplyReads(SyntaxReads, Protocol):
    """What finding out which parts of an ``ApplyResult`` are read reads of the file
    (``ApplyChecker``, ``apply_trace.ApplyTrace``): its tree, and what the function a call
    passes the result to reads of it (``FileModel.argument_checks``)."""

    def argument_checks(self, argument: Node) -> Check: ...


def applied_compared(access: Node, model: SyntaxReads) -> bool:
    """Whether ``r.applied`` is compared as a whole (``==``/``!=``, ``assert_eq!``), itself or
    its length, directly or after being gathered into a list or set (``all.extend(r.applied)``
    then ``all.len() != expected``): a completeness check, which says what `missing` would."""
    ancestry = model.ancestry
    pending = [access]
    seen: set[int] = set()
    while pending:
        node = outer_parens(pending.pop(), ancestry)
        if node.id in seen or len(seen) > MAX_FOLLOW_DEPTH:
            continue
        seen.add(node.id)
        parent = ancestry.parent(node)
        if parent is None:
            continue
        if parent.type == "binary_expression":
            if text(parent.child_by_field_name("operator")) in _EQUALITY:
                return True
            continue
        if parent.type == "reference_expression":
            pending.append(parent)
        elif parent.type == "field_expression" and field_of(node, ancestry) == "value":
            call = ancestry.parent(parent)
            method = text(parent.child_by_field_name("field"))
            if (
                call is not None
                and call.type == "call_expression"
                and (method in _SAME_PATHS or method == "len")
            ):
                pending.append(call)
        elif parent.type == "let_declaration" and field_of(node, ancestry) == "value":
            pattern = parent.child_by_field_name("pattern")
            binding = model.resolution.binding_of(unmut(pattern)) if pattern is not None else None
            if binding is not None and _uses(binding, parent.end_byte, pending):
                return True
        elif parent.type == "arguments":
            call = ancestry.parent(parent)
            parts = method_call_parts(call) if call is not None else None
            if parts is not None and parts[1] in _GATHERING:
                binding = model.resolution.binding_of(strip_reference(parts[0]))
                if binding is not None and _uses(binding, parts[0].end_byte, pending):
                    return True
    return False


def _uses(binding: Binding, after: int, pending: list[Node]) -> bool:
    """Queue the uses of ``binding`` after ``after``; True when one is an argument of an
    equality assertion (``assert_eq!(all.len(), n)``)."""
    for use in binding.uses:
        if use.node.start_byte < after:
            continue
        if use.macro is None:
            pending.append(use.node)
        elif not use.capture and (
            macro_name(use.macro) in _EQUALITY_MACROS or _compared_in_tokens(use.node)
        ):
            return True
    return False


def _compared_in_tokens(node: Node) -> bool:
    """In a macro's tokens (``ensure!(all.len() == n, ..)``): whether the expression that
    starts at ``node`` (``all``, ``.len``, ``()``) stands next to ``==`` or ``!=``."""
    before = node.prev_sibling
    if before is not None and before.type in _EQUALITY:
        return True
    after = node.next_sibling
    while after is not None and (
        after.type in (".", "identifier")
        or (after.type == "token_tree" and text(after).startswith("("))
    ):
        after = after.next_sibling
    return after is not None and after.type in _EQUALITY


def macro_use_checks(use: Use, what: str = "result", path: tuple[int | str, ...] = ()) -> Check:
    """What a use in a macro's arguments reads of what is followed (an ``ApplyResult``:
    ``what`` "result"; or its ``missing``/``errors`` list), held at ``path`` in the used
    binding's value (tuple indices, struct fields). Formatting a value whole prints the
    result's missing paths and errors (``{r:?}``, ``"{}", r``); reading another field of a
    value that holds it reads nothing of it; a method of that value may read it."""
    followed = WHOLE if what == "result" else frozenset({what})
    if use.capture:
        return followed
    trail = use.trail
    for depth, step in enumerate(path):
        if depth >= len(trail) or depth >= use.fields:
            return followed  # printed whole, or a method of the value holding it
        if trail[depth] != str(step):
            return NOTHING  # another field
    rest = trail[len(path) :]
    if what != "result" or not rest:
        return followed
    if rest[0] == APPLIED and (
        (use.macro is not None and macro_name(use.macro) in _EQUALITY_MACROS)
        or _compared_in_tokens(use.node)
    ):
        return frozenset({MISSING})  # `assert_eq!(r.applied, expected)`: nothing missing
    return FIELD_CHECKS.get(rest[0], NOTHING)


class ApplyChecker:
    """Which parts of an ``ApplyResult`` value some code reads."""

    def __init__(self, model: ApplyReads) -> None:
        self.model = model
        self.ancestry = model.ancestry
        self.visiting: set[int] = set()

    def of_mapped(self, map_call: Node) -> Check:
        """What ``.map(|r| ..)`` reads of the ``ApplyResult`` it is given: the closure's
        reads of its parameter; a function passed by name may read anything."""
        arguments = arguments_of(map_call)
        closure = arguments[0] if len(arguments) == 1 else None
        if closure is None or closure.type != "closure_expression":
            return WHOLE
        parameters = closure.child_by_field_name("parameters")
        names = (
            [c for c in parameters.children if c.type not in ("|", ",")]
            if parameters is not None
            else []
        )
        if len(names) != 1:
            return WHOLE
        pattern = names[0]
        if pattern.type == "_":
            return NOTHING  # `|_| ()`: dropped
        if pattern.type == "parameter":
            pattern = pattern.child_by_field_name("pattern") or pattern
        pattern = unmut(pattern)
        binding = (
            self.model.resolution.binding_of(pattern) if pattern.type == "identifier" else None
        )
        if binding is None:
            return WHOLE
        return self.of_binding(binding, after=pattern.end_byte)

    def of_result_use(self, use: ResultUse) -> Check:
        if use.ok_escapes:
            return WHOLE
        checks = NOTHING
        for value in use.ok_values:
            checks |= self.of_value(value)
        for binding in use.ok_bindings:
            checks |= self.of_binding(binding, after=binding.node.end_byte)
        for pattern in use.ok_patterns:
            checks |= _struct_pattern_checks(pattern)
        return checks

    def of_binding(self, binding: Binding, after: int) -> Check:
        checks = NOTHING
        for use in binding.uses:
            if use.node.start_byte < after:
                continue
            if use.macro is not None:
                checks |= self._macro(use)
            else:
                checks |= self.of_value(use.node)
        return checks

    def _block_value(self, block: Node) -> Check:
        """A value that becomes the value of ``block``."""
        owner = self.ancestry.parent(block)
        if owner is None:
            return NOTHING
        if owner.type in ("function_item", "closure_expression"):
            return WHOLE  # returned: the caller checks it
        return self.of_value(block)

    def _macro(self, use: Use) -> Check:
        return macro_use_checks(use)

    def of_value(self, node: Node) -> Check:
        key = node.id
        if key in self.visiting:
            return NOTHING
        if len(self.visiting) >= MAX_FOLLOW_DEPTH:
            return WHOLE  # too deep to follow: count it as checked, a finding must be certain
        self.visiting.add(key)
        try:
            return self._of_value(node)
        finally:
            self.visiting.discard(key)

    def _of_value(self, node: Node) -> Check:
        node = outer_parens(node, self.ancestry)
        parent = self.ancestry.parent(node)
        if parent is None:
            return NOTHING
        kind = parent.type
        if kind == "field_expression" and field_of(node, self.ancestry) == "value":
            name = text(parent.child_by_field_name("field"))
            if name == APPLIED and applied_compared(parent, self.model):
                return frozenset({MISSING})
            return FIELD_CHECKS.get(name, NOTHING)
        if kind == "let_declaration" and field_of(node, self.ancestry) == "value":
            pattern = parent.child_by_field_name("pattern")
            if pattern is not None:
                pattern = unmut(pattern)
            if pattern is not None and pattern.type == "identifier":
                binding = self.model.resolution.binding_of(pattern)
                if binding is not None:
                    return self.of_binding(binding, after=parent.end_byte)
            if pattern is not None:
                return _struct_pattern_checks(pattern)
            return NOTHING
        if kind == "expression_statement":
            block = self.ancestry.parent(parent)
            if holds_block_value(parent, self.ancestry) and block is not None:
                # the tail, or a block-like statement that compiles only as the tail
                return self._block_value(block)
            return NOTHING
        if kind == "block" and is_tail_expression(node, self.ancestry):
            return self._block_value(parent)
        if kind == "match_arm" and field_of(node, self.ancestry) == "value":
            # an arm's value is the value of its `match`
            arms = self.ancestry.parent(parent)
            match = self.ancestry.parent(arms) if arms is not None else None
            if match is not None and match.type == "match_expression":
                return self.of_value(match)
            return NOTHING
        if kind == "else_clause" or (
            kind == "if_expression"
            and field_of(node, self.ancestry) in ("consequence", "alternative")
        ):
            # a branch's value is the value of its `if`
            return self.of_value(parent)
        if kind in ("unsafe_block", "const_block"):
            return self.of_value(parent)
        if kind in (
            "arguments",
            "return_expression",
            "field_initializer",
            "shorthand_field_initializer",
            "array_expression",
            "tuple_expression",
        ):
            if kind == "arguments":
                call = self.ancestry.parent(parent)
                if call is not None and call_path(call)[-1:] == ["drop"]:
                    return NOTHING
                return self.model.argument_checks(node)
            return WHOLE
        if kind == "reference_expression":
            return self.of_value(parent)
        if kind == "try_expression":
            return self.of_value(parent)
        if kind == "assignment_expression" and field_of(node, self.ancestry) == "right":
            left = parent.child_by_field_name("left")
            if left is not None and left.type == "identifier":
                binding = self.model.resolution.binding_of(left)
                if binding is not None:
                    return self.of_binding(binding, after=parent.end_byte)
            return WHOLE
        if kind == "match_expression":
            return WHOLE
        return NOTHING


def _struct_pattern_checks(pattern: Node) -> Check:
    """What ``ApplyResult { missing, .. }`` reads: the fields it names (any other pattern of
    an `ApplyResult` reads nothing)."""
    if pattern.type != "struct_pattern":
        return NOTHING
    checks = NOTHING
    for child in walk(pattern):
        if child.type in ("shorthand_field_identifier", "field_identifier"):
            checks |= FIELD_CHECKS.get(text(child), NOTHING)
    return checks
