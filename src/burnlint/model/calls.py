"""Which crate-local function a call calls: by path, or by the receiver's type, or none.

``CallResolver`` turns a call node into the path or the receiver type ``CrateView`` resolves
(``resolve.py``). A receiver's type is known only where the code states it: ``self`` in an
``impl``, a typed parameter or ``let``, a field of a known struct, a struct literal, a unit
struct, or a call of a crate function whose declared return type names a crate type
(``Net::new(..)``, ``load_net(..)?``). Generic, ``dyn`` and ``impl Trait`` receivers, closures
and anything inferred stay unknown, and so the call stays unresolved.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from burnlint.model.items import Module, UseDecl
from burnlint.model.limits import MAX_TYPE_DEPTH
from burnlint.model.reads import SyntaxReads
from burnlint.model.resolve import FnKey
from burnlint.rust.syntax import (
    call_path,
    method_call_parts,
    path_segments,
    strip_reference,
    text,
    unmut,
)

if TYPE_CHECKING:
    from tree_sitter import Node

    from burnlint.model.items import FileItems
    from burnlint.model.resolve import CrateView
    from burnlint.rust.source import SourceFile

_UNWRAP_METHODS = frozenset({"unwrap", "expect"})
# Items a block can declare that the index finds (``syntax.INDEXED_TYPES``): declared in a
# function's body, their name hides the module's item of that name in that block.
_BLOCK_ITEMS = ("function_item", "struct_item", "enum_item", "type_item", "union_item")


class CallReads(SyntaxReads, Protocol):
    """What resolving a call reads of the file: its tree, its items and module path, and what
    the target's items are (``view``)."""

    @property
    def source(self) -> SourceFile: ...
    @property
    def module(self) -> Module: ...
    @property
    def items(self) -> FileItems: ...
    @property
    def view(self) -> CrateView: ...


class CallResolver:
    def __init__(self, model: CallReads) -> None:
        self.model = model
        self._modules: dict[int, Module] = {}  # by the node id of an inline `mod` body
        self._types: dict[int, str | None] = {}
        self._visiting: set[int] = set()
        self._block_names: dict[int, frozenset[str]] = {}  # by the node id of a block
        self._block_items: frozenset[str] | None = None  # every name a block declares

    # calls -------------------------------------------------------------------------------------
    def resolve(self, call: Node) -> FnKey | None:
        function = call.child_by_field_name("function")
        if function is None:
            return None
        view = self.model.view
        if function.type == "generic_function":  # `f::<B>(..)`, `x.f::<B>(..)`
            function = function.child_by_field_name("function") or function
        if function.type == "field_expression":
            receiver = function.child_by_field_name("value")
            owner = self.type_of(receiver) if receiver is not None else None
            name = text(function.child_by_field_name("field"))
            return view.method(owner, name) if owner else None
        if function.type not in ("identifier", "scoped_identifier"):
            return None  # a closure in parentheses, a field holding a function, ...
        path = call_path(call)
        if not path:
            return None
        if len(path) == 1 and self.model.resolution.binding_of(function) is not None:
            return None  # a local binding (a closure) named like a function
        if self._declared_in_block(call, path[0]):
            return None  # a function (or type) of the function's own, not the module's
        if len(path) == 2 and path[0] == "Self":
            owner = self._impl_owner(call)
            return view.method(owner, path[1]) if owner else None
        return view.resolve_call(self.module_at(call), path, self._local_uses(call))

    def module_at(self, node: Node) -> Module:
        """The module ``node`` is in: the file's, and the inline ``mod`` blocks around it."""
        names: list[str] = []
        ancestry = self.model.ancestry
        current = ancestry.parent(node)
        while current is not None:
            if current.type == "mod_item":
                names.append(text(current.child_by_field_name("name")))
            current = ancestry.parent(current)
        return (*self.model.module, *reversed(names))

    def _local_uses(self, node: Node) -> list[UseDecl]:
        """The ``use``s of the blocks around ``node``, innermost first (it hides the others)."""
        at = node.start_byte
        found = [
            use
            for use in self.model.items.uses
            if use.scope is not None and use.scope[0] <= at < use.scope[1]
        ]
        return sorted(found, key=lambda u: u.scope[1] - u.scope[0] if u.scope else 0)

    def _declared_in_block(self, node: Node, name: str) -> bool:
        """Whether a block around ``node`` declares an item called ``name``."""
        if name not in self._block_item_names():
            return False
        ancestry = self.model.ancestry
        current = ancestry.parent(node)
        while current is not None:
            if current.type == "block":
                names = self._block_names.get(current.id)
                if names is None:
                    names = self._block_names[current.id] = frozenset(
                        text(c.child_by_field_name("name"))
                        for c in current.named_children
                        if c.type in _BLOCK_ITEMS
                    )
                if name in names:
                    return True
            current = ancestry.parent(current)
        return False

    def _block_item_names(self) -> frozenset[str]:
        """The names of the items declared in blocks anywhere in the file."""
        if self._block_items is None:
            ancestry = self.model.ancestry
            self._block_items = frozenset(
                text(item.child_by_field_name("name"))
                for item in self.model.source.nodes_of_type(*_BLOCK_ITEMS)
                if (parent := ancestry.parent(item)) is not None and parent.type == "block"
            )
        return self._block_items

    def _impl_owner(self, node: Node) -> str:
        from burnlint.model.items import type_name

        current = self.model.ancestry.parent(node)
        while current is not None:
            if current.type == "impl_item":
                parent = self.model.ancestry.parent(current)
                if parent is not None and parent.type == "block":
                    return ""  # an impl inside a function: its methods are not collected
                return type_name(current.child_by_field_name("type"))
            if current.type in ("mod_item", "trait_item"):
                return ""
            current = self.model.ancestry.parent(current)
        return ""

    # types -------------------------------------------------------------------------------------
    def type_of(self, node: Node) -> str | None:
        """The crate type (its name) the value of ``node`` has, when the code states it."""
        node = strip_reference(node)
        key = node.id
        if key in self._types:
            return self._types[key]
        if key in self._visiting or len(self._visiting) >= MAX_TYPE_DEPTH:
            return None
        self._visiting.add(key)
        try:
            found = self._type_of(node)
        finally:
            self._visiting.discard(key)
        self._types[key] = found
        return found

    def _type_of(self, node: Node) -> str | None:
        model = self.model
        view = model.view
        kind = node.type
        if kind == "parenthesized_expression" and node.named_children:
            return self.type_of(node.named_children[0])
        if kind == "self":
            owner = self._impl_owner(node)
            return owner if owner and view.local_type(owner) else None
        if kind == "identifier":
            binding = model.resolution.binding_of(node)
            if binding is None:
                # a unit struct used as a value: `Trainer.fit(..)`
                name = text(node)
                return self._named_type(node, [name]) if name[:1].isupper() else None
            if binding.kind == "self":
                owner = self._impl_owner(node)
                return owner if owner and view.local_type(owner) else None
            declaration = binding.declaration
            if binding.kind in ("param", "let") and declaration is not None:
                written = declaration.child_by_field_name("type")
                if written is not None:
                    # `(a, b): (A, B)`, `S { x, .. }: S`: the type is not the binding's
                    pattern = declaration.child_by_field_name("pattern")
                    if pattern is not None:
                        pattern = unmut(pattern)
                    if pattern is None or pattern.id != binding.node.id:
                        return None
                    return self._written_type(node, written)
            if binding.kind == "let" and binding.value is not None:
                return self.type_of(binding.value)
            return None
        if kind == "field_expression":
            value = node.child_by_field_name("value")
            field = text(node.child_by_field_name("field"))
            holder = self.type_of(value) if value is not None else None
            field_type = view.field_type(holder, field) if holder else ""
            return field_type if field_type and view.local_type(field_type) else None
        if kind == "struct_expression":
            name_node = node.child_by_field_name("name")
            if name_node is None:
                return None
            if text(name_node) == "Self":
                owner = self._impl_owner(node)
                return owner if owner and view.local_type(owner) else None
            return self._written_type(node, name_node)
        if kind == "call_expression":
            parts = method_call_parts(node)
            if parts is not None and parts[1] in _UNWRAP_METHODS:
                return self._returned(parts[0], unwrapped=True)
            return self._returned(node, unwrapped=False)
        if kind == "try_expression" and node.named_children:
            return self._returned(node.named_children[0], unwrapped=True)
        return None

    def _returned(self, call: Node, *, unwrapped: bool) -> str | None:
        """The crate type a call of a crate function gives (after `?`/`unwrap` if
        ``unwrapped``), from the function's declared return type."""
        if call.type != "call_expression":
            return None
        key = self.resolve(call)
        view = self.model.view
        definition = view.definition(key) if key is not None else None
        if key is None or definition is None or not definition.returns_path:
            return None
        if definition.returns_wrapped != unwrapped:
            return None
        if definition.returns_path == ("Self",):
            return key.owner if key.owner and view.local_type(key.owner) else None
        # the type as the function's signature names it, where the function is
        return view.type_at(key.target, key.module, list(definition.returns_path))

    def _written_type(self, at: Node, written: Node) -> str | None:
        current: Node | None = written
        while current is not None and current.type in ("reference_type", "generic_type"):
            current = current.child_by_field_name("type")
        if current is None:
            return None
        if current.type in ("type_identifier", "identifier"):
            name = text(current)
            if name == "Self":
                owner = self._impl_owner(at)
                return owner if owner and self.model.view.local_type(owner) else None
            return self._named_type(at, [name])
        if current.type in ("scoped_type_identifier", "scoped_identifier"):
            return self._named_type(at, path_segments(current))
        return None

    def _named_type(self, at: Node, path: list[str]) -> str | None:
        if not path or self._declared_in_block(at, path[0]):
            return None  # a type of the function's own
        return self.model.view.resolve_type(self.module_at(at), path, self._local_uses(at))
