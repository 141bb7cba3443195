"""PyTorch-facing loaders and their key-mapping options: the facts behind BL005 and BL006.

``PytorchStore`` defaults to ``map_indices_contiguous = true, skip_enum_variants = true``;
``SafetensorsStore`` to ``false, false`` (burn-store-api.md §1). A loader is PyTorch-facing when
it reads PyTorch-named keys: (a) a ``PytorchStore``; (b) a ``SafetensorsStore`` with
``PyTorchToBurnAdapter``; (c) a ``SafetensorsStore`` loaded in the same function as (a) or (b);
(d) a ``SafetensorsStore`` loaded with key remapping.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from burnlint.model.burn_api import BurnStoreApi, StoreKind
from burnlint.model.layout import EnumFact, FieldFact, LayoutFacts, LayoutKind, VariantFact
from burnlint.model.loaded_type import LoadedTypeReads
from burnlint.model.negative_tests import expected_to_fail
from burnlint.model.ops import StoreOp
from burnlint.model.places import fn_item_around, let_bound
from burnlint.model.stores import StoreBuild, StoreEvaluator
from burnlint.rust.syntax import (
    field_of,
    is_tail_expression,
    method_call_parts,
    outer_parens,
)

if TYPE_CHECKING:
    from tree_sitter import Node


class KeyMappingReads(LoadedTypeReads, Protocol):
    """What finding the loads that map keys reads of the file: its tree, the burn-store API
    assumed, its store builds and operations, the module types they load into, and the
    target's layout."""

    @property
    def api(self) -> BurnStoreApi: ...
    @property
    def stores(self) -> StoreEvaluator: ...
    @property
    def store_builds(self) -> list[StoreBuild]: ...
    @property
    def ops(self) -> list[StoreOp]: ...
    @property
    def layout(self) -> LayoutFacts: ...


class Matter(enum.Enum):
    """Why an option changes how PyTorch keys land in the target's modules."""

    MIRROR = "mirror"  # a `Vec` of a module enum keeps PyTorch's gaps: no renumbering
    SEQUENTIAL = "sequential"  # a `Vec<Linear>` has no gaps: renumbering needed
    ENUM = "enum"  # burn's paths name enum variants, PyTorch's never do


@dataclass(frozen=True)
class LayoutReason:
    """The layout fact that makes ``option`` matter: the field, and for a mirror the variant
    that leaves a gap in PyTorch's indices."""

    option: str
    matter: Matter
    field: FieldFact
    enum: EnumFact | None = None  # the module enum the field holds (mirror, enum)
    gap: VariantFact | None = None  # the mirror's parameter-free variant


def layout_reasons(layout: LayoutFacts) -> dict[str, LayoutReason]:
    """The key-mapping options that change anything for ``layout``, each with its reason. A
    flat or unknown layout has none. When a mirror and a `Vec<Linear>` share a target the
    mirror is named (each index value breaks one of them)."""
    judged = layout.judged
    reasons: dict[str, LayoutReason] = {}
    if judged.mirrors:
        mirror = judged.mirrors[0]
        held = judged.enum_named(mirror.field.element or "")
        reasons["map_indices_contiguous"] = LayoutReason(
            "map_indices_contiguous", Matter.MIRROR, mirror.field, held, mirror.gap
        )
    elif judged.sequential_like:
        reasons["map_indices_contiguous"] = LayoutReason(
            "map_indices_contiguous", Matter.SEQUENTIAL, judged.sequential_like[0]
        )
    if judged.enum_fields:
        named = judged.mirrors[0].field if judged.mirrors else judged.enum_fields[0]
        held = next((e for n in named.names if (e := judged.enum_named(n)) is not None), None)
        reasons["skip_enum_variants"] = LayoutReason("skip_enum_variants", Matter.ENUM, named, held)
    return reasons


def certain_reasons(layout: LayoutFacts) -> dict[str, LayoutReason]:
    """``layout_reasons`` without the `Vec<Linear>` one: whether such a field has PyTorch's
    gaps depends on the PyTorch side (an `nn.Sequential` with parameter-free layers, or an
    `nn.ModuleList`, as burn's own benches load), which the Rust code does not show."""
    return {o: r for o, r in layout_reasons(layout).items() if r.matter is not Matter.SEQUENTIAL}


def sequential_field(layout: LayoutFacts) -> FieldFact | None:
    """The `Vec<Linear>`-like field whose index option only the PyTorch side decides (the
    reason ``certain_reasons`` leaves out), when that is what makes the option matter."""
    reason = layout_reasons(layout).get("map_indices_contiguous")
    return reason.field if reason is not None and reason.matter is Matter.SEQUENTIAL else None


# The table's `Vec<Linear>` row has no module enum; wherever one is, PyTorch keys lack its
# variant names and both stores need `skip_enum_variants(true)` (the mirror row's value).
_ROW = {Matter.MIRROR: LayoutKind.MIRROR, Matter.SEQUENTIAL: LayoutKind.SEQUENTIAL_LIKE}


def prescribed(reason: LayoutReason, kind: StoreKind) -> bool:
    """The value the seed's table gives ``reason.option`` for the layout fact behind it."""
    row = _ROW.get(reason.matter, LayoutKind.MIRROR)
    return BurnStoreApi.prescribed(row, kind, reason.option)


class Facing(enum.Enum):
    """Why a loader reads PyTorch-named keys (the module docstring's (a) to (d))."""

    PYTORCH = "pytorch"  # (a) a `PytorchStore`
    ADAPTER = "adapter"  # (b) a `SafetensorsStore` with `PyTorchToBurnAdapter`
    BESIDE_PYTORCH = "beside-pytorch"  # (c) loaded in the same function as (a) or (b)
    REMAPPING = "remapping"  # (d) a `SafetensorsStore` loaded with key remapping


@dataclass
class Loader:
    store: StoreBuild
    report_at: Node  # the constructor (or the helper call that builds the store)
    loads: list[StoreOp] = field(default_factory=list)
    facing: Facing | None = None  # why it is PyTorch-facing (None: it is not)
    # False for a store whose tensors are never applied here, only its keys read (`keys()`,
    # `get_snapshot()`): `skip_enum_variants` acts in `apply_to` only, so just
    # `map_indices_contiguous` (which renames the keys) matters for it
    applies: bool = True
    # built by a crate-local function that reports it at its constructor (BL005 once per
    # defect): kept here for clause (c) and BL006, never reported here
    elsewhere: bool = False

    @property
    def options(self) -> tuple[str, ...]:
        return BurnStoreApi.key_options if self.applies else ("map_indices_contiguous",)

    @property
    def kind(self) -> StoreKind:
        return self.store.kind

    @property
    def renames_keys(self) -> bool:
        """Its store remaps keys or filters them on some path: the keys it looks for are not
        burn's paths of the loaded layout alone."""
        return any(v.remaps or v.filters for v in self.store.variants)


def reports_when_returned(store: StoreBuild) -> bool:
    """PyTorch-facing by how it is built, wherever it is loaded: (a) and (b)."""
    return store.kind is StoreKind.PYTORCH or "PyTorchToBurnAdapter" in store.adapters


def chain_top(node: Node, model: KeyMappingReads, also: frozenset[str] = frozenset()) -> Node:
    """The end of a builder chain starting at ``node``: `X::from_file(p).a(..).b(..)`; the
    methods named ``also`` continue it as builders do (a `PathFilter`'s)."""
    ancestry = model.ancestry
    current = node
    while True:
        parent = ancestry.parent(current)
        if parent is None or parent.type != "field_expression":
            return current
        call = ancestry.parent(parent)
        if call is None or call.type != "call_expression":
            return current
        parts = method_call_parts(call)
        if parts is None or (parts[1] not in model.api.builders and parts[1] not in also):
            return current
        current = call


def loaders(model: KeyMappingReads) -> list[Loader]:
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
            foreign = op.store.helper is not None and op.store.origin is not None
            loader = by_site[site.id] = Loader(
                op.store, site, elsewhere=foreign and reports_when_returned(op.store)
            )
        loader.loads.append(op)
    # A PytorchStore not loaded from here still maps keys when it leaves the function (returned,
    # passed on) or has its keys read; one that is only inspected (`store.allow_partial`) or
    # dropped maps nothing.
    # The same for a SafetensorsStore with `PyTorchToBurnAdapter`: where such a store is
    # returned by a crate-local function, it is reported here, not at each caller's load.
    # the other branches' constructors of a store an `if`/`match` chooses belong to its loader
    chosen = {
        variant.constructor_node.id
        for loader in by_site.values()
        for variant in loader.store.alternatives
    }
    for build in model.store_builds:
        if (
            build.kind is StoreKind.BURNPACK
            or build.constructor_node.id in by_site
            or build.constructor_node.id in chosen
        ):
            continue
        top = chain_top(build.constructor_node, model)
        chain = model.stores.store_of(top) or build
        if not reports_when_returned(chain):
            continue
        use = _store_use(top, model)
        if use is None:
            continue
        by_site[build.constructor_node.id] = Loader(
            chain, build.constructor_node, applies=use == "escapes"
        )

    facing: list[Loader] = []
    pytorch_functions: set[int] = set()
    for loader in by_site.values():
        if loader.kind is StoreKind.PYTORCH:
            loader.facing = Facing.PYTORCH
        elif "PyTorchToBurnAdapter" in loader.store.adapters:
            loader.facing = Facing.ADAPTER
        elif loader.store.remaps and loader.loads:
            loader.facing = Facing.REMAPPING
        else:
            continue
        function = fn_item_around(loader.report_at, model.ancestry)
        if function is not None and loader.facing is not Facing.REMAPPING:
            pytorch_functions.add(function.id)
        facing.append(loader)
    for loader in by_site.values():
        if (
            loader.facing is not None
            or not loader.loads
            or loader.kind is not StoreKind.SAFETENSORS
        ):
            continue
        function = fn_item_around(loader.loads[0].node, model.ancestry)
        if function is not None and function.id in pytorch_functions:
            loader.facing = Facing.BESIDE_PYTORCH
            facing.append(loader)
    first_saves = _first_safetensors_saves(model)
    asserting: dict[int, bool] = {}  # function node id -> it asserts missing tensors
    facing = [
        f
        for f in facing
        if not _round_trip(f, model, first_saves)
        and not expected_to_fail(f.loads, f.report_at, model, asserting)
    ]
    return sorted(facing, key=lambda loader: loader.report_at.start_byte)


_KEY_READERS = frozenset({"keys", "get_snapshot", "get_all_snapshots"})


def _store_use(top: Node, model: KeyMappingReads) -> str | None:
    """How a store expression that no load uses is used: "escapes" (returned or passed on),
    "keys" (only its keys read), or None (inspected or dropped)."""
    ancestry = model.ancestry
    node = outer_parens(top, ancestry)
    parent = ancestry.parent(node)
    if parent is None:
        return None
    if parent.type in ("return_expression", "arguments") or (
        parent.type == "block" and is_tail_expression(node, ancestry)
    ):
        return "escapes"
    if parent.type == "field_expression" and field_of(node, ancestry) == "value":
        call = ancestry.parent(parent)
        parts = method_call_parts(call) if call is not None else None
        return "keys" if parts is not None and parts[1] in _KEY_READERS else None
    binding = let_bound(node, model)
    if binding is None:
        return None
    found: str | None = None
    for reference in binding.uses:
        if reference.macro is not None:
            continue
        use = _store_use(reference.node, model)
        if use == "escapes":
            return use
        found = found or use
    return found


def _first_safetensors_saves(model: KeyMappingReads) -> dict[int, int]:
    """Where the first save into a Safetensors store starts, by the node id of its function:
    gathered once per file (a file can hold thousands of loads and saves)."""
    first: dict[int, int] = {}
    for op in model.ops:
        if op.is_save and op.store is not None and op.store.kind is StoreKind.SAFETENSORS:
            function = fn_item_around(op.node, model.ancestry)
            if function is not None:
                start = op.node.start_byte
                first[function.id] = min(start, first.get(function.id, start))
    return first


def _round_trip(loader: Loader, model: KeyMappingReads, first_saves: dict[int, int]) -> bool:
    """A Safetensors load of what the same function saved into a Safetensors store just
    before: Burn's own key names, whatever adapter converts them on the way."""
    if loader.kind is not StoreKind.SAFETENSORS or not loader.loads:
        return False
    first_load = loader.loads[0].node
    function = fn_item_around(first_load, model.ancestry)
    if function is None:
        return False
    first_save = first_saves.get(function.id)
    return first_save is not None and first_save < first_load.start_byte
