"""tree-sitter glue: one parser per process, and small node helpers shared by the model.

Every walk here is iterative: generated or hostile files nest thousands of levels deep, and
Python's recursion limit must never decide whether a file can be checked.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tree_sitter import Language, Node, Parser, Query, QueryCursor, Tree


@cache
def rust_language() -> Language:
    # imported here: `burnlint --version` and `burnlint rules` must not load the parser
    import tree_sitter_rust
    from tree_sitter import Language

    return Language(tree_sitter_rust.language())


@cache
def _parser() -> Parser:
    from tree_sitter import Parser

    return Parser(rust_language())


def parse(data: bytes) -> Tree:
    return _parser().parse(data)


@cache
def _type_query(types: tuple[str, ...]) -> Query:
    from tree_sitter import Query

    alternatives = " ".join(f"({t}) @{t}" for t in types)
    query: Query = Query(rust_language(), f"[{alternatives}]")
    return query


@cache
def _query_cursor(types: tuple[str, ...]) -> QueryCursor:
    # a cursor holds no tree: one per query serves every file (calls never overlap)
    from tree_sitter import QueryCursor

    return QueryCursor(_type_query(types))


# Every type the model looks up in a whole file. A query's cost is mostly its walk over the
# tree, whatever it captures: one walk for all of them costs a third of one walk each.
INDEXED_TYPES = (
    "call_expression",
    "enum_item",
    "function_item",
    "line_comment",
    "struct_item",
    "type_item",
    "union_item",
    "use_declaration",
)
# The index of each tree, made at its first lookup. An entry keeps its tree alive (so that a
# root's id cannot be reused meanwhile): the engine forgets a tree when it drops it, and all of
# them when a crate is done. The bound only caps what a caller that never forgets can hold.
_INDEX_CACHE_SIZE = 64
_indexes: OrderedDict[int, tuple[Node, dict[str, list[Node]]]] = OrderedDict()


def _tree_index(root: Node) -> dict[str, list[Node]]:
    entry = _indexes.get(root.id)
    if entry is not None:
        _indexes.move_to_end(root.id)
        return entry[1]
    index: dict[str, list[Node]] = _query_cursor(INDEXED_TYPES).captures(root)
    _indexes[root.id] = (root, index)
    if len(_indexes) > _INDEX_CACHE_SIZE:
        _indexes.popitem(last=False)
    return index


def forget_index(root: Node) -> None:
    """Drop the index of ``root``'s tree (the tree is being dropped)."""
    _indexes.pop(root.id, None)


def forget_indexes() -> None:
    _indexes.clear()


def nodes_of_type(root: Node, *types: str) -> list[Node]:
    """All descendants of the given types, in document order. A tree-sitter query runs in C:
    far cheaper than visiting every node from Python. For a whole file and the common types,
    one query finds them all at the first lookup (``INDEXED_TYPES``)."""
    if root.parent is None and all(t in INDEXED_TYPES for t in types):
        index = _tree_index(root)
        found = [node for t in types for node in index.get(t, ())]
    else:
        captures = _query_cursor(tuple(sorted(types))).captures(root)
        found = [node for nodes in captures.values() for node in nodes]
    found.sort(key=lambda n: (n.start_byte, -n.end_byte))
    return found


def walk(node: Node, *, skip: frozenset[str] = frozenset()) -> Iterator[Node]:
    """Pre-order traversal of named and anonymous descendants (``node`` included); subtrees
    rooted at a type in ``skip`` are not entered (their root is still yielded)."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        if current.type in skip and current is not node:
            continue
        stack.extend(reversed(current.children))


def walk_with_cursor(node: Node, *, skip: frozenset[str] = frozenset()) -> Iterator[Node]:
    """``walk`` through a tree cursor: the same nodes in the same order. ``Node.children``
    caches its list on the Python node for the node's lifetime, so ``walk`` from a node that
    is kept keeps every node under it; a cursor caches nothing, and each node yielded is freed
    once the caller drops it."""
    cursor = node.walk()
    while True:
        current = cursor.node
        assert current is not None  # a cursor always stands on a node
        yield current
        if (cursor.depth == 0 or current.type not in skip) and cursor.goto_first_child():
            continue
        # the cursor's root is ``node``: it never moves to ``node``'s siblings or parent
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                return


def named_descendants(node: Node, types: frozenset[str]) -> Iterator[Node]:
    for current in walk(node):
        if current.type in types:
            yield current


def text(node: Node | None) -> str:
    if node is None or node.text is None:
        return ""
    return node.text.decode("utf-8", errors="replace")


def unwrap_parens(node: Node) -> Node:
    """The expression inside any number of parentheses."""
    while node.type == "parenthesized_expression" and node.named_child_count == 1:
        child = node.named_children[0]
        node = child
    return node


def outer_parens(node: Node) -> Node:
    """The outermost parenthesized expression wrapping ``node`` (or ``node``)."""
    while node.parent is not None and node.parent.type == "parenthesized_expression":
        node = node.parent
    return node


def strip_reference(node: Node) -> Node:
    """``&mut x`` / ``&x`` / ``(x)`` -> ``x``."""
    while True:
        node = unwrap_parens(node)
        if node.type == "reference_expression":
            value = node.child_by_field_name("value")
            if value is None:
                return node
            node = value
            continue
        return node


def method_call_parts(call: Node) -> tuple[Node, str, Node] | None:
    """For ``recv.method(args)`` return (recv, method, arguments); else None."""
    if call.type != "call_expression":
        return None
    function = call.child_by_field_name("function")
    arguments = call.child_by_field_name("arguments")
    if function is None or arguments is None:
        return None
    if function.type == "generic_function":  # recv.method::<T>(..)
        function = function.child_by_field_name("function") or function
    if function.type != "field_expression":
        return None
    receiver = function.child_by_field_name("value")
    field = function.child_by_field_name("field")
    if receiver is None or field is None or field.type != "field_identifier":
        return None
    return receiver, text(field), arguments


def path_segments(node: Node) -> list[str]:
    """``a::b::c`` -> ["a", "b", "c"]; an identifier -> [name]; anything else -> []."""
    segments: list[str] = []
    current: Node | None = node
    while current is not None:
        if current.type in ("identifier", "type_identifier", "self", "crate", "super"):
            segments.append(text(current))
            break
        if current.type in ("scoped_identifier", "scoped_type_identifier"):
            name = current.child_by_field_name("name")
            segments.append(text(name))
            current = current.child_by_field_name("path")
            continue
        if current.type == "generic_type":
            current = current.child_by_field_name("type")
            continue
        return []
    return list(reversed(segments))


def call_path(call: Node) -> list[str]:
    """For a plain call ``a::b(..)`` or ``f(..)`` the path segments; [] for method calls."""
    if call.type != "call_expression":
        return []
    function = call.child_by_field_name("function")
    if function is None:
        return []
    if function.type == "generic_function":
        function = function.child_by_field_name("function") or function
    return path_segments(function)


def arguments_of(call: Node) -> list[Node]:
    arguments = call.child_by_field_name("arguments")
    if arguments is None:
        return []
    return [c for c in arguments.named_children if c.type not in ("line_comment", "block_comment")]


def macro_name(invocation: Node) -> str:
    """``log::warn!`` -> "warn"; ``println!`` -> "println"."""
    macro = invocation.child_by_field_name("macro")
    if macro is None:
        return ""
    segments = path_segments(macro)
    return segments[-1] if segments else text(macro)


def macro_path(invocation: Node) -> list[str]:
    macro = invocation.child_by_field_name("macro")
    return path_segments(macro) if macro is not None else []


def enclosing(node: Node, types: frozenset[str], stop: frozenset[str] = frozenset()) -> Node | None:
    current = node.parent
    while current is not None:
        if current.type in types:
            return current
        if current.type in stop:
            return None
        current = current.parent
    return None


def is_descendant(node: Node, ancestor: Node) -> bool:
    return (
        ancestor.start_byte <= node.start_byte
        and node.end_byte <= ancestor.end_byte
        and (
            node.start_byte != ancestor.start_byte
            or node.end_byte != ancestor.end_byte
            or _has_ancestor(node, ancestor)
        )
    )


def _has_ancestor(node: Node, ancestor: Node) -> bool:
    current: Node | None = node
    while current is not None:
        if current == ancestor:
            return True
        current = current.parent
    return False


def field_of(node: Node) -> str | None:
    """The field name under which ``node`` hangs from its parent."""
    parent = node.parent
    if parent is None:
        return None
    for index, child in enumerate(parent.children):
        if child == node:
            return parent.field_name_for_child(index)
    return None


def is_tail_expression(node: Node) -> bool:
    """True when ``node`` is the value of its block (the last child before ``}``, no ``;``)."""
    parent = node.parent
    if parent is None or parent.type != "block":
        return False
    named = [c for c in parent.named_children if c.type not in ("line_comment", "block_comment")]
    return bool(named) and named[-1] == node and node.type != "expression_statement"


def is_unterminated_statement(statement: Node) -> bool:
    """An ``expression_statement`` without ``;`` that ends its block: tree-sitter wraps a
    block-like tail expression (``match``, ``if``, ``loop``) this way, yet it is the block's
    value."""
    if statement.type != "expression_statement" or any(c.type == ";" for c in statement.children):
        return False
    parent = statement.parent
    if parent is None or parent.type != "block":
        return False
    named = [c for c in parent.named_children if c.type not in ("line_comment", "block_comment")]
    return bool(named) and named[-1] == statement
