"""The reportingDescriptor of each rule, its descriptions and help taken from the rule docs."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

import sarif_om as om

from burnlint.docs import rule_doc
from burnlint.findings import Level
from burnlint.report.sarif.serialize import _om
from burnlint.rules import registry

FULL_DESCRIPTION_LIMIT = 1024


def _rule_descriptor(rule_id: str, levels: Mapping[str, Level], name: str | None) -> Any:
    rule = registry.find(rule_id)
    if rule is None:  # not a registered rule (a hand-made result): say what we know
        level = levels.get(rule_id, Level.WARNING)
        return _om(
            om.ReportingDescriptor,
            id=rule_id,
            name=name,
            short_description=_om(om.MultiformatMessageString, text=name or rule_id),
            default_configuration=_om(om.ReportingConfiguration, level=level.value),
        )
    docs = rule_help(rule.id, rule.summary)
    return _om(
        om.ReportingDescriptor,
        id=rule.id,
        name=rule.name,
        short_description=_om(om.MultiformatMessageString, text=rule.summary),
        full_description=_om(
            om.MultiformatMessageString, text=docs.full_text, markdown=docs.full_markdown
        ),
        default_configuration=_om(
            om.ReportingConfiguration, level=levels.get(rule.id, rule.level).value
        ),
        help=_om(om.MultiformatMessageString, text=docs.help_text, markdown=docs.help_markdown),
        properties={"tags": list(rule.tags), "precision": rule.precision},
    )


@dataclass(frozen=True)
class RuleHelp:
    full_text: str
    full_markdown: str
    help_text: str
    help_markdown: str


@cache
def rule_help(rule_id: str, summary: str) -> RuleHelp:
    """The SARIF descriptions of a rule from its doc; the summary when it has none."""
    doc = rule_doc(rule_id)
    if not doc or not doc.strip():
        return RuleHelp(summary, summary, summary, summary)
    markdown = _strip_local_links(doc.strip()) + "\n"
    paragraph = _first_paragraph(doc, "What it does") or summary
    paragraph_md = _strip_local_links(paragraph)
    return RuleHelp(
        full_text=_truncate(_inline_text(paragraph), FULL_DESCRIPTION_LIMIT),
        full_markdown=_truncate(paragraph_md, FULL_DESCRIPTION_LIMIT),
        help_text=markdown_to_text(doc),
        help_markdown=markdown,
    )


_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_FENCE = re.compile(r"^\s*(```|~~~)")
_LIST_ITEM = re.compile(r"^(?:[-*+]|[0-9]+[.)])\s+")
_LINK = re.compile(r"\[([^\]\n]+)\]\(([^)\s]+)\)")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def _first_paragraph(doc: str, section: str) -> str | None:
    """The first paragraph under ``## <section>``, its lines joined with spaces."""
    lines = doc.splitlines()
    inside = False
    paragraph: list[str] = []
    for line in lines:
        heading = _HEADING.match(line)
        if heading:
            if paragraph:
                break
            inside = heading.group(2).strip().lower() == section.lower()
            continue
        if not inside:
            continue
        if line.strip():
            paragraph.append(line.strip())
        elif paragraph:
            break
    return " ".join(paragraph) if paragraph else None


def _outside_code(text: str, transform: Any) -> str:
    """Apply ``transform`` to the parts of ``text`` outside inline code spans."""
    parts = text.split("`")
    if len(parts) % 2 == 0:  # an unbalanced backtick: no code spans to protect
        return str(transform(text))
    return "`".join(str(transform(part)) if i % 2 == 0 else part for i, part in enumerate(parts))


def _strip_local_links(markdown: str) -> str:
    """``[BL002](BL002-store-error-only-logged.md)`` -> ``BL002``: relative links are dead in
    GitHub's alert view. Links with a scheme (``https:``) are kept. Fenced code is untouched."""

    def unlink(text: str) -> str:
        return _LINK.sub(
            lambda m: m.group(0) if _SCHEME.match(m.group(2)) else m.group(1),
            text,
        )

    out: list[str] = []
    in_code = False
    for line in markdown.split("\n"):
        if _FENCE.match(line):
            in_code = not in_code
            out.append(line)
        else:
            out.append(line if in_code else _outside_code(line, unlink))
    return "\n".join(out)


def _inline_text(markdown: str) -> str:
    """Inline Markdown to plain text: links become ``text (url)`` (local ones ``text``), bold
    markers go; inline code keeps its backticks, as in rustc's messages."""

    def plain(text: str) -> str:
        text = _LINK.sub(
            lambda m: f"{m.group(1)} ({m.group(2)})" if _SCHEME.match(m.group(2)) else m.group(1),
            text,
        )
        return text.replace("**", "")

    return _outside_code(markdown, plain)


def markdown_to_text(markdown: str) -> str:
    """A plain-text rendering of a rule doc: headings without ``#``, paragraphs and list items
    on one line each, code blocks indented by four spaces without their fences."""
    out: list[str] = []
    paragraph: list[str] = []
    in_code = False

    def flush() -> None:
        if paragraph:
            out.append(_inline_text(" ".join(paragraph)))
            paragraph.clear()

    def blank() -> None:
        if out and out[-1]:
            out.append("")

    for line in markdown.strip().splitlines():
        if _FENCE.match(line):
            flush()
            if not in_code:
                blank()
            in_code = not in_code
            continue
        if in_code:
            out.append("    " + line if line.strip() else "")
            continue
        stripped = line.strip()
        if not stripped:
            flush()
            blank()
            continue
        heading = _HEADING.match(stripped)
        if heading:
            flush()
            blank()
            out.append(_inline_text(heading.group(2)))
            out.append("")
            continue
        if _LIST_ITEM.match(stripped):
            flush()
        paragraph.append(stripped)
    flush()
    while out and not out[-1]:
        out.pop()
    return "\n".join(out) + "\n"


def _truncate(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if space > limit // 2:
        cut = cut[:space]
    return cut.rstrip() + "…"
