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

from typing import TYPE_CHECKING, Protocol

from burnlint.model.field_facts import SAFE_DERIVES, UNKNOWN
from burnlint.rust.syntax import strip_reference, text

if TYPE_CHECKING:
    from tree_sitter import Node

    from burnlint.model.calls import CallResolver
    from burnlint.model.resolve import CrateView


class FieldReads(Protocol):
    """What reading a struct field's literal reads of the file: the type of an expression
    (``resolver``) and the items of the crate (``view``)."""

    @property
    def resolver(self) -> CallResolver: ...
    @property
    def view(self) -> CrateView: ...


def field_literal(model: FieldReads, node: Node) -> bool | None:
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
