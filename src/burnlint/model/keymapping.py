"""PyTorch-facing loaders and their key-mapping options: the facts behind BL005 and BL006.

``PytorchStore`` defaults to ``map_indices_contiguous = true, skip_enum_variants = true``;
``SafetensorsStore`` to ``false, false`` (burn-store-api.md §1). A loader is PyTorch-facing when
it reads PyTorch-named keys: (a) a ``PytorchStore``; (b) a ``SafetensorsStore`` with
``PyTorchToBurnAdapter``; (c) a ``SafetensorsStore`` loaded in the same function as (a) or (b);
(d) a ``SafetensorsStore`` loaded with key remapping.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from burnlint.model.imports import StoreKind
from burnlint.model.ops import StoreOp
from burnlint.model.stores import BUILDERS, StoreBuild
from burnlint.syntax import method_call_parts

if TYPE_CHECKING:
    from tree_sitter import Node

    from burnlint.model.file_model import FileModel

KEY_OPTIONS = ("map_indices_contiguous", "skip_enum_variants")
DEFAULTS: dict[StoreKind, dict[str, bool]] = {
    StoreKind.PYTORCH: {"map_indices_contiguous": True, "skip_enum_variants": True},
    StoreKind.SAFETENSORS: {"map_indices_contiguous": False, "skip_enum_variants": False},
}


@dataclass
class Loader:
    store: StoreBuild
    report_at: Node  # the constructor (or the helper call that builds the store)
    loads: list[StoreOp] = field(default_factory=list)
    clause: str = ""  # why it is PyTorch-facing

    @property
    def kind(self) -> StoreKind:
        return self.store.kind

    def explicit(self, option: str) -> bool:
        return self.store.option(option) is not None

    def effective(self, option: str) -> bool | None:
        """The value the store runs with; None when set to something not a literal."""
        setting = self.store.option(option)
        if setting is None:
            return DEFAULTS[self.kind][option]
        return setting.value


def _chain_top(node: Node) -> Node:
    """The end of a builder chain starting at ``node``: `X::from_file(p).a(..).b(..)`."""
    current = node
    while True:
        parent = current.parent
        if parent is None or parent.type != "field_expression":
            return current
        call = parent.parent
        if call is None or call.type != "call_expression":
            return current
        parts = method_call_parts(call)
        if parts is None or parts[1] not in BUILDERS:
            return current
        current = call


def _function_of(node: Node) -> Node | None:
    current = node.parent
    while current is not None:
        if current.type == "function_item":
            return current
        current = current.parent
    return None


def loaders(model: FileModel) -> list[Loader]:
    """Every PyTorch-facing loader of the file, keyed by where its store is built."""
    by_site: dict[int, Loader] = {}
    for op in model.ops:
        # a helper that loads for its caller is judged in its own file, where the store is built
        if (
            not op.is_load
            or op.helper is not None
            or op.store is None
            or op.store.kind is StoreKind.BURNPACK
        ):
            continue
        site = op.store.constructor_node if op.store.helper is None else op.node
        loader = by_site.get(site.id)
        if loader is None:
            loader = by_site[site.id] = Loader(op.store, site)
        loader.loads.append(op)
    # a PytorchStore built and never loaded from here (e.g. returned, or only inspected) is
    # still PyTorch-facing: judge the options its own chain sets
    for build in model.store_builds:
        if build.kind is StoreKind.PYTORCH and build.constructor_node.id not in by_site:
            chain = model.stores.store_of(_chain_top(build.constructor_node)) or build
            by_site[build.constructor_node.id] = Loader(chain, build.constructor_node)

    facing: list[Loader] = []
    pytorch_functions: set[int] = set()
    for loader in by_site.values():
        if loader.kind is StoreKind.PYTORCH:
            loader.clause = "a `PytorchStore`"
        elif "PyTorchToBurnAdapter" in loader.store.adapters:
            loader.clause = "a `SafetensorsStore` with `PyTorchToBurnAdapter`"
        elif loader.store.remaps and loader.loads:
            loader.clause = "a `SafetensorsStore` with key remapping"
        else:
            continue
        function = _function_of(loader.report_at)
        if function is not None and loader.clause != "a `SafetensorsStore` with key remapping":
            pytorch_functions.add(function.id)
        facing.append(loader)
    for loader in by_site.values():
        if loader.clause or not loader.loads or loader.kind is not StoreKind.SAFETENSORS:
            continue
        function = _function_of(loader.loads[0].node)
        if function is not None and function.id in pytorch_functions:
            loader.clause = (
                "a `SafetensorsStore` loaded beside a PyTorch loader in the same function"
            )
            facing.append(loader)
    return sorted(facing, key=lambda loader: loader.report_at.start_byte)
