"""The rule docs (``rules/BL00N-<name>.md``): the one source of ``burnlint rule`` and SARIF help.

A wheel carries them as package data in ``burnlint/_rule_docs`` (hatchling ``force-include``).
An editable install has no copy (hatchling's editable wheels only point at ``src/``), so the
top-level ``rules/`` of the source tree is the fallback.
"""

from __future__ import annotations

import re
import sys
from importlib import resources
from pathlib import Path

if sys.version_info >= (3, 11):
    from importlib.resources.abc import Traversable
else:  # pragma: no cover - Python 3.10
    from importlib.abc import Traversable

__all__ = [
    "PACKAGED_DOCS",
    "Traversable",
    "all_rule_docs",
    "doc_section",
    "rule_doc",
    "rule_doc_path",
    "rule_docs_dir",
]

PACKAGED_DOCS = "_rule_docs"

# `BL001-discarded-store-result.md`; a bare `BL001.md` is accepted too.
_DOC_NAME = re.compile(r"^(BL\d{3})(?:-[A-Za-z0-9-]+)?\.md$")


def _candidate_dirs() -> list[Traversable]:
    """Where docs may live, best first: the installed package, then a source checkout."""
    found: list[Traversable] = []
    try:
        packaged = resources.files("burnlint") / PACKAGED_DOCS
        if packaged.is_dir():
            found.append(packaged)
    except (ModuleNotFoundError, OSError):
        pass
    package_dir = Path(__file__).resolve().parent
    src_dir = package_dir.parent
    repo = src_dir.parent
    # Only a real checkout (src layout with its pyproject): an installed package's grandparent
    # directory is site-packages' parent, where a stray `rules/` must not be picked up.
    if src_dir.name == "src" and (repo / "pyproject.toml").is_file():
        checkout_docs = repo / "rules"
        if checkout_docs.is_dir():
            found.append(checkout_docs)
    return found


def rule_docs_dir() -> Traversable | None:
    """The directory the docs are read from, or None when neither location exists."""
    dirs = _candidate_dirs()
    return dirs[0] if dirs else None


def all_rule_docs() -> dict[str, Traversable]:
    """Every doc by rule id (``BL001`` -> its file), in id order."""
    directory = rule_docs_dir()
    if directory is None:
        return {}
    docs: dict[str, Traversable] = {}
    try:
        entries = sorted(directory.iterdir(), key=lambda entry: entry.name)
    except OSError:
        return {}
    for entry in entries:
        match = _DOC_NAME.match(entry.name)
        if match and match.group(1) not in docs and entry.is_file():
            docs[match.group(1)] = entry
    return dict(sorted(docs.items()))


def rule_doc_path(rule_id: str) -> Traversable | None:
    """The doc file of ``rule_id`` (any case), or None."""
    return all_rule_docs().get(rule_id.strip().upper())


def rule_doc(rule_id: str) -> str | None:
    """The Markdown text of the doc of ``rule_id``, or None when there is no readable doc."""
    path = rule_doc_path(rule_id)
    if path is None:
        return None
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def doc_section(doc: str, heading: str) -> str | None:
    """The text under the ``## heading`` of a rule doc, up to the next heading of that level
    or above (code blocks kept whole), stripped; None when the doc has no such section."""
    kept: list[str] = []
    inside = False
    fenced = False
    for line in doc.splitlines():
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
        elif not fenced and re.match(r"^#{1,2}\s", line):
            if inside:
                break
            inside = line.lstrip("#").strip().lower() == heading.lower()
            continue
        if inside:
            kept.append(line)
    text = "\n".join(kept).strip()
    return text or None
