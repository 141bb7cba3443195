"""tree-sitter glue: one parser per process, and small node helpers shared by the model.

Every walk here is iterative: generated or hostile files nest thousands of levels deep, and
Python's recursion limit must never decide whether a file can be checked.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from functools import cache
from typing import TYPE_CHECKING, TypeVar

from burnlint.rust.node_index import index_by_walk

if TYPE_CHECKING:
    from tree_sitter import Language, Node, Parser, Tree

T = TypeVar("T")
# Parents that ``Ancestry`` takes from tree-sitter (one descent from the root each) within one
# top-level item before it records the whole item in one walk: one for every
# ``NODES_PER_LOOKUP`` nodes of the item, within these bounds. Rules ask about a few dozen
# nodes of an item at most (16 is the median on the burn repository), far fewer than a walk
# visits: a descent runs in C, a walk visits each node from Python (a big test function, 1,500
# nodes and 120 lookups, costs a fifth of its walk). A deep item pays for at most
# ``MOST_LOOKUPS_BEFORE_WALK`` descents before its walk.
LOOKUPS_BEFORE_WALK = 64
MOST_LOOKUPS_BEFORE_WALK = 256
NODES_PER_LOOKUP = 8
# Items that name a step of a finding's path (``impl Trainer > fn fit``).
# The function a ``macro_rules!`` transcriber is read as (``expand.py``): its definition names
# the step instead.
BODY_FUNCTION = b"__macro_body"
_NAMED_ITEMS = frozenset({"function_item", "mod_item", "trait_item"})


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


def reparse(tree: Tree, old: bytes, new: bytes) -> Tree:
    """``new`` parsed from ``tree``, the tree of ``old``: tree-sitter's incremental parse, told
    of one edit (the bytes between the common prefix and the common suffix of ``old`` and
    ``new``), reuses the subtrees the edit did not touch. ``tree`` is not changed (a copy is
    edited)."""
    start = _common_prefix(old, new)
    # the common suffix, not reaching back into the prefix of either
    tail = _common_prefix(old[start:][::-1], new[start:][::-1])
    old_end, new_end = len(old) - tail, len(new) - tail
    edited = tree.copy()
    edited.edit(
        start_byte=start,
        old_end_byte=old_end,
        new_end_byte=new_end,
        start_point=_point(old, start),
        old_end_point=_point(old, old_end),
        new_end_point=_point(new, new_end),
    )
    reparsed = _parser().parse(new, edited)
    # error recovery can depend on the tree it starts from (an unclosed string literal): a
    # tree with errors is parsed afresh, so a check never differs from a one-shot run
    return _parser().parse(new) if reparsed.root_node.has_error else reparsed


def _common_prefix(a: bytes, b: bytes) -> int:
    """The length of the longest common prefix of ``a`` and ``b`` (halving: each comparison of
    two slices runs in C)."""
    low, high = 0, min(len(a), len(b))
    while low < high:
        middle = (low + high + 1) // 2
        if a[low:middle] == b[low:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def _point(data: bytes, offset: int) -> tuple[int, int]:
    """(row, column in bytes) of ``offset`` in ``data``, as tree-sitter counts them."""
    row = data.count(b"\n", 0, offset)
    return row, offset - (data.rfind(b"\n", 0, offset) + 1)


# Every type the model looks up in a whole file: one walk finds them all (``node_index.py``).
INDEXED_TYPES = (
    "assignment_expression",
    "call_expression",
    "compound_assignment_expr",
    "enum_item",
    "function_item",
    "impl_item",
    "line_comment",
    "macro_definition",
    "macro_invocation",
    "reference_expression",
    "struct_expression",
    "struct_item",
    "type_item",
    "union_item",
    "use_declaration",
)

# ``nodes_of_type`` of one tree: the file's index (``SourceFile.nodes_of_type``) or a walk
FindNodes = Callable[..., list["Node"]]


def type_index(root: Node) -> dict[str, list[Node]]:
    """The nodes of every ``INDEXED_TYPES`` type under ``root``, by type, found in one walk
    (``SourceFile.nodes_of_type`` keeps a file's, so it goes with the file)."""
    return index_by_walk(root, INDEXED_TYPES)


def nodes_of_type(root: Node, *types: str) -> list[Node]:
    """All descendants of the given types, in document order, found in one linear walk (a
    tree-sitter query loses nodes on deep trees: ``node_index.py``). For a whole file and the
    common types, ``SourceFile.nodes_of_type`` finds them all at its first lookup."""
    found = index_by_walk(root, types)
    return in_document_order(node for nodes in found.values() for node in nodes)


def in_document_order(nodes: Iterable[Node]) -> list[Node]:
    """``nodes`` by where they start, an outer node before the inner ones it starts with."""
    return sorted(nodes, key=lambda n: (n.start_byte, -n.end_byte))


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


def syntax_errors(root: Node) -> Iterator[Node]:
    """The ``ERROR`` and missing nodes under ``root``, in document order: where the parser
    gave up or had to invent a token."""
    return (node for node in walk(root) if node.type == "ERROR" or node.is_missing)


def walk_with_cursor(node: Node, *, skip: frozenset[str] = frozenset()) -> Iterator[Node]:
    """``walk`` through a tree cursor: the same nodes in the same order. ``Node.children``
    caches its list on the Python node for the node's lifetime, so ``walk`` from a node that
    is kept keeps every node under it; a cursor caches nothing, and each node yielded is freed
    once the caller drops it."""
    cursor = node.walk()
    depth = 0  # kept here: the cursor's own ``depth`` is counted along its whole stack
    while True:
        current = cursor.node
        assert current is not None  # a cursor always stands on a node
        yield current
        if (depth == 0 or current.type not in skip) and cursor.goto_first_child():
            depth += 1
            continue
        # the cursor's root is ``node``: it never moves to ``node``'s siblings or parent
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                return
            depth -= 1


def named_descendants(node: Node, types: frozenset[str]) -> Iterator[Node]:
    for current in walk(node):
        if current.type in types:
            yield current


def unmut(pattern: Node) -> Node:
    """The identifier of a ``mut x`` pattern; any other pattern as it is."""
    if pattern.type == "mut_pattern":
        return next((c for c in pattern.named_children if c.type == "identifier"), pattern)
    return pattern


def text(node: Node | None) -> str:
    # ``Node.text`` copies the bytes out of the tree at each access: once here
    found = node.text if node is not None else None
    return "" if found is None else found.decode("utf-8", errors="replace")


def unwrap_parens(node: Node) -> Node:
    """The expression inside any number of parentheses."""
    while node.type == "parenthesized_expression" and node.named_child_count == 1:
        child = node.named_children[0]
        node = child
    return node


def outer_parens(node: Node, ancestry: Ancestry) -> Node:
    """The outermost parenthesized expression wrapping ``node`` (or ``node``)."""
    parent = ancestry.parent(node)
    while parent is not None and parent.type == "parenthesized_expression":
        node = parent
        parent = ancestry.parent(node)
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


def field_of(node: Node, ancestry: Ancestry) -> str | None:
    """The field name under which ``node`` hangs from its parent."""
    parent = ancestry.parent(node)
    if parent is None:
        return None
    for index, child in enumerate(parent.children):
        if child == node:
            return parent.field_name_for_child(index)
    return None


def is_tail_expression(node: Node, ancestry: Ancestry) -> bool:
    """True when ``node`` is the value of its block (the last child before ``}``, no ``;``)."""
    parent = ancestry.parent(node)
    if parent is None or parent.type != "block":
        return False
    named = [c for c in parent.named_children if c.type not in ("line_comment", "block_comment")]
    return bool(named) and named[-1] == node and node.type != "expression_statement"


def is_unterminated_statement(statement: Node, ancestry: Ancestry) -> bool:
    """An ``expression_statement`` without ``;`` that ends its block: tree-sitter wraps a
    block-like tail expression (``match``, ``if``, ``loop``) this way, yet it is the block's
    value."""
    if statement.type != "expression_statement" or any(c.type == ";" for c in statement.children):
        return False
    parent = ancestry.parent(statement)
    if parent is None or parent.type != "block":
        return False
    named = [c for c in parent.named_children if c.type not in ("line_comment", "block_comment")]
    return bool(named) and named[-1] == statement


# Expressions that end a statement without `;` (the Rust reference's "expression with block").
BLOCK_LIKE = frozenset(
    {"block", "unsafe_block", "const_block", "if_expression", "match_expression"}
)


def holds_block_value(statement: Node, ancestry: Ancestry) -> bool:
    """Whether a value that is not ``()`` reaching ``statement`` (an ``expression_statement``)
    is the value of its block.

    True for a statement without ``;`` that ends its block (``is_unterminated_statement``),
    and for a block-like one anywhere (``{ .. }``, ``if``, ``match``, ``unsafe { .. }``): such a
    statement must be of type ``()`` unless it is the block's tail, so code where it holds
    another value compiles only in the builds where what follows it is compiled out
    (``#[cfg(feature = "x")] { f() } #[cfg(not(feature = "x"))] { bail!(..) }``). Callers
    follow a value that is not ``()`` (a ``Result``, an ``ApplyResult``) into it.
    """
    if is_unterminated_statement(statement, ancestry):
        return True
    if statement.type != "expression_statement" or any(c.type == ";" for c in statement.children):
        return False
    # tree-sitter reads `{ .. };` as the block and an empty statement: the `;` ends it
    following = statement.next_named_sibling
    while following is not None and following.type in ("line_comment", "block_comment"):
        following = following.next_named_sibling
    if following is not None and following.type == "empty_statement":
        return False
    parent = ancestry.parent(statement)
    named = [c for c in statement.named_children if c.type not in ("line_comment", "block_comment")]
    return (
        parent is not None
        and parent.type == "block"
        and len(named) == 1
        and named[0].type in BLOCK_LIKE
    )


def _lookups_before_walk(item: Node) -> int:
    budget = item.descendant_count // NODES_PER_LOOKUP
    return min(max(budget, LOOKUPS_BEFORE_WALK), MOST_LOOKUPS_BEFORE_WALK)


class Ancestry:
    """The parents of one tree's nodes, and facts about a node's ancestors, at O(1) a step.

    ``Node.parent`` is tree-sitter's ``ts_node_parent``, which descends from the root on every
    call: a walk from a node at depth d up to the root costs O(d^2), and generated files nest
    10,000 levels deep. Here answers are kept by node id. The first parents asked for inside
    one top-level item come from tree-sitter (cheap at the depths of real code; how many: one
    per ``NODES_PER_LOOKUP`` nodes of the item, at least ``LOOKUPS_BEFORE_WALK``, at most
    ``MOST_LOOKUPS_BEFORE_WALK``); after that the parents of all the item's nodes are recorded
    in one iterative walk, so a deep or much-asked item costs O(its size) in all.
    """

    def __init__(self, root: Node) -> None:
        self.root = root
        self._root_id = root.id
        self._parents: dict[int, Node] = {}
        self._lookups: dict[int, int] = {}  # top-level item id -> parents asked of tree-sitter
        self._walked: set[int] = set()  # ids of the top-level items whose parents are recorded
        self._item_paths: dict[int, tuple[str, ...]] = {}  # node id -> names of its items

    def parent(self, node: Node) -> Node | None:
        key = node.id
        found = self._parents.get(key)
        if found is not None or key == self._root_id:
            return found
        top = self.root.child_with_descendant(node)
        if top is not None and top.id not in self._walked:
            lookups = self._lookups.get(top.id, 0)
            if lookups >= _lookups_before_walk(top):
                self._walked.add(top.id)
                self._parents[top.id] = self.root
                self._record_subtree(top)
                found = self._parents.get(key)
            else:
                self._lookups[top.id] = lookups + 1
        if found is None:
            # tree-sitter's answer: below the budget, or for a node no walk reaches
            found = node.parent
            if found is not None:
                self._parents[key] = found
        return found

    def graft(self, node: Node, parent: Node) -> None:
        """Make ``node``, the root of code parsed apart from this tree (``expand.py``), a
        child of ``parent``, and record the parents of every node under it."""
        self._parents[node.id] = parent
        self._record_subtree(node)

    def _record_subtree(self, top: Node) -> None:
        """Record the parent of every node under ``top``; a cursor walk creates no list of
        children per node (``Node.children`` is cached and would keep them all alive)."""
        cursor = top.walk()
        path = [top]  # the cursor's node and its ancestors up to ``top``
        parents = self._parents
        while True:
            if not cursor.goto_first_child():
                # a leaf: on to the next sibling of it or of its nearest ancestor that has one
                while not cursor.goto_next_sibling():
                    if not cursor.goto_parent():
                        return
                    path.pop()
                path.pop()
            node = cursor.node
            assert node is not None  # the cursor has just moved onto a node
            parents[node.id] = path[-1]
            path.append(node)

    def fold_down(
        self, node: Node, memo: dict[int, T], outside: T, step: Callable[[T, Node], T]
    ) -> T:
        """A fact about ``node`` computed from the root down: ``step(fact of the parent,
        node)``, with ``outside`` standing for the fact of the root's parent. ``memo`` (one per
        kind of fact) keeps the facts of ``node`` and its ancestors by id, so asking about many
        nodes of one deep file costs O(size of the file), not O(nodes x depth)."""
        chain: list[Node] = []
        current: Node | None = node
        while current is not None and current.id not in memo:
            chain.append(current)
            current = self.parent(current)
        fact = outside if current is None else memo[current.id]
        for inner in reversed(chain):
            fact = step(fact, inner)
            memo[inner.id] = fact
        return fact

    def enclosing_item(self, node: Node) -> str:
        """``impl Trainer > fn fit`` style path of the items around ``node``."""
        parent = self.parent(node)
        if parent is None:
            return ""
        outside: tuple[str, ...] = ()
        names = self.fold_down(parent, self._item_paths, outside, _with_item_name)
        return " > ".join(names)


def _with_item_name(outer: tuple[str, ...], node: Node) -> tuple[str, ...]:
    """The item path down to ``node``: ``outer``, plus ``node`` when it is a named item."""
    if node.type in _NAMED_ITEMS:
        name = node.child_by_field_name("name")
        if name is not None and name.text is not None and name.text != BODY_FUNCTION:
            return (*outer, f"{node.type.removesuffix('_item')} {name.text.decode()}")
    elif node.type == "macro_definition":
        name = node.child_by_field_name("name")
        if name is not None and name.text is not None:
            return (*outer, f"macro_rules! {name.text.decode()}")
    elif node.type == "impl_item":
        type_node = node.child_by_field_name("type")
        if type_node is not None and type_node.text is not None:
            return (*outer, f"impl {type_node.text.decode()}")
    return outer
