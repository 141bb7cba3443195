"""BL003 store-overwrite-in-loop."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from burnlint.findings import Finding, Level, RelatedLocation, RuleMeta
from burnlint.rules import fixes
from burnlint.rules.base import Rule
from burnlint.rules.violation import Violation
from burnlint.rules.wording import OVERWRITE, overwrite_fix_title

if TYPE_CHECKING:
    from burnlint.rules.context import RuleContext

META = RuleMeta(
    id="BL003",
    name="store-overwrite-in-loop",
    level=Level.ERROR,
    summary="a file store that refuses to overwrite is saved into repeatedly in a loop",
    precision="high",
    tags=("correctness", "burn-store", "checkpoint"),
    fixable=True,
    since="0.1.0",
)


@dataclass(frozen=True)
class OverwriteInLoop(Violation):
    store: str  # the store's type, `SafetensorsStore`
    why: str  # why every iteration saves to the same file
    fixed_in: str | None = None  # the crate-local function whose store the fix changes

    @property
    def message(self) -> str:
        return f"`{self.store}` is saved into in a loop but refuses to overwrite its file"

    @property
    def label(self) -> str:
        return self.why

    @property
    def note(self) -> str:
        return (
            "from the second iteration on every save returns `File already exists` and the "
            "checkpoint stays at the first save"
        )

    @property
    def help(self) -> str:
        if self.fixed_in is not None:
            return f"{self.fix_title}, or save each iteration to its own path"
        return f"{OVERWRITE} to the store, or save each iteration to its own path"

    @property
    def fix_title(self) -> str:
        return overwrite_fix_title(self.fixed_in)


class StoreOverwriteInLoop(Rule):
    meta = META
    VALID = (
        """\
use burn_store::{ModuleSnapshot, SafetensorsStore};

fn train<M: ModuleSnapshot>(model: &M, epochs: usize) -> anyhow::Result<()> {
    for _ in 0..epochs {
        let mut store = SafetensorsStore::from_file("latest.safetensors").overwrite(true);
        model.save_into(&mut store)?;
    }
    Ok(())
}
""",
        """\
use burn_store::{ModuleSnapshot, SafetensorsStore};

fn train<M: ModuleSnapshot>(model: &M, epochs: usize) -> anyhow::Result<()> {
    for epoch in 0..epochs {
        let mut store = SafetensorsStore::from_file(format!("epoch-{epoch}.safetensors"));
        model.save_into(&mut store)?;
    }
    Ok(())
}
""",
    )
    INVALID = (
        """\
use burn_store::{ModuleSnapshot, SafetensorsStore};

fn train<M: ModuleSnapshot>(model: &M, epochs: usize) -> anyhow::Result<()> {
    for _ in 0..epochs {
        let mut store = SafetensorsStore::from_file("latest.safetensors"); // expect: BL003
        model.save_into(&mut store)?;
    }
    Ok(())
}
""",
    )

    @staticmethod
    def check(ctx: RuleContext) -> Iterator[Finding]:
        model = ctx.model
        for repeated in model.repeated_saves:
            store = repeated.store
            related = tuple(
                RelatedLocation(ctx.location(op.node), "saved into here, in every iteration")
                for op in repeated.saves
                if op.node != repeated.report_at
            )
            if store.origin is not None:
                related = (
                    *related,
                    RelatedLocation(
                        store.origin,
                        f"`{store.helper}` builds the store here, without `.overwrite(..)`",
                    ),
                )
            fix = fixes.add_overwrite(ctx, store)
            violation = OverwriteInLoop(
                store.kind.value, repeated.why, store.helper if fix is not None else None
            )
            yield ctx.report(repeated.report_at, violation, related=related, fix=fix)
