"""Which key-mapping finding each PyTorch-facing loader of a file gets: the one decision that
BL012, BL006 and BL005 read (DESIGN.md section 3). Per store and option, first match wins:

1. **mismatch** (BL012): the layout the store loads is resolved by type, the store neither
   remaps nor filters keys, it is a `PytorchStore` or a `SafetensorsStore` with
   `PyTorchToBurnAdapter`, and the option's literal value (written or by default) differs
   from the seed's value for a mirror or a module enum in that layout (a `Vec<Linear>` may
   come from a `ModuleList` or a `Sequential`: not certain, so not a mismatch);
2. **disagreement** (BL006): a `PytorchStore` loader and a PyTorch-facing `SafetensorsStore`
   loader of the file that may fill the same module type run an option with different literal
   values, whatever the layout;
3. **implicit** (BL005): the option is left to the store's default on some path.

The decision does not depend on which rules a run selects: a store BL012 reports is never
reported again as implicit, so one defect gives one finding whatever the configuration.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from burnlint.model.burn_api import BurnStoreApi, StoreKind
from burnlint.model.keymapping import (
    Facing,
    KeyMappingReads,
    LayoutReason,
    Loader,
    certain_reasons,
    prescribed,
)
from burnlint.model.layout import LayoutFacts, LayoutKind
from burnlint.model.loaded_type import loaded_type

if TYPE_CHECKING:
    from collections.abc import Sequence

_INDICES = "map_indices_contiguous"


def loaded_types(loader: Loader, model: KeyMappingReads) -> frozenset[str] | None:
    """The module types the loads of ``loader`` fill, when the code states each one
    (`let mut model = Mlp::new(..)`, a typed binding or parameter); None when a load's type
    is not stated (a generic `M`, a helper's load) or the store is not loaded here."""
    if not loader.loads:
        return None
    names: set[str] = set()
    for op in loader.loads:
        name = loaded_type(op, model)
        if name is None:
            return None
        names.add(name)
    return frozenset(names)


def resolved_layout(
    loader: Loader, model: KeyMappingReads, names: frozenset[str] | None
) -> LayoutFacts | None:
    """The layout the loads of ``loader`` fill, resolved by type (DESIGN.md section 2b): the
    loaded types and the module types reachable from their fields. None when a loaded type
    is not stated or not declared in the target, or a type it reaches is declared twice
    (two modules, `#[cfg]`-exclusive definitions): never the target's union of modules.
    ``names`` are the loader's ``loaded_types``."""
    if names is None:
        return None
    visible = model.layout
    layout = visible.reachable(*names)
    declared = {s.name for s in layout.structs} | {e.name for e in layout.enums}
    if not names <= declared or layout.judged.ambiguous:
        return None
    return layout


@dataclass(frozen=True)
class OptionState:
    """How a loader's store runs a key-mapping ``option`` on every path that builds it."""

    option: str
    value: bool | None  # the value on every path; None: not one literal (or varies)
    written: bool  # set on every path, to a literal or not (`_except` counts)
    partly: bool  # set on some paths only (`if gaps { s = s.map_indices_contiguous(..) }`)
    default: bool  # the store's default

    @property
    def implicit(self) -> bool:
        """Left to the default on some path."""
        return not self.written


def option_state(loader: Loader, option: str) -> OptionState:
    """``option`` on ``loader``'s store, over the stores its branches build (``variants``)."""
    default = BurnStoreApi.default(loader.kind, option)
    values: set[bool | None] = set()
    written = True
    some = False
    for variant in loader.store.variants:
        setting = variant.option(option)
        if setting is None:
            values.add(default)
            written = False
            continue
        some = True
        values.add(setting.value)
        if setting.everywhere:
            values.add(None)  # another value on the other paths, written all the same
        elif not setting.definite:
            values.add(default)
            written = False
    value = next(iter(values)) if len(values) == 1 else None
    return OptionState(option, value, written, some and not written, default)


@dataclass(frozen=True)
class Mismatch:
    """An option whose value mis-maps the layout the store loads (BL012)."""

    state: OptionState
    reason: LayoutReason  # the layout fact that makes it matter
    needed: bool  # the seed's value for that layout and store type

    @property
    def option(self) -> str:
        return self.state.option


@dataclass(frozen=True)
class MismatchedLoader:
    """A loader with the options that mis-map what it loads (BL012). A store a crate-local
    function builds elsewhere is reported once per file: its other loads here that mis-map the
    same way are ``also``."""

    loader: Loader
    mismatches: tuple[Mismatch, ...]
    also: tuple[Loader, ...] = ()


@dataclass(frozen=True)
class Difference:
    """An option a `SafetensorsStore` loader and a `PytorchStore` loader run differently."""

    here: OptionState  # the `SafetensorsStore`'s
    pytorch: OptionState

    @property
    def option(self) -> str:
        return self.here.option


@dataclass(frozen=True)
class PairedPytorch:
    """A `PytorchStore` loader that disagrees with a `SafetensorsStore` loader."""

    loader: Loader
    differences: tuple[Difference, ...]
    # the layout both fill, when each one's is resolved by type (None: not known)
    layout: LayoutFacts | None


@dataclass(frozen=True)
class Disagreement:
    """A PyTorch-facing `SafetensorsStore` loader and the `PytorchStore` loaders of the same
    file that map keys differently (BL006)."""

    loader: Loader  # the `SafetensorsStore`'s
    pytorch: tuple[PairedPytorch, ...]
    # per option, the values every `PytorchStore` loader it is compared with runs (those that
    # agree included): a fix must agree with all of them
    compared: tuple[tuple[str, frozenset[bool | None]], ...] = ()
    layout: LayoutFacts | None = None  # the layout it loads, resolved by type

    @property
    def options(self) -> frozenset[str]:
        return frozenset(d.option for p in self.pytorch for d in p.differences)


@dataclass(frozen=True)
class Implicit:
    """The options a loader leaves to its store's defaults (BL005)."""

    loader: Loader
    states: tuple[OptionState, ...]
    layout: LayoutFacts | None  # the layout it loads, resolved by type (None: not known)

    @property
    def mixed(self) -> bool:
        """A mirror beside a `Vec<Linear>`: no single `map_indices_contiguous` fits both."""
        return self.layout is not None and self.layout.kind is LayoutKind.MIXED


@dataclass(frozen=True)
class KeyMappingVerdicts:
    """The file's key-mapping findings, in the order of the stores' constructors."""

    mismatches: tuple[MismatchedLoader, ...] = ()
    disagreements: tuple[Disagreement, ...] = ()
    implicit: tuple[Implicit, ...] = ()


def judge_key_mapping(model: KeyMappingReads, loaders: Sequence[Loader]) -> KeyMappingVerdicts:
    """Decide, for every option of every PyTorch-facing loader, which rule reports it."""
    api = model.api
    existing = tuple(o for o in api.key_options if api.has_option(o))
    if not existing or not loaders:
        return KeyMappingVerdicts()
    layouts: dict[int, LayoutFacts | None] = {}
    types: dict[int, frozenset[str] | None] = {}
    for loader in loaders:
        types[id(loader)] = loaded_types(loader, model)
        layouts[id(loader)] = resolved_layout(loader, model, types[id(loader)])

    mismatches: list[MismatchedLoader] = []
    mismatched: dict[int, frozenset[str]] = {}
    by_helper: dict[tuple[object, ...], int] = {}  # a helper's store, the same mis-mapping
    for loader in loaders:
        found = _mismatches(loader, layouts[id(loader)], existing)
        if not found:
            continue
        mismatched[id(loader)] = frozenset(m.option for m in found)
        origin = loader.store.origin
        if origin is None:
            mismatches.append(MismatchedLoader(loader, found))
            continue
        key = (origin, tuple((m.option, m.state.value, m.reason.field) for m in found))
        if key in by_helper:
            first = mismatches[by_helper[key]]
            mismatches[by_helper[key]] = MismatchedLoader(
                first.loader, first.mismatches, (*first.also, loader)
            )
        else:
            by_helper[key] = len(mismatches)
            mismatches.append(MismatchedLoader(loader, found))

    disagreements: list[Disagreement] = []
    disagreeing: dict[int, set[str]] = {}
    pytorch = [loader for loader in loaders if loader.kind is StoreKind.PYTORCH]
    for here in loaders:
        if here.kind is not StoreKind.SAFETENSORS or not pytorch:
            continue
        paired: list[PairedPytorch] = []
        compared: dict[str, set[bool | None]] = {}
        for there in pytorch:
            if _reported_where_built(here, there) or _fill_different_types(
                types[id(here)], types[id(there)]
            ):
                continue
            skipped = mismatched.get(id(here), frozenset()) | mismatched.get(id(there), frozenset())
            options = [
                o for o in existing if o in here.options and o in there.options and o not in skipped
            ]
            differences: list[Difference] = []
            for option in options:
                a, b = option_state(here, option), option_state(there, option)
                compared.setdefault(option, set()).add(b.value)
                if a.value is not None and b.value is not None and a.value != b.value:
                    differences.append(Difference(a, b))
            if differences:
                both = _both(layouts[id(here)], layouts[id(there)])
                paired.append(PairedPytorch(there, tuple(differences), both))
        if paired:
            disagreement = Disagreement(
                here,
                tuple(paired),
                tuple((o, frozenset(v)) for o, v in sorted(compared.items())),
                layouts[id(here)],
            )
            disagreements.append(disagreement)
            disagreeing.setdefault(id(here), set()).update(disagreement.options)
            for pair in paired:
                disagreeing.setdefault(id(pair.loader), set()).update(
                    d.option for d in pair.differences
                )

    implicit: list[Implicit] = []
    for loader in loaders:
        if loader.elsewhere:
            continue  # reported at the constructor, in the file of the function that builds it
        taken = mismatched.get(id(loader), frozenset()) | disagreeing.get(id(loader), set())
        states = tuple(
            state
            for option in existing
            if option in loader.options and option not in taken
            for state in [option_state(loader, option)]
            if state.implicit
        )
        if states:
            implicit.append(Implicit(loader, states, layouts[id(loader)]))
    return KeyMappingVerdicts(tuple(mismatches), tuple(disagreements), tuple(implicit))


def _mismatches(
    loader: Loader, layout: LayoutFacts | None, existing: tuple[str, ...]
) -> tuple[Mismatch, ...]:
    """The options whose literal value mis-maps the layout ``loader`` loads, by the seed's
    table; none unless the layout is resolved, the store reads PyTorch keys by construction
    (a `PytorchStore`, or `PyTorchToBurnAdapter`) and renames none of them."""
    if layout is None or loader.facing not in (Facing.PYTORCH, Facing.ADAPTER):
        return ()
    if loader.renames_keys:
        return ()  # a remap can close the gaps or add the variant names; a filter drops keys
    reasons = certain_reasons(layout)  # a `Vec<Linear>` is never certain: BL005's note says it
    found: list[Mismatch] = []
    for option in existing:
        reason = reasons.get(option)
        if reason is None or option not in loader.options:
            continue
        if option == _INDICES and (layout.kind is LayoutKind.MIXED or layout.judged.open):
            # a mirror beside a `Vec<Linear>` (or beside another crate's module, which may
            # hold one): each value breaks one of them
            continue
        state = option_state(loader, option)
        if state.value is None:
            continue
        needed = prescribed(reason, loader.kind)
        if state.value == needed:
            continue
        found.append(Mismatch(state, reason, needed))
    return tuple(found)


def _fill_different_types(a: frozenset[str] | None, b: frozenset[str] | None) -> bool:
    """Both loaders' types are stated and they share none: the loaders are not compared."""
    return a is not None and b is not None and not (a & b)


def _both(a: LayoutFacts | None, b: LayoutFacts | None) -> LayoutFacts | None:
    if a is None or b is None:
        return None
    return a if a is b else a.merge(b)


def _reported_where_built(st: Loader, pt: Loader) -> bool:
    """Both stores are built by crate-local functions of one other file: that file holds the
    pair and reports it (one report per defect), not each file that loads them."""
    a, b = st.store.origin, pt.store.origin
    return st.elsewhere and pt.elsewhere and a is not None and b is not None and a.path == b.path
