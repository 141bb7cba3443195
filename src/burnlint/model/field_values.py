"""Store options set from a field of a crate struct (``.allow_partial(cfg.partial)``).

Such an option takes the `bool` literal that the struct is built with, but only when nothing
else can give the field another value (issue: "values the peers cannot follow"):

- the struct derives nothing that builds it from outside data or generates setters: only
  ``SAFE_DERIVES`` (no burn ``Config``, serde ``Deserialize``, clap ``Parser``/``Args``, ..);
- the field is never assigned nor borrowed mutably anywhere in the crate (any field of that
  name), and no function named ``with_<field>`` exists;
- every struct literal of the type in the crate sets the same literal, a functional update
  (``..Default::default()``) counting as the value its `Default` gives: `false` for a derived
  one, the literal of a hand-written `impl Default` that builds the struct itself.

Otherwise the option is unknown. The facts of each file are plain data (``FieldFacts``, kept
with the file's items), joined over the files of the crate view when an option asks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from burnlint.rust.syntax import call_path, nodes_of_type, path_segments, strip_reference, text

if TYPE_CHECKING:
    from tree_sitter import Node

    from burnlint.model.file_model import FileModel

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


def collect_field_facts(root: Node) -> FieldFacts:
    # one query for every type asked about: a query's cost is its walk over the tree
    kinds = ("struct_expression", "assignment_expression", "compound_assignment_expr")
    nodes = nodes_of_type(root, "impl_item", "reference_expression", *kinds)
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


def field_literal(model: FileModel, node: Node) -> bool | None:
    """The `bool` literal the field read by ``node`` (``cfg.partial``) holds in every value of
    its struct, under the conditions of the module docstring; None when not certain."""
    node = strip_reference(node)
    if node.type != "field_expression":
        return None
    holder_node = node.child_by_field_name("value")
    field = text(node.child_by_field_name("field"))
    holder = model.resolver.type_of(holder_node) if holder_node is not None else None
    view = model.view
    if not holder or not field or not view.local_type(holder):
        return None
    files = [items for group in view.items.values() for items in group]
    definitions = [t for items in files for t in items.types if t.name == holder]
    if len(definitions) != 1:
        return None
    definition = definitions[0]
    if (
        dict(definition.fields).get(field) != ("bool",)
        or not set(definition.derives) <= SAFE_DERIVES
    ):
        return None
    setter = f"with_{field}"
    if any(function.name == setter for items in files for function in items.functions):
        return None
    values: set[str] = set()
    hand_written: list[bool] = []
    default_used = False  # by a functional update
    for items in files:
        facts = items.field_facts
        if field in facts.assigned:
            return None
        values.update(v for t, f, v in facts.literals if t == holder and f == field)
        for t, base, set_fields in facts.bases:
            if t == holder and field not in set_fields:
                if base != "default":
                    return None
                default_used = True
        hand_written.extend(literal for t, literal in facts.default_impls if t == holder)
    if "Default" in definition.derives:
        values.add("false")  # `T::default()` anywhere: `bool::default()`
    elif (hand_written or default_used) and not (hand_written and all(hand_written)):
        return None  # a `Default` whose value is not read from a literal here
    if len(values) != 1 or UNKNOWN in values:
        return None
    return values.pop() == "true"
