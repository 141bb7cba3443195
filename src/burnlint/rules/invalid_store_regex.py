"""BL010 invalid-store-regex."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from burnlint.findings import Finding, Level, RuleMeta
from burnlint.model.burn_api import StoreKind
from burnlint.model.regexes import Criteria, Outcome, RegexArgument, invalid_regexes
from burnlint.model.rust_regex import RegexProblem
from burnlint.rules.base import Rule
from burnlint.rules.violation import Violation
from burnlint.rust.syntax import text

if TYPE_CHECKING:
    from burnlint.rules.context import RuleContext

META = RuleMeta(
    id="BL010",
    name="invalid-store-regex",
    level=Level.ERROR,
    summary="a regex literal burn-store compiles is one the Rust `regex` crate rejects",
    precision="very-high",
    tags=("correctness", "burn-store"),
    since="0.1.0",
)

# What to write instead, by what the crate rejects.
_REMEDIES = {
    RegexProblem.UNCLOSED_GROUP: "close the group, or escape a literal `(` as `\\(`",
    RegexProblem.UNOPENED_GROUP: "escape a literal `)` as `\\)`",
    RegexProblem.UNCLOSED_CLASS: "close the class, or escape a literal `[` as `\\[`",
    RegexProblem.REPETITION_MISSING: (
        "put the repeated item before the operator, or escape a literal `*`, `+`, `?` or `{`"
    ),
    RegexProblem.COUNTED_REPETITION: "write `{n}`, `{n,}` or `{n,m}`, or escape a literal `{`",
    RegexProblem.LOOK_AROUND: (
        "the crate has no look-around: match the context itself, and keep it with a capture "
        "group (`$1` in a replacement)"
    ),
    RegexProblem.BACKREFERENCE: "the crate has no back-references: spell the repeated text out",
    RegexProblem.UNSUPPORTED_GROUP: "the crate has no atomic or comment groups: use `(?:..)`",
    RegexProblem.FLAG: "the crate's flags are `i`, `m`, `s`, `R`, `U`, `u` and `x`",
    RegexProblem.GROUP_NAME: (
        "name a group with letters, digits, `_`, `.`, `[` or `]`, starting with a letter or `_`, "
        "once per pattern"
    ),
    RegexProblem.ESCAPE: (
        "use an escape the crate knows (`\\z` for the end of the text, not `\\Z`), or escape "
        "only punctuation"
    ),
}


@dataclass(frozen=True)
class InvalidRegex(Violation):
    argument: RegexArgument

    @property
    def _call(self) -> str:
        return f"`{self.argument.owner}::{self.argument.method}`"

    @property
    def message(self) -> str:
        argument = self.argument
        if argument.outcome is Outcome.PANICS:
            effect = f"{self._call} panics with `Invalid regex pattern`"
        elif argument.outcome is Outcome.RETURNS_ERR:
            effect = f"{self._call} returns `Err`"
        else:
            effect = f"{self._call} drops it silently, {self._dropped}"
        return f"the `regex` crate rejects this pattern: {effect}"

    @property
    def _dropped(self) -> str:
        argument = self.argument
        if argument.criteria is Criteria.OTHERS:
            return "and the filter matches by its other criteria only"
        if argument.criteria is Criteria.UNKNOWN:
            return "and the filter matches by its other criteria only, if it has any"
        if argument.store is StoreKind.BURNPACK:
            return (
                "and with no other criterion the filter matches nothing: a save writes no "
                "tensor, and a load skips every tensor without an error"
            )
        if argument.store is not None:
            return (
                "and with no other criterion the filter is empty, which filters nothing: "
                "every tensor is saved or loaded"
            )
        return (
            "and with no other criterion the filter is empty: it matches no path (a "
            "`BurnpackStore` given it saves and loads no tensor; a `SafetensorsStore` or "
            "`PytorchStore` given it filters nothing)"
        )

    @property
    def label(self) -> str:
        error = self.argument.error
        return f"{error.problem.value}: `{error.detail}`"

    @property
    def note(self) -> str | None:
        """The pattern's value, where escapes make it differ from the literal as written."""
        written = text(self.argument.literal)
        if written.startswith("r") or "\\" not in written:
            return None
        return f"the pattern, as Rust decodes the literal, is `{self.argument.pattern}`"

    @property
    def help(self) -> str:
        return _REMEDIES[self.argument.error.problem]


class InvalidStoreRegex(Rule):
    meta = META
    VALID = (
        """\
use burn_store::{ModuleSnapshot, PytorchStore};

fn load<M: ModuleSnapshot>(model: &mut M) -> anyhow::Result<()> {
    let mut store = PytorchStore::from_file("model.pt")
        .map_indices_contiguous(true)
        .skip_enum_variants(true)
        .with_key_remapping("^backbone\\\\.(.*)$", "encoder.$1")
        .with_key_remapping(r"(?<block>layer\\d+)\\.gamma$", "$block.weight");
    model.load_from(&mut store)?;
    Ok(())
}
""",
    )
    INVALID = (
        """\
use burn_store::{ModuleSnapshot, PytorchStore};

fn load<M: ModuleSnapshot>(model: &mut M) -> anyhow::Result<()> {
    let mut store = PytorchStore::from_file("model.pt")
        .map_indices_contiguous(true)
        .skip_enum_variants(true)
        .with_key_remapping(r"^(?!head)(.*)", "backbone.$1"); // expect: BL010
    model.load_from(&mut store)?;
    Ok(())
}
""",
        """\
use burn_store::{BurnpackStore, ModuleSnapshot};

fn save<M: ModuleSnapshot>(model: &M) -> anyhow::Result<()> {
    let mut store = BurnpackStore::from_file("encoder").with_regex("^encoder.(*"); // expect: BL010
    model.save_into(&mut store)?;
    Ok(())
}
""",
    )

    @staticmethod
    def check(ctx: RuleContext) -> Iterator[Finding]:
        for argument in invalid_regexes(ctx.model):
            yield ctx.report(argument.literal, InvalidRegex(argument))
