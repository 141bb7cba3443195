"""Blessed rendered output, next to each rule fixture and each crate fixture (clippy's
``.stderr``).

``testdata/rules/BLxxx/<fixture>.rs.txt`` is the concise report of ``<fixture>.rs`` checked as
``tests/test_fixtures.py`` checks it (the default rules plus the fixture's ``burnlint-test:
select``): one line per finding, with its message and label. ``testdata/crates/<crate>.txt``
is the same for the crate fixture ``testdata/crates/<crate>/``: every ``.rs`` file of it
checked in one run, as ``test_crate_fixture`` does, paths relative to the crate. A fixture
without findings has no snapshot. ``test_fixtures.py`` pins where findings are; these pin what
they say, so a change of wording is a diff to review. After an intended change, refresh them
all with::

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
CRATE_FIXTURES = sorted(p.parent for p in (TESTDATA / "crates").glob("*/Cargo.toml"))
FORMAT = "concise"
REFRESH = "UPDATE_GOLDEN=1 python -m pytest tests/test_snapshots.py"


def snapshot_path(fixture: Path) -> Path:
    """``<fixture>.rs.txt`` beside a rule fixture, ``<crate>.txt`` beside a crate fixture."""
    return fixture.with_name(fixture.name + ".txt")


def _sources(fixture: Path) -> tuple[list[Path], Path]:
    """The files a fixture is checked as, and the root its report names them from."""
    if fixture.is_dir():
        return sorted(fixture.rglob("*.rs")), fixture
    return [fixture], fixture.parent


def render(fixture: Path) -> str:
    """The fixture's report, paths relative to its folder (a crate: the crate's), without the
    summary line."""
    files, root = _sources(fixture)
    select = set().union(*(read_expectations(f).select for f in files))
    rule_ids = resolve(extend_select=sorted(select))
    result = lint_files(files, EngineOptions(rule_ids=rule_ids, project_root=root))
    ctx = ReportContext(color=False, project_root=root, tool_version="0", quiet=True)
    return FORMATS[FORMAT](result, ctx)


def _check(fixture: Path) -> None:
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


@pytest.mark.parametrize("fixture", RULE_FIXTURES, ids=lambda p: str(p.relative_to(TESTDATA)))
def test_snapshot(fixture: Path) -> None:
    _check(fixture)


@pytest.mark.parametrize("crate", CRATE_FIXTURES, ids=lambda p: p.name)
def test_crate_snapshot(crate: Path) -> None:
    _check(crate)


def test_crate_snapshots_name_the_crates_files() -> None:
    """A crate's snapshot holds findings in more than one of its files, named from the
    crate's root (the harness checks the crate, not one file)."""
    shown = {
        line.split(":", 1)[0]
        for crate in CRATE_FIXTURES
        if snapshot_path(crate).exists()
        for line in snapshot_path(crate).read_text(encoding="utf-8").splitlines()
    }
    assert any(name.startswith("src/") for name in shown), shown
    assert any(name.startswith(("tests/", "examples/", "benches/")) for name in shown), shown


def test_no_orphan_snapshots() -> None:
    """Every snapshot belongs to a fixture."""
    orphans = [
        p.relative_to(TESTDATA).as_posix()
        for p in (TESTDATA / "rules").rglob("*.rs.txt")
        if not p.with_suffix("").exists()
    ]
    orphans += [
        p.relative_to(TESTDATA).as_posix()
        for p in (TESTDATA / "crates").glob("*.txt")
        if not (p.with_suffix("") / "Cargo.toml").exists()
    ]
    assert orphans == []
