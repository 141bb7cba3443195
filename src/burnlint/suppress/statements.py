"""The statement an allow covers: the one after an allow alone on its line, or the one a trailing
allow's line belongs to, every line of it. Comments and attributes between an allow and its
statement are skipped; ``app/add_allow.py`` places its comments with the same functions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, TypeAlias

if TYPE_CHECKING:
    from tree_sitter import Node

    from burnlint.rust.source import SourceFile

# Nodes whose named children are statements (or items, or match arms).
_CONTAINERS = frozenset({"block", "source_file", "declaration_list", "match_block"})
_SKIPPED = frozenset({"line_comment", "block_comment", "attribute_item", "inner_attribute_item"})
# ASCII whitespace, as Rust skips it between tokens, and the UTF-8 byte order mark a file may
# start with: what may stand before a comment on its line
WHITESPACE = b" \t\r\n\f\v"
BOM = b"\xef\xbb\xbf"
# The node found at a point inside a comment is the comment, one of its tokens (``*/``, the doc
# text) or a token of those (tree-sitter-rust's grammar): the node and two of its ancestors.
_COMMENT_LEVELS = 3


def has_code_before(data: bytes, line_start: int, position: int) -> bool:
    return bool(data[line_start:position].removeprefix(BOM).strip(WHITESPACE))


def trailing_statement(source: SourceFile, root: Node, comment: Node) -> tuple[int, int]:
    """The statement the code before a trailing comment belongs to, widened to the other
    statements that end on the comment's line (``a(); b(); // allow``)."""
    line0 = source.line_of(comment.start_byte)
    line_start = source.line_starts[line0]
    position = comment.start_byte
    leaf: Node | None = None
    while position > line_start:
        before = source.data[line_start:position].rstrip(WHITESPACE)
        if not before.removeprefix(BOM):
            break
        last = line_start + len(before) - 1
        leaf = root.descendant_for_byte_range(last, last + 1)
        earlier = _enclosing_comment(leaf)
        if earlier is None:
            break
        position = earlier.start_byte  # `a(); /* x */ // allow`: look before the block comment
        leaf = None
    if leaf is None:
        return line0 + 1, line0 + 1
    statement = statement_of(leaf)
    first = statement.start_point[0]
    last_row = statement.end_point[0]
    sibling = statement.prev_named_sibling
    while sibling is not None and sibling.end_point[0] == line0:
        if sibling.type not in _SKIPPED:
            first = min(first, sibling.start_point[0])
        sibling = sibling.prev_named_sibling
    return first + 1, max(last_row, line0) + 1


def _enclosing_comment(node: Node | None) -> Node | None:
    """``node`` if it is a comment, or the comment it is part of (a comment's ``*/`` token or
    doc text is a child of the comment node)."""
    for _ in range(_COMMENT_LEVELS):
        if node is None:
            return None
        if node.type in ("line_comment", "block_comment"):
            return node
        node = node.parent
    return None


def statement_of(node: Node) -> Node:
    """The innermost named node holding ``node`` whose parent is a statement container."""
    current = node
    while True:
        parent = current.parent
        if parent is None:
            return current
        if current.is_named and parent.type in _CONTAINERS and current.type not in _SKIPPED:
            return current
        current = parent


# A search for the statement after an allow ends at a statement (its lines) or, when none
# follows, at the end of the file or at the bracket closing the enclosing block: the lines
# covered then depend on where the allow is.
_SearchEnd = Literal["end-of-file", "end-of-block"]
# Where searches ended, by each position they passed (see next_statement).
StatementSearch: TypeAlias = dict[int, tuple[int, int] | _SearchEnd]


def next_statement(
    source: SourceFile, root: Node, after: int, searched: StatementSearch | None = None
) -> tuple[int, int]:
    """The lines of the first statement-like node after byte ``after``, skipping comments and
    attributes; (n, n - 1), covering nothing, when the block or file ends first.

    ``searched`` remembers, for every position a search passed, where it ended: stacked allows
    all skip the same comments, and with it each comment is skipped once, not once per allow.
    """
    found = _search_statement(source, root, after, {} if searched is None else searched)
    if found == "end-of-file":
        line = source.line_of(max(after - 1, 0)) + 1
        return line + 1, line
    if found == "end-of-block":
        line = source.line_of(after) + 1
        return line + 1, line  # the end of the enclosing block: nothing follows
    return found


def _search_statement(
    source: SourceFile, root: Node, after: int, searched: StatementSearch
) -> tuple[int, int] | _SearchEnd:
    """The lines of the statement ``next_statement`` looks for, or where the search ended
    without one."""
    data = source.data
    position = after
    size = len(data)
    passed: list[int] = []
    found: tuple[int, int] | _SearchEnd
    # The children of the container the last skipped node is in, and that node's index: a
    # comment or attribute that follows is then the next child, found in O(1). Finding it
    # from its byte offset (``descendant_for_byte_range``, then ``parent``) costs O(index) in
    # tree-sitter, and 20,000 stacked allows made the search quadratic. Anything else is
    # looked up as before (the climb from its first token decides what it is).
    siblings: list[Node] = []
    index = -1
    while True:
        while position < size and data[position] in WHITESPACE:
            position += 1
        known = searched.get(position)
        if known is not None:
            found = known
            break
        if position >= size:
            found = "end-of-file"
            break
        passed.append(position)
        following = siblings[index + 1] if index + 1 < len(siblings) else None
        if (
            following is not None
            and following.start_byte == position
            and following.type in _SKIPPED
        ):
            index += 1
            node = siblings[index]
        else:
            leaf = root.descendant_for_byte_range(position, position + 1)
            if leaf is None:
                line = source.line_of(position) + 1
                found = (line, line)
                break
            node, container = _largest_starting_at(leaf)
            siblings, index = [], -1
            if node.type in _SKIPPED and container is not None:
                siblings = container.children
                index = next(i for i, child in enumerate(siblings) if child == node)
        if node.type in _SKIPPED:
            position = max(node.end_byte, position + 1)
            continue
        if not node.is_named and node.type in ("}", ")", "]"):
            found = "end-of-block"
            break
        found = (node.start_point[0] + 1, node.end_point[0] + 1)
        break
    for passed_at in passed:
        searched[passed_at] = found
    return found


def _largest_starting_at(leaf: Node) -> tuple[Node, Node | None]:
    """The statement (or argument, arm, item) that begins with ``leaf``: climb while the parent
    starts at the same byte, and stop at a statement container. With it, the container it
    was found in (None: it was not)."""
    current = leaf
    while True:
        parent = current.parent
        if parent is None:
            return current, None
        if parent.type in _CONTAINERS:
            return current, parent
        if parent.start_byte != current.start_byte:
            return current, None
        current = parent
