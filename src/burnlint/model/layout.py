"""``ModuleLayout``: how a target's burn modules lay out repeated layers (best effort).

The seed's table (burn-store pitfalls) depends on it: a ``Vec<Linear>``-like field gets the
paths ``net.0, net.1`` (PyTorch's ``nn.Sequential`` with activations has ``net.0, net.2``), while a
"mirror" ``Vec<Layer>`` of a module enum keeps PyTorch's indices but adds the variant name.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from burnlint.syntax import nodes_of_type, text

if TYPE_CHECKING:
    from tree_sitter import Node


class LayoutKind(enum.Enum):
    LINEAR_LIKE = "Vec<Linear>-like"
    MIRROR = "mirror Vec<Enum>"
    UNKNOWN = "unknown"


@dataclass
class LayoutFacts:
    """What one file declares; merged per target."""

    module_enums: set[str] = field(default_factory=set)
    module_structs: set[str] = field(default_factory=set)
    vec_element_types: set[str] = field(default_factory=set)  # `T` of `Vec<T>` module fields

    def merge(self, other: LayoutFacts) -> LayoutFacts:
        return LayoutFacts(
            self.module_enums | other.module_enums,
            self.module_structs | other.module_structs,
            self.vec_element_types | other.vec_element_types,
        )

    @property
    def kind(self) -> LayoutKind:
        if not self.vec_element_types:
            return LayoutKind.UNKNOWN
        mirror = {t for t in self.vec_element_types if t in self.module_enums}
        linear = self.vec_element_types - self.module_enums
        if mirror and not linear:
            return LayoutKind.MIRROR
        if linear and not mirror:
            return LayoutKind.LINEAR_LIKE
        return LayoutKind.UNKNOWN  # both layouts in one target: no single right value

    @property
    def has_module_enums(self) -> bool:
        return bool(self.module_enums)

    @property
    def known(self) -> bool:
        """Whether the target declares any burn module at all (else burnlint cannot tell)."""
        return bool(self.module_enums or self.module_structs)


def _derives_module(item: Node) -> bool:
    sibling = item.prev_named_sibling
    while sibling is not None and sibling.type in (
        "attribute_item",
        "line_comment",
        "block_comment",
    ):
        if sibling.type == "attribute_item":
            body = text(sibling)
            if "derive" in body and "Module" in body:
                return True
        sibling = sibling.prev_named_sibling
    return False


def _vec_element(type_node: Node) -> str | None:
    """``Vec<Linear<B>>`` -> "Linear"."""
    if type_node.type != "generic_type":
        return None
    base = type_node.child_by_field_name("type")
    if base is None or text(base).split("::")[-1] != "Vec":
        return None
    arguments = type_node.child_by_field_name("type_arguments")
    if arguments is None or not arguments.named_children:
        return None
    element = arguments.named_children[0]
    if element.type == "generic_type":
        element = element.child_by_field_name("type") or element
    name = text(element).split("::")[-1]
    return name or None


def collect_layout(root: Node) -> LayoutFacts:
    facts = LayoutFacts()
    for node in nodes_of_type(root, "struct_item", "enum_item"):
        if not _derives_module(node):
            continue
        name = text(node.child_by_field_name("name"))
        if node.type == "enum_item":
            facts.module_enums.add(name)
            continue
        facts.module_structs.add(name)
        body = node.child_by_field_name("body")
        if body is None:
            continue
        for declaration in body.named_children:
            if declaration.type != "field_declaration":
                continue
            type_node = declaration.child_by_field_name("type")
            element = _vec_element(type_node) if type_node is not None else None
            if element is not None:
                facts.vec_element_types.add(element)
    return facts
