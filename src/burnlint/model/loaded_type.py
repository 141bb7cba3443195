"""The module type a load fills, where the code names it: ``let mut model = Mlp::new(..)``,
a typed binding or parameter (BL005/BL006 then read that type's layout, not the target's)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from burnlint.model.limits import MAX_LOADED_TYPE_DEPTH
from burnlint.model.reads import SyntaxReads
from burnlint.rust.syntax import arguments_of, path_segments, strip_reference, text

if TYPE_CHECKING:
    from tree_sitter import Node

    from burnlint.model.calls import CallResolver
    from burnlint.model.ops import StoreOp

_CONSTRUCTOR_PREFIXES = ("new", "init", "default")


class LoadedTypeReads(SyntaxReads, Protocol):
    """What finding the loaded type reads of the file: its tree, and the types of values
    (``resolver``)."""

    @property
    def resolver(self) -> CallResolver: ...


def loaded_type(op: StoreOp, model: LoadedTypeReads) -> str | None:
    """The name of the module type ``op`` loads into, when the code states it."""
    if op.summary is not None:
        return None
    if op.method == "apply_to":
        arguments = arguments_of(op.node)
        target = arguments[0] if arguments else None
    else:
        target = op.receiver
    return _type_name(target, model, 0) if target is not None else None


def _type_name(node: Node, model: LoadedTypeReads, depth: int) -> str | None:
    node = strip_reference(node)
    resolved = model.resolver.type_of(node)
    if resolved is not None:
        return resolved
    if node.type == "identifier":
        binding = model.resolution.binding_of(node)
        if binding is None or binding.kind not in ("param", "let"):
            return None
        written = (
            binding.declaration.child_by_field_name("type")
            if binding.declaration is not None
            else None
        )
        if written is not None:
            return _written_name(written, model)
        if binding.kind == "let" and binding.value is not None and depth < MAX_LOADED_TYPE_DEPTH:
            return _type_name(binding.value, model, depth + 1)
        return None
    if node.type == "struct_expression":
        name = node.child_by_field_name("name")
        return _written_name(name, model) if name is not None else None
    if node.type == "call_expression":
        function = node.child_by_field_name("function")
        if function is None or function.type != "scoped_identifier":
            return None
        segments = path_segments(function)
        if (
            len(segments) >= 2
            and segments[-2][:1].isupper()
            and segments[-2] != "Self"
            and segments[-1].startswith(_CONSTRUCTOR_PREFIXES)
        ):
            return segments[-2]
    return None


def _written_name(written: Node, model: LoadedTypeReads) -> str | None:
    """``&mut Mlp<B>`` -> "Mlp"; None for a generic parameter, `Self`, `impl`/`dyn` types."""
    current: Node | None = written
    while current is not None and current.type in ("reference_type", "generic_type"):
        current = current.child_by_field_name("type")
    if current is None or current.type not in (
        "type_identifier",
        "scoped_type_identifier",
        "identifier",
        "scoped_identifier",
    ):
        return None
    name = text(current).split("::")[-1].strip()
    if not name or name == "Self" or name in _generic_parameters_around(written, model):
        return None
    return name


def _generic_parameters_around(node: Node, model: LoadedTypeReads) -> set[str]:
    names: set[str] = set()
    current = model.ancestry.parent(node)
    while current is not None:
        if current.type in ("function_item", "impl_item", "struct_item", "trait_item"):
            parameters = current.child_by_field_name("type_parameters")
            for child in parameters.named_children if parameters is not None else []:
                name = (
                    child
                    if child.type == "type_identifier"
                    else child.child_by_field_name("name")
                    or next((c for c in child.named_children if c.type == "type_identifier"), None)
                )
                if name is not None:
                    names.add(text(name))
        current = model.ancestry.parent(current)
    return names
