"""BL011 remap-ignored-on-save."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from burnlint.findings import Finding, Level, RelatedLocation, RuleMeta
from burnlint.model.remaps import ignored_remaps
from burnlint.rules.base import Rule
from burnlint.rules.violation import Violation
from burnlint.rust.syntax import method_call_parts

if TYPE_CHECKING:
    from tree_sitter import Node

    from burnlint.findings import Span
    from burnlint.rules.context import RuleContext

META = RuleMeta(
    id="BL011",
    name="remap-ignored-on-save",
    level=Level.WARNING,
    summary=(
        "a `BurnpackStore` with a key remapping is saved into and never loaded from: "
        "the remapping applies to loads only"
    ),
    precision="high",
    tags=("correctness", "burn-store"),
    since="0.1.0",
)


@dataclass(frozen=True)
class RemapOnSave(Violation):
    method: str  # `remap` or `with_remap_pattern`

    @property
    def message(self) -> str:
        return (
            f"`BurnpackStore::{self.method}` is ignored on save: the store is saved into and "
            "never loaded from"
        )

    @property
    def label(self) -> str:
        return "Burnpack remaps keys when it reads a file, never when it writes one"

    @property
    def note(self) -> str:
        return (
            "the file keeps the module's own tensor names; only a load through a store with "
            "this remapping would see the new ones"
        )

    @property
    def help(self) -> str:
        return (
            "move the remapping to the store that loads the file, or save through a "
            "`SafetensorsStore`, whose `with_key_remapping` applies on save too"
        )


def _method_span(ctx: RuleContext, call: Node) -> tuple[Span, str]:
    """From the method's name to the end of the call (``remap(remapper)``), and the name."""
    parts = method_call_parts(call)
    assert parts is not None  # a remap call of a builder chain
    function = call.child_by_field_name("function")
    name = function.child_by_field_name("field") if function is not None else None
    start = name.start_byte if name is not None else call.start_byte
    return ctx.model.source.span(start, call.end_byte), parts[1]


class RemapIgnoredOnSave(Rule):
    meta = META
    VALID = (
        """\
use burn_store::{BurnpackStore, ModuleSnapshot};

fn load<M: ModuleSnapshot>(model: &mut M) -> anyhow::Result<()> {
    let mut store = BurnpackStore::from_file("model.bpk")
        .with_remap_pattern(r"^encoder\\.", "backbone.");
    model.load_from(&mut store)?;
    Ok(())
}
""",
        """\
use burn_store::{ModuleSnapshot, SafetensorsStore};

fn export<M: ModuleSnapshot>(model: &M) -> anyhow::Result<()> {
    let mut store = SafetensorsStore::from_file("model.safetensors")
        .with_key_remapping(r"^backbone\\.", "encoder.");
    model.save_into(&mut store)?;
    Ok(())
}
""",
    )
    INVALID = (
        """\
use burn_store::{BurnpackStore, ModuleSnapshot};

fn export<M: ModuleSnapshot>(model: &M) -> anyhow::Result<()> {
    let mut store = BurnpackStore::from_file("model.bpk")
        .with_remap_pattern(r"^backbone\\.", "encoder."); // expect: BL011
    model.save_into(&mut store)?;
    Ok(())
}
""",
    )

    @staticmethod
    def check(ctx: RuleContext) -> Iterator[Finding]:
        for ignored in ignored_remaps(ctx.model):
            related = (
                RelatedLocation(ctx.location(ignored.store.constructor_node), "built here"),
                *(
                    RelatedLocation(ctx.location(op.node), "saved into here")
                    for op in ignored.saves
                ),
            )
            for call in ignored.remaps:
                span, method = _method_span(ctx, call)
                yield ctx.report(call, RemapOnSave(method), related=related, span=span)
