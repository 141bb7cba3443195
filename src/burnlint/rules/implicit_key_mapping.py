"""BL005 implicit-key-mapping."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from burnlint.findings import Finding, Level, RuleMeta
from burnlint.model.burn_api import StoreKind
from burnlint.model.key_verdicts import Implicit, OptionState
from burnlint.model.keymapping import layout_reasons, prescribed, sequential_field
from burnlint.model.layout import FieldFact, LayoutKind
from burnlint.model.stores import Backing
from burnlint.rules import fixes
from burnlint.rules.base import Rule
from burnlint.rules.key_loaders import LOADERS, loader_related
from burnlint.rules.violation import Violation
from burnlint.rules.wording import layout_fact

if TYPE_CHECKING:
    from burnlint.rules.context import RuleContext

META = RuleMeta(
    id="BL005",
    name="implicit-key-mapping",
    level=Level.NOTE,
    summary=(
        "a PyTorch-facing loader leaves `map_indices_contiguous` or `skip_enum_variants` to "
        "its store's defaults"
    ),
    precision="very-high",
    tags=("burn-store", "pytorch"),
    fixable=True,
    since="0.1.0",
)

# What each value of an option does to PyTorch's keys, as a note says it.
_EFFECT = {
    ("map_indices_contiguous", True): "renumbers indices",
    ("map_indices_contiguous", False): "keeps index gaps",
    ("skip_enum_variants", True): "skips variant names",
    ("skip_enum_variants", False): "expects variant names",
}
_OTHER_STORE = {StoreKind.PYTORCH: "SafetensorsStore", StoreKind.SAFETENSORS: "PytorchStore"}


def _release(version: str | None) -> str:
    return f"burn {version}" if version is not None else "the burn release, which is not known"


@dataclass(frozen=True)
class ImplicitKeyOptions(Violation):
    loader: str  # the loader, named by what makes it PyTorch-facing
    kind: StoreKind
    states: tuple[OptionState, ...]
    layout: LayoutKind | None  # the layout it loads, when resolved by type
    release: str | None  # the burn release assumed (None: unknown)
    fixable: bool = False
    # the layout facts the implicit defaults are right for (BL012's table), as words
    right_today: str | None = None
    # a `Vec<Linear>` whose index option the loader leaves implicit, on a `SafetensorsStore`
    sequential: FieldFact | None = None

    @property
    def _names(self) -> str:
        return " and ".join(f"`{s.option}`" for s in self.states)

    @property
    def _defaults(self) -> str:
        return "".join(fixes.builder_call(s.option, s.default) for s in self.states)

    @property
    def message(self) -> str:
        where = " on some paths" if all(s.partly for s in self.states) else ""
        return f"{self.loader} leaves {self._names} implicit{where}"

    @property
    def label(self) -> str:
        effects = ", ".join(_EFFECT[s.option, s.default] for s in self.states)
        return f"relies on `{self.kind.value}`'s defaults: {effects}"

    @property
    def note(self) -> str:
        other = _OTHER_STORE[self.kind]
        said = [
            f"`{other}` defaults to the opposite, so the same weights map differently when "
            "the code moves between the two stores"
        ]
        partly = [s.option for s in self.states if s.partly]
        if partly and len(partly) < len(self.states):
            said.append(" and ".join(f"`{o}`" for o in partly) + " is set on some paths only")
        if self.layout is LayoutKind.MIXED:
            said.append(
                "the loaded modules hold both a mirror `Vec` of a module enum and a "
                "`Vec<Linear>`: no single `map_indices_contiguous` value fits both fields"
            )
        elif self.layout is LayoutKind.FLAT:
            said.append("harmless for the layout loaded today, which has no index gaps or enums")
        elif self.right_today:
            said.append(f"the defaults are right for {self.right_today} loaded today")
        if self.sequential is not None:
            name = self.sequential.name
            said.append(
                f"`{self.sequential.shown}` needs `map_indices_contiguous(true)` when the PyTorch "
                f"side is an `nn.Sequential` with parameter-free layers (`{name}.0`, "
                f"`{name}.2`); from an `nn.ModuleList` the default is right"
            )
        return "; ".join(said)

    @property
    def help(self) -> str:
        if self.layout is LayoutKind.MIXED:
            return (
                "map the keys of one field with `with_key_remapping`, or split the load; then "
                "write both options explicitly"
            )
        remedy = self.fix_title if self.fixable else f"write `{self._defaults}`"
        return f"{remedy}, or the values the loaded modules need (see BL012)"

    @property
    def fix_title(self) -> str:
        return f"write the defaults of {_release(self.release)}: `{self._defaults}`"


def _right_today(finding: Implicit) -> str | None:
    """The layout facts of the loaded modules whose value by the seed's table each implicit
    option's default already is (None when the layout is not resolved or has none)."""
    if finding.layout is None:
        return None
    reasons = layout_reasons(finding.layout)
    facts: list[str] = []
    for state in finding.states:
        reason = reasons.get(state.option)
        if reason is None or prescribed(reason, finding.loader.kind) != state.default:
            return None
        facts.append(layout_fact(reason))
    return " and ".join(dict.fromkeys(facts)) or None


def _implicit_sequential(finding: Implicit) -> FieldFact | None:
    """The `Vec<Linear>` of the loaded modules when the loader is a `SafetensorsStore` that
    leaves `map_indices_contiguous` to its default (`false`, right for a `ModuleList` only)."""
    if finding.layout is None or finding.loader.kind is not StoreKind.SAFETENSORS:
        return None
    if not any(s.option == "map_indices_contiguous" for s in finding.states):
        return None
    return sequential_field(finding.layout)


def _fix_is_safe(ctx: RuleContext, finding: Implicit) -> bool:
    """The release is known to have each option it writes, and a `SafetensorsStore`'s
    `map_indices_contiguous` (which needs burn-store's `std`) is on a file store (which needs
    it too)."""
    if ctx.model.burn_version is None:
        return False
    store = finding.loader.store
    return not any(
        s.option == "map_indices_contiguous"
        and store.kind is StoreKind.SAFETENSORS
        and any(v.backing is not Backing.FILE for v in store.variants)
        for s in finding.states
    )


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
use burn::nn::Linear;
use burn::prelude::*;
use burn_store::{ModuleSnapshot, PytorchStore};

#[derive(Module, Debug)]
pub struct Classifier<B: Backend> {
    fc1: Linear<B>,
    fc2: Linear<B>,
}

fn load<B: Backend>(model: &mut Classifier<B>) -> anyhow::Result<()> {
    model.load_from(&mut PytorchStore::from_file("classifier.pt"))?; // expect: BL005
    Ok(())
}
""",
    )

    @staticmethod
    def check(ctx: RuleContext) -> Iterator[Finding]:
        for finding in ctx.model.key_verdicts.implicit:
            loader = finding.loader
            layout = finding.layout.kind if finding.layout is not None else None
            fix = (
                None
                if layout is LayoutKind.MIXED
                else fixes.write_key_defaults(
                    ctx,
                    loader.store,
                    [s.option for s in finding.states],
                    safe=_fix_is_safe(ctx, finding),
                )
            )
            assert loader.facing is not None  # key loaders are PyTorch-facing
            violation = ImplicitKeyOptions(
                LOADERS[loader.facing],
                loader.kind,
                finding.states,
                layout,
                ctx.model.burn_version,
                fixable=fix is not None,
                right_today=_right_today(finding),
                sequential=_implicit_sequential(finding),
            )
            yield ctx.report(
                loader.report_at, violation, related=loader_related(ctx, loader), fix=fix
            )
