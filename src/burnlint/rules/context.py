"""What a rule sees: the file's model, and a way to make findings located in it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from burnlint.findings import Finding, Fix, Level, Location, RelatedLocation
from burnlint.model.file_model import FileModel
from burnlint.rules.base import Rule

if TYPE_CHECKING:
    from tree_sitter import Node

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
        related: tuple[RelatedLocation, ...] = (),
        fix: Fix | None = None,
    ) -> Finding:
        source = self.model.source
        span = source.node_span(node)
        snippet = source.snippet(span)
        item = source.ancestry.enclosing_item(node)
        return Finding(
            location=Location(self.model.path, span),
            rule_id=self.rule.id,
            rule_name=self.rule.name,
            level=self.level,
            message=message,
            help=help,
            label=label,
            related=related,
            fix=fix,
            # the engine completes this into a hash with an ordinal (see fingerprint.py)
            fingerprint=f"{item}\x1f{_SPACE.sub(' ', source.text(node))}",
            snippet=snippet.text,
            snippet_start=snippet.start,
            snippet_cut=snippet.cut,
            tags=(*self.rule.tags, TEST_CODE_TAG)
            if self.model.in_test_code(node)
            else self.rule.tags,
        )
