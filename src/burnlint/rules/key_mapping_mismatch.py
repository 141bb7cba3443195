"""BL012 key-mapping-mismatch."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from burnlint.findings import MAX_LABEL, Finding, Level, RelatedLocation, RuleMeta
from burnlint.model.key_verdicts import Mismatch
from burnlint.rules import fixes
from burnlint.rules.base import Rule
from burnlint.rules.key_loaders import LOADERS, loader_related
from burnlint.rules.violation import Violation
from burnlint.rules.wording import key_example, layout_consequence, layout_fact

if TYPE_CHECKING:
    from burnlint.rules.context import RuleContext

META = RuleMeta(
    id="BL012",
    name="key-mapping-mismatch",
    level=Level.WARNING,
    summary=(
        "a PyTorch loader's `map_indices_contiguous` or `skip_enum_variants` mis-maps the "
        "module layout it loads"
    ),
    precision="high",
    tags=("correctness", "burn-store", "pytorch"),
    fixable=True,
    since="0.1.0",
)


def _setting(m: Mismatch) -> str:
    call = fixes.builder_call(m.option, bool(m.state.value))[1:]
    return f"`{call}`" if m.state.written else f"`{call}` (its default)"


@dataclass(frozen=True)
class MismatchedKeyOptions(Violation):
    loader: str  # the loader, named by what makes it PyTorch-facing
    mismatches: tuple[Mismatch, ...]
    fixable: bool = False

    @property
    def _facts(self) -> str:
        return " and ".join(dict.fromkeys(layout_fact(m.reason) for m in self.mismatches))

    @property
    def _values(self) -> str:
        return "".join(fixes.builder_call(m.option, m.needed) for m in self.mismatches)

    @property
    def message(self) -> str:
        settings = " and ".join(_setting(m) for m in self.mismatches)
        verb = "mis-maps" if len(self.mismatches) == 1 else "mis-map"
        return f"{self.loader} runs {settings}, which {verb} {self._facts}"

    @property
    def label(self) -> str:
        examples = [key_example(m.reason) for m in self.mismatches]
        both = "; ".join(examples)
        return both if len(both) <= MAX_LABEL else examples[0]

    @property
    def help(self) -> str:
        consequences = "; ".join(
            layout_consequence(m.reason, bool(m.state.value), m.state.written)
            for m in self.mismatches
        )
        remedy = self.fix_title if self.fixable else f"write `{self._values}`"
        return f"{consequences}: {remedy}"

    @property
    def fix_title(self) -> str:
        return f"write `{self._values}` for {self._facts}"


class KeyMappingMismatch(Rule):
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
    let mut store = PytorchStore::from_file("mlp.pt")
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
    let mut store = PytorchStore::from_file("mlp.pt").skip_enum_variants(true); // expect: BL012
    model.load_from(&mut store)?;
    Ok(())
}
""",
    )

    @staticmethod
    def check(ctx: RuleContext) -> Iterator[Finding]:
        for mismatched in ctx.model.key_verdicts.mismatches:
            loader, mismatches = mismatched.loader, mismatched.mismatches
            related = loader_related(ctx, loader)
            related += tuple(
                RelatedLocation(ctx.location(other.report_at), "loaded the same way here")
                for other in mismatched.also
            )
            related += tuple(
                RelatedLocation(field.location, f"`{field.shown}` is declared here")
                for field in dict.fromkeys(m.reason.field for m in mismatches)
                if field.location is not None
            )
            fix = fixes.set_key_options(
                ctx, loader.store, [(m.option, m.needed) for m in mismatches]
            )
            assert loader.facing is not None  # key loaders are PyTorch-facing
            violation = MismatchedKeyOptions(
                LOADERS[loader.facing], mismatches, fixable=fix is not None
            )
            yield ctx.report(loader.report_at, violation, related=related, fix=fix)
