"""Macro token trees re-parsed as code, at their own byte offsets.

tree-sitter reads the arguments of a macro call and the transcriber of a ``macro_rules!`` rule
as token trees. Here such a tree is parsed again on its own: the bytes of the file outside it
become spaces, and a short wrapper before it makes the tokens a call's arguments
(``__(ARGS)``) or a function's body (``fn __macro_body() { BODY }``). Every node of the new
tree then has the byte offsets of the tokens it was read from, so spans, lines and columns are
those of the file.

In a transcriber, a metavariable (``$path``) becomes a placeholder identifier of the same
length (``_____``), ``$crate`` becomes ``crate``, and a repetition (``$( .. ),*``) keeps one
instance of its tokens.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from burnlint.rust.syntax import BODY_FUNCTION, parse, walk

if TYPE_CHECKING:
    from tree_sitter import Node, Tree

_CALL_PREFIX = b"fn __(){__"
_BODY_PREFIX = b"fn " + BODY_FUNCTION + b"()"
_OPENERS = frozenset(b"([{")
_BLANK = bytes(byte if byte == ord("\n") else ord(" ") for byte in range(256))


@dataclass(frozen=True)
class Reparsed:
    """A token tree read as code. ``tree`` owns the nodes; ``nodes`` are the arguments of a
    macro call, or the one function item a transcriber is read as; ``placeholders`` are the
    start bytes of the identifiers that stand for metavariables."""

    tree: Tree
    nodes: tuple[Node, ...]
    placeholders: frozenset[int] = frozenset()


def _token_tree(node: Node, field: str | None = None) -> Node | None:
    if field is not None:
        found = node.child_by_field_name(field)
        return found if found is not None and found.type == "token_tree" else None
    return next((c for c in node.children if c.type == "token_tree"), None)


def _buffer(data: bytes, start: int, end: int, prefix: bytes) -> bytearray | None:
    """``data`` up to ``end`` with every byte before ``start`` blanked but the line breaks
    (lines and columns stay those of the file), and ``prefix`` written into the first blank
    run long enough to hold it."""
    if end - start < 2 or data[start] not in _OPENERS:
        return None
    buffer = bytearray(data[:start].translate(_BLANK))
    room = buffer.find(b" " * len(prefix))
    if room < 0:
        return None
    buffer[room : room + len(prefix)] = prefix
    buffer += data[start:end]
    return buffer


def reparse_arguments(data: bytes, invocation: Node) -> Reparsed | None:
    """The arguments of ``invocation`` (a ``macro_invocation`` in the tree of ``data``) read as
    the comma-separated expressions of a call; None when they do not all parse as such."""
    tokens = _token_tree(invocation)
    if tokens is None:
        return None
    buffer = _buffer(data, tokens.start_byte, tokens.end_byte, _CALL_PREFIX)
    if buffer is None:
        return None
    buffer[tokens.start_byte] = ord("(")
    buffer[tokens.end_byte - 1] = ord(")")
    buffer += b";}"
    tree = parse(bytes(buffer))
    if tree.root_node.has_error:
        return None
    call = _first(tree.root_node, "call_expression", tokens.start_byte)
    arguments = call.child_by_field_name("arguments") if call is not None else None
    if arguments is None or arguments.start_byte != tokens.start_byte:
        return None
    nodes = tuple(
        c for c in arguments.named_children if c.type not in ("line_comment", "block_comment")
    )
    return Reparsed(tree, nodes)


def reparse_transcriber(data: bytes, rule: Node) -> Reparsed | None:
    """The transcriber of ``rule`` (a ``macro_rule``) read as the body of a function, its
    metavariables as placeholders and each repetition once; None when it does not parse as
    statements and items."""
    tokens = _token_tree(rule, "right")
    if tokens is None:
        return None
    start, end = tokens.start_byte, tokens.end_byte
    buffer = _buffer(data, start, end, _BODY_PREFIX)
    if buffer is None:
        return None
    buffer[start] = ord("{")
    buffer[end - 1] = ord("}")
    placeholders: set[int] = set()
    for node in walk(tokens):
        if node.type == "metavariable":
            name = node.text or b""
            if name == b"$crate":
                buffer[node.start_byte] = ord(" ")
            else:
                buffer[node.start_byte : node.end_byte] = b"_" * len(name)
                placeholders.add(node.start_byte)
        elif node.type == "token_repetition":
            _blank_repetition(buffer, node)
    tree = parse(bytes(buffer))
    if tree.root_node.has_error:
        return None
    function = _first(tree.root_node, "function_item", len(buffer))
    if function is None:
        return None
    return Reparsed(tree, (function,), frozenset(placeholders))


def _blank_repetition(buffer: bytearray, repetition: Node) -> None:
    """``$( tokens ) sep op`` -> ``   tokens        ``: one instance of the tokens."""
    children = repetition.children
    opening = next((c for c in children if c.type == "("), None)
    closing = next((c for c in reversed(children) if c.type == ")"), None)
    if opening is None or closing is None:
        return
    for index in range(repetition.start_byte, opening.end_byte):
        buffer[index] = ord(" ")
    for index in range(closing.start_byte, repetition.end_byte):
        buffer[index] = ord(" ")


def _first(root: Node, kind: str, before: int) -> Node | None:
    """The first node of type ``kind`` that starts before byte ``before``."""
    for node in walk(root):
        if node.type == kind and node.start_byte <= before:
            return node
    return None
