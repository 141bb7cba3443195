"""BL001 discarded-store-result."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from burnlint.findings import Finding, Level, RuleMeta
from burnlint.model.repeats import refuses_overwrite
from burnlint.model.result_forms import UseClass
from burnlint.rules.base import Rule
from burnlint.rules.violation import Violation
from burnlint.rules.wording import failure_effect, op_name

if TYPE_CHECKING:
    from burnlint.model.ops import StoreOp
    from burnlint.rules.context import RuleContext

META = RuleMeta(
    id="BL001",
    name="discarded-store-result",
    level=Level.ERROR,
    summary="the `Result` of a store save or load is discarded",
    precision="very-high",
    tags=("correctness", "burn-store"),
    since="0.1.0",
)


@dataclass(frozen=True)
class DiscardedResult(Violation):
    op: StoreOp
    refuses: bool  # the op's store refuses to overwrite an existing file

    @property
    def message(self) -> str:
        return f"the `Result` of {op_name(self.op)} is discarded"

    @property
    def label(self) -> str:
        return failure_effect(self.op, self.refuses)

    @property
    def help(self) -> str:
        return (
            "propagate the error with `?`, or handle the `Err` (stop, retry, or count the failure)"
        )


class DiscardedStoreResult(Rule):
    meta = META
    VALID = (
        """\
use burn_store::{ModuleSnapshot, SafetensorsStore};

fn save<M: ModuleSnapshot>(model: &M) -> anyhow::Result<()> {
    let mut store = SafetensorsStore::from_file("model.safetensors").overwrite(true);
    model.save_into(&mut store)?;
    Ok(())
}
""",
        """\
use burn_store::{BurnpackStore, ModuleSnapshot};

fn load<M: ModuleSnapshot>(model: &mut M) {
    let mut store = BurnpackStore::from_file("model.bpk");
    model.load_from(&mut store).expect("load model.bpk");
}
""",
    )
    INVALID = (
        """\
use burn_store::{ModuleSnapshot, SafetensorsStore};

fn save<M: ModuleSnapshot>(model: &M) {
    let mut store = SafetensorsStore::from_file("model.safetensors").overwrite(true);
    let _ = model.save_into(&mut store); // expect: BL001
}
""",
        """\
use burn_store::{BurnpackStore, ModuleSnapshot};

fn load<M: ModuleSnapshot>(model: &mut M) {
    let mut store = BurnpackStore::from_file("model.bpk");
    model.load_from(&mut store).ok(); // expect: BL001
}
""",
    )

    @staticmethod
    def check(ctx: RuleContext) -> Iterator[Finding]:
        for op in ctx.model.ops:
            if not op.returns_result:
                continue
            if ctx.model.result_use(op).use is not UseClass.DISCARDED:
                continue
            violation = DiscardedResult(op, refuses_overwrite(op.store, ctx.model))
            yield ctx.report(op.node, violation)
