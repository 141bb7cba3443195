"""BL008 unused-suppression: allow comments that suppress nothing, name no rule or do not parse.

Unlike the other rules it does not query the model: it needs to know which allows matched a
finding, so it runs after suppressions are applied: the engine passes ``report`` to
``suppress.finish_file``, which calls it. ``check`` yields nothing.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from burnlint.findings import Applicability, Edit, Finding, Level, RuleMeta
from burnlint.rules.base import Rule
from burnlint.rules.context import FixEdits, finding_at, titled
from burnlint.rules.violation import Violation
from burnlint.suppress.statements import WHITESPACE

if TYPE_CHECKING:
    from burnlint.rules.context import RuleContext
    from burnlint.rust.source import SourceFile
    from burnlint.suppress import Allow, AllowId, Directives

META = RuleMeta(
    id="BL008",
    name="unused-suppression",
    level=Level.NOTE,
    summary="a `// burnlint: allow(..)` comment suppresses nothing or names no rule",
    precision="very-high",
    tags=("suppression",),
    fixable=True,
    enabled_by_default=True,
    since="0.1.0",
)


@dataclass(frozen=True)
class UnusedAllow(Violation):
    """An allow comment some of whose rule ids have no effect."""

    allow: Allow
    unused: tuple[AllowId, ...]  # suppress no finding of a rule that ran
    unknown: tuple[AllowId, ...]  # name no rule
    duplicate: tuple[AllowId, ...]  # name a rule listed before
    kept: bool  # some of its ids have an effect: the fix removes only the others

    @property
    def message(self) -> str:
        parts: list[str] = []
        if self.unused:
            parts.append(_unused_message(self.allow, self.unused))
        parts.extend(f"`{allow_id.text}` is not a burnlint rule" for allow_id in self.unknown)
        parts.extend(
            f"`{allow_id.text}` names a rule listed before it" for allow_id in self.duplicate
        )
        return "; ".join(parts)

    @property
    def help(self) -> str | None:
        helps = [
            f"did you mean `{allow_id.suggestion}`?"
            for allow_id in self.unknown
            if allow_id.suggestion
        ]
        if self.unknown and not helps:
            helps.append("`burnlint rules` lists the rule ids and names")
        return "; ".join(helps) or None

    @property
    def fix_title(self) -> str:
        if not self.kept:
            return "remove the suppression comment"
        # in the order they are written
        dropped = {id(i) for i in (*self.unknown, *self.duplicate, *self.unused)}
        listed = ", ".join(f"`{i.text}`" for i in self.allow.ids if id(i) in dropped)
        return f"remove {listed} from the allow"


@dataclass(frozen=True)
class MalformedAllow(Violation):
    """A burnlint comment that does not parse, so suppresses nothing."""

    reason: str  # what is wrong with it
    suggestion: str | None  # the allow its author meant, with their rules and reason

    @property
    def message(self) -> str:
        return f"ignored burnlint comment: {self.reason}"

    @property
    def help(self) -> str:
        if self.suggestion is not None:
            return f"write `{self.suggestion}`"
        return (
            "name the rules it suppresses: `// burnlint: allow(ID, ..)` (ids or names, "
            "comma-separated), optionally followed by `-- reason`"
        )


class UnusedSuppression(Rule):
    meta = META
    VALID = (
        """\
use burn_store::{ModuleSnapshot, SafetensorsStore};

fn save<M: ModuleSnapshot>(model: &M) {
    let mut store = SafetensorsStore::from_file("model.safetensors").overwrite(true);
    // burnlint: allow(BL001) -- best effort: the next epoch saves again
    let _ = model.save_into(&mut store);
}
""",
    )
    INVALID = (
        """\
use burn_store::{ModuleSnapshot, SafetensorsStore};

fn save<M: ModuleSnapshot>(model: &M) -> anyhow::Result<()> {
    let mut store = SafetensorsStore::from_file("model.safetensors").overwrite(true);
    // expect-next: BL008
    // burnlint: allow(BL001)
    model.save_into(&mut store)?;
    Ok(())
}
""",
        """\
use burn_store::{ModuleSnapshot, SafetensorsStore};

fn save<M: ModuleSnapshot>(model: &M) -> anyhow::Result<()> {
    let mut store = SafetensorsStore::from_file("model.safetensors").overwrite(true);
    // expect-next: BL008
    model.save_into(&mut store)?; // burnlint: allow(BL01)
    Ok(())
}
""",
    )

    @staticmethod
    def check(ctx: RuleContext) -> Iterator[Finding]:
        return iter(())  # run by the engine after suppressions (see the module docstring)


def report(
    source: SourceFile,
    directives: Directives,
    used: set[tuple[int, int]],
    judged: frozenset[str],
    meta: RuleMeta,
) -> list[Finding]:
    """One finding per allow comment with ids that have no effect, and per malformed comment.

    ``used`` holds the (allow index, id index) pairs that suppressed a finding; ``judged`` the
    rule ids whose findings are known for this file (an allow for a rule that did not run is
    neither used nor unused); ``meta`` BL008's metadata at the level of this run. An allow
    that names BL008 itself is never reported.
    """
    out: list[Finding] = []
    for index, allow in enumerate(directives.allows):
        if any(i.rule_id == META.id for i in allow.ids):
            continue
        unknown: list[AllowId] = []
        duplicate: list[AllowId] = []
        unused: list[AllowId] = []
        seen: set[str] = set()
        for position, allow_id in enumerate(allow.ids):
            if allow_id.rule_id is None:
                unknown.append(allow_id)
            elif allow_id.rule_id in seen:
                duplicate.append(allow_id)
            elif allow_id.rule_id in judged and (index, position) not in used:
                unused.append(allow_id)
            if allow_id.rule_id is not None:
                seen.add(allow_id.rule_id)
        if not (unknown or duplicate or unused):
            continue
        ineffective = {id(i) for i in (*unknown, *duplicate, *unused)}
        keep = [i for i in allow.ids if id(i) not in ineffective]
        violation = UnusedAllow(allow, tuple(unused), tuple(unknown), tuple(duplicate), bool(keep))
        fix = _fix(source, allow, keep)
        out.append(_finding(source, allow.comment_start, allow.comment_end, violation, fix, meta))
    for bad in directives.malformed:
        malformed = MalformedAllow(bad.message, bad.suggestion)
        out.append(_finding(source, bad.comment_start, bad.comment_end, malformed, None, meta))
    return out


def _unused_message(allow: Allow, unused: Sequence[AllowId]) -> str:
    names = [f"`{i.text}`" for i in unused]
    listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" or {names[-1]}"
    if allow.file_level:
        return f"unused suppression: no {listed} finding in this file"
    if allow.first_line > allow.last_line:
        return "unused suppression: no statement follows it"
    if allow.first_line == allow.last_line:
        return f"unused suppression: no {listed} finding on line {allow.first_line}"
    return (
        f"unused suppression: no {listed} finding in the statement it covers "
        f"(lines {allow.first_line}-{allow.last_line})"
    )


def _fix(source: SourceFile, allow: Allow, keep: Sequence[AllowId]) -> FixEdits:
    """Delete the ids that have no effect, or the whole comment when none is left. Safe: an
    allow that suppresses nothing changes nothing when it goes."""
    path = source.path
    if keep:
        content = ", ".join(i.text for i in keep)
        edit = Edit(path, allow.ids_start, allow.ids_end, content)
        return FixEdits(Applicability.SAFE, (edit,))
    data = source.data
    line0 = source.line_of(allow.comment_start)
    line_start = source.line_starts[line0]
    if allow.trailing:
        # `code(); // burnlint: ..` -> `code();`: the spaces before the comment go too.
        start = line_start + len(data[line_start : allow.comment_start].rstrip(WHITESPACE))
        end = allow.comment_end
    else:
        # The whole line, with its line ending, so no blank line is left behind.
        start = line_start
        end = source.line_starts[line0 + 1] if line0 + 1 < len(source.line_starts) else len(data)
    return FixEdits(Applicability.SAFE, (Edit(path, start, end, ""),))


def _finding(
    source: SourceFile,
    start: int,
    end: int,
    violation: Violation,
    fix: FixEdits | None,
    meta: RuleMeta,
) -> Finding:
    node = source.root.descendant_for_byte_range(start, end)
    return finding_at(
        source,
        source.span(start, end),
        meta,
        violation.message,
        item=source.ancestry.enclosing_item(node) if node is not None else "",
        help=violation.help,
        fix=titled(violation, fix),
    )
