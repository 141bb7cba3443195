"""Blessed rendered output, next to each rule fixture (clippy's ``.stderr``).

``testdata/rules/BLxxx/<fixture>.rs.txt`` is the concise report of ``<fixture>.rs`` checked as
``tests/test_fixtures.py`` checks it (the default rules plus the fixture's ``burnlint-test:
select``): one line per finding, with its message and label. A fixture without findings has no
snapshot. ``test_fixtures.py`` pins where findings are; these pin what they say, so a change of
wording is a diff to review. After an intended change, refresh them all with::

    UPDATE_GOLDEN=1 python -m pytest tests/test_snapshots.py
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from burnlint.engine import lint_files
from burnlint.options import EngineOptions
from burnlint.report import FORMATS, ReportContext
from burnlint.rules.registry import resolve
from fixtures import read_expectations

TESTDATA = Path(__file__).resolve().parent.parent / "testdata"
RULE_FIXTURES = sorted((TESTDATA / "rules").rglob("*.rs"))
FORMAT = "concise"
REFRESH = "UPDATE_GOLDEN=1 python -m pytest tests/test_snapshots.py"


def snapshot_path(fixture: Path) -> Path:
    return fixture.with_name(fixture.name + ".txt")


def render(fixture: Path) -> str:
    """The fixture's report, paths relative to its folder, without the summary line."""
    rule_ids = resolve(extend_select=sorted(read_expectations(fixture).select))
    result = lint_files([fixture], EngineOptions(rule_ids=rule_ids, project_root=fixture.parent))
    ctx = ReportContext(color=False, project_root=fixture.parent, tool_version="0", quiet=True)
    return FORMATS[FORMAT](result, ctx)


@pytest.mark.parametrize("fixture", RULE_FIXTURES, ids=lambda p: str(p.relative_to(TESTDATA)))
def test_snapshot(fixture: Path) -> None:
    out = render(fixture)
    path = snapshot_path(fixture)
    if os.environ.get("UPDATE_GOLDEN"):
        if out:
            path.write_text(out, encoding="utf-8", newline="\n")
        else:
            path.unlink(missing_ok=True)
    if not out:
        assert not path.exists(), f"{path.name}: the fixture has no findings now; {REFRESH}"
        return
    assert path.exists(), f"{path.name} is missing: {REFRESH}"
    assert out == path.read_text(encoding="utf-8"), f"{path.name} differs; if intended, {REFRESH}"


def test_no_orphan_snapshots() -> None:
    """Every snapshot belongs to a fixture."""
    orphans = [
        p.relative_to(TESTDATA).as_posix()
        for p in (TESTDATA / "rules").rglob("*.rs.txt")
        if not p.with_suffix("").exists()
    ]
    assert orphans == []
