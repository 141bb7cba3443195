"""BL004 implicit-overwrite."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from burnlint.findings import Finding, Level, RelatedLocation, RuleMeta
from burnlint.model.repeats import refuses_overwrite
from burnlint.rules import fixes
from burnlint.rules.base import Rule
from burnlint.rules.violation import Violation
from burnlint.rules.wording import OVERWRITE, overwrite_fix_title

if TYPE_CHECKING:
    from tree_sitter import Node

    from burnlint.model.ops import StoreOp
    from burnlint.rules.context import RuleContext

META = RuleMeta(
    id="BL004",
    name="implicit-overwrite",
    level=Level.NOTE,
    summary="a file store is saved into without an explicit `.overwrite(..)`",
    precision="high",
    tags=("burn-store", "checkpoint"),
    fixable=True,
    enabled_by_default=False,
    since="0.1.0",
)


@dataclass(frozen=True)
class SaveWithoutOverwrite(Violation):
    store: str  # the store's type, `BurnpackStore`
    fixed_in: str | None = None  # the crate-local function whose store the fix changes

    @property
    def message(self) -> str:
        return f"`{self.store}` is saved into without `.overwrite(..)`"

    @property
    def label(self) -> str:
        return (
            "it refuses to replace an existing file: the next run fails with `File already exists`"
        )

    @property
    def help(self) -> str:
        return (
            f"say what you want: {OVERWRITE} to replace the file, or `.overwrite(false)` to "
            "keep the first one"
        )

    @property
    def fix_title(self) -> str:
        return overwrite_fix_title(self.fixed_in)


class ImplicitOverwrite(Rule):
    meta = META
    VALID = (
        """\
use burn_store::{BurnpackStore, ModuleSnapshot};

fn export<M: ModuleSnapshot>(model: &M) -> anyhow::Result<()> {
    let mut store = BurnpackStore::from_file("model.bpk").overwrite(false);
    model.save_into(&mut store)?;
    Ok(())
}
""",
        """\
use burn_store::{BurnpackStore, ModuleSnapshot};

fn import<M: ModuleSnapshot>(model: &mut M) -> anyhow::Result<()> {
    let mut store = BurnpackStore::from_file("model.bpk");
    model.load_from(&mut store)?;
    Ok(())
}
""",
    )
    INVALID = (
        """\
use burn_store::{BurnpackStore, ModuleSnapshot};

fn export<M: ModuleSnapshot>(model: &M) -> anyhow::Result<()> {
    let mut store = BurnpackStore::from_file("model.bpk"); // expect: BL004
    model.save_into(&mut store)?;
    Ok(())
}
""",
    )

    @staticmethod
    def check(ctx: RuleContext) -> Iterator[Finding]:
        sites: dict[int, tuple[Node, list[StoreOp]]] = {}
        for op in ctx.model.ops:
            if (
                not op.is_save
                or op.helper is not None
                or not refuses_overwrite(op.store, ctx.model)
            ):
                continue
            site = op.store.constructor_node if op.store.helper is None else op.node
            sites.setdefault(site.id, (site, []))[1].append(op)
        for site, saves in sorted(sites.values(), key=lambda entry: entry[0].start_byte):
            store = saves[0].store
            assert store is not None
            related = tuple(
                RelatedLocation(ctx.location(op.node), "saved into here")
                for op in saves
                if op.node != site
            )
            fix = fixes.add_overwrite(ctx, store)
            violation = SaveWithoutOverwrite(
                store.kind.value, store.helper if fix is not None else None
            )
            yield ctx.report(site, violation, related=related, fix=fix)
