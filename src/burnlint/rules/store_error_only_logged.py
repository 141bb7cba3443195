"""BL002 store-error-only-logged."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from burnlint.findings import Finding, Level, RuleMeta
from burnlint.model.result_forms import UseClass
from burnlint.rules.base import Rule
from burnlint.rules.violation import Violation
from burnlint.rules.wording import op_name

if TYPE_CHECKING:
    from burnlint.model.ops import StoreOp
    from burnlint.rules.context import RuleContext

META = RuleMeta(
    id="BL002",
    name="store-error-only-logged",
    level=Level.WARNING,
    summary="the error of a save in a loop, or of a load, is only logged",
    precision="high",
    tags=("correctness", "burn-store"),
    since="0.1.0",
)


@dataclass(frozen=True)
class OnlyLogged(Violation):
    op: StoreOp  # a save in a loop, or a load

    @property
    def message(self) -> str:
        if self.op.is_save:
            return f"the error of {op_name(self.op)} in a loop is only logged"
        return f"the error of {op_name(self.op)} is only logged"

    @property
    def label(self) -> str:
        if self.op.is_save:
            return "training goes on while the checkpoint stays at the last good save"
        # every store applies what it can before returning Err (burn-store-api.md §2)
        return "the model goes on with a mix of loaded and initial weights"

    @property
    def help(self) -> str:
        if self.op.is_save:
            return (
                "stop on failure (`?` or `break`), or count failures and report them after the loop"
            )
        return "stop on failure (`?`, `expect`), or re-initialise the model in the `Err` branch"


class StoreErrorOnlyLogged(Rule):
    meta = META
    VALID = (
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
        """\
use burn_store::{ModuleSnapshot, SafetensorsStore};

fn save<M: ModuleSnapshot>(model: &M) {
    let mut store = SafetensorsStore::from_file("model.safetensors").overwrite(true);
    if let Err(e) = model.save_into(&mut store) {
        eprintln!("saving failed: {e}");
    }
}
""",
    )
    INVALID = (
        """\
use burn_store::{ModuleSnapshot, SafetensorsStore};

fn train<M: ModuleSnapshot>(model: &M, epochs: usize) {
    for epoch in 0..epochs {
        let mut store = SafetensorsStore::from_file(format!("epoch-{epoch}.safetensors"));
        if let Err(e) = model.save_into(&mut store) { // expect: BL002
            eprintln!("checkpoint {epoch} failed: {e}");
        }
    }
}
""",
        """\
use burn_store::{ModuleSnapshot, SafetensorsStore};

fn load<M: ModuleSnapshot>(model: &mut M) {
    let mut store = SafetensorsStore::from_file("model.safetensors");
    if let Err(e) = model.load_from(&mut store) { // expect: BL002
        log::warn!("using initial weights: {e}");
    }
}
""",
    )

    @staticmethod
    def check(ctx: RuleContext) -> Iterator[Finding]:
        model = ctx.model
        for op in model.ops:
            if not op.returns_result or model.result_use(op).use is not UseClass.LOGGED_ONLY:
                continue
            if op.is_load and op.is_record:
                # burn-core's record loads consume the module and return nothing on error:
                # no half-loaded model goes on, only the fallback the code chose
                continue
            # Outside a loop a logged failure is the last line of output; inside one,
            # training goes on and the log line scrolls away.
            if op.is_save and model.loop_of(op.node) is None:
                continue
            yield ctx.report(op.node, OnlyLogged(op))
