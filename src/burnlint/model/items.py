"""A file's items as plain data: the functions, types and ``use`` declarations of each module.

These are the facts that cross files (DESIGN.md section 2b): they hold no tree nodes, so they
can be joined per cargo target, compared between rounds and sent between processes. Calls are
resolved against them by path and type (``resolve.py``), never by a function's name alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING

from burnlint.model.field_facts import FieldFacts, collect_field_facts, derives_of
from burnlint.model.limits import MAX_TYPE_WRAPPERS
from burnlint.rust.syntax import FindNodes, nodes_of_type, path_segments, text, unmut

if TYPE_CHECKING:
    from tree_sitter import Node

Module = tuple[str, ...]  # a module's path inside its crate target: () is the target's root


@dataclass(frozen=True)
class FnDef:
    """A function a call can reach by path: free (``owner`` empty) or in an ``impl``."""

    module: Module
    owner: str  # the impl's self type (its last name, without generics), "" for a free fn
    name: str
    method: bool  # takes ``self``
    returns_self: bool  # returns ``Self``/the owner, bare or inside ``Result``/``Option``
    # the path of the type it returns as written (unwrapped from Result, ``("Self",)`` for
    # Self), resolved in ``module`` by whoever asks: a last name alone may be another crate's
    returns_path: tuple[str, ...]
    returns_wrapped: bool  # ... inside `Result`/`Option`: a caller has it after `?`/`unwrap`
    params: tuple[tuple[str, str], ...]  # (binding name, type's last name or "") per param
    start_byte: int  # where the item starts in its file (to find it again there)


@dataclass(frozen=True)
class UseDecl:
    """One name a ``use`` brings into a module: ``use a::b as c`` is (c, (a, b)); a glob has
    no name. ``scope`` is the byte range of the block it is declared in (inside a function's
    body), if any: the name is visible in that block only."""

    module: Module
    name: str  # "" for a glob
    path: tuple[str, ...]
    scope: tuple[int, int] | None = None


@dataclass(frozen=True)
class TypeDef:
    module: Module
    name: str
    # (field, its type's path as written, or ()), resolved in ``module`` by whoever asks
    fields: tuple[tuple[str, tuple[str, ...]], ...] = ()
    derives: tuple[str, ...] = ()  # the last names of what it derives


@dataclass
class FileItems:
    module: Module
    functions: list[FnDef] = field(default_factory=list)
    uses: list[UseDecl] = field(default_factory=list)
    types: list[TypeDef] = field(default_factory=list)
    modules: set[Module] = field(default_factory=set)  # inline `mod m { .. }` blocks
    field_facts: FieldFacts = field(default_factory=FieldFacts)  # ``field_values.py``


_TYPE_ITEMS = frozenset({"struct_item", "enum_item", "type_item", "union_item", "trait_item"})
# Wrappers whose inner type is the value a caller gets after `?`, `.unwrap()` or `.expect(..)`.
_UNWRAPPED = frozenset({"Result", "Option", "Box", "Arc", "Rc"})


def type_name(node: Node | None) -> str:
    """The last name of a type, through references and generics (``&mut a::Net<B>``: Net)."""
    current = node
    while current is not None:
        kind = current.type
        if kind in ("reference_type", "pointer_type") or kind == "generic_type":
            current = current.child_by_field_name("type")
        elif kind == "scoped_type_identifier":
            return text(current.child_by_field_name("name"))
        elif kind in ("type_identifier", "primitive_type"):
            return text(current)
        else:
            return ""
    return ""


def type_path(node: Node | None) -> tuple[str, ...]:
    """The path of a type as written, through references and generics (``&mut a::Net<B>``:
    (a, Net)); () for any other type (tuples, ``dyn``/``impl Trait``, arrays, ...)."""
    current = node
    while current is not None and current.type in ("reference_type", "pointer_type"):
        current = current.child_by_field_name("type")
    if current is None or current.type == "primitive_type":
        return (text(current),) if current is not None else ()
    return tuple(path_segments(current))


def returned_type(node: Node | None) -> tuple[tuple[str, ...], bool]:
    """The path of the type a caller holds after unwrapping ``Result``/``Option``
    (``anyhow::Result<a::Net<B>>`` gives (a, Net)), and whether it had to be unwrapped."""
    current = node
    wrapped = False
    for _ in range(MAX_TYPE_WRAPPERS):
        if current is None:
            return (), wrapped
        if current.type == "reference_type":
            current = current.child_by_field_name("type")
            continue
        name = type_name(current)
        if name in _UNWRAPPED and current.type == "generic_type":
            wrapped = wrapped or name in ("Result", "Option")
            arguments = current.child_by_field_name("type_arguments")
            current = (
                next((c for c in arguments.named_children if c.type != "lifetime"), None)
                if arguments is not None
                else None
            )
            continue
        return type_path(current), wrapped
    return (), wrapped


def collect_items(root: Node, module: Module = (), *, find: FindNodes | None = None) -> FileItems:
    """The items of a file whose module path is ``module``; ``find`` looks nodes up by type
    in ``root``'s tree (the file's index, ``SourceFile.nodes_of_type``), else a query does."""
    if find is None:
        find = partial(nodes_of_type, root)
    items = FileItems(module)
    bodies: list[tuple[int, int, Module]] = []  # the functions' bodies, for their `use`s
    stack: list[tuple[Node, Module, str]] = [(root, module, "")]
    while stack:
        container, current_module, owner = stack.pop()
        for child in container.named_children:
            kind = child.type
            if kind == "function_item":
                items.functions.append(_function(child, current_module, owner))
                body = child.child_by_field_name("body")
                if body is not None:
                    bodies.append((body.start_byte, body.end_byte, current_module))
            elif kind == "mod_item":
                body = child.child_by_field_name("body")
                if body is not None:
                    inner = (*current_module, text(child.child_by_field_name("name")))
                    items.modules.add(inner)
                    stack.append((body, inner, ""))
            elif kind == "impl_item":
                body = child.child_by_field_name("body")
                self_type = type_name(child.child_by_field_name("type"))
                if body is not None and self_type:
                    stack.append((body, current_module, self_type))
            elif kind == "use_declaration":
                items.uses.extend(_uses(child, current_module, None))
            elif kind in _TYPE_ITEMS:
                items.types.append(_type(child, current_module))
            elif kind == "declaration_list":
                stack.append((child, current_module, owner))
    if bodies:
        _local_uses(find, bodies, items)
    items.field_facts = collect_field_facts(root, find=find)
    return items


def _function(node: Node, module: Module, owner: str) -> FnDef:
    parameters = node.child_by_field_name("parameters")
    method = False
    params: list[tuple[str, str]] = []
    for parameter in parameters.named_children if parameters is not None else ():
        if is_self_parameter(parameter):  # `&self`, `mut self`, `self: Box<Self>`
            method = True
        elif parameter.type == "parameter":
            pattern = parameter.child_by_field_name("pattern")
            if pattern is not None:
                pattern = unmut(pattern)
            name = text(pattern) if pattern is not None and pattern.type == "identifier" else ""
            params.append((name, type_name(parameter.child_by_field_name("type"))))
    returns, wrapped = returned_type(node.child_by_field_name("return_type"))
    returns_self = returns == ("Self",) or (bool(owner) and returns == (owner,))
    return FnDef(
        module,
        owner,
        text(node.child_by_field_name("name")),
        method,
        returns_self,
        returns,
        wrapped,
        tuple(params),
        node.start_byte,
    )


def _type(node: Node, module: Module) -> TypeDef:
    fields: list[tuple[str, tuple[str, ...]]] = []
    body = node.child_by_field_name("body")
    if node.type == "struct_item" and body is not None:
        for declaration in body.named_children:
            if declaration.type == "field_declaration":
                fields.append(
                    (
                        text(declaration.child_by_field_name("name")),
                        type_path(declaration.child_by_field_name("type")),
                    )
                )
    return TypeDef(module, text(node.child_by_field_name("name")), tuple(fields), derives_of(node))


def is_self_parameter(parameter: Node) -> bool:
    """``self``, ``&mut self``, or ``self`` with its type written (``self: Box<Self>``)."""
    if parameter.type == "self_parameter":
        return True
    pattern = parameter.child_by_field_name("pattern") if parameter.type == "parameter" else None
    return pattern is not None and pattern.type == "self"


def _local_uses(find: FindNodes, bodies: list[tuple[int, int, Module]], items: FileItems) -> None:
    """``use`` declarations inside function bodies (any block of them: an ``if``'s, a
    closure's, a nested function's): each applies to the block it is declared in only."""
    for declaration in find("use_declaration"):
        block = declaration.parent
        if block is None or block.type != "block":
            continue
        at = declaration.start_byte
        module = next((m for start, end, m in bodies if start <= at < end), None)
        if module is not None:
            items.uses.extend(_uses(declaration, module, (block.start_byte, block.end_byte)))


def _uses(node: Node, module: Module, scope: tuple[int, int] | None) -> list[UseDecl]:
    argument = node.child_by_field_name("argument")
    if argument is None:
        return []
    found: list[UseDecl] = []
    stack: list[tuple[Node, tuple[str, ...]]] = [(argument, ())]
    while stack:
        current, base = stack.pop()
        kind = current.type
        if kind in ("identifier", "scoped_identifier", "self", "crate", "super"):
            path = (*base, *path_segments(current))
            if path and path[-1] == "self":  # `use a::b::{self}` brings `b`
                path = path[:-1]
            if path:
                found.append(UseDecl(module, path[-1], path, scope))
        elif kind == "use_as_clause":
            inner = current.child_by_field_name("path")
            alias = text(current.child_by_field_name("alias"))
            if inner is not None and alias and alias != "_":
                path = (*base, *path_segments(inner))
                if path and path[-1] == "self":
                    path = path[:-1]
                if path:
                    found.append(UseDecl(module, alias, path, scope))
        elif kind == "use_wildcard":
            inner_nodes = current.named_children
            prefix = tuple(path_segments(inner_nodes[0])) if inner_nodes else ()
            found.append(UseDecl(module, "", (*base, *prefix), scope))
        elif kind == "scoped_use_list":
            inner = current.child_by_field_name("path")
            listed = current.child_by_field_name("list")
            prefix = tuple(path_segments(inner)) if inner is not None else ()
            if listed is not None:
                stack.append((listed, (*base, *prefix)))
        elif kind == "use_list":
            for child in current.named_children:
                stack.append((child, base))
    return found


def module_of(parts: tuple[str, ...]) -> Module:
    """The module path cargo's conventions give a file, from its path under the target's
    source directory (``src/`` for the lib and ``main.rs``; the target's own directory for
    ``src/bin/x/``, ``examples/x/``, ``tests/x/``): ``a/mod.rs`` and ``a.rs`` are ``a``,
    ``lib.rs``, ``main.rs`` and a lone target file are the root."""
    if not parts:
        return ()
    *directories, file = parts
    stem = file[:-3] if file.endswith(".rs") else file
    if stem == "mod" or (stem in ("lib", "main") and not directories):
        return tuple(directories)
    return (*directories, stem)
