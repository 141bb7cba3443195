"""BL008 unused-suppression: allow comments that suppress nothing, name no rule or do not parse.

Unlike the other rules it does not query the model: it needs to know which allows matched a
finding, so the engine runs it after suppressions are applied (``suppress.finish_file`` calls
``report``). ``check`` yields nothing.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from burnlint.findings import Applicability, Edit, Finding, Fix, Level
from burnlint.rules.base import Rule
from burnlint.rules.context import RuleContext, finding_at

if TYPE_CHECKING:
    from burnlint.source import SourceFile
    from burnlint.suppress import Allow, AllowId, Directives

_WHITESPACE = b" \t\r\n\f\v"


class UnusedSuppression(Rule):
    id = "BL008"
    name = "unused-suppression"
    level = Level.NOTE
    summary = "a `// burnlint: allow(..)` comment suppresses nothing or names no rule"
    enabled_by_default = True
    fixable = True
    precision = "very-high"
    tags = ("suppression",)

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        return iter(())  # run by the engine after suppressions (see the module docstring)


def report(
    source: SourceFile,
    directives: Directives,
    used: set[tuple[int, int]],
    judged: frozenset[str],
    level: Level,
) -> list[Finding]:
    """One finding per allow comment with ids that have no effect, and per malformed comment.

    ``used`` holds the (allow index, id index) pairs that suppressed a finding; ``judged`` the
    rule ids whose findings are known for this file (an allow for a rule that did not run is
    neither used nor unused). An allow that names BL008 itself is never reported.
    """
    out: list[Finding] = []
    for index, allow in enumerate(directives.allows):
        if any(i.rule_id == UnusedSuppression.id for i in allow.ids):
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
        parts: list[str] = []
        helps: list[str] = []
        if unused:
            parts.append(_unused_message(allow, unused))
        for allow_id in unknown:
            parts.append(f"`{allow_id.text}` is not a burnlint rule")
            if allow_id.suggestion:
                helps.append(f"did you mean `{allow_id.suggestion}`?")
        if unknown and not any(i.suggestion for i in unknown):
            helps.append("`burnlint rules` lists the rule ids and names")
        for allow_id in duplicate:
            parts.append(f"`{allow_id.text}` names a rule listed before it")
        ineffective = {id(i) for i in (*unknown, *duplicate, *unused)}
        keep = [i for i in allow.ids if id(i) not in ineffective]
        dropped = [i for i in allow.ids if id(i) in ineffective]
        out.append(
            _finding(
                source,
                allow.comment_start,
                allow.comment_end,
                "; ".join(parts),
                help="; ".join(helps) or None,
                fix=_fix(source, allow, keep, dropped),
                level=level,
            )
        )
    for bad in directives.malformed:
        out.append(
            _finding(
                source,
                bad.comment_start,
                bad.comment_end,
                f"ignored burnlint comment: {bad.message}",
                # the allow its author meant, with their rules and reason
                help=f"write `{bad.suggestion}`"
                if bad.suggestion is not None
                else "name the rules it suppresses: `// burnlint: allow(ID, ..)` (ids or names, "
                "comma-separated), optionally followed by `-- reason`",
                fix=None,
                level=level,
            )
        )
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


def _fix(
    source: SourceFile, allow: Allow, keep: Sequence[AllowId], dropped: Sequence[AllowId]
) -> Fix:
    """Delete the ids that have no effect, or the whole comment when none is left. Safe: an
    allow that suppresses nothing changes nothing when it goes."""
    path = source.path
    if keep:
        content = ", ".join(i.text for i in keep)
        edit = Edit(path, allow.ids_start, allow.ids_end, content)
        listed = ", ".join(f"`{i.text}`" for i in dropped)
        return Fix(f"remove {listed} from the allow", Applicability.SAFE, (edit,))
    data = source.data
    line0 = source.line_of(allow.comment_start)
    line_start = source.line_starts[line0]
    if allow.trailing:
        # `code(); // burnlint: ..` -> `code();`: the spaces before the comment go too.
        start = line_start + len(data[line_start : allow.comment_start].rstrip(_WHITESPACE))
        end = allow.comment_end
    else:
        # The whole line, with its line ending, so no blank line is left behind.
        start = line_start
        end = source.line_starts[line0 + 1] if line0 + 1 < len(source.line_starts) else len(data)
    return Fix("remove the suppression comment", Applicability.SAFE, (Edit(path, start, end, ""),))


def _finding(
    source: SourceFile,
    start: int,
    end: int,
    message: str,
    *,
    help: str | None,
    fix: Fix | None,
    level: Level,
) -> Finding:
    node = source.root.descendant_for_byte_range(start, end)
    return finding_at(
        source,
        source.span(start, end),
        UnusedSuppression,
        level,
        message,
        item=source.ancestry.enclosing_item(node) if node is not None else "",
        help=help,
        fix=fix,
        tags=UnusedSuppression.tags,
    )
