"""Suppression comments and per-file ignores, applied to one file's findings after the rules ran.

Rust rejects ``#[allow(burnlint::..)]`` (E0710), so suppressions are comments::

    // burnlint: allow(BL003) -- the name is fixed on purpose
    let mut store = SafetensorsStore::from_file("latest.safetensors");

    let mut store = SafetensorsStore::from_file(path); // burnlint: allow(store-overwrite-in-loop)

    // burnlint: allow-file(BL005, BL006) -- converted checkpoints are checked by tests/keys.rs

- ``allow(..)`` alone on its line covers the next statement (or item, match arm, argument):
  every line of it, so a ``fn`` or a ``for`` loop is covered whole. Comments and attributes
  between the allow and the statement are skipped, so several allows can be stacked.
- ``allow(..)`` trailing on a line covers the statement that line belongs to, every line of it
  (a trailing allow on ``for x in xs {`` covers the loop).
- ``allow-file(..)``, anywhere, covers the file.
- Rules are named by id or name, several comma-separated; a reason may follow ``--``. There is
  no blanket form: an allow without ids is malformed.

A finding is suppressed when its first line is covered by an allow naming its rule. Allows that
suppress nothing, name unknown rules or do not parse are reported by BL008
(``rules/unused_suppression.py``, which the engine passes to ``finish_file``), which judges only
the rules that ran on the file.

Per-file ignores (configuration ``per-file-ignores``) are applied after the comments, so an
allow that also matches a per-file ignore still counts as used.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Literal, TypeAlias

from burnlint.findings import Finding
from burnlint.paths import relative_path

if TYPE_CHECKING:
    from pathspec import GitIgnoreSpec
    from tree_sitter import Node

    from burnlint.options import EngineOptions
    from burnlint.rules.meta import RuleMeta
    from burnlint.rust.source import SourceFile

# A comment meant for burnlint: `// burnlint:` or, a common slip, `// burnlint allow(`.
# `// burnlint-test:` (the fixture marker) and prose that merely mentions burnlint are not.
_DIRECTIVE = re.compile(r"^//\s*burnlint(?:\s*:|\s+(?=allow(?:-file)?\s*\())", re.IGNORECASE)
_ALLOW = re.compile(
    r"^//\s*burnlint\s*:\s*(?P<kind>allow-file|allow)\s*"
    r"\((?P<ids>[^()]*)\)\s*(?:--(?P<reason>.*))?$",
    re.IGNORECASE,
)
_ID = re.compile(r"[^\s,]+")
# `BL001`, `BL001, store-overwrite-in-loop`; a trailing comma is tolerated
_ID_LIST = re.compile(r"^\s*[^\s,]+(?:\s*,\s*[^\s,]+)*\s*,?\s*$")
# Nodes whose named children are statements (or items, or match arms).
_CONTAINERS = frozenset({"block", "source_file", "declaration_list", "match_block"})
_SKIPPED = frozenset({"line_comment", "block_comment", "attribute_item", "inner_attribute_item"})
_WHITESPACE = b" \t\r\n\f\v"
_BOM = b"\xef\xbb\xbf"


@dataclass(frozen=True)
class AllowId:
    """One selector in an allow: as written, where (bytes), and the rule it names (None when
    unknown; ``suggestion`` is then the closest id or name)."""

    text: str
    start_byte: int
    end_byte: int
    rule_id: str | None
    suggestion: str | None = None


@dataclass(frozen=True)
class Allow:
    """A parsed allow comment and the lines it covers (1-based, inclusive).

    ``first_line`` > ``last_line`` means it covers nothing (no statement follows it).
    ``ids_start``/``ids_end`` delimit the text between the parentheses (bytes);
    ``comment_start``/``comment_end`` the comment without its line ending.
    """

    line: int
    comment_start: int
    comment_end: int
    file_level: bool
    trailing: bool
    ids: tuple[AllowId, ...]
    ids_start: int
    ids_end: int
    first_line: int
    last_line: int
    reason: str | None

    def covers(self, line: int) -> bool:
        return self.file_level or self.first_line <= line <= self.last_line


@dataclass(frozen=True)
class Malformed:
    """A ``// burnlint:`` comment that is not a valid allow, or an allow written in a doc or
    block comment. ``suggestion`` is the allow its author meant, with their rules and reason
    (None when it names no rule)."""

    line: int
    comment_start: int
    comment_end: int
    message: str
    suggestion: str | None = None


@dataclass(frozen=True)
class Directives:
    allows: tuple[Allow, ...]
    malformed: tuple[Malformed, ...]


@dataclass(frozen=True)
class FileVerdict:
    """The findings to report for a file (BL008's included) and how many were suppressed, by
    rule id."""

    findings: tuple[Finding, ...]
    suppressed: tuple[tuple[str, int], ...]


def parse_directives(source: SourceFile) -> Directives:
    """Every burnlint comment of the file, parsed, with the lines each allow covers."""
    from burnlint.rules.registry import UnknownRuleError, by_selector
    from burnlint.rust.syntax import nodes_of_type

    allows: list[Allow] = []
    malformed: list[Malformed] = []
    searched: StatementSearch = {}
    data = source.data
    root = source.root
    for comment in nodes_of_type(root, "line_comment", "block_comment"):
        raw = data[comment.start_byte : comment.end_byte]
        if b"burnlint" not in raw and b"BURNLINT" not in raw.upper():
            continue
        body = raw.rstrip(b"\r\n")
        text = body.decode("utf-8", errors="replace")
        start = comment.start_byte
        end = start + len(body)
        line = source.line_of(start) + 1
        # Doc comments (`///`, `//!`) document code and block comments are not read: an allow
        # in one would be ignored while its author believes the finding handled.
        if comment.type == "block_comment" or raw.startswith((b"///", b"//!")):
            misplaced = _misplaced(text)
            if misplaced is not None:
                malformed.append(Malformed(line, start, end, *misplaced))
            continue
        if not _DIRECTIVE.match(text):
            continue
        match = _ALLOW.match(text.rstrip())
        if match is None:
            malformed.append(
                Malformed(line, start, end, _malformed_reason(text), _meant(_after_name(text)))
            )
            continue
        ids_text = match.group("ids")
        ids_offset = start + len(text[: match.start("ids")].encode("utf-8"))
        parts = list(_ID.finditer(ids_text))
        if not parts or not _ID_LIST.match(ids_text):
            reason = (
                "an allow must name the rules it suppresses; there is no blanket form"
                if not parts
                else "malformed rule list: separate rule ids or names with commas"
            )
            malformed.append(Malformed(line, start, end, reason, _meant(_after_name(text))))
            continue
        ids: list[AllowId] = []
        for part in parts:
            selector = part.group(0)
            id_start = ids_offset + len(ids_text[: part.start()].encode("utf-8"))
            id_end = id_start + len(selector.encode("utf-8"))
            try:
                rule_id: str | None = by_selector(selector).id
                suggestion = None
            except UnknownRuleError as exc:
                rule_id, suggestion = None, exc.suggestion
            ids.append(AllowId(selector, id_start, id_end, rule_id, suggestion))
        file_level = match.group("kind").lower() == "allow-file"
        trailing = _has_code_before(data, source.line_starts[line - 1], start)
        if file_level:
            first, last = 1, len(source.line_starts)
        elif trailing:
            first, last = _trailing_statement(source, root, comment)
        else:
            first, last = next_statement(source, root, end, searched)
        reason_text = match.group("reason")
        allows.append(
            Allow(
                line=line,
                comment_start=start,
                comment_end=end,
                file_level=file_level,
                trailing=trailing,
                ids=tuple(ids),
                ids_start=ids_offset,
                ids_end=ids_offset + len(ids_text.encode("utf-8")),
                first_line=first,
                last_line=last,
                reason=reason_text.strip() or None if reason_text is not None else None,
            )
        )
    return Directives(tuple(allows), tuple(malformed))


def _malformed_reason(text: str) -> str:
    """What is wrong with a ``// burnlint`` comment that is not an allow (the allow meant, with
    the author's rules, is the finding's help: ``_meant``)."""
    if not re.match(r"^//\s*burnlint\s*:", text, re.IGNORECASE):
        return "write a colon after `burnlint`"
    rest = _after_name(text)
    keyword = re.match(r"[A-Za-z0-9_-]*", rest)
    word = keyword.group(0) if keyword else ""
    expected = "expected `allow(..)` or `allow-file(..)`, then `-- reason`"
    if _ID_LIKE.match(word):
        return "the rules go in parentheses after `allow`"
    if word.lower() in ("allow", "allow-file"):
        if "(" not in rest:
            return f"`{word}` needs the rules in parentheses"
        if re.match(r"^[A-Za-z-]+\s*\([^()]*\)\s*[^\s-]", rest):
            return "a reason goes after `--`"
        return f"malformed `{word}`: {expected}"
    if word:
        return f"unknown burnlint directive `{word}`: {expected}"
    return f"malformed burnlint comment: {expected}"


# An allow in a doc comment (`///`, `//!`) or a block comment (`/* */`, `/** */`, `/*! */`).
_MISPLACED = re.compile(
    r"^(?P<marker>/{3,}|//!|/\*[*!]?)[\s*]*burnlint\s*:?\s*allow(?:-file)?(?![\w-])",
    re.IGNORECASE,
)


def _misplaced(text: str) -> tuple[str, str | None] | None:
    """(message, the allow meant) for an allow in a doc or block comment, else None (prose
    that mentions burnlint)."""
    match = _MISPLACED.match(text)
    if match is None:
        return None
    kind = "a block comment" if match.group("marker").startswith("/*") else "a doc comment"
    inner = text[match.end("marker") :].removesuffix("*/")
    # a block comment's continuation lines may start with `*`
    inner = " ".join(line.strip().lstrip("*").strip() for line in inner.splitlines())
    message = f"an allow must be a `//` line comment, not {kind}"
    return message, _meant(" ".join(_after_name(inner).split()))


def _after_name(text: str) -> str:
    """What follows ``burnlint`` (and its colon) in a comment."""
    return re.sub(r"^\W*burnlint\s*:?\s*", "", text, count=1, flags=re.IGNORECASE)


# One word of a rule list, whatever separates the words.
_WORD = re.compile(r"[^\s,()]+")
_ID_LIKE = re.compile(r"^BL\d+$", re.IGNORECASE)


def _meant(rest: str) -> str | None:
    """The allow a comment's author meant, with their rules and reason, from what follows
    ``burnlint``: ``allow BL001``, ``allow(BL001 BL002) why``, ``disable(BL001)``,
    ``allow-file(BL005)``. None when it names no rule."""
    from burnlint.rules.registry import UnknownRuleError, by_selector

    def rule_like(word: str) -> bool:
        if _ID_LIKE.match(word):
            return True
        try:
            by_selector(word)
        except UnknownRuleError:
            return False
        return True

    match = re.match(r"^(?:(?P<word>[A-Za-z_-]+)(?![\w-]))?\s*(?P<body>.*)$", rest, re.DOTALL)
    assert match is not None  # every part is optional
    word = (match.group("word") or "").lower()
    kind = "allow-file" if word.replace("_", "-") == "allow-file" else "allow"
    body, dashes, reason = match.group("body").partition("--")
    if "(" in body:
        inside, _, after = body.partition("(")[2].partition(")")
        ids = _WORD.findall(inside)
        if not dashes:
            reason = after
    else:
        words = _WORD.findall(body)
        count = next((i for i, w in enumerate(words) if not rule_like(w)), len(words))
        ids = words[:count]
        if not dashes and count < len(words):
            reason = " ".join(words[count:])
    if word and word not in ("allow", "allow-file", "allow_file") and rule_like(word):
        ids.insert(0, word.upper() if _ID_LIKE.match(word) else word)
    if not ids:
        return None
    allow = f"// burnlint: {kind}({', '.join(ids)})"
    reason = reason.strip().removesuffix("*/").strip()
    return f"{allow} -- {reason}" if reason else allow


def _has_code_before(data: bytes, line_start: int, position: int) -> bool:
    return bool(data[line_start:position].removeprefix(_BOM).strip(_WHITESPACE))


def _trailing_statement(source: SourceFile, root: Node, comment: Node) -> tuple[int, int]:
    """The statement the code before a trailing comment belongs to, widened to the other
    statements that end on the comment's line (``a(); b(); // allow``)."""
    line0 = source.line_of(comment.start_byte)
    line_start = source.line_starts[line0]
    position = comment.start_byte
    leaf: Node | None = None
    while position > line_start:
        before = source.data[line_start:position].rstrip(_WHITESPACE)
        if not before.removeprefix(_BOM):
            break
        last = line_start + len(before) - 1
        leaf = root.descendant_for_byte_range(last, last + 1)
        earlier = _enclosing_comment(leaf)
        if earlier is None:
            break
        position = earlier.start_byte  # `a(); /* x */ // allow`: look before the block comment
        leaf = None
    if leaf is None:
        return line0 + 1, line0 + 1
    statement = statement_of(leaf)
    first = statement.start_point[0]
    last_row = statement.end_point[0]
    sibling = statement.prev_named_sibling
    while sibling is not None and sibling.end_point[0] == line0:
        if sibling.type not in _SKIPPED:
            first = min(first, sibling.start_point[0])
        sibling = sibling.prev_named_sibling
    return first + 1, max(last_row, line0) + 1


def _enclosing_comment(node: Node | None) -> Node | None:
    """``node`` if it is a comment, or the comment it is part of (a comment's ``*/`` token or
    doc text is a child of the comment node)."""
    for _ in range(3):
        if node is None:
            return None
        if node.type in ("line_comment", "block_comment"):
            return node
        node = node.parent
    return None


def statement_of(node: Node) -> Node:
    """The innermost named node holding ``node`` whose parent is a statement container."""
    current = node
    while True:
        parent = current.parent
        if parent is None:
            return current
        if current.is_named and parent.type in _CONTAINERS and current.type not in _SKIPPED:
            return current
        current = parent


# A search for the statement after an allow ends at a statement (its lines) or, when none
# follows, at the end of the file or at the bracket closing the enclosing block: the lines
# covered then depend on where the allow is.
_SearchEnd = Literal["end-of-file", "end-of-block"]
# Where searches ended, by each position they passed (see next_statement).
StatementSearch: TypeAlias = dict[int, tuple[int, int] | _SearchEnd]


def next_statement(
    source: SourceFile, root: Node, after: int, searched: StatementSearch | None = None
) -> tuple[int, int]:
    """The lines of the first statement-like node after byte ``after``, skipping comments and
    attributes; (n, n - 1), covering nothing, when the block or file ends first.

    ``searched`` remembers, for every position a search passed, where it ended: stacked allows
    all skip the same comments, and with it each comment is skipped once, not once per allow.
    """
    found = _search_statement(source, root, after, {} if searched is None else searched)
    if found == "end-of-file":
        line = source.line_of(max(after - 1, 0)) + 1
        return line + 1, line
    if found == "end-of-block":
        line = source.line_of(after) + 1
        return line + 1, line  # the end of the enclosing block: nothing follows
    return found


def _search_statement(
    source: SourceFile, root: Node, after: int, searched: StatementSearch
) -> tuple[int, int] | _SearchEnd:
    """The lines of the statement ``next_statement`` looks for, or where the search ended
    without one."""
    data = source.data
    position = after
    size = len(data)
    passed: list[int] = []
    found: tuple[int, int] | _SearchEnd
    while True:
        while position < size and data[position] in _WHITESPACE:
            position += 1
        known = searched.get(position)
        if known is not None:
            found = known
            break
        if position >= size:
            found = "end-of-file"
            break
        passed.append(position)
        leaf = root.descendant_for_byte_range(position, position + 1)
        if leaf is None:
            line = source.line_of(position) + 1
            found = (line, line)
            break
        node = _largest_starting_at(leaf)
        if node.type in _SKIPPED:
            position = max(node.end_byte, position + 1)
            continue
        if not node.is_named and node.type in ("}", ")", "]"):
            found = "end-of-block"
            break
        found = (node.start_point[0] + 1, node.end_point[0] + 1)
        break
    for passed_at in passed:
        searched[passed_at] = found
    return found


def _largest_starting_at(leaf: Node) -> Node:
    """The statement (or argument, arm, item) that begins with ``leaf``: climb while the parent
    starts at the same byte, and stop at a statement container."""
    current = leaf
    while True:
        parent = current.parent
        if parent is None or parent.type in _CONTAINERS:
            return current
        if parent.start_byte != current.start_byte:
            return current
        current = parent


# --- applying -------------------------------------------------------------------------------------

# BL008's findings for a file (``rules/unused_suppression.report``): its allows that suppress
# nothing, name no rule or do not parse, given the (allow index, id index) pairs that suppressed
# a finding, the rule ids judged, and BL008's metadata at its level. The engine hands it in, so
# that this stage, which runs after the rules, imports no rule code.
UnusedReport: TypeAlias = Callable[
    ["SourceFile", "Directives", set[tuple[int, int]], frozenset[str], "RuleMeta"], list[Finding]
]


def finish_file(
    findings: Sequence[Finding],
    source: SourceFile,
    path: Path,
    options: EngineOptions,
    *,
    unused: UnusedReport,
    crashed: frozenset[str] = frozenset(),
) -> FileVerdict:
    """Apply the file's allow comments, then its per-file ignores; add BL008's findings
    (``unused``).

    ``path`` is the file's absolute path (per-file-ignore patterns are matched against it);
    ``crashed`` the rules that crashed on the file (their allows cannot be judged).
    """
    from burnlint.rules.registry import UNUSED_SUPPRESSION

    directives = (
        parse_directives(source)
        if b"burnlint" in source.data or b"BURNLINT" in source.data.upper()
        else Directives((), ())
    )
    used: set[tuple[int, int]] = set()  # (allow index, id index)
    suppressed: Counter[str] = Counter()
    kept: list[Finding] = []
    index = AllowIndex(directives.allows)
    for finding in findings:
        hits = index.hits(finding.rule_id, finding.location.span.start_line)
        if hits:
            used.update(hits)
            suppressed[finding.rule_id] += 1
        else:
            kept.append(finding)

    if UNUSED_SUPPRESSION.id in options.rule_ids:
        # Findings of rules that did not run or crashed are unknown, so are allows for them;
        # with syntax errors the rules may have missed findings.
        judged = frozenset(options.rule_ids) - crashed - {UNUSED_SUPPRESSION.id}
        if source.has_syntax_errors:
            judged = frozenset()
        meta = UNUSED_SUPPRESSION.effective(dict(options.severity))
        extra = unused(source, directives, used, judged, meta)
        file_allowed = {
            allow_id.rule_id
            for allow in directives.allows
            if allow.file_level
            for allow_id in allow.ids
        }
        for finding in extra:
            if UNUSED_SUPPRESSION.id in file_allowed:
                suppressed[finding.rule_id] += 1
            else:
                kept.append(finding)

    ignored = ignored_rules(path, options)
    if ignored:
        out: list[Finding] = []
        for finding in kept:
            if finding.rule_id in ignored:
                suppressed[finding.rule_id] += 1
            else:
                out.append(finding)
        kept = out
    return FileVerdict(tuple(kept), tuple(sorted(suppressed.items())))


class AllowIndex:
    """A file's allows by rule, to find those that cover a line without testing every allow
    against every finding (a file of thousands of allowed saves). Line allows are sorted by
    their first line; ``reach[k]`` is the furthest last line among the first k + 1 of them, so
    a lookup walks back from the last allow starting at or before the line only while an
    allow so far back can still cover it."""

    def __init__(self, allows: Sequence[Allow]) -> None:
        self._file_level: dict[str, list[tuple[int, int]]] = {}
        ranged: dict[str, list[tuple[int, int, int, int]]] = {}  # first, last, allow, id
        for a, allow in enumerate(allows):
            for i, allow_id in enumerate(allow.ids):
                if allow_id.rule_id is None:
                    continue
                if allow.file_level:
                    self._file_level.setdefault(allow_id.rule_id, []).append((a, i))
                else:
                    entry = (allow.first_line, allow.last_line, a, i)
                    ranged.setdefault(allow_id.rule_id, []).append(entry)
        self._ranged: dict[str, tuple[list[int], list[int], list[tuple[int, int, int, int]]]] = {}
        for rule_id, entries in ranged.items():
            entries.sort()
            reach: list[int] = []
            for _first, last, _a, _i in entries:
                reach.append(max(last, reach[-1]) if reach else last)
            self._ranged[rule_id] = ([e[0] for e in entries], reach, entries)

    def hits(self, rule_id: str, line: int) -> list[tuple[int, int]]:
        """(allow index, id index) of every allow of ``rule_id`` that covers ``line``."""
        found = list(self._file_level.get(rule_id, ()))
        if rule_id in self._ranged:
            firsts, reach, entries = self._ranged[rule_id]
            k = bisect_right(firsts, line) - 1
            while k >= 0 and reach[k] >= line:
                _first, last, a, i = entries[k]
                if last >= line:
                    found.append((a, i))
                k -= 1
        return found


def ignored_rules(path: Path, options: EngineOptions) -> frozenset[str]:
    """The rule ids that ``per-file-ignores`` turns off for ``path`` (absolute)."""
    if not options.per_file_ignores:
        return frozenset()
    base = options.exclude_root if options.exclude_root is not None else options.project_root
    relative = relative_path(path, base, resolve=True)
    if relative is None:
        return frozenset()
    out: set[str] = set()
    for pattern, ids in options.per_file_ignores:
        spec = _spec(pattern)
        if spec is not None and spec.match_file(relative):
            out |= ids
    return frozenset(out)


@lru_cache(maxsize=256)
def _spec(pattern: str) -> GitIgnoreSpec | None:
    from pathspec import GitIgnoreSpec

    try:
        return GitIgnoreSpec.from_lines([pattern])
    except (ValueError, TypeError):  # validated with the configuration; never fail a run
        return None
