"""What a file imports from burn-store, and how store types are spelled in it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from burnlint.model.burn_api import BurnStoreApi, StoreKind
from burnlint.rust.syntax import path_segments, text

if TYPE_CHECKING:
    from tree_sitter import Node

    from burnlint.rust.source import SourceFile


_STORE_NAMES = BurnStoreApi.store_names
# Names whose import, by themselves, put a file in burn-store's scope.
_BURN_STORE_NAMES = BurnStoreApi.exported_names
# the crate's paths as segments: `burn_store`, `burn::store`
_CRATE_PATHS = tuple(path.split("::") for path in BurnStoreApi.crate_paths)


def _is_burn_store_path(segments: list[str]) -> bool:
    """``burn_store::…`` or ``burn::store::…`` (a leading ``::`` is already dropped)."""
    return any(segments[: len(crate)] == crate for crate in _CRATE_PATHS)


@dataclass
class ImportFacts:
    """Facts from the ``use`` declarations of a file (anywhere in it: burnlint does not model
    module-level scoping of imports, which is rarely what decides a finding)."""

    # local name -> canonical burn-store name, for stores, traits and adapters
    aliases: dict[str, str] = field(default_factory=dict)
    glob_burn_store: bool = False
    imports_burn_store: bool = False
    # burn-store names the file defines itself (then a bare name is the user's type)
    local_types: set[str] = field(default_factory=set)
    # method names the file defines in inherent impls / free fns (a user `save_into`)
    local_methods: set[str] = field(default_factory=set)
    # burn's `Module` trait is imported (`burn::module::Module`, `burn::prelude::*`, ..)
    module_trait: bool = False

    def trait_in_scope(self, trait: str) -> bool:
        return self.glob_burn_store or trait in self.aliases.values()

    def canonical(self, name: str) -> str | None:
        """The burn-store name a local identifier stands for, if any."""
        if name in self.aliases:
            return self.aliases[name]
        if name in _BURN_STORE_NAMES and name not in self.local_types:
            return name
        return None

    def names(self, type_path: list[str], exported: str) -> bool:
        """Whether ``type_path`` names burn-store's ``exported`` (`PathFilter`): imported by
        name, as an alias or through a glob of the crate, or spelled with the crate's path."""
        if not type_path:
            return False
        if len(type_path) == 1:
            local = type_path[0]
            if local in self.local_types:
                return False
            return self.aliases.get(local) == exported or (
                self.glob_burn_store and local == exported
            )
        return type_path[-1] == exported and _is_burn_store_path(type_path)

    def store_kind(self, type_path: list[str]) -> StoreKind | None:
        """Resolve the ``X`` of ``X::from_file``: an alias, a bare name, or a full path."""
        if not type_path:
            return None
        last = type_path[-1]
        if len(type_path) == 1:
            canonical = self.canonical(last)
            return _STORE_NAMES.get(canonical) if canonical else None
        if last in _STORE_NAMES and (
            _is_burn_store_path(type_path) or type_path[0] in ("crate", "self", "super")
        ):
            return _STORE_NAMES[last]
        return None


def _flatten_use(
    node: Node, prefix: list[str], out: list[tuple[list[str], str | None, bool]]
) -> None:
    """Expand a use tree into (path, alias, is_glob) triples."""
    stack: list[tuple[Node, list[str]]] = [(node, prefix)]
    while stack:
        current, base = stack.pop()
        kind = current.type
        if kind in ("identifier", "scoped_identifier", "self", "crate", "super"):
            out.append((base + path_segments(current), None, False))
        elif kind == "use_as_clause":
            path = current.child_by_field_name("path")
            alias = current.child_by_field_name("alias")
            if path is not None:
                out.append((base + path_segments(path), text(alias) or None, False))
        elif kind == "use_wildcard":
            inner = [c for c in current.named_children]
            segs = path_segments(inner[0]) if inner else []
            out.append((base + segs, None, True))
        elif kind == "scoped_use_list":
            path = current.child_by_field_name("path")
            lst = current.child_by_field_name("list")
            new_base = base + (path_segments(path) if path is not None else [])
            if lst is not None:
                stack.append((lst, new_base))
        elif kind == "use_list":
            for child in current.named_children:
                stack.append((child, base))


def _is_module_trait_path(segments: list[str], is_glob: bool) -> bool:
    """``burn::module::Module``, ``burn::prelude::Module``, or a glob of ``burn::module`` /
    ``burn::prelude`` (``burn_core`` alike): what brings burn's `Module` trait into scope."""
    if len(segments) < 2 or segments[0] not in ("burn", "burn_core"):
        return False
    if segments[1] not in ("module", "prelude"):
        return False
    if is_glob:
        return len(segments) == 2
    return len(segments) == 3 and segments[2] == "Module"


_ITEM_DEFINING = frozenset({"struct_item", "enum_item", "type_item", "union_item"})


def collect_imports(source: SourceFile) -> ImportFacts:
    facts = ImportFacts()
    for node in source.nodes_of_type("use_declaration", "function_item", *_ITEM_DEFINING):
        if node.type == "use_declaration":
            argument = node.child_by_field_name("argument")
            if argument is None:
                continue
            triples: list[tuple[list[str], str | None, bool]] = []
            _flatten_use(argument, [], triples)
            for path, alias, is_glob in triples:
                if _is_module_trait_path(path, is_glob):
                    facts.module_trait = True
                if not _is_burn_store_path(path):
                    continue
                facts.imports_burn_store = True
                if is_glob:
                    # `use burn_store::*` / `use burn::store::*` (sub-module globs such as
                    # `burn_store::safetensors::*` bring the store type only)
                    if path in _CRATE_PATHS:
                        facts.glob_burn_store = True
                    continue
                last = path[-1] if path else ""
                if last == "self":
                    continue
                if last in _BURN_STORE_NAMES:
                    local = alias if alias and alias != "_" else last
                    if alias == "_":
                        # `use burn_store::ModuleSnapshot as _;` brings the trait's methods only
                        facts.aliases[f"_{last}"] = last
                    else:
                        facts.aliases[local] = last
        elif node.type in _ITEM_DEFINING:
            name = node.child_by_field_name("name")
            if name is not None and text(name) in _BURN_STORE_NAMES:
                facts.local_types.add(text(name))
        elif node.type == "function_item":
            name = node.child_by_field_name("name")
            if name is not None and not _in_trait_impl(node):
                facts.local_methods.add(text(name))
    return facts


def _in_trait_impl(function: Node) -> bool:
    """True for a method of ``impl Trait for T`` (implementing burn's traits is not defining
    a competing ``save_into``)."""
    parent = function.parent
    if parent is None or parent.type != "declaration_list":
        return False
    impl = parent.parent
    return (
        impl is not None
        and impl.type == "impl_item"
        and impl.child_by_field_name("trait") is not None
    )
