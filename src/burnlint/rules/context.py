"""What a rule sees: the file's model, and a way to make findings located in it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from burnlint.findings import Finding, Fix, Level, Location, RelatedLocation, Span
from burnlint.model.file_model import FileModel
from burnlint.rules.base import Rule

if TYPE_CHECKING:
    from tree_sitter import Node

    from burnlint.source import SourceFile

_SPACE = re.compile(r"\s+")
# Findings in tests and benches carry this tag, so reports and `per-file-ignores` can treat
# them apart (a test that loads a fixture with implicit key mapping is not a production bug).
TEST_CODE_TAG = "test-code"


@dataclass
class RuleContext:
    model: FileModel
    rule: Rule
    level: Level

    def location(self, node: Node) -> Location:
        return Location(self.model.path, self.model.source.node_span(node))

    def finding(
        self,
        node: Node,
        message: str,
        *,
        help: str | None = None,
        label: str | None = None,
        note: str | None = None,
        related: tuple[RelatedLocation, ...] = (),
        fix: Fix | None = None,
    ) -> Finding:
        source = self.model.source
        return finding_at(
            source,
            source.node_span(node),
            self.rule,
            self.level,
            message,
            item=source.ancestry.enclosing_item(node),
            help=help,
            label=label,
            note=note,
            related=related,
            fix=fix,
            tags=(*self.rule.tags, TEST_CODE_TAG)
            if self.model.in_test_code(node)
            else self.rule.tags,
        )


def finding_at(
    source: SourceFile,
    span: Span,
    rule: type[Rule] | Rule,
    level: Level,
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
    """A finding of ``rule`` at ``span``, with its snippet and its fingerprint's material:
    ``item`` (the items around it) and its text, spaces normalised. The engine completes the
    fingerprint into a hash with an ordinal (``engine.finish.with_fingerprints``)."""
    snippet = source.snippet(span)
    text = source.data[span.start_byte : span.end_byte].decode("utf-8", errors="replace")
    return Finding(
        location=Location(source.path, span),
        rule_id=rule.id,
        rule_name=rule.name,
        level=level,
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
