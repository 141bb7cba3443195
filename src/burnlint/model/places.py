"""Where a node stands: the function around it, the `let` binding it initialises."""

from __future__ import annotations

from typing import TYPE_CHECKING

from burnlint.rust.syntax import field_of, unmut

if TYPE_CHECKING:
    from tree_sitter import Node

    from burnlint.model.reads import SyntaxReads
    from burnlint.model.scopes import Binding
    from burnlint.rust.syntax import Ancestry


def fn_item_around(node: Node, ancestry: Ancestry) -> Node | None:
    """The `fn` item around ``node``, if any, closures looked through (unlike
    ``summaries.enclosing_function``, which stops at a closure: a closure's `?` is not its
    function's)."""
    current = ancestry.parent(node)
    while current is not None:
        if current.type == "function_item":
            return current
        current = ancestry.parent(current)
    return None


def let_bound(value: Node, model: SyntaxReads) -> Binding | None:
    """The binding ``let x = value;`` (or ``let mut x``) gives ``value``, if it is one."""
    ancestry = model.ancestry
    parent = ancestry.parent(value)
    if parent is None or parent.type != "let_declaration" or field_of(value, ancestry) != "value":
        return None
    pattern = parent.child_by_field_name("pattern")
    if pattern is not None:
        pattern = unmut(pattern)
    if pattern is None or pattern.type != "identifier":
        return None
    binding: Binding | None = model.resolution.binding_of(pattern)
    return binding


def in_repaired_code(node: Node, ancestry: Ancestry) -> bool:
    """``node`` has a syntax error in it, or stands inside code the parser could not read
    (an ``ERROR`` node): an edit there may land elsewhere than meant, or not parse."""
    if node.has_error:
        return True
    current = ancestry.parent(node)
    while current is not None:
        if current.type == "ERROR":
            return True
        current = ancestry.parent(current)
    return False
