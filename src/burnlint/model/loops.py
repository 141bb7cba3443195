"""``LoopContext``: whether code runs repeatedly.

Loops are ``for``, ``while``, ``while let`` and ``loop`` (labelled or not), and closures passed
to an iterator adapter whose receiver is visibly an iterator (``.iter()``, a range, ``chunks``,
``enumerate``, ...). ``Option::map(|x| ..)`` is not a loop: its receiver is not an iterator.
"""

from __future__ import annotations

from dataclasses import dataclass

from tree_sitter import Node

from burnlint.syntax import method_call_parts, unwrap_parens

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
    while steps < 32:
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


def iterator_closure(closure: Node) -> bool:
    """True for ``recv.adapter(|x| ..)`` with a visible iterator as ``recv``."""
    arguments = closure.parent
    if arguments is None or arguments.type != "arguments":
        return False
    call = arguments.parent
    if call is None:
        return False
    parts = method_call_parts(call)
    if parts is None:
        return False
    receiver, method, _ = parts
    return method in ITERATOR_ADAPTERS and _is_visible_iterator(receiver)


def loop_of(node: Node) -> LoopContext | None:
    """The innermost loop that runs ``node`` repeatedly, within its function."""
    current = node.parent
    child = node
    while current is not None and current.type not in ITEM_BOUNDARIES:
        kind = current.type
        if kind in LOOP_NODES:
            # the iterator expression of a `for` runs once; its body repeats
            body = current.child_by_field_name("body")
            condition = current.child_by_field_name("condition")
            if kind != "for_expression" or child == body:
                if kind != "while_expression" or child in (body, condition):
                    return LoopContext(current, kind.removesuffix("_expression"))
        elif kind == "closure_expression" and iterator_closure(current):
            return LoopContext(current, "closure")
        child = current
        current = current.parent
    return None
