"""``ApplyTrace``: where an ``ApplyResult`` goes inside a function, or the value of its
``missing``/``errors`` list: what of it is read, and where it leaves the function (into the
Ok value, at a tuple index or struct field). Helper summaries (``summaries.py``) and a
caller's check of what a helper hands back both follow it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from burnlint.model.apply_checks import (
    APPLIED,
    ERRORS,
    FIELD_CHECKS,
    MISSING,
    NOTHING,
    WHOLE,
    applied_compared,
    macro_use_checks,
)
from burnlint.model.limits import MAX_TRACE_STEPS
from burnlint.rust.syntax import (
    call_path,
    field_of,
    is_tail_expression,
    is_unterminated_statement,
    method_call_parts,
    outer_parens,
    strip_reference,
    text,
    unmut,
    walk,
)

if TYPE_CHECKING:
    from tree_sitter import Node

    from burnlint.model.apply_checks import ApplyReads
    from burnlint.model.scopes import Binding
    from burnlint.rust.syntax import Ancestry

Path = tuple[int | str, ...]  # tuple indices and struct fields, outermost first


RESULT = "result"  # what a trace follows: the ApplyResult, or one of its fields' values
# Methods through which a `missing`/`errors` list keeps flowing (its value is carried on), and
# in-place changes of an accumulator that neither read nor carry it.
CARRYING = frozenset(
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

    def __init__(self, model: ApplyReads, function: Node | None, *, returning: bool = True):
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
            elif name == APPLIED and applied_compared(access, self.model):
                self.checked.add(MISSING)  # compared whole: a completeness check
            else:
                self.checked |= FIELD_CHECKS.get(name, NOTHING)
            return
        if is_method and call is not None:
            if name in CARRYING:
                self.value(call, (), what)
            elif name not in _IN_PLACE:
                self._check(what)  # `missing.is_empty()`, `errors.len()`, ...
            return
        self._check(what)

    def pattern(self, pattern: Node, path: Path, what: str = RESULT) -> None:
        """A pattern (``(net, report)`` in ``Ok((net, report))``) that takes apart a value
        holding what is followed at ``path``."""
        self._pattern(pattern, pattern.end_byte, path, what)

    def _pattern(self, pattern: Node, after: int, path: Path, what: str) -> None:
        pattern = unmut(pattern)
        if pattern.type == "identifier":
            binding = self.model.resolution.binding_of(pattern)
            if binding is not None:
                self.binding(binding, after, path, what)
            return
        if pattern.type == "_":
            return  # dropped
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
            # `_` is an anonymous node: count the elements between the commas
            elements = [c for c in pattern.children if c.type not in _TUPLE_PUNCTUATION]
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
                        elif name is not None:  # shorthand `S { report, .. }`
                            self._shorthand(name, after, rest, what)
                        return
                elif child.type == "shorthand_field_identifier" and text(child) == head:
                    self._shorthand(child, after, rest, what)
                    return
            return  # not bound: dropped
        self._check(what)  # a pattern not followed here

    def _shorthand(self, name: Node, after: int, path: Path, what: str) -> None:
        """``S { report, .. }`` binds ``report`` by the field's own name."""
        binding = self.model.resolution.binding_of(name)
        if binding is not None:
            self.binding(binding, after, path, what)
        else:
            self._check(what)


_COMMENTS = frozenset({"line_comment", "block_comment"})
_TUPLE_PUNCTUATION = frozenset({"(", ")", ",", *_COMMENTS})


def _struct_of(initializer: Node, ancestry: Ancestry) -> Node | None:
    listing = ancestry.parent(initializer)
    struct = ancestry.parent(listing) if listing is not None else None
    return struct if struct is not None and struct.type == "struct_expression" else None
