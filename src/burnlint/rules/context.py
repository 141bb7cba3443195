"""What a rule sees: the file's model, and a way to make findings located in it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from burnlint.findings import (
    Applicability,
    Edit,
    Finding,
    Fix,
    Location,
    RelatedLocation,
    RuleMeta,
    Span,
)

if TYPE_CHECKING:
    from tree_sitter import Node

    from burnlint.model.file_model import FileModel
    from burnlint.rules.violation import Violation
    from burnlint.rust.source import SourceFile

_SPACE = re.compile(r"\s+")
# Findings in tests and benches carry this tag, so reports and `per-file-ignores` can treat
# them apart (a test that loads a fixture with implicit key mapping is not a production bug).
TEST_CODE_TAG = "test-code"


@dataclass(frozen=True)
class FixEdits:
    """A fix without its title."""

    applicability: Applicability
    edits: tuple[Edit, ...]


@dataclass
class RuleContext:
    """One file, as one rule sees it: ``meta`` is the rule's metadata at the level this run
    gives it (``RuleMeta.effective``)."""

    model: FileModel
    meta: RuleMeta

    def location(self, node: Node) -> Location:
        return Location(self.model.path, self.model.source.node_span(node))

    def report(
        self,
        node: Node,
        violation: Violation,
        *,
        related: tuple[RelatedLocation, ...] = (),
        fix: FixEdits | None = None,
        span: Span | None = None,
    ) -> Finding:
        """A finding at ``node`` (at ``span`` within it, when given), worded by ``violation``;
        ``fix`` gets its title from it. Findings in test code carry the ``test-code`` tag."""
        source = self.model.source
        return finding_at(
            source,
            span if span is not None else source.node_span(node),
            self.meta,
            violation.message,
            item=source.ancestry.enclosing_item(node),
            help=violation.help,
            label=violation.label,
            note=violation.note,
            related=related,
            fix=titled(violation, fix),
            tags=(TEST_CODE_TAG,) if self.model.in_test_code(node) else (),
        )


def titled(violation: Violation, fix: FixEdits | None) -> Fix | None:
    """``fix`` with the title ``violation`` gives it."""
    if fix is None:
        return None
    title = violation.fix_title
    if title is None:
        raise ValueError(f"{type(violation).__name__} words no fix_title for its fix")
    return Fix(title, fix.applicability, fix.edits)


def finding_at(
    source: SourceFile,
    span: Span,
    meta: RuleMeta,
    message: str,
    *,
    item: str,
    help: str | None = None,
    label: str | None = None,
    note: str | None = None,
    related: tuple[RelatedLocation, ...] = (),
    fix: Fix | None = None,
    tags: tuple[str, ...] = (),
) -> Finding:
    """A finding of the rule ``meta`` describes, at its level, at ``span``, with its snippet and
    its fingerprint's material: ``item`` (the items around it) and its text, spaces normalised.
    The engine completes the fingerprint into a hash with an ordinal
    (``engine.finish.with_fingerprints``)."""
    snippet = source.snippet(span)
    text = source.data[span.start_byte : span.end_byte].decode("utf-8", errors="replace")
    return Finding(
        location=Location(source.path, span),
        rule_id=meta.id,
        rule_name=meta.name,
        level=meta.level,
        message=message,
        help=help,
        label=label,
        note=note,
        related=related,
        fix=fix,
        fingerprint=f"{item}\x1f{_SPACE.sub(' ', text)}",
        snippet=snippet.text,
        snippet_start=snippet.start,
        snippet_cut=snippet.cut,
        tags=tags,
    )
