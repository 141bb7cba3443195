"""``LoopContext``: whether code runs repeatedly.

Loops are ``for``, ``while``, ``while let`` and ``loop`` (labelled or not), and closures passed
to an iterator adapter whose receiver is visibly an iterator (``.iter()``, a range, ``chunks``,
``enumerate``, ...). ``Option::map(|x| ..)`` is not a loop: its receiver is not an iterator.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from burnlint.model.limits import MAX_INVARIANCE_DEPTH, MAX_ITERATOR_CHAIN
from burnlint.model.scopes import CAPTURE, Binding, LazyResolution
from burnlint.rust.syntax import call_path, macro_name, method_call_parts, text, unwrap_parens, walk

if TYPE_CHECKING:
    from tree_sitter import Node

    from burnlint.rust.syntax import Ancestry

LOOP_NODES = frozenset({"for_expression", "while_expression", "loop_expression"})
# Boundaries: code in a nested item runs when that item is called, not where it is written.
ITEM_BOUNDARIES = frozenset({"function_item", "impl_item", "trait_item", "mod_item", "source_file"})

ITERATOR_ADAPTERS = frozenset(
    {
        "for_each",
        "try_for_each",
        "map",
        "filter_map",
        "flat_map",
        "filter",
        "inspect",
        "fold",
        "try_fold",
        "scan",
        "take_while",
        "skip_while",
        "map_while",
        "any",
        "all",
        "find",
        "find_map",
        "position",
        "for_each_init",
        "for_each_with",
        "par_bridge",
    }
)
ITERATOR_SOURCES = frozenset(
    {
        "iter",
        "iter_mut",
        "into_iter",
        "par_iter",
        "par_iter_mut",
        "into_par_iter",
        "chunks",
        "chunks_exact",
        "windows",
        "enumerate",
        "zip",
        "lines",
        "step_by",
        "keys",
        "values",
        "values_mut",
        "drain",
        "rev",
        "skip",
        "take",
        "chain",
        "cycle",
        "bytes",
        "chars",
        "split",
        "read_dir",
        "batches",
        "iter_batches",
        "filter",
        "map",
        "flat_map",
        "filter_map",
        "peekable",
    }
)


@dataclass(frozen=True)
class LoopContext:
    """The innermost loop around a node: ``node`` is the loop expression, or the closure
    run once per element."""

    node: Node
    kind: str  # for, while, loop, closure

    @property
    def label(self) -> str | None:
        for child in self.node.children:
            if child.type == "label":
                return child.text.decode() if child.text else None
        return None


def _is_visible_iterator(receiver: Node) -> bool:
    current = unwrap_parens(receiver)
    steps = 0
    while steps < MAX_ITERATOR_CHAIN:
        steps += 1
        if current.type == "range_expression":
            return True
        parts = method_call_parts(current)
        if parts is None:
            return False
        inner, method, _ = parts
        if method in ITERATOR_SOURCES:
            return True
        current = unwrap_parens(inner)
    return False


def iterator_closure(closure: Node, ancestry: Ancestry) -> bool:
    """True for ``recv.adapter(|x| ..)`` with a visible iterator as ``recv``."""
    arguments = ancestry.parent(closure)
    if arguments is None or arguments.type != "arguments":
        return False
    call = ancestry.parent(arguments)
    if call is None:
        return False
    parts = method_call_parts(call)
    if parts is None:
        return False
    receiver, method, _ = parts
    return method in ITERATOR_ADAPTERS and _is_visible_iterator(receiver)


def loop_of(
    node: Node, ancestry: Ancestry, memo: dict[int, LoopContext | None]
) -> LoopContext | None:
    """The innermost loop that runs ``node`` repeatedly, within its function. ``memo`` keeps
    the answers for ``node`` and its ancestors (one per file: see ``Ancestry.fold_down``)."""

    def innermost(around_parent: LoopContext | None, child: Node) -> LoopContext | None:
        # the loop around ``child``: its parent when that runs it repeatedly, else the parent's
        parent = ancestry.parent(child)
        if parent is None or parent.type in ITEM_BOUNDARIES:
            return None
        kind = parent.type
        if kind in LOOP_NODES:
            # the iterator expression of a `for` runs once; its body repeats
            body = parent.child_by_field_name("body")
            condition = parent.child_by_field_name("condition")
            repeats = child == body or (kind == "while_expression" and child == condition)
            if kind == "loop_expression" or repeats:
                return LoopContext(parent, kind.removesuffix("_expression"))
        elif kind == "closure_expression" and iterator_closure(parent, ancestry):
            return LoopContext(parent, "closure")
        return around_parent

    return ancestry.fold_down(node, memo, None, innermost)


# Loop invariance ------------------------------------------------------------------------------

# Calls that compute a value from their inputs without changing them (DESIGN.md §2).
PURE_FUNCTIONS = frozenset({("Path", "new"), ("PathBuf", "from"), ("String", "from")})
PURE_METHODS = frozenset(
    {
        "join",
        "with_extension",
        "with_file_name",
        "to_path_buf",
        "clone",
        "as_ref",
        "to_string",
        "to_owned",
        "display",
        "into",
        "as_path",
        "as_str",
    }
)
# Method calls that read a binding without changing it; any other method called on a binding
# inside the loop may mutate it (`p.set_extension(..)`, `names.next()`), making it varying.
READ_ONLY_METHODS = PURE_METHODS | frozenset(
    {
        "exists",
        "is_file",
        "is_dir",
        "to_str",
        "to_string_lossy",
        "as_os_str",
        "file_name",
        "file_stem",
        "extension",
        "parent",
        "len",
        "is_empty",
        "starts_with",
        "ends_with",
        "contains",
        "iter",
        "fmt",
        "eq",
        "metadata",
        "try_exists",
        "canonicalize",
    }
)
_LITERALS = frozenset(
    {
        "string_literal",
        "raw_string_literal",
        "integer_literal",
        "float_literal",
        "boolean_literal",
        "char_literal",
    }
)
_FORMAT_MACROS = frozenset({"format", "concat"})


def mutated_in(binding: Binding, region: Node, ancestry: Ancestry) -> bool:
    """Whether ``binding`` may change while ``region`` runs: an assignment, a ``&mut``
    borrow, or a method call that is not known to only read it."""
    for node in [*binding.assignments, *binding.mutable_borrows]:
        if within(node, region):
            return True
    for use in binding.uses:
        if not within(use.node, region):
            continue
        if use.macro is not None:
            if use.trail and use.trail[-1] not in READ_ONLY_METHODS:
                return True
            continue
        parent = ancestry.parent(use.node)
        if (
            parent is not None
            and parent.type == "field_expression"
            and parent.child_by_field_name("value") == use.node
        ):
            call = ancestry.parent(parent)
            method = parent.child_by_field_name("field")
            if (
                call is not None
                and call.type == "call_expression"
                and call.child_by_field_name("function") == parent
                and method is not None
                and text(method) not in READ_ONLY_METHODS
            ):
                return True
    return False


def within(node: Node, region: Node) -> bool:
    """Whether ``node`` lies inside ``region`` (by bytes)."""
    return region.start_byte <= node.start_byte and node.end_byte <= region.end_byte


class InvarianceChecker:
    """Decides whether an expression has the same value in every iteration of a loop.

    Conservative: anything not provably invariant is varying, because BL003 must be certain.
    """

    def __init__(self, resolution: LazyResolution) -> None:
        self.resolution = resolution
        self.ancestry = resolution.ancestry

    def invariant(self, node: Node, loop: Node, depth: int = 0) -> bool:
        if depth > MAX_INVARIANCE_DEPTH:
            return False
        node = unwrap_parens(node)
        kind = node.type
        if kind in _LITERALS:
            return True
        if kind == "reference_expression":
            value = node.child_by_field_name("value")
            return value is not None and self.invariant(value, loop, depth + 1)
        if kind == "field_expression":
            value = node.child_by_field_name("value")
            return value is not None and self.invariant(value, loop, depth + 1)
        if kind in ("identifier", "self"):
            return self._binding_invariant(node, loop, depth)
        if kind == "macro_invocation":
            return self._format_invariant(node, loop, depth)
        if kind == "call_expression":
            parts = method_call_parts(node)
            arguments = [c for c in (node.child_by_field_name("arguments") or node).named_children]
            if parts is not None:
                receiver, method, _ = parts
                if method not in PURE_METHODS:
                    return False
                return self.invariant(receiver, loop, depth + 1) and all(
                    self.invariant(a, loop, depth + 1) for a in arguments
                )
            path = call_path(node)
            if len(path) >= 2 and (path[-2], path[-1]) in PURE_FUNCTIONS:
                return all(self.invariant(a, loop, depth + 1) for a in arguments)
            return False
        return False

    def _binding_invariant(self, identifier: Node, loop: Node, depth: int) -> bool:
        binding = self.resolution.binding_of(identifier)
        if binding is None:
            # An unresolved name: a constant or static (uppercase by convention) is invariant;
            # anything else we cannot see is not provably so.
            name = text(identifier)
            return bool(name) and name.isupper()
        if mutated_in(binding, loop, self.ancestry):
            return False
        declared_inside = within(binding.node, loop)
        if not declared_inside:
            return True
        # Declared inside the loop: the loop pattern itself varies; a `let` is invariant when
        # its value is.
        if binding.kind != "let" or binding.value is None:
            return False
        return self.invariant(binding.value, loop, depth + 1)

    def _format_invariant(self, invocation: Node, loop: Node, depth: int) -> bool:
        if macro_name(invocation) not in _FORMAT_MACROS:
            return False
        for token in walk(invocation):
            if (
                token.type == "identifier"
                and (parent := self.ancestry.parent(token)) is not None
                and parent.type == "token_tree"
            ):
                previous = token.prev_sibling
                if previous is not None and previous.type in (".", "::"):
                    continue
                if not self._binding_invariant(token, loop, depth + 1):
                    return False
            elif (
                token.type == "string_literal"
                and (parent := self.ancestry.parent(token)) is not None
                and parent.type == "token_tree"
            ):
                for name in CAPTURE.findall(text(token)):
                    binding = self._lookup_capture(name, token)
                    if binding is None:
                        if not name.isupper():
                            return False
                        continue
                    if mutated_in(binding, loop, self.ancestry):
                        return False
                    if within(binding.node, loop) and (
                        binding.kind != "let"
                        or binding.value is None
                        or not self.invariant(binding.value, loop, depth + 1)
                    ):
                        return False
            elif token.type == "token_tree" and token != invocation:
                # `.`-method calls inside format args (`p.display()`) are read as identifiers
                # above; anything that looks like a call of another function is varying.
                previous = token.prev_sibling
                if previous is not None and previous.type == "identifier":
                    before = previous.prev_sibling
                    name = text(previous)
                    if (before is None or before.type != ".") or name not in PURE_METHODS:
                        if before is not None and before.type == "." and name in READ_ONLY_METHODS:
                            continue
                        return False
        return True

    def _lookup_capture(self, name: str, literal: Node) -> Binding | None:
        return self.resolution.captures_of(literal, name)
