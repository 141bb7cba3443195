"""The demo crate: every planted mistake is reported, and nothing else."""

from __future__ import annotations

from pathlib import Path

from burnlint.engine import lint_paths
from burnlint.options import EngineOptions
from burnlint.paths import display_path
from burnlint.rules.registry import resolve

DEMO = Path(__file__).resolve().parent.parent / "testdata" / "demo"


def _expected() -> set[str]:
    lines = (DEMO / "expected.txt").read_text().splitlines()
    return {line.strip() for line in lines if line.strip() and not line.startswith("#")}


def test_demo_reports_exactly_the_planted_mistakes() -> None:
    result = lint_paths([DEMO], EngineOptions(rule_ids=resolve(), project_root=DEMO))
    found = {
        f"{display_path(f.location.path, DEMO)}:{f.location.span.start_line}:{f.rule_id}"
        for f in result.findings
    }
    assert found == _expected()
    assert not result.notifications
