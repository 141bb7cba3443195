"""Each rule's own minimal cases (``Rule.VALID`` and ``Rule.INVALID``, Fixit style) run.

A snippet is checked as a one-file crate with the default rules and its rule, and must produce
exactly the findings its ``// expect:`` markers declare: an ``INVALID`` snippet at least one of
its rule, a ``VALID`` one none. The fixtures in ``testdata/`` hold the many variants; these
state each rule's contract in the file that implements it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from burnlint.engine import lint_files
from burnlint.options import EngineOptions
from burnlint.rules.all_rules import ALL_RULES
from burnlint.rules.base import Rule
from burnlint.rules.registry import resolve
from fixtures import read_expectations

CASES = [
    pytest.param(rule, kind, code, id=f"{rule.meta.id}-{kind}-{index}")
    for rule in ALL_RULES
    for kind, snippets in (("valid", rule.VALID), ("invalid", rule.INVALID))
    for index, code in enumerate(snippets)
]


@pytest.mark.parametrize(("rule", "kind", "code"), CASES)
def test_snippet(rule: type[Rule], kind: str, code: str, tmp_path: Path) -> None:
    path = tmp_path / "lib.rs"
    path.write_text(code, encoding="utf-8")
    expectations = read_expectations(path)
    rule_ids = resolve(extend_select=[rule.meta.id, *expectations.select])
    result = lint_files([path], EngineOptions(rule_ids=rule_ids, project_root=tmp_path))
    assert result.notifications == ()
    found = {(f.location.span.start_line, f.rule_id) for f in result.findings}
    assert found == expectations.expected
    own = {rule_id for _, rule_id in found if rule_id == rule.meta.id}
    assert own if kind == "invalid" else not own


def test_every_rule_has_valid_and_invalid_snippets() -> None:
    for rule in ALL_RULES:
        assert rule.VALID and rule.INVALID, f"{rule.meta.id} has no VALID or no INVALID snippet"
