"""BL009 pytorch-export-index-gaps."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from burnlint.findings import Finding, Level, RelatedLocation, RuleMeta
from burnlint.model.burn_api import StoreKind
from burnlint.model.loaded_type import loaded_type
from burnlint.rules.base import Rule
from burnlint.rules.violation import Violation

if TYPE_CHECKING:
    from tree_sitter import Node

    from burnlint.model.layout import FieldFact
    from burnlint.model.ops import StoreOp
    from burnlint.rules.context import RuleContext

META = RuleMeta(
    id="BL009",
    name="pytorch-export-index-gaps",
    level=Level.NOTE,
    summary=(
        "a `Vec<Linear>`-like field is saved for PyTorch with contiguous indices where an "
        "`nn.Sequential` has gaps"
    ),
    precision="medium",
    tags=("burn-store", "pytorch"),
    enabled_by_default=False,
    since="0.1.0",
)

# the adapter that renames burn's tensors to PyTorch's on save (`adapter.rs`)
_EXPORT_ADAPTER = "BurnToPyTorchAdapter"


@dataclass(frozen=True)
class ContiguousExport(Violation):
    field: FieldFact  # the first `Vec<Linear>`-like field of the saved module
    root: str  # the saved module's type

    @property
    def _name(self) -> str:
        return self.field.name

    @property
    def message(self) -> str:
        return (
            f"`{self.field.shown}` is saved for PyTorch with contiguous indices and no key "
            "remapping"
        )

    @property
    def label(self) -> str:
        return (
            f"saved as `{self._name}.0`, `{self._name}.1`; an `nn.Sequential` may expect `.0`, `.2`"
        )

    @property
    def note(self) -> str:
        return (
            "burn-store can close such gaps when it loads (`map_indices_contiguous`), but never "
            "re-opens them when it saves; loading the file into an `nn.Sequential` then fails "
            "with missing and unexpected keys (a `ModuleList` has no gaps and loads it as is)"
        )

    @property
    def help(self) -> str:
        if self.field.owner == self.root:
            example = f'`.with_key_remapping(r"^{self._name}\\.1\\.", "{self._name}.2.")`'
        else:
            example = "`.with_key_remapping(from, to)`"
        return (
            f"if the PyTorch side is an `nn.Sequential`, renumber the keys on this store: "
            f"{example}, one per index after a gap"
        )


def _exported(op: StoreOp) -> bool:
    """A save of the module itself into a `SafetensorsStore` built here that converts to
    PyTorch's names and remaps no key."""
    store = op.store
    return (
        op.is_save
        and op.method == "save_into"
        and op.helper is None
        and store is not None
        and store.helper is None
        and store.kind is StoreKind.SAFETENSORS
        and _EXPORT_ADAPTER in store.to_adapters
        and not store.remaps
    )


class PytorchExportIndexGaps(Rule):
    meta = META
    VALID = (
        """\
use burn::nn::Linear;
use burn::prelude::*;
use burn_store::{BurnToPyTorchAdapter, ModuleSnapshot, SafetensorsStore};

#[derive(Module, Debug)]
pub struct Mlp<B: Backend> {
    net: Vec<Linear<B>>,
}

fn export<B: Backend>(model: &Mlp<B>) -> anyhow::Result<()> {
    let mut store = SafetensorsStore::from_file("mlp.safetensors")
        .with_to_adapter(BurnToPyTorchAdapter)
        .with_key_remapping(r"^net\\.1\\.", "net.2.");
    model.save_into(&mut store)?;
    Ok(())
}
""",
    )
    INVALID = (
        """\
use burn::nn::Linear;
use burn::prelude::*;
use burn_store::{BurnToPyTorchAdapter, ModuleSnapshot, SafetensorsStore};

#[derive(Module, Debug)]
pub struct Mlp<B: Backend> {
    net: Vec<Linear<B>>,
}

fn export<B: Backend>(model: &Mlp<B>) -> anyhow::Result<()> {
    let mut store = SafetensorsStore::from_file("mlp.safetensors") // expect: BL009
        .with_to_adapter(BurnToPyTorchAdapter);
    model.save_into(&mut store)?;
    Ok(())
}
""",
    )

    @staticmethod
    def check(ctx: RuleContext) -> Iterator[Finding]:
        model = ctx.model
        sites: dict[int, tuple[Node, list[StoreOp], FieldFact, str]] = {}
        for op in model.ops:
            if not _exported(op):
                continue
            root = loaded_type(op, model)
            if root is None:
                continue
            fields = model.layout.reachable(root).judged.sequential_like
            if not fields:
                continue
            assert op.store is not None
            site = op.store.constructor_node
            entry = sites.setdefault(site.id, (site, [], fields[0], root))
            entry[1].append(op)
        for site, saves, field, root in sorted(sites.values(), key=lambda e: e[0].start_byte):
            related = tuple(RelatedLocation(ctx.location(op.node), "saved here") for op in saves)
            if field.location is not None:
                related += (RelatedLocation(field.location, f"`{field.shown}` is declared here"),)
            yield ctx.report(site, ContiguousExport(field, root), related=related)
