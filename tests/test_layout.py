"""``ModuleLayout``: which fields make a key-mapping option matter, and which burn releases
have the options (BL005, BL006)."""

from __future__ import annotations

from pathlib import Path

import pytest

from burnlint.engine import lint_files
from burnlint.model.burn_api import BurnStoreApi
from burnlint.model.keymapping import Matter, layout_reasons
from burnlint.model.layout import LayoutFacts, LayoutKind, collect_layout
from burnlint.options import EngineOptions
from burnlint.rules.registry import resolve
from burnlint.rust.source import SourceFile
from burnlint.rust.syntax import parse

TESTDATA = Path(__file__).resolve().parent.parent / "testdata"


def layout(code: str) -> LayoutFacts:
    data = code.encode()
    return collect_layout(SourceFile(Path("model.rs"), data, parse(data)))


MIRROR = """
#[derive(Module, Debug)]
pub enum Layer<B: Backend> { Linear(Linear<B>), Relu(Relu) }
#[derive(Module, Debug)]
pub struct Net<B: Backend> { net: Vec<Layer<B>> }
"""


def test_a_vec_of_an_enum_with_a_parameter_free_variant_is_a_mirror() -> None:
    facts = layout(MIRROR)
    assert facts.kind is LayoutKind.MIRROR
    reasons = layout_reasons(facts)
    assert reasons["map_indices_contiguous"].matter is Matter.MIRROR
    assert reasons["map_indices_contiguous"].field.shown == "net: Vec<Layer>"
    gap = reasons["map_indices_contiguous"].gap
    assert gap is not None and gap.name == "Relu"
    assert reasons["skip_enum_variants"].matter is Matter.ENUM


def test_a_unit_struct_of_the_crate_is_parameter_free() -> None:
    facts = layout(
        """
        #[derive(Module, Debug)]
        pub enum Norm<B: Backend> { First(ChannelsFirst), Batch(BatchNorm<B>) }
        #[derive(Module, Debug, Clone)]
        pub struct ChannelsFirst;
        #[derive(Module, Debug)]
        pub struct Stem<B: Backend> { norm1: Vec<Norm<B>> }
        """
    )
    assert facts.kind is LayoutKind.MIRROR


def test_a_vec_of_an_enum_whose_variants_all_hold_parameters_is_no_mirror() -> None:
    facts = layout(
        """
        #[derive(Module, Debug)]
        pub enum Residual<B: Backend> { Basic(BasicBlock<B>), Bottleneck(Bottleneck<B>) }
        #[derive(Module, Debug)]
        pub struct BasicBlock<B: Backend> { conv: Conv2d<B> }
        #[derive(Module, Debug)]
        pub struct Bottleneck<B: Backend> { conv: Conv2d<B> }
        #[derive(Module, Debug)]
        pub struct Stage<B: Backend> { blocks: Vec<Residual<B>> }
        """
    )
    assert facts.kind is LayoutKind.FLAT
    assert set(layout_reasons(facts)) == {"skip_enum_variants"}


@pytest.mark.parametrize(
    ("fields", "kind"),
    [
        ("layers: Vec<Linear<B>>, act: Relu", LayoutKind.SEQUENTIAL_LIKE),
        ("convs: Vec<burn::nn::conv::Conv2d<B>>", LayoutKind.SEQUENTIAL_LIKE),
        ("norms: Vec<LayerNorm<B>>", LayoutKind.FLAT),
        ("embeddings: Vec<Embedding<B>>", LayoutKind.FLAT),
        ("blocks: Vec<Block<B>>", LayoutKind.FLAT),
        ("fc1: Linear<B>, fc2: Linear<B>", LayoutKind.FLAT),
    ],
)
def test_sequential_like_is_a_vec_of_burn_stackable_layers(fields: str, kind: LayoutKind) -> None:
    facts = layout(
        f"""
        #[derive(Module, Debug)]
        pub struct Block<B: Backend> {{ attn: Linear<B> }}
        #[derive(Module, Debug)]
        pub struct Net<B: Backend> {{ {fields} }}
        """
    )
    assert facts.kind is kind


def test_a_type_of_the_crate_named_like_a_burn_layer_is_the_crate_s() -> None:
    facts = layout(
        """
        #[derive(Module, Debug)]
        pub struct Linear<B: Backend> { inner: burn::nn::Linear<B> }
        #[derive(Module, Debug)]
        pub struct Net<B: Backend> { layers: Vec<Linear<B>> }
        """
    )
    assert facts.kind is LayoutKind.FLAT


def test_mirror_beside_sequential_is_mixed_and_unknown_without_modules() -> None:
    head = "\n#[derive(Module, Debug)]\npub struct Head<B: Backend> { l: Vec<Linear<B>> }"
    mixed = layout(MIRROR + head)
    assert mixed.kind is LayoutKind.MIXED
    assert layout("pub struct NotAModule { x: Vec<Linear> }").kind is LayoutKind.UNKNOWN


def test_reachable_keeps_the_types_a_module_holds() -> None:
    facts = layout(
        MIRROR
        + """
        #[derive(Module, Debug)]
        pub struct Flat<B: Backend> { fc: Linear<B> }
        #[derive(Module, Debug)]
        pub struct Outer<B: Backend> { inner: Option<Net<B>> }
        """
    )
    assert facts.kind is LayoutKind.MIRROR
    assert facts.reachable("Flat").kind is LayoutKind.FLAT
    assert facts.reachable("Outer").kind is LayoutKind.MIRROR
    assert facts.reachable("Elsewhere").kind is LayoutKind.UNKNOWN


@pytest.mark.parametrize(
    ("version", "skip", "contiguous"),
    [
        (None, True, True),
        ("0.19.1", False, False),
        ("0.19", False, False),
        ("0.20.0-pre.3", False, False),
        ("0.20.0-pre.5", True, False),
        ("0.20.0-pre.6", True, True),
        ("0.20", True, True),
        ("0.22.0-pre.2", True, True),
    ],
)
def test_which_releases_have_the_options(version: str | None, skip: bool, contiguous: bool) -> None:
    api = BurnStoreApi.for_version(version)
    assert api.has_option("skip_enum_variants") is skip
    assert api.has_option("map_indices_contiguous") is contiguous


def test_messages_name_the_layout_fact_and_labels_stay_short() -> None:
    crate = TESTDATA / "crates/layout_mirror"
    files = sorted(crate.rglob("*.rs"))
    result = lint_files(
        files, EngineOptions(rule_ids=resolve(select=["BL012"]), project_root=crate)
    )
    assert result.findings
    for finding in result.findings:
        assert finding.label is not None and len(finding.label) < 120, finding.label
        assert finding.help
        related = {r.location.path for r in finding.related}
        assert crate / "src" / "model.rs" in related  # where the field is declared
    first = result.findings[0]
    assert first.message == (
        "a `PytorchStore` runs `map_indices_contiguous(true)` (its default), which mis-maps "
        "the mirror `net: Vec<Layer>`"
    )
    assert first.label == "the file's `net.2` becomes `net.1`"
    assert first.help is not None and first.help.endswith(
        ": write `.map_indices_contiguous(false)` for the mirror `net: Vec<Layer>`"
    )
    assert "`Layer::Relu` holds no parameters" in first.help
