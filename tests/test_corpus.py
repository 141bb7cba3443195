"""burnlint over the burn repository: no crash, and exactly the findings recorded (each with a
verdict) in ``tests/corpus/burn_expected.txt``. Runs when ``BURN_TREE`` points at a tree of
tracel-ai/burn (``git archive`` of the commit named in that file)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from burnlint.engine import lint_paths
from burnlint.options import EngineOptions
from burnlint.paths import display_path
from burnlint.rules.registry import resolve

EXPECTED = Path(__file__).resolve().parent / "corpus" / "burn_expected.txt"


def read_expected(path: Path = EXPECTED) -> dict[str, str]:
    """``file:line:rule  verdict`` lines -> {location: verdict}."""
    entries: dict[str, str] = {}
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        location, _, verdict = line.partition(" ")
        entries[location] = verdict.strip()
    return entries


def test_expected_file_is_well_formed() -> None:
    entries = read_expected()
    assert entries
    for location, verdict in entries.items():
        assert location.count(":") == 2, location
        assert verdict, f"{location} has no verdict"
        assert not verdict.startswith("UNREVIEWED"), f"{location} is not reviewed yet"


@pytest.mark.skipif(not os.environ.get("BURN_TREE"), reason="BURN_TREE is not set to a burn tree")
def test_burn_repository() -> None:
    tree = Path(os.environ["BURN_TREE"]).resolve()
    result = lint_paths([tree], EngineOptions(rule_ids=resolve(), project_root=tree))
    crashes = [n for n in result.notifications if n.rule_id is not None]
    assert not crashes
    assert result.stats.files_checked > 1500
    found = {
        f"{display_path(f.location.path, tree)}:{f.location.span.start_line}:{f.rule_id}"
        for f in result.findings
    }
    assert found == set(read_expected())
