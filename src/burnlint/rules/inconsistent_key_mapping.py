"""BL006 inconsistent-key-mapping."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from burnlint.findings import Finding, Level, RelatedLocation, RuleMeta
from burnlint.model.burn_api import StoreKind
from burnlint.model.keymapping import (
    LayoutReason,
    Loader,
    layout_reasons,
    loader_layout,
    prescribed,
)
from burnlint.rules.base import Rule
from burnlint.rules.fixes import builder_call
from burnlint.rules.violation import Violation
from burnlint.rules.wording import layout_stakes

if TYPE_CHECKING:
    from burnlint.rules.context import RuleContext


META = RuleMeta(
    id="BL006",
    name="inconsistent-key-mapping",
    level=Level.WARNING,
    summary=(
        "PyTorch-facing `PytorchStore` and `SafetensorsStore` loaders in one file map keys "
        "differently where the crate's module layout makes it matter"
    ),
    precision="medium",
    tags=("correctness", "burn-store", "pytorch"),
    since="0.1.0",
)


def _show(value: bool | None, explicit: bool) -> str:
    shown = "true" if value else "false"
    return shown if explicit else f"{shown} (default)"


def _reported_where_built(st: Loader, pt: Loader) -> bool:
    """Both stores are built by crate-local functions of one other file: that file holds the
    pair and reports it (one report per defect), not each file that loads them."""
    a, b = st.store.origin, pt.store.origin
    return st.elsewhere and pt.elsewhere and a is not None and b is not None and a.path == b.path


@dataclass(frozen=True)
class Difference:
    """A key-mapping option the two loaders run with different values."""

    option: str
    here: bool | None  # the `SafetensorsStore`'s value
    here_explicit: bool
    pytorch: bool | None  # the `PytorchStore`'s value
    pytorch_explicit: bool
    reason: LayoutReason  # the layout fact that makes it matter
    needed: bool  # the value the layout needs

    @property
    def shown(self) -> str:
        return (
            f"`{self.option}` is {_show(self.here, self.here_explicit)} here, "
            f"{_show(self.pytorch, self.pytorch_explicit)} on the `PytorchStore`"
        )


@dataclass(frozen=True)
class KeyMappingMismatch(Violation):
    differences: tuple[Difference, ...]

    @property
    def message(self) -> str:
        return (
            "this `SafetensorsStore` and the `PytorchStore` in the same file map keys differently"
        )

    @property
    def label(self) -> str:
        if len(self.differences) == 1:
            return self.differences[0].shown
        return "both key-mapping options differ from the `PytorchStore`'s"

    @property
    def help(self) -> str:
        shown = [d.shown for d in self.differences] if len(self.differences) > 1 else []
        stakes = "; ".join(shown + [layout_stakes(d.reason) for d in self.differences])
        values = "".join(builder_call(d.option, d.needed) for d in self.differences)
        return (
            f"{stakes}; the same weights load with one store and fail or mis-map with the "
            f"other: write the same explicit values on both (`{values}` for this layout)"
        )


class InconsistentKeyMapping(Rule):
    meta = META
    VALID = (
        """\
use burn::nn::{Linear, Relu};
use burn::prelude::*;
use burn_store::{ModuleSnapshot, PyTorchToBurnAdapter, PytorchStore, SafetensorsStore};

#[derive(Module, Debug)]
pub enum Layer<B: Backend> {
    Linear(Linear<B>),
    Relu(Relu),
}

#[derive(Module, Debug)]
pub struct Mlp<B: Backend> {
    net: Vec<Layer<B>>,
}

fn load_pt<B: Backend>(model: &mut Mlp<B>) -> anyhow::Result<()> {
    let mut store = PytorchStore::from_file("mlp.pt")
        .map_indices_contiguous(false)
        .skip_enum_variants(true);
    model.load_from(&mut store)?;
    Ok(())
}

fn load_st<B: Backend>(model: &mut Mlp<B>) -> anyhow::Result<()> {
    let mut store = SafetensorsStore::from_file("mlp.safetensors")
        .with_from_adapter(PyTorchToBurnAdapter)
        .map_indices_contiguous(false)
        .skip_enum_variants(true);
    model.load_from(&mut store)?;
    Ok(())
}
""",
    )
    INVALID = (
        """\
use burn::nn::{Linear, Relu};
use burn::prelude::*;
use burn_store::{ModuleSnapshot, PyTorchToBurnAdapter, PytorchStore, SafetensorsStore};

#[derive(Module, Debug)]
pub enum Layer<B: Backend> {
    Linear(Linear<B>),
    Relu(Relu),
}

#[derive(Module, Debug)]
pub struct Mlp<B: Backend> {
    net: Vec<Layer<B>>,
}

fn load_pt<B: Backend>(model: &mut Mlp<B>) -> anyhow::Result<()> {
    let mut store = PytorchStore::from_file("mlp.pt")
        .map_indices_contiguous(false)
        .skip_enum_variants(true);
    model.load_from(&mut store)?;
    Ok(())
}

fn load_st<B: Backend>(model: &mut Mlp<B>) -> anyhow::Result<()> {
    let mut store = SafetensorsStore::from_file("mlp.safetensors") // expect: BL006
        .with_from_adapter(PyTorchToBurnAdapter)
        .map_indices_contiguous(false)
        .skip_enum_variants(false);
    model.load_from(&mut store)?;
    Ok(())
}
""",
    )

    @staticmethod
    def check(ctx: RuleContext) -> Iterator[Finding]:
        model = ctx.model
        loaders = model.key_loaders
        pytorch = [loader for loader in loaders if loader.kind is StoreKind.PYTORCH]
        safetensors = [loader for loader in loaders if loader.kind is StoreKind.SAFETENSORS]
        if not (pytorch and safetensors):
            return  # before reading the layout: it costs parsing the target's module files
        existing = [o for o in model.api.key_options if model.api.has_option(o)]
        if not existing:
            return  # a burn version without the options
        layouts = {id(loader): loader_layout(loader, model) for loader in loaders}
        # by the pair of layouts: most loaders of a file fill the same modules
        pair_reasons: dict[tuple[int, int], dict[str, LayoutReason]] = {}
        for st in safetensors:
            for pt in pytorch:
                if _reported_where_built(st, pt):
                    continue
                # only the options the loaded layouts make matter (flat or unknown: none)
                pair = (id(layouts[id(st)]), id(layouts[id(pt)]))
                if pair not in pair_reasons:
                    both = layouts[id(st)]
                    if layouts[id(pt)] is not both:
                        both = both.merge(layouts[id(pt)])
                    pair_reasons[pair] = layout_reasons(both)
                reasons = pair_reasons[pair]
                options = [o for o in existing if o in reasons]
                differing = [
                    o
                    for o in options
                    if o in st.options
                    and o in pt.options
                    and st.effective(o) is not None
                    and pt.effective(o) is not None
                    and st.effective(o) != pt.effective(o)
                ]
                if not differing:
                    continue
                differences = tuple(
                    Difference(
                        o,
                        st.effective(o),
                        st.explicit(o),
                        pt.effective(o),
                        pt.explicit(o),
                        reasons[o],
                        prescribed(reasons[o], st.kind),
                    )
                    for o in differing
                )
                fields = dict.fromkeys(reasons[o].field for o in differing)
                yield ctx.report(
                    st.report_at,
                    KeyMappingMismatch(differences),
                    related=(
                        RelatedLocation(
                            ctx.location(pt.report_at), "the `PytorchStore` is built here"
                        ),
                        *(
                            RelatedLocation(field.location, f"`{field.shown}` is declared here")
                            for field in fields
                            if field.location is not None
                        ),
                    ),
                )
                break
