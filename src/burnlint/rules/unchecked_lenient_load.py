"""BL007 unchecked-lenient-load."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from burnlint.findings import Finding, Level, RelatedLocation, RuleMeta
from burnlint.model.apply_checks import ERRORS, MISSING
from burnlint.model.summaries import leniency
from burnlint.rules.base import Rule
from burnlint.rules.violation import Violation

if TYPE_CHECKING:
    from burnlint.rules.context import RuleContext

META = RuleMeta(
    id="BL007",
    name="unchecked-lenient-load",
    level=Level.WARNING,
    summary="the `ApplyResult` of a lenient load is not checked",
    precision="high",
    tags=("correctness", "burn-store"),
    since="0.1.0",
)


@dataclass(frozen=True)
class UncheckedApplyResult(Violation):
    whose: str  # "of `load_from`", "that `load` returns"
    reasons: tuple[str, ...]  # why the load is lenient
    unchecked: frozenset[str]  # the fields nobody reads: MISSING, ERRORS

    @property
    def message(self) -> str:
        return f"the `ApplyResult` {self.whose} is not checked while {' and '.join(self.reasons)}"

    @property
    def label(self) -> str:
        silent: list[str] = []
        if MISSING in self.unchecked:
            silent.append("tensors missing from the file (`missing`)")
        if ERRORS in self.unchecked:
            silent.append("shape mismatches (`errors`)")
        return f"{' and '.join(silent)} go unnoticed"

    @property
    def note(self) -> str:
        return "the parameters they concern keep their initial values, silently"

    @property
    def help(self) -> str:
        wanted: list[str] = []
        if MISSING in self.unchecked:
            wanted.append("`result.missing`")
        if ERRORS in self.unchecked:
            wanted.append("`result.errors` (or `is_success()`)")
        return f"read {' and '.join(wanted)}, or print the whole result (`{{result}}` lists both)"


class UncheckedLenientLoad(Rule):
    meta = META
    VALID = (
        """\
use burn_store::{ModuleSnapshot, SafetensorsStore};

fn load<M: ModuleSnapshot>(model: &mut M) -> anyhow::Result<()> {
    let mut store = SafetensorsStore::from_file("model.safetensors").allow_partial(true);
    let result = model.load_from(&mut store)?;
    anyhow::ensure!(result.missing.is_empty(), "missing tensors: {:?}", result.missing);
    Ok(())
}
""",
        """\
use burn_store::{ModuleSnapshot, SafetensorsStore};

fn load<M: ModuleSnapshot>(model: &mut M) -> anyhow::Result<()> {
    model.load_from(&mut SafetensorsStore::from_file("model.safetensors"))?;
    Ok(())
}
""",
    )
    INVALID = (
        """\
use burn_store::{ModuleSnapshot, SafetensorsStore};

fn load<M: ModuleSnapshot>(model: &mut M) -> anyhow::Result<()> {
    let mut store = SafetensorsStore::from_file("model.safetensors").allow_partial(true);
    model.load_from(&mut store)?; // expect: BL007
    Ok(())
}
""",
        """\
use burn_store::{ModuleSnapshot, SafetensorsStore};

fn load<M: ModuleSnapshot>(model: &mut M) -> anyhow::Result<()> {
    let mut store = SafetensorsStore::from_file("model.safetensors").validate(false);
    let result = model.load_from(&mut store)?; // expect: BL007
    println!("{} tensors applied", result.applied.len());
    Ok(())
}
""",
    )

    @staticmethod
    def check(ctx: RuleContext) -> Iterator[Finding]:
        model = ctx.model
        for op in model.ops:
            if not op.returns_apply_result:
                continue
            related: list[RelatedLocation] = []
            flow = op.summary.ok if op.summary is not None else None
            if flow is not None:
                # a crate-local function hands the ApplyResult back: what it leaves unchecked
                # is the caller's to check
                required = flow.required - flow.checked
                reasons = list(flow.reasons)
                related.append(RelatedLocation(flow.origin, "the lenient load is here"))
            else:
                required, reason_tuple = leniency(op, model)
                reasons = list(reason_tuple)
                store = op.store
                if store is not None and store.helper is None:
                    related.append(
                        RelatedLocation(
                            ctx.location(store.constructor_node), "the store is built here"
                        )
                    )
                elif store is not None and store.origin is not None:
                    related.append(
                        RelatedLocation(store.origin, f"`{store.helper}` builds the store here")
                    )
            if not required:
                continue
            unchecked = required - model.apply_checks(op)
            if not unchecked:
                continue
            for name, location, reads in model.partial_checkers:
                read = " and ".join(f"`{field}`" for field in sorted(reads)) or "neither list"
                related.append(
                    RelatedLocation(location, f"`{name}` is given the result and reads only {read}")
                )
            violation = UncheckedApplyResult(
                f"that `{op.helper}` returns" if flow is not None else f"of `{op.method}`",
                tuple(reasons),
                frozenset(unchecked),
            )
            yield ctx.report(op.node, violation, related=tuple(related))
