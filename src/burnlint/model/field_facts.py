"""The facts of one file that the values of struct fields are judged by (plain data, kept
with the file's items): each struct's derives, its literals, the fields assigned or borrowed
mutably, the `with_<field>` functions and the `impl Default`s. ``field_values.field_literal``
joins them over the crate."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from burnlint.rust.syntax import (
    FindNodes,
    call_path,
    nodes_of_type,
    path_segments,
    strip_reference,
    text,
)

if TYPE_CHECKING:
    from tree_sitter import Node


# derives that neither build a value from outside data nor add ways to change a field
SAFE_DERIVES = frozenset(
    {"Debug", "Clone", "Copy", "Default", "PartialEq", "Eq", "Hash", "PartialOrd", "Ord"}
)
UNKNOWN = "?"
_DERIVE = re.compile(r"\bderive\s*\(([^)]*)\)")
_BEFORE_ITEM = frozenset({"attribute_item", "line_comment", "block_comment"})


@dataclass(frozen=True)
class FieldFacts:
    """What one file does with struct fields.

    ``literals``: (type, field, "true" | "false" | "?") for each field a struct literal sets;
    ``bases``: (type, "default" | "?", the fields set) for each literal with ``..base``;
    ``assigned``: the names of fields assigned (``x.f = ..``, ``x.f |= ..``) or borrowed
    ``&mut``; ``default_impls``: (type, whether its ``default`` builds the struct literally)
    for each hand-written ``impl Default``.
    """

    literals: tuple[tuple[str, str, str], ...] = ()
    bases: tuple[tuple[str, str, tuple[str, ...]], ...] = ()
    assigned: frozenset[str] = frozenset()
    default_impls: tuple[tuple[str, bool], ...] = ()


def derives_of(item: Node) -> tuple[str, ...]:
    """The last names of what the attributes before ``item`` derive."""
    found: list[str] = []
    sibling = item.prev_named_sibling
    while sibling is not None and sibling.type in _BEFORE_ITEM:
        if sibling.type == "attribute_item":
            for group in _DERIVE.findall(text(sibling)):
                found.extend(
                    name.strip().split("::")[-1] for name in group.split(",") if name.strip()
                )
        sibling = sibling.prev_named_sibling
    return tuple(sorted(set(found)))


def collect_field_facts(root: Node, *, find: FindNodes | None = None) -> FieldFacts:
    """The field facts of ``root``'s tree; ``find`` as ``items.collect_items`` takes it."""
    # one lookup for every type asked about: a query's cost is its walk over the tree
    kinds = ("struct_expression", "assignment_expression", "compound_assignment_expr")
    types = ("impl_item", "reference_expression", *kinds)
    nodes = find(*types) if find is not None else nodes_of_type(root, *types)
    impls: list[tuple[int, int, str, str]] = []  # start, end, self type, trait
    for impl in (n for n in nodes if n.type == "impl_item"):
        self_type = _last_name(impl.child_by_field_name("type"))
        trait = _last_name(impl.child_by_field_name("trait"))
        impls.append((impl.start_byte, impl.end_byte, self_type, trait))
    literals: list[tuple[str, str, str]] = []
    bases: list[tuple[str, str, tuple[str, ...]]] = []
    assigned: set[str] = set()
    built: dict[int, set[str]] = {}  # impl start -> the types its struct literals build
    for node in nodes:
        if node.type == "impl_item":
            continue
        if node.type == "struct_expression":
            owner = _innermost_impl(node, impls)
            name = _last_name(node.child_by_field_name("name"))
            if name == "Self" and owner is not None:
                name = owner[2]
            if owner is not None:
                built.setdefault(owner[0], set()).add(name)
            _literal(node, name, literals, bases)
            continue
        target = node.child_by_field_name("left") if node.type in kinds else None
        if node.type == "reference_expression":
            if not any(c.type == "mutable_specifier" for c in node.children):
                continue
            target = node.child_by_field_name("value")
        target = strip_reference(target) if target is not None else None
        if target is not None and target.type == "field_expression":
            assigned.add(text(target.child_by_field_name("field")))
    default_impls = tuple(
        (self_type, self_type in built.get(start, set()))
        for start, _end, self_type, trait in impls
        if trait == "Default" and self_type
    )
    return FieldFacts(tuple(literals), tuple(bases), frozenset(assigned), default_impls)


def _last_name(node: Node | None) -> str:
    if node is None:
        return ""
    if node.type == "generic_type":
        node = node.child_by_field_name("type") or node
    segments = path_segments(node)
    return segments[-1] if segments else ""


def _innermost_impl(
    node: Node, impls: list[tuple[int, int, str, str]]
) -> tuple[int, int, str, str] | None:
    around = [i for i in impls if i[0] <= node.start_byte and node.end_byte <= i[1]]
    return max(around, key=lambda i: i[0]) if around else None


def _literal(
    node: Node,
    name: str,
    literals: list[tuple[str, str, str]],
    bases: list[tuple[str, str, tuple[str, ...]]],
) -> None:
    body = node.child_by_field_name("body")
    if not name or body is None:
        return
    set_fields: list[str] = []
    base: str | None = None
    for child in body.named_children:
        if child.type == "field_initializer":
            field = text(child.child_by_field_name("field"))
            value = child.child_by_field_name("value")
            literal = (
                text(value) if value is not None and value.type == "boolean_literal" else UNKNOWN
            )
            literals.append((name, field, literal))
            set_fields.append(field)
        elif child.type == "shorthand_field_initializer":
            literals.append((name, text(child), UNKNOWN))
            set_fields.append(text(child))
        elif child.type == "base_field_initializer":
            expression = child.named_children[0] if child.named_children else None
            base = "default" if expression is not None and _is_default_call(expression) else UNKNOWN
    if base is not None:
        bases.append((name, base, tuple(set_fields)))


def _is_default_call(node: Node) -> bool:
    """``Default::default()``, ``T::default()``, ``Self::default()``: the base of a struct
    literal of ``T`` can only be ``T``'s own `Default`."""
    if node.type != "call_expression":
        return False
    arguments = node.child_by_field_name("arguments")
    path = call_path(node)
    return (
        len(path) >= 2
        and path[-1] == "default"
        and (arguments is None or arguments.named_child_count == 0)
    )
