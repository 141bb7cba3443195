"""Parsing ``// burnlint: allow(..)`` comments: the rules each names, the lines it covers
(``statements.py``), and the comments that are meant as allows but are not valid ones.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from burnlint.suppress.statements import (
    StatementSearch,
    has_code_before,
    next_statement,
    trailing_statement,
)

if TYPE_CHECKING:
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
        trailing = has_code_before(data, source.line_starts[line - 1], start)
        if file_level:
            first, last = 1, len(source.line_starts)
        elif trailing:
            first, last = trailing_statement(source, root, comment)
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
