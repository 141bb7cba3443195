"""BL006 inconsistent-key-mapping."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from burnlint.findings import MAX_LABEL, Finding, Level, RelatedLocation, RuleMeta
from burnlint.model.key_verdicts import Difference, Disagreement, OptionState
from burnlint.model.keymapping import (
    LayoutReason,
    certain_reasons,
    prescribed,
    sequential_field,
)
from burnlint.model.layout import FieldFact
from burnlint.rules import fixes
from burnlint.rules.base import Rule
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
        "with different `map_indices_contiguous` or `skip_enum_variants` values"
    ),
    precision="medium",
    tags=("correctness", "burn-store", "pytorch"),
    fixable=True,
    since="0.1.0",
)

# Which value of each option breaks which layout (the seed's table, read the other way).
_BREAKS = {
    "map_indices_contiguous": (
        "`map_indices_contiguous(true)` breaks a mirror `Vec` of a module enum, `false` a "
        "`Vec<Linear>` filled from an `nn.Sequential` with parameter-free layers"
    ),
    "skip_enum_variants": (
        "`skip_enum_variants(false)` breaks every module enum: PyTorch's keys never name variants"
    ),
}


def _show(state: OptionState) -> str:
    shown = "true" if state.value else "false"
    return shown if state.written else f"{shown} (default)"


@dataclass(frozen=True)
class Today:
    """What the layout both loaders fill makes of a difference, when it is resolved."""

    difference: Difference
    known: bool  # the layout is resolved by type
    reason: LayoutReason | None  # the layout fact that makes the option matter (None: none)
    # a `Vec<Linear>` of the resolved layout, for the index option: it may matter
    sequential: FieldFact | None = None


@dataclass(frozen=True)
class KeyMappingDisagreement(Violation):
    today: tuple[Today, ...]  # per differing option, over every disagreeing `PytorchStore`
    pytorch_count: int
    fixable: bool = False

    @property
    def message(self) -> str:
        names = " and ".join(f"`{t.difference.option}`" for t in self.today)
        other = "the `PytorchStore`" if self.pytorch_count == 1 else "the `PytorchStore`s"
        return f"this `SafetensorsStore` and {other} in the same file run {names} differently"

    @property
    def label(self) -> str:
        said = "; ".join(
            f"`{t.difference.option}` is {_show(t.difference.here)} here, "
            f"{_show(t.difference.pytorch)} there"
            for t in self.today
        )
        if len(said) <= MAX_LABEL:
            return said
        return "both key-mapping options differ from the `PytorchStore`'s"

    @property
    def note(self) -> str:
        said: list[str] = []
        for t in self.today:
            said.append(_BREAKS[t.difference.option])
            if t.reason is not None:
                said.append(f"it fails today: {layout_stakes(t.reason)}")
            elif t.sequential is not None:
                said.append(
                    f"`{t.sequential.shown}` needs `map_indices_contiguous(true)` if the PyTorch "
                    "side is an `nn.Sequential` with parameter-free layers, and either value "
                    "if it is an `nn.ModuleList`"
                )
            elif t.known:
                said.append("the modules loaded today do not depend on it")
        return "; ".join(said)

    @property
    def help(self) -> str:
        said = (
            "the same weights load with one store and fail or mis-map with the other: choose "
            "the values for the modules loaded and write them on both stores"
        )
        return f"{said}; {self.fix_title}" if self.fixable else said

    @property
    def fix_title(self) -> str:
        return "write the values of the `PytorchStore`, or those the loaded modules need"


_INDICES = "map_indices_contiguous"


def _today(disagreement: Disagreement) -> tuple[Today, ...]:
    """Per option, the first disagreeing `PytorchStore`'s difference and what the layout
    both fill makes of it."""
    found: dict[str, Today] = {}
    for pair in disagreement.pytorch:
        reasons = certain_reasons(pair.layout) if pair.layout is not None else {}
        for difference in pair.differences:
            if difference.option in found and found[difference.option].reason is not None:
                continue
            reason = reasons.get(difference.option)
            if difference.option not in found or reason is not None:
                found[difference.option] = Today(
                    difference,
                    pair.layout is not None,
                    reason,
                    sequential_field(pair.layout)
                    if pair.layout is not None and difference.option == _INDICES
                    else None,
                )
    return tuple(found.values())


def _fixed_values(
    disagreement: Disagreement, today: tuple[Today, ...]
) -> list[tuple[str, bool]] | None:
    """The values the fix writes on the `SafetensorsStore`: those the loaded modules need
    where the layout is known, else the `PytorchStore`s' value, when they all run the same
    one (None otherwise: no value would end the disagreement)."""
    here = disagreement.loader
    own = certain_reasons(disagreement.layout) if disagreement.layout is not None else {}
    values: list[tuple[str, bool]] = []
    for t in today:
        option = t.difference.option
        # the store's own layout first: BL012 would report any other value there
        reason = own.get(option, t.reason)
        if reason is not None:
            values.append((option, prescribed(reason, here.kind)))
            continue
        theirs = dict(disagreement.compared).get(option, frozenset())
        if len(theirs) != 1 or None in theirs:
            return None
        values.append((option, bool(next(iter(theirs)))))
    return values


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
use burn::nn::Linear;
use burn::prelude::*;
use burn_store::{ModuleSnapshot, PyTorchToBurnAdapter, PytorchStore, SafetensorsStore};

#[derive(Module, Debug)]
pub struct Classifier<B: Backend> {
    fc1: Linear<B>,
    fc2: Linear<B>,
}

fn load_pt<B: Backend>(model: &mut Classifier<B>) -> anyhow::Result<()> {
    let mut store = PytorchStore::from_file("classifier.pt")
        .map_indices_contiguous(true)
        .skip_enum_variants(true);
    model.load_from(&mut store)?;
    Ok(())
}

fn load_st<B: Backend>(model: &mut Classifier<B>) -> anyhow::Result<()> {
    let mut store = SafetensorsStore::from_file("classifier.safetensors") // expect: BL006
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
        for disagreement in ctx.model.key_verdicts.disagreements:
            here = disagreement.loader
            today = _today(disagreement)
            values = _fixed_values(disagreement, today)
            fix = None if values is None else fixes.set_key_options(ctx, here.store, values)
            related = tuple(
                RelatedLocation(
                    ctx.location(pair.loader.report_at), "the `PytorchStore` is built here"
                )
                for pair in disagreement.pytorch
            )
            related += tuple(
                RelatedLocation(field.location, f"`{field.shown}` is declared here")
                for field in dict.fromkeys(t.reason.field for t in today if t.reason is not None)
                if field.location is not None
            )
            violation = KeyMappingDisagreement(
                today, len(disagreement.pytorch), fixable=fix is not None
            )
            yield ctx.report(here.report_at, violation, related=related, fix=fix)
