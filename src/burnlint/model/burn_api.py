"""What burnlint knows about burn-store's API, by burn release: the one home for these facts.

Sources: tracel-ai/burn at ``2c06be35`` (0.22.0-pre.2), where ``burn-store-api.md`` beside
DESIGN.md gives each fact with its ``path:line``; the release tags v0.19.0 to v0.22.0-pre.2 for
what changed between releases (named where it is used); the seed (burn 0.22.1) for
``map_indices_contiguous_except`` and the prescribed key-mapping table.

``BurnStoreApi.for_version(v)`` gives the facts for the burn release a crate builds against, as
``project.versions`` reads it (an exact version, a requirement, or None if unknown). What differs
between releases is an instance attribute: the operations' signatures, which key-mapping
options exist, the builder that stands for another option, and whether Burnpack's writer adds
`.bpk` itself. The rest (store types, traits, constructors, builders, option defaults) is a
class attribute, the same in every release: code that calls a function its release lacks does
not compile, so reading it as written costs nothing.
"""

from __future__ import annotations

import enum
import functools
from dataclasses import dataclass
from types import MappingProxyType
from typing import ClassVar

from burnlint.model.layout import LayoutKind
from burnlint.project.versions import Series, lowest_version, release_key, release_series


class StoreKind(enum.Enum):
    """The three `impl ModuleStore for` in burn-store, by type name."""

    SAFETENSORS = "SafetensorsStore"
    BURNPACK = "BurnpackStore"
    PYTORCH = "PytorchStore"


class Direction(enum.Enum):
    SAVE = "save"
    LOAD = "load"


@dataclass(frozen=True)
class Constructor:
    """An associated function that builds a store."""

    file_backed: bool  # else the store holds its data in memory
    # the store types whose calls of it are read as building a store; None: every type (one
    # that lacks the function does not compile, so reading it costs nothing)
    stores: frozenset[StoreKind] | None = None


# burn-store-api.md §1. Which types have each: `from_file` all three [std]; `from_bytes`
# SafetensorsStore and BurnpackStore; `from_static` BurnpackStore (from 0.20); `default`
# SafetensorsStore only (`impl Default`: `from_bytes(None)`). No tag from v0.19.0 to
# v0.22.0-pre.2 has a store `new`: it is read like `default`.
_CONSTRUCTORS = {
    "from_file": Constructor(file_backed=True),
    "from_bytes": Constructor(file_backed=False),
    "from_static": Constructor(file_backed=False),
    "default": Constructor(file_backed=False, stores=frozenset({StoreKind.SAFETENSORS})),
    "new": Constructor(file_backed=False, stores=frozenset({StoreKind.SAFETENSORS})),
}


@dataclass(frozen=True)
class BoolOption:
    """A builder that takes a `bool`: the value each store type that has it starts with (its
    constructors set it), and the first release that has it (None: every release)."""

    defaults: MappingProxyType[StoreKind, bool]
    since: str | None = None


def _defaults(**values: bool) -> MappingProxyType[StoreKind, bool]:
    return MappingProxyType({StoreKind[name]: value for name, value in values.items()})


# Builder methods take `mut self` and return `Self` (burn-store-api.md §1, builder table). The
# defaults are the same in every release that has the option (read at the tags from
# v0.20.0-pre.4 on). `overwrite` is read by file stores only; a Burnpack store's
# `skip_enum_variants` is fixed at false, and it has no `map_indices_contiguous`.
_BOOL_OPTIONS = {
    "overwrite": BoolOption(_defaults(SAFETENSORS=False, BURNPACK=False)),
    "allow_partial": BoolOption(_defaults(SAFETENSORS=False, BURNPACK=False, PYTORCH=False)),
    "validate": BoolOption(_defaults(SAFETENSORS=True, BURNPACK=True, PYTORCH=True)),
    # on both PytorchStore and SafetensorsStore in tracel-ai/burn 3d4bdcbb3 (#4051), first
    # tagged v0.20.0-pre.4; `map_indices_contiguous` in 3bd0d4a4f (#4150), first tagged
    # v0.20.0-pre.6. 0.19.x has neither.
    "skip_enum_variants": BoolOption(_defaults(SAFETENSORS=False, PYTORCH=True), "0.20.0-pre.4"),
    "map_indices_contiguous": BoolOption(
        _defaults(SAFETENSORS=False, PYTORCH=True), "0.20.0-pre.6"
    ),
    "auto_extension": BoolOption(_defaults(BURNPACK=True)),
}
# Builders that set another option, with the last release known to lack them: in burn 0.22.1
# (the seed), `map_indices_contiguous_except(..)` sets `map_indices_contiguous` with exceptions.
# No tag up to v0.22.0-pre.2 has it, nor 2c06be35; which release first does cannot be known
# from the repository read, which has no later tag. A release after 0.22.0-pre.2, or an
# unknown one, is read as having it. In one up to 0.22.0-pre.2 the call does not compile, and
# it is read as any method burnlint does not know: the store it is called on is unknown.
_OPTION_ALIASES = {"map_indices_contiguous_except": ("map_indices_contiguous", "0.22.0-pre.2")}
_REMAP_BUILDERS = frozenset({"with_key_remapping", "with_remap_pattern", "remap"})
_ADAPTER_BUILDERS = frozenset({"with_from_adapter", "with_to_adapter"})
# Builders that compile their first argument with `regex::Regex::new` (regex 1.12), by the
# store types that have them [std]. `with_key_remapping` (`safetensors/store.rs:293`,
# `pytorch/store.rs:231`) and Burnpack's `with_remap_pattern` (`burnpack.rs:291`) pass it to
# `KeyRemapper::add_pattern` and `.expect("Invalid regex pattern")` (`:304`, `:239`, `:299`):
# an invalid one panics. `with_regex`/`with_regexes` hand it to `PathFilter`, which drops a
# pattern that does not compile (`filter.rs:66-86`); Burnpack has no `with_regexes`.
_ALL_STORES = frozenset(StoreKind)
_REGEX_BUILDERS = MappingProxyType(
    {
        "with_key_remapping": frozenset({StoreKind.SAFETENSORS, StoreKind.PYTORCH}),
        "with_remap_pattern": frozenset({StoreKind.BURNPACK}),
        "with_regex": _ALL_STORES,
        "with_regexes": frozenset({StoreKind.SAFETENSORS, StoreKind.PYTORCH}),
    }
)
_PANICKING_REGEX_BUILDERS = frozenset({"with_key_remapping", "with_remap_pattern"})
# `PathFilter` (`filter.rs`): the builders that add a pattern (an iterable of them for the
# plural ones) and those that add another criterion; an empty filter matches no path
# (`matches_with_container_path_str`, `:146-154`), `match_all` every path.
_FILTER_REGEX_METHODS = frozenset({"with_regex", "with_regexes", "from_regex_patterns"})
_FILTER_CRITERIA = frozenset(
    {"with_full_path", "with_full_paths", "with_predicate", "with_predicates", "match_all", "all"}
)
# builders of a store that set or replace its filter with one built elsewhere
_FILTER_SETTERS = frozenset({"filter", "with_filter"})
_OTHER_BUILDERS = frozenset(
    {
        "metadata",
        "clear_metadata",
        "filter",
        "with_filter",
        "with_regex",
        "with_regexes",
        "with_full_path",
        "with_full_paths",
        "with_predicate",
        "with_predicates",
        "match_all",
        "with_top_level_key",
    }
)


# The seed's table (burn 0.22.1, PyTorch 2.15.0): the values that load PyTorch `nn.Sequential`
# weights into each layout, as run there. A `Vec<Linear>` (Sequential-like) has no gaps where
# PyTorch has them; a mirror (`Vec` of a module enum with a parameter-free variant) keeps them.
_PRESCRIBED = {
    LayoutKind.SEQUENTIAL_LIKE: {
        StoreKind.PYTORCH: {"map_indices_contiguous": True, "skip_enum_variants": True},
        StoreKind.SAFETENSORS: {"map_indices_contiguous": True, "skip_enum_variants": False},
    },
    LayoutKind.MIRROR: {
        StoreKind.PYTORCH: {"map_indices_contiguous": False, "skip_enum_variants": True},
        StoreKind.SAFETENSORS: {"map_indices_contiguous": False, "skip_enum_variants": True},
    },
}


@dataclass(frozen=True)
class OpSpec:
    """One signature of a store operation."""

    direction: Direction
    store_side: bool  # the store is the receiver (collect_from/apply_to), not the argument
    trait: str | None  # the trait that must be in scope when the store is not known
    returns_result: bool
    arities: tuple[int, ...] = ()  # allowed argument counts, when the name alone is too common
    # the burn release series that have this signature (inclusive); None: every one
    since: Series | None = None
    until: Series | None = None

    def in_series(self, series: Series) -> bool:
        return (self.since is None or series >= self.since) and (
            self.until is None or series <= self.until
        )


# burn-core's record path (`Module::save_file`, `load_file`, `try_load_file`): no store and no
# `ApplyResult`; the loads consume the module. burn 0.22 dropped the recorders (burn-core
# `module/base.rs`): up to 0.21 `save_file(path, &recorder)` and `load_file(path, &recorder,
# &device)` return `Result<_, RecorderError>`; from 0.22 `save_file(path)` and
# `try_load_file(path)` return `Result<_, RecordError>`, and `load_file(path)` panics.
_RECORD_TRAIT = "Module"  # burn's `Module`: the loads count only with it in scope
_BEFORE_0_22: Series = (0, 21)
_FROM_0_22: Series = (0, 22)
_WRITER_ADDS_EXTENSION: Series = (0, 22)

# Every op, by method name: one spec per signature, the first that fits the call's argument
# count and the assumed burn release wins. With the release unknown, any signature fits:
# burn's signatures of one name differ in their argument counts, never in what they return
# for one count.
_OPS: dict[str, tuple[OpSpec, ...]] = {
    # ModuleSnapshot::save_into / load_from (burn-store `traits.rs:122`, `:137`)
    "save_into": (OpSpec(Direction.SAVE, False, "ModuleSnapshot", True),),
    "load_from": (OpSpec(Direction.LOAD, False, "ModuleSnapshot", True),),
    "save_file": (
        OpSpec(Direction.SAVE, False, None, True, arities=(2,), until=_BEFORE_0_22),
        OpSpec(Direction.SAVE, False, None, True, arities=(1,), since=_FROM_0_22),
    ),
    "load_file": (
        OpSpec(Direction.LOAD, False, _RECORD_TRAIT, True, arities=(3,), until=_BEFORE_0_22),
        # panics on error: a load, but no Result to discard
        OpSpec(Direction.LOAD, False, _RECORD_TRAIT, False, arities=(1,), since=_FROM_0_22),
    ),
    "try_load_file": (
        OpSpec(Direction.LOAD, False, _RECORD_TRAIT, True, arities=(1,), since=_FROM_0_22),
    ),
    # ModuleStore::collect_from / apply_to (`traits.rs:173`, `:194`)
    "collect_from": (OpSpec(Direction.SAVE, True, "ModuleStore", True),),
    "apply_to": (OpSpec(Direction.LOAD, True, "ModuleStore", True),),
    # ModuleSnapshot::apply(snapshots, filter, adapter, skip_enum_variants) -> ApplyResult
    # (`traits.rs:85-91`)
    "apply": (OpSpec(Direction.LOAD, False, "ModuleSnapshot", False, arities=(4,)),),
}


@dataclass(frozen=True, eq=False)
class BurnStoreApi:
    """burn-store's API as a crate that builds against ``version`` sees it (one instance per
    version: ``for_version``)."""

    # -- the same in every release ------------------------------------------------------------
    store_names: ClassVar[MappingProxyType[str, StoreKind]] = MappingProxyType(
        {kind.value: kind for kind in StoreKind}
    )
    # `ModuleSnapshot` (blanket-implemented for every `Module`) brings `save_into`, `load_from`
    # and `apply`; `ModuleStore` brings `collect_from` and `apply_to` (`traits.rs`).
    traits: ClassVar[frozenset[str]] = frozenset({"ModuleSnapshot", "ModuleStore"})
    adapters: ClassVar[frozenset[str]] = frozenset(
        {
            "PyTorchToBurnAdapter",
            "BurnToPyTorchAdapter",
            "ChainAdapter",
            "IdentityAdapter",
            "HalfPrecisionAdapter",
            "FloatCastAdapter",
        }
    )
    result_types: ClassVar[frozenset[str]] = frozenset({"ApplyResult"})
    # the path filter and the key remapper (`lib.rs:95`, `:102`), which compile regexes
    filter_type: ClassVar[str] = "PathFilter"
    remapper_type: ClassVar[str] = "KeyRemapper"
    # every name above: what a `use` of burn-store brings that burnlint reads
    exported_names: ClassVar[frozenset[str]] = (
        frozenset(store_names) | traits | adapters | result_types | {filter_type, remapper_type}
    )
    # names whose mention puts a file in burn-store's scope: a store type or a trait
    scope_words: ClassVar[tuple[bytes, ...]] = tuple(
        name.encode() for name in (*store_names, *sorted(traits))
    )
    # how code names the crate: `burn_store::..`, or `burn::store::..` through `burn`
    crate_paths: ClassVar[tuple[str, ...]] = ("burn_store", "burn::store")
    # burn-core's record path, and the trait its loads need in scope
    record_methods: ClassVar[frozenset[str]] = frozenset(
        {"save_file", "load_file", "try_load_file"}
    )
    record_trait: ClassVar[str] = _RECORD_TRAIT
    constructors: ClassVar[MappingProxyType[str, Constructor]] = MappingProxyType(_CONSTRUCTORS)
    # builders by what they set: a `bool` option (recorded by name), key remapping, adapters,
    # or nothing burnlint reads (filters, metadata, `with_top_level_key`)
    bool_options: ClassVar[MappingProxyType[str, BoolOption]] = MappingProxyType(_BOOL_OPTIONS)
    remap_builders: ClassVar[frozenset[str]] = _REMAP_BUILDERS
    adapter_builders: ClassVar[frozenset[str]] = _ADAPTER_BUILDERS
    other_builders: ClassVar[frozenset[str]] = _OTHER_BUILDERS
    # builders that compile a regex, by the store types that have them; those that panic on an
    # invalid one (the others drop it)
    regex_builders: ClassVar[MappingProxyType[str, frozenset[StoreKind]]] = _REGEX_BUILDERS
    panicking_regex_builders: ClassVar[frozenset[str]] = _PANICKING_REGEX_BUILDERS
    # `PathFilter`'s methods that add patterns, those that add other criteria; the store
    # builders that set a filter built elsewhere
    filter_regex_methods: ClassVar[frozenset[str]] = _FILTER_REGEX_METHODS
    filter_criteria: ClassVar[frozenset[str]] = _FILTER_CRITERIA
    filter_setters: ClassVar[frozenset[str]] = _FILTER_SETTERS
    # the store builders that set or extend its path filter (a store's own `with_regex`, ..)
    filter_builders: ClassVar[frozenset[str]] = _FILTER_SETTERS | frozenset(
        _OTHER_BUILDERS - {"metadata", "clear_metadata", "with_top_level_key"}
    )
    # `KeyRemapper::add_pattern` returns `Err(regex::Error)` instead (`keyremapper.rs:49-57`)
    remapper_regex_methods: ClassVar[frozenset[str]] = frozenset({"add_pattern"})
    # stores that apply a key remapping on load only: Burnpack remaps in its read-side cache
    # (`burnpack.rs:493-499`), `remap`'s doc says "during loading" (`:282`) and `collect_from`
    # never remaps (`:363-413`); Safetensors remaps on save too (`safetensors/store.rs:632-636`)
    remaps_on_load_only: ClassVar[frozenset[StoreKind]] = frozenset({StoreKind.BURNPACK})
    # the options that decide how PyTorch keys map to burn's paths (BL005, BL006)
    key_options: ClassVar[tuple[str, ...]] = ("map_indices_contiguous", "skip_enum_variants")
    # file stores that return `File already exists` for an existing path unless built with
    # `.overwrite(true)` (burn-store-api.md §3: `safetensors/store.rs:651-657`,
    # `burnpack.rs:389-395`); memory stores ignore `overwrite`, and a PytorchStore cannot save
    overwrite_refusing: ClassVar[frozenset[StoreKind]] = frozenset(
        {StoreKind.SAFETENSORS, StoreKind.BURNPACK}
    )
    # what a Burnpack file store appends to a path without an extension when `auto_extension`
    # is on (its default), before it checks for an existing file (`burnpack.rs:320-323`, `:387`)
    burnpack_extension: ClassVar[str] = "bpk"
    # every operation name, whatever the release (``ops``: the signatures a release has)
    op_names: ClassVar[tuple[str, ...]] = tuple(_OPS)
    # operations too common a name to search files for (`apply`): found by their trait
    ops_found_by_trait: ClassVar[frozenset[str]] = frozenset({"apply"})

    # -- by release ---------------------------------------------------------------------------
    version: str | None  # as given (None: unknown)
    series: Series | None  # its (major, minor) release series, when it names one
    lowest: str | None  # the lowest release it admits, when it has a lower bound
    # the signatures of each operation in ``series``; every signature when it is unknown
    ops: MappingProxyType[str, tuple[OpSpec, ...]]
    # builders that set another option, by name -> the option they set (those the release has)
    option_aliases: MappingProxyType[str, str]
    # every builder name: a call of one continues a store's builder chain
    builders: frozenset[str]
    # Burnpack's writer appends `.bpk` to a path without an extension itself, whatever the
    # store's `auto_extension`: from 0.22, which writes through burn-pack's `Writer`
    # (`writer.rs` `resolve_path`); up to 0.21 the store's writer wrote the exact path it
    # checked. Assumed when the release is unknown.
    writer_adds_extension: bool

    @classmethod
    def for_version(cls, version: str | None) -> BurnStoreApi:
        """The facts for ``version`` (None: unknown, then what every release may do)."""
        return _api_for(version)

    def op_spec(self, method: str, arity: int) -> OpSpec | None:
        """The signature of burn's ``method`` that a call with ``arity`` arguments has, if
        any."""
        for spec in self.ops.get(method, ()):
            if spec.arities and arity not in spec.arities:
                continue
            return spec
        return None

    def has_option(self, option: str) -> bool:
        """Whether every release ``version`` admits has the builder ``option`` (a requirement
        counts as its lowest release; an unknown version as the current API)."""
        since = self.bool_options[option].since
        return (
            since is None or self.lowest is None or release_key(self.lowest) >= release_key(since)
        )

    @classmethod
    def default(cls, kind: StoreKind, option: str) -> bool:
        """The value ``option`` has on a ``kind`` store that does not set it."""
        return cls.bool_options[option].defaults[kind]

    @staticmethod
    def prescribed(layout: LayoutKind, kind: StoreKind, option: str) -> bool:
        """The value of the key-mapping ``option`` that the seed's table gives a ``kind``
        loader for a ``layout`` (Sequential-like or mirror) filled from PyTorch."""
        return _PRESCRIBED[layout][kind][option]


@functools.cache
def _api_for(version: str | None) -> BurnStoreApi:
    series = release_series(version)
    ops = {
        name: tuple(spec for spec in specs if series is None or spec.in_series(series))
        for name, specs in _OPS.items()
    }
    lowest = lowest_version(version) if version else None
    aliases = {
        name: option
        for name, (option, lacked_by) in _OPTION_ALIASES.items()
        if lowest is None or release_key(lowest) > release_key(lacked_by)
    }
    return BurnStoreApi(
        version=version,
        series=series,
        lowest=lowest,
        ops=MappingProxyType({name: specs for name, specs in ops.items() if specs}),
        option_aliases=MappingProxyType(aliases),
        writer_adds_extension=series is None or series >= _WRITER_ADDS_EXTENSION,
        builders=frozenset(_BOOL_OPTIONS)
        | _REMAP_BUILDERS
        | _ADAPTER_BUILDERS
        | _OTHER_BUILDERS
        | frozenset(aliases),
    )
