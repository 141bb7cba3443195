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
            fingerprint=f"{enclosing_item(node)}\x1f{_SPACE.sub(' ', source.text(node))}",
            snippet=snippet.text,
            snippet_start=snippet.start,
            snippet_cut=snippet.cut,
            tags=(*self.rule.tags, TEST_CODE_TAG)
            if self.model.in_test_code(node)
            else self.rule.tags,
        )


def enclosing_item(node: Node) -> str:
    """``impl Trainer > fn fit`` style path of the items around ``node``."""
    names: list[str] = []
    current = node.parent
    while current is not None:
        if current.type in ("function_item", "mod_item", "trait_item"):
            name = current.child_by_field_name("name")
            if name is not None and name.text is not None:
                names.append(f"{current.type.removesuffix('_item')} {name.text.decode()}")
        elif current.type == "impl_item":
            type_node = current.child_by_field_name("type")
            if type_node is not None and type_node.text is not None:
                names.append(f"impl {type_node.text.decode()}")
        current = current.parent
    return " > ".join(reversed(names))
