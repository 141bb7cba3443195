"""``BurnStoreApi``: burn-store's facts by burn release, and the prefilter words derived from
them."""

from __future__ import annotations

import pytest

from burnlint.model.burn_api import BurnStoreApi, StoreKind
from burnlint.model.file_model import FileModel
from burnlint.model.layout import LayoutKind
from burnlint.project.prefilter import _BROAD_WORDS, TRIGGER_WORDS, broad_words, has_trigger
from burnlint.rust.source import SourceFile
from burnlint.rust.syntax import parse

EVERY_RELEASE = BurnStoreApi.for_version(None)


def _found(name: str) -> bool:
    """Whether a file that names ``name`` passes the prefilter's words."""
    return any(word.decode() in name for word in TRIGGER_WORDS)


@pytest.mark.parametrize("name", BurnStoreApi.op_names)
def test_trigger_words_find_every_operation(name: str) -> None:
    if name not in BurnStoreApi.ops_found_by_trait:
        assert _found(name)
        return
    # found by its trait: a file calling it names the trait, or glob-imports the crate
    for spec in EVERY_RELEASE.ops[name]:
        assert spec.trait is not None and _found(spec.trait)
    assert all(_found(path) for path in BurnStoreApi.crate_paths)


@pytest.mark.parametrize("name", list(BurnStoreApi.store_names))
def test_trigger_words_find_every_store_type(name: str) -> None:
    assert _found(name)


@pytest.mark.parametrize("trait", sorted(BurnStoreApi.traits))
def test_trigger_words_find_every_trait_or_each_operation_it_brings(trait: str) -> None:
    """A trait matters only for the operations it brings: its name is a trigger word, or each
    of those operations is found by its own name (`ModuleStore`: `collect_from`, `apply_to`)."""
    brought = [
        name
        for name, specs in EVERY_RELEASE.ops.items()
        if any(spec.trait == trait for spec in specs)
    ]
    assert brought
    assert _found(trait) or all(
        name not in BurnStoreApi.ops_found_by_trait and _found(name) for name in brought
    )


def test_every_trigger_word_holds_a_first_pass_word() -> None:
    for word in TRIGGER_WORDS:
        assert any(broad in word for broad in _BROAD_WORDS), word
    assert len(_BROAD_WORDS) < len(TRIGGER_WORDS)


def test_first_pass_words_are_the_most_shared_parts() -> None:
    assert broad_words((b"SafetensorsStore", b"burn_store", b"load_from", b"load_file")) == (
        b"load_f",
        b"tore",
    )
    assert broad_words((b"abc", b"apply_to")) == (b"apply_to", b"abc")  # too short: itself


@pytest.mark.parametrize(
    ("source", "passes"),
    [
        ("use burn_store::ModuleSnapshot;\nfn f() { m.apply(a, None, None, false); }", True),
        ("use burn::store::*;\nfn f() { m.apply(a, None, None, false); }", True),
        ("fn f(m: &M) { m.clone().try_load_file(p); }", True),
        ("fn f(s: &mut S) { s.collect_from(&m); }", True),
        ("fn f() { m.apply(a, None, None, false); }", False),
        ("fn f() { restore(); m.apply(a, None, None, false); }", False),  # `tore`, no word
    ],
)
def test_prefilter(source: str, passes: bool) -> None:
    assert has_trigger(source.encode()) is passes


def test_one_instance_per_version() -> None:
    assert BurnStoreApi.for_version("0.21.0") is BurnStoreApi.for_version("0.21.0")
    assert BurnStoreApi.for_version("0.21.0") is not BurnStoreApi.for_version("0.22.0")


@pytest.mark.parametrize(
    ("version", "series", "record_loads"),
    [
        (None, None, {"load_file", "try_load_file"}),
        ("0.21.0", (0, 21), {"load_file"}),
        ("=0.22.0-pre.2", (0, 22), {"load_file", "try_load_file"}),
    ],
)
def test_operations_follow_the_release(
    version: str | None, series: tuple[int, int] | None, record_loads: set[str]
) -> None:
    api = BurnStoreApi.for_version(version)
    assert api.version == version
    assert api.series == series
    assert {name for name in ("load_file", "try_load_file") if name in api.ops} == record_loads


@pytest.mark.parametrize(
    ("version", "writer_adds"), [(None, True), ("0.21.0", False), ("0.22.0-pre.2", True)]
)
def test_burnpack_writer_extension_follows_the_release(
    version: str | None, writer_adds: bool
) -> None:
    assert BurnStoreApi.for_version(version).writer_adds_extension is writer_adds


def test_defaults_differ_between_stores() -> None:
    for option in BurnStoreApi.key_options:
        assert BurnStoreApi.default(StoreKind.PYTORCH, option) is True
        assert BurnStoreApi.default(StoreKind.SAFETENSORS, option) is False
    assert BurnStoreApi.default(StoreKind.BURNPACK, "auto_extension") is True
    assert BurnStoreApi.default(StoreKind.SAFETENSORS, "overwrite") is False
    assert StoreKind.PYTORCH not in BurnStoreApi.overwrite_refusing


def test_prescribed_table() -> None:
    # renumbering closes PyTorch's gaps for a `Vec<Linear>`, and breaks a mirror
    for kind in (StoreKind.PYTORCH, StoreKind.SAFETENSORS):
        assert BurnStoreApi.prescribed(LayoutKind.SEQUENTIAL_LIKE, kind, "map_indices_contiguous")
        assert not BurnStoreApi.prescribed(LayoutKind.MIRROR, kind, "map_indices_contiguous")
        assert BurnStoreApi.prescribed(LayoutKind.MIRROR, kind, "skip_enum_variants")


def test_file_model_reads_its_crates_release() -> None:
    data = b"fn main() {}\n"
    source = SourceFile("main.rs", data, parse(data))
    assert FileModel(source, burn_version="0.21.0").api is BurnStoreApi.for_version("0.21.0")
    assert FileModel(source).api is EVERY_RELEASE
    api = BurnStoreApi.for_version("0.20.1")
    assert FileModel(source, api=api).burn_version == "0.20.1"


ALIASED = b"""\
use burn_store::{ModuleSnapshot, PytorchStore};

fn load(model: &mut Net) {
    let mut store = PytorchStore::from_file("net.pt").map_indices_contiguous_except("^flows$");
    model.load_from(&mut store).unwrap();
}
"""


@pytest.mark.parametrize(
    ("version", "has_alias"),
    [(None, True), ("0.22.1", True), ("0.22", True), ("0.22.0-pre.2", False), ("0.21.0", False)],
)
def test_map_indices_contiguous_except_where_the_release_may_have_it(
    version: str | None, has_alias: bool
) -> None:
    api = BurnStoreApi.for_version(version)
    assert ("map_indices_contiguous_except" in api.builders) is has_alias
    model = FileModel(SourceFile("load.rs", ALIASED, parse(ALIASED)), burn_version=version)
    [op] = model.ops
    if has_alias:
        assert op.store is not None
        setting = op.store.option("map_indices_contiguous")
        assert setting is not None and setting.value is None
    else:
        assert op.store is None  # a method the release lacks: the store is unknown


def test_regex_builders_continue_a_store_chain() -> None:
    """A store's regex builders are builders (a chain through them is still the store), each
    on store types that have it, and the panicking ones among them."""
    assert set(BurnStoreApi.regex_builders) <= EVERY_RELEASE.builders
    assert BurnStoreApi.panicking_regex_builders <= set(BurnStoreApi.regex_builders)
    assert all(kinds for kinds in BurnStoreApi.regex_builders.values())
    # Burnpack has `with_remap_pattern` and `with_regex`, no `with_key_remapping`/`with_regexes`
    burnpack = {m for m, k in BurnStoreApi.regex_builders.items() if StoreKind.BURNPACK in k}
    assert burnpack == {"with_remap_pattern", "with_regex"}
    assert BurnStoreApi.remaps_on_load_only == frozenset({StoreKind.BURNPACK})


def test_filter_and_remapper_names_are_imported_names() -> None:
    """`use burn_store::{PathFilter, KeyRemapper}` is recorded, so BL010 resolves them."""
    data = b"use burn_store::{KeyRemapper, PathFilter as Filter};\n"
    imports = FileModel(SourceFile("lib.rs", data, parse(data))).imports
    assert imports.names(["Filter"], "PathFilter")
    assert imports.names(["KeyRemapper"], "KeyRemapper")
    assert not imports.names(["PathFilter"], "PathFilter")  # imported under another name
    assert imports.names(["burn", "store", "PathFilter"], "PathFilter")
    assert not imports.names(["other", "PathFilter"], "PathFilter")
