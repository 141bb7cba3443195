"""BL005 implicit-key-mapping."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from burnlint.findings import Finding, Level, RelatedLocation, RuleMeta
from burnlint.model.keymapping import (
    Facing,
    LayoutReason,
    Loader,
    Matter,
    layout_reasons,
    loader_layout,
    prescribed,
)
from burnlint.model.layout import LayoutKind
from burnlint.rules import fixes
from burnlint.rules.base import Rule
from burnlint.rules.violation import Violation
from burnlint.rules.wording import layout_consequence, layout_fact

if TYPE_CHECKING:
    from burnlint.rules.context import RuleContext

META = RuleMeta(
    id="BL005",
    name="implicit-key-mapping",
    level=Level.WARNING,
    summary=(
        "a PyTorch-facing loader leaves `map_indices_contiguous` or `skip_enum_variants` implicit "
        "where the default mis-maps the crate's module layout"
    ),
    precision="medium",
    tags=("correctness", "burn-store", "pytorch"),
    fixable=True,
    since="0.1.0",
)


@dataclass(frozen=True)
class WrongDefault:
    """An option a loader leaves implicit whose default mis-maps the layout it loads."""

    reason: LayoutReason  # the layout fact that makes the option matter
    needed: bool  # the value the layout needs
    default: bool  # the store's default

    @property
    def call(self) -> str:
        return fixes.builder_call(self.reason.option, self.needed)


def wrong_defaults(ctx: RuleContext, loader: Loader) -> list[WrongDefault]:
    """The implicit options of ``loader`` whose default mis-maps PyTorch keys in the layout it
    loads (``loader_layout``), each with the value the layout needs; none when the layout is
    flat or unknown, or the crate's burn version has no such option."""
    model = ctx.model
    implicit = [o for o in loader.options if not loader.explicit(o)]
    if not implicit:
        return []
    layout = loader_layout(loader, model)
    reasons = layout_reasons(layout)
    wrong: list[WrongDefault] = []
    for option in implicit:
        reason = reasons.get(option)
        if reason is None or not model.api.has_option(option):
            continue
        if option == "map_indices_contiguous" and layout.kind is LayoutKind.MIXED:
            continue  # a mirror beside a `Vec<Linear>`: each value breaks one of them
        value = prescribed(reason, loader.kind)
        default = model.api.default(loader.kind, option)
        if value != default:
            wrong.append(WrongDefault(reason, value, default))
    return wrong


# The loader, named by what makes it PyTorch-facing.
LOADERS = {
    Facing.PYTORCH: "a `PytorchStore`",
    Facing.ADAPTER: "a `SafetensorsStore` with `PyTorchToBurnAdapter`",
    Facing.REMAPPING: "a `SafetensorsStore` with key remapping",
    Facing.BESIDE_PYTORCH: (
        "a `SafetensorsStore` loaded beside a PyTorch loader in the same function"
    ),
}


@dataclass(frozen=True)
class ImplicitKeyOptions(Violation):
    facing: Facing  # what makes the loader PyTorch-facing
    wrong: tuple[WrongDefault, ...]
    fixable: bool = False

    @property
    def _facts(self) -> str:
        return " and ".join(dict.fromkeys(layout_fact(w.reason) for w in self.wrong))

    @property
    def _values(self) -> str:
        return "".join(w.call for w in self.wrong)

    @property
    def message(self) -> str:
        names = " and ".join(f"`{w.reason.option}`" for w in self.wrong)
        default = "its default mis-maps" if len(self.wrong) == 1 else "their defaults mis-map"
        return f"{LOADERS[self.facing]} leaves {names} implicit, and {default} {self._facts}"

    @property
    def label(self) -> str:
        """The layout fact and what the default does to it, short enough for a caret label."""
        reason = self.wrong[0].reason
        shown = f"`{reason.field.shown}`"
        if reason.matter is Matter.MIRROR:
            return (
                f"{shown} mirrors a PyTorch Sequential; the default renumbering shifts its indices"
            )
        if reason.matter is Matter.SEQUENTIAL:
            return f"{shown} has no index gaps; by default a PyTorch Sequential's gaps stay"
        name = reason.enum.name if reason.enum is not None else "the enum"
        return f"by default the keys must name the variants of `{name}`; PyTorch keys never do"

    @property
    def help(self) -> str:
        consequences = "; ".join(layout_consequence(w.reason, w.default) for w in self.wrong)
        remedy = self.fix_title if self.fixable else f"write `{self._values}`"
        return f"{consequences}: {remedy}"

    @property
    def fix_title(self) -> str:
        return f"write `{self._values}` for {self._facts}"


class ImplicitKeyMapping(Rule):
    meta = META
    VALID = (
        """\
use burn::nn::{Linear, Relu};
use burn::prelude::*;
use burn_store::{ModuleSnapshot, PytorchStore};

#[derive(Module, Debug)]
pub enum Layer<B: Backend> {
    Linear(Linear<B>),
    Relu(Relu),
}

#[derive(Module, Debug)]
pub struct Mlp<B: Backend> {
    net: Vec<Layer<B>>,
}

fn load<B: Backend>(model: &mut Mlp<B>) -> anyhow::Result<()> {
    let mut store = PytorchStore::from_file("mlp.pt").map_indices_contiguous(false);
    model.load_from(&mut store)?;
    Ok(())
}
""",
        """\
use burn::nn::Linear;
use burn::prelude::*;
use burn_store::{ModuleSnapshot, PytorchStore};

#[derive(Module, Debug)]
pub struct Classifier<B: Backend> {
    fc1: Linear<B>,
    fc2: Linear<B>,
}

fn load<B: Backend>(model: &mut Classifier<B>) -> anyhow::Result<()> {
    model.load_from(&mut PytorchStore::from_file("classifier.pt"))?;
    Ok(())
}
""",
    )
    INVALID = (
        """\
use burn::nn::{Linear, Relu};
use burn::prelude::*;
use burn_store::{ModuleSnapshot, PytorchStore};

#[derive(Module, Debug)]
pub enum Layer<B: Backend> {
    Linear(Linear<B>),
    Relu(Relu),
}

#[derive(Module, Debug)]
pub struct Mlp<B: Backend> {
    net: Vec<Layer<B>>,
}

fn load<B: Backend>(model: &mut Mlp<B>) -> anyhow::Result<()> {
    let mut store = PytorchStore::from_file("mlp.pt"); // expect: BL005
    model.load_from(&mut store)?;
    Ok(())
}
""",
    )

    @staticmethod
    def check(ctx: RuleContext) -> Iterator[Finding]:
        model = ctx.model
        for loader in model.key_loaders:
            if loader.elsewhere:
                continue
            wrong = wrong_defaults(ctx, loader)
            if not wrong:
                continue
            related = tuple(
                RelatedLocation(ctx.location(op.node), "loaded here")
                for op in loader.loads
                if op.node != loader.report_at
            )
            if loader.store.origin is None:
                # the loads of this store where a crate-local function hands it over
                here = ctx.location(loader.report_at)
                related += tuple(
                    RelatedLocation(load, "loaded here")
                    for load in model.loads_elsewhere.get(here, ())
                )
            elif loader.store.helper is not None:
                related += (
                    RelatedLocation(
                        loader.store.origin, f"`{loader.store.helper}` builds the store here"
                    ),
                )
            related += tuple(
                RelatedLocation(field.location, f"`{field.shown}` is declared here")
                for field in dict.fromkeys(w.reason.field for w in wrong)
                if field.location is not None
            )
            fix = fixes.write_key_options(
                ctx, loader.store, [(w.reason.option, w.needed) for w in wrong]
            )
            assert loader.facing is not None  # key_loaders are PyTorch-facing
            violation = ImplicitKeyOptions(loader.facing, tuple(wrong), fixable=fix is not None)
            yield ctx.report(loader.report_at, violation, related=related, fix=fix)
