"""Stores whose key remapping only loads apply, that are saved into and never loaded from
(BL011).

A ``BurnpackStore`` remaps keys in its read-side cache only (``BurnStoreApi.
remaps_on_load_only``): a save through it writes the module's own names. The store must be
seen whole: built in this file (not by a crate-local helper), and used only as the store of
save operations, inline (``m.save_into(&mut BurnpackStore::from_file(p).remap(r))``) or
through one ``let`` binding that nothing else reads, re-assigns or hands on.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from burnlint.model.keymapping import chain_top
from burnlint.rust.syntax import arguments_of, strip_reference, text, unmut

if TYPE_CHECKING:
    from tree_sitter import Node

    from burnlint.model.file_model import FileModel
    from burnlint.model.ops import StoreOp
    from burnlint.model.stores import StoreBuild

# methods of a saved store that read what it wrote, never its remapping
_READ_BACK = ("get_bytes",)


@dataclass(frozen=True)
class IgnoredRemap:
    store: StoreBuild
    remaps: tuple[Node, ...]  # the remap calls, in the chain's order
    saves: tuple[StoreOp, ...]


def ignored_remaps(model: FileModel) -> list[IgnoredRemap]:
    """The file's stores with a remapping their saves ignore, by constructor, in file order."""
    by_site: dict[int, list[StoreOp]] = {}
    builds: dict[int, StoreBuild] = {}
    for op in model.ops:
        store = op.store
        if (
            store is None
            or store.helper is not None
            or store.kind not in model.api.remaps_on_load_only
        ):
            continue
        site = store.constructor_node.id
        by_site.setdefault(site, []).append(op)
        builds.setdefault(site, store)
    found: list[IgnoredRemap] = []
    for site, ops in by_site.items():
        store = builds[site]
        if not store.remap_calls or any(not op.is_save or op.helper is not None for op in ops):
            continue
        if not _used_only_by(store, ops, model):
            continue
        found.append(IgnoredRemap(store, store.remap_calls, tuple(ops)))
    return sorted(found, key=lambda ignored: ignored.store.constructor_node.start_byte)


def _store_argument(op: StoreOp) -> Node | None:
    """The expression ``op`` takes its store from, without a leading ``&mut``."""
    if op.method == "collect_from":
        return strip_reference(op.receiver) if op.receiver is not None else None
    arguments = arguments_of(op.node)
    return strip_reference(arguments[0]) if arguments else None


def _used_only_by(store: StoreBuild, ops: list[StoreOp], model: FileModel) -> bool:
    """Every use of the store is one of ``ops`` (or reads back the bytes it wrote)."""
    arguments = [_store_argument(op) for op in ops]
    if any(argument is None for argument in arguments):
        return False
    top = chain_top(store.constructor_node, model)
    if len(ops) == 1 and arguments[0] == top:
        return True  # built inline in the one save
    parent = model.ancestry.parent(top)
    if parent is None or parent.type != "let_declaration":
        return False
    pattern = parent.child_by_field_name("pattern")
    pattern = unmut(pattern) if pattern is not None else None
    if pattern is None or pattern.type != "identifier":
        return False
    binding = model.resolution.binding_of(pattern)
    if binding is None or binding.assignments:
        return False
    saves = {argument.id for argument in arguments if argument is not None}
    for use in binding.uses:
        if use.capture:
            return False
        if use.macro is not None:
            # inside a macro's tokens only `store.get_bytes()` is known for what it reads
            if use.fields or use.trail[:1] != _READ_BACK:
                return False
            continue
        if use.node.id in saves:
            continue
        holder = model.ancestry.parent(use.node)
        call = model.ancestry.parent(holder) if holder is not None else None
        if (
            holder is None
            or holder.type != "field_expression"
            or call is None
            or call.type != "call_expression"
        ):
            return False
        if text(holder.child_by_field_name("field")) not in _READ_BACK:
            return False
    return True
