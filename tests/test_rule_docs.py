"""The rule docs in ``rules/`` are tested data.

Every rule has exactly one doc with the fixed skeleton (DESIGN.md §3), and the doc's examples
run through the engine with every rule selected: the "Example" block must produce findings of
its own rule and of no other, the "Use instead" block must produce none.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from burnlint.engine import lint_source
from burnlint.options import EngineOptions
from burnlint.rules import registry
from burnlint.rules.registry import resolve

DOCS_DIR = Path(__file__).resolve().parents[1] / "rules"
RULE_IDS = [rule.id for rule in registry.ALL]

REQUIRED_SECTIONS = ("What it does", "Why is this bad?", "Example", "Use instead", "References")
OPTIONAL_SECTIONS = {"Options": "Use instead"}  # optional section -> the section it follows
# The first paragraph of "What it does" becomes SARIF `fullDescription` and the one-paragraph
# summary in editors; keep it short enough to read in a tooltip.
SUMMARY_MAX_CHARS = 300
# Rules that, by design (DESIGN.md §3), report every site of another rule as well: BL004
# (implicit-overwrite, off by default) covers every file store saved without `.overwrite(..)`,
# so it also fires on each repeated save that BL003 reports. Nothing else may fire beside the
# documented rule.
ALSO_FIRES: dict[str, frozenset[str]] = {"BL003": frozenset({"BL004"})}

_FENCE = re.compile(r"^(`{3,}|~{3,})\s*([\w+-]*)")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_LOCAL_LINK = re.compile(r"\]\((?!https?://|#)([^)\s]+)\)")


@dataclass
class Section:
    title: str
    prose: list[str] = field(default_factory=list)  # lines outside code blocks
    code: list[tuple[str, str]] = field(default_factory=list)  # (language, text)


@dataclass
class RuleDoc:
    path: Path
    headings: list[tuple[int, str]]  # (level, title), in order
    sections: dict[str, Section]


def parse_doc(path: Path) -> RuleDoc:
    """Headings and per-section prose and code blocks; `#` lines inside fences are code."""
    headings: list[tuple[int, str]] = []
    sections: dict[str, Section] = {}
    current = Section("")
    fence: str | None = None
    language = ""
    block: list[str] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        opening = _FENCE.match(line)
        if fence is not None:
            if opening and line.strip() == opening.group(1) and line.startswith(fence):
                current.code.append((language, "\n".join(block) + "\n"))
                fence = None
            else:
                block.append(line)
            continue
        if opening:
            fence, language, block = opening.group(1), opening.group(2), []
            continue
        heading = _HEADING.match(line)
        if heading:
            level, title = len(heading.group(1)), heading.group(2)
            headings.append((level, title))
            if level == 2:
                current = sections.setdefault(title, Section(title))
            continue
        current.prose.append(line)
    assert fence is None, f"{path.name}: unclosed code fence"
    return RuleDoc(path, headings, sections)


def doc_path(rule_id: str) -> Path:
    rule = registry.by_id(rule_id)
    return DOCS_DIR / f"{rule.id}-{rule.name}.md"


def first_paragraph(lines: list[str]) -> str:
    paragraph: list[str] = []
    for line in lines:
        if line.strip():
            paragraph.append(line.strip())
        elif paragraph:
            break
    return " ".join(paragraph)


def rust_block(rule_id: str, section: str) -> str:
    doc = parse_doc(doc_path(rule_id))
    assert section in doc.sections, f"{rule_id}: no `## {section}` section"
    blocks = doc.sections[section].code
    assert [language for language, _ in blocks] == ["rust"], (
        f"{rule_id}: `## {section}` must hold exactly one ```rust block, found {blocks!r}"
    )
    return blocks[0][1]


def lint(code: str, tmp_path: Path) -> tuple[list[tuple[str, int, str]], list[str]]:
    """(rule id, line, message) of every finding, and every notification, with all rules on."""
    options = EngineOptions(rule_ids=resolve(select=["ALL"]), project_root=tmp_path)
    result = lint_source(tmp_path / "example.rs", code.encode(), options)
    findings = [(f.rule_id, f.location.span.start_line, f.message) for f in result.findings]
    return findings, [n.message for n in result.notifications]


# one doc per rule ---------------------------------------------------------------------------


def test_no_orphan_docs() -> None:
    expected = {f"{rule.id}-{rule.name}.md" for rule in registry.ALL}
    present = {p.name for p in DOCS_DIR.glob("*.md")}
    orphans, undocumented = sorted(present - expected), sorted(expected - present)
    assert orphans == [], f"docs that belong to no rule in registry.ALL: {orphans}"
    assert undocumented == [], f"rules without a doc: {undocumented}"


@pytest.mark.parametrize("rule_id", RULE_IDS)
def test_one_doc_per_rule(rule_id: str) -> None:
    prefix = [p.name for p in DOCS_DIR.glob(f"{rule_id}-*.md")]
    assert prefix == [doc_path(rule_id).name]


# skeleton -----------------------------------------------------------------------------------


@pytest.mark.parametrize("rule_id", RULE_IDS)
def test_headings(rule_id: str) -> None:
    rule = registry.by_id(rule_id)
    doc = parse_doc(doc_path(rule_id))
    assert doc.headings[:1] == [(1, f"{rule.id} {rule.name}")]
    sections = [title for _, title in doc.headings[1:]]
    assert all(level == 2 for level, _ in doc.headings[1:]), doc.headings
    expected = list(REQUIRED_SECTIONS)
    for optional, after in OPTIONAL_SECTIONS.items():
        if optional in sections:
            expected.insert(expected.index(after) + 1, optional)
    assert sections == expected


@pytest.mark.parametrize("rule_id", RULE_IDS)
def test_summary_paragraph(rule_id: str) -> None:
    doc = parse_doc(doc_path(rule_id))
    summary = first_paragraph(doc.sections["What it does"].prose)
    assert summary, f"{rule_id}: `## What it does` starts with no paragraph"
    assert not summary.startswith(("-", "*", "|", ">")), f"{rule_id}: the summary must be prose"
    assert len(summary) <= SUMMARY_MAX_CHARS, f"{rule_id}: summary is {len(summary)} chars"


@pytest.mark.parametrize("rule_id", RULE_IDS)
def test_sections_have_text(rule_id: str) -> None:
    doc = parse_doc(doc_path(rule_id))
    for title in ("Why is this bad?", "References"):
        assert first_paragraph(doc.sections[title].prose), f"{rule_id}: `## {title}` is empty"
    references = "\n".join(doc.sections["References"].prose)
    assert "crates/burn-store/src/" in references, f"{rule_id}: cite burn-store's source"


@pytest.mark.parametrize("rule_id", RULE_IDS)
def test_local_links_resolve(rule_id: str) -> None:
    text = doc_path(rule_id).read_text(encoding="utf-8")
    for target in _LOCAL_LINK.findall(text):
        assert (DOCS_DIR / target.split("#")[0]).is_file(), f"{rule_id}: broken link {target}"


# the examples run -----------------------------------------------------------------------------


@pytest.mark.parametrize("rule_id", RULE_IDS)
def test_example_fires_only_its_rule(rule_id: str, tmp_path: Path) -> None:
    findings, notifications = lint(rust_block(rule_id, "Example"), tmp_path)
    assert notifications == [], f"{rule_id} Example does not lint cleanly: {notifications}"
    assert any(rid == rule_id for rid, _, _ in findings), f"{rule_id} did not fire: {findings}"
    allowed = {rule_id} | ALSO_FIRES.get(rule_id, frozenset())
    others = [f for f in findings if f[0] not in allowed]
    assert others == [], f"the {rule_id} Example also triggers other rules: {others}"


@pytest.mark.parametrize("rule_id", RULE_IDS)
def test_use_instead_is_clean(rule_id: str, tmp_path: Path) -> None:
    findings, notifications = lint(rust_block(rule_id, "Use instead"), tmp_path)
    assert notifications == [], f"{rule_id} Use instead does not lint cleanly: {notifications}"
    assert findings == [], f"the {rule_id} Use instead block has findings: {findings}"
