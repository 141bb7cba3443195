"""One harness for every rule: each fixture must produce exactly the findings its comments
declare, for all rules at once (so one rule's false positive on another rule's fixture shows)."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest

from burnlint.engine import lint_files
from burnlint.findings import MAX_LABEL, Finding, LintResult, RunStats
from burnlint.options import EngineOptions
from burnlint.paths import display_path
from burnlint.report import ReportContext, text
from burnlint.rules import registry
from burnlint.rules.registry import resolve
from fixtures import Expectations, read_expectations

TESTDATA = Path(__file__).resolve().parent.parent / "testdata"
RULE_FIXTURES = sorted((TESTDATA / "rules").rglob("*.rs"))
CRATE_FIXTURES = sorted(p.parent for p in (TESTDATA / "crates").glob("*/Cargo.toml"))


def _run(files: list[Path], root: Path, select: set[str]) -> dict[str, set[tuple[int, str]]]:
    rule_ids = resolve(extend_select=sorted(select))
    result = lint_files(files, EngineOptions(rule_ids=rule_ids, project_root=root))
    crashes = [n for n in result.notifications if n.rule_id is not None]
    assert not crashes, crashes
    found: dict[str, set[tuple[int, str]]] = defaultdict(set)
    for finding in result.findings:
        shown = display_path(finding.location.path, root)
        found[shown].add((finding.location.span.start_line, finding.rule_id))
    return found


def _compare(path: str, expectations: Expectations, found: set[tuple[int, str]]) -> None:
    missing = sorted(expectations.expected - found)
    unexpected = sorted(found - expectations.expected)
    fixed_todos = sorted(expectations.todo & found)
    assert not missing and not unexpected and not fixed_todos, (
        f"{path}: missing {missing}, unexpected {unexpected}, todo-expect now found {fixed_todos}"
    )


def test_fixtures_exist() -> None:
    assert len(RULE_FIXTURES) >= 10
    assert CRATE_FIXTURES


@pytest.mark.parametrize("fixture", RULE_FIXTURES, ids=lambda p: str(p.relative_to(TESTDATA)))
def test_rule_fixture(fixture: Path) -> None:
    expectations = read_expectations(fixture)
    found = _run([fixture], fixture.parent, expectations.select)
    assert set(found) <= {fixture.name}
    _compare(fixture.name, expectations, found.get(fixture.name, set()))


@pytest.mark.parametrize("crate", CRATE_FIXTURES, ids=lambda p: p.name)
def test_crate_fixture(crate: Path) -> None:
    files = sorted(crate.rglob("*.rs"))
    per_file = {f.relative_to(crate).as_posix(): read_expectations(f) for f in files}
    select = set().union(*(e.select for e in per_file.values()))
    found = _run(files, crate, select)
    assert set(found) <= set(per_file)
    for name, expectations in per_file.items():
        _compare(name, expectations, found.get(name, set()))


def test_every_rule_has_firing_and_clean_fixtures() -> None:
    """Per rule: fixtures that fire it, and at least as many annotated-clean cases exist."""
    fired: dict[str, int] = defaultdict(int)
    for fixture in [*RULE_FIXTURES, *(f for c in CRATE_FIXTURES for f in c.rglob("*.rs"))]:
        for _line, rule_id in read_expectations(fixture).expected:
            fired[rule_id] += 1
    for rule in registry.ALL:
        if rule.enabled_by_default:
            assert fired[rule.id] >= 12, f"{rule.id} has only {fired[rule.id]} firing cases"


def test_todo_markers_stay_rare() -> None:
    """Known misses stay under 10% of the expected findings of each rule."""
    expected: dict[str, int] = defaultdict(int)
    todo: dict[str, int] = defaultdict(int)
    for fixture in [*RULE_FIXTURES, *(f for c in CRATE_FIXTURES for f in c.rglob("*.rs"))]:
        e = read_expectations(fixture)
        for _line, rule_id in e.expected:
            expected[rule_id] += 1
        for _line, rule_id in e.todo:
            todo[rule_id] += 1
    for rule_id, count in todo.items():
        assert count * 10 < expected[rule_id] + count, f"{rule_id}: {count} todo-expect markers"


def test_prefilter_changes_nothing() -> None:
    """Parsing every file gives the same findings as parsing only the candidates."""
    files = [*RULE_FIXTURES, *(f for c in CRATE_FIXTURES for f in sorted(c.rglob("*.rs")))]
    rule_ids = resolve(select=["ALL"])
    on = lint_files(files, EngineOptions(rule_ids=rule_ids, project_root=TESTDATA))
    off = lint_files(
        files, EngineOptions(rule_ids=rule_ids, project_root=TESTDATA, prefilter=False)
    )
    assert on.findings == off.findings
    assert on.findings


def _every_finding() -> list[Finding]:
    files = [*RULE_FIXTURES, *(f for c in CRATE_FIXTURES for f in sorted(c.rglob("*.rs")))]
    options = EngineOptions(rule_ids=resolve(select=["ALL"]), project_root=TESTDATA)
    return list(lint_files(files, options).findings)


def test_caret_labels_stay_short_and_the_help_is_said_once() -> None:
    """A label is a few words under the carets (the detail goes in the note), and a fix the
    help already names is not printed again as a second `help:` line."""
    findings = _every_finding()
    assert {f.rule_id for f in findings} >= {"BL003", "BL005", "BL006", "BL007"}
    long = sorted({(f.rule_id, f.label) for f in findings if len(f.label or "") > MAX_LABEL})
    assert not long
    ctx = ReportContext(color=False, project_root=TESTDATA, tool_version="0")
    for finding in findings:
        if finding.rule_id not in ("BL003", "BL005", "BL012") or finding.fix is None:
            continue
        shown = text.render(
            LintResult(findings=(finding,), notifications=(), stats=RunStats(files_checked=1)), ctx
        )
        helps = [line for line in shown.splitlines() if line.lstrip().startswith("= help:")]
        assert len(helps) == 1, shown
        assert "fix)" in helps[0], shown  # the one line says which kind of fix it is


def test_bl012_help_names_the_option_left_to_write() -> None:
    """With one option explicit, the help and the fix name only the other, with its value."""
    by_line = {
        f.location.span.start_line: f
        for f in _every_finding()
        if f.rule_id == "BL012"
        and f.location.path == TESTDATA / "crates" / "layout_mirror" / "src" / "import.rs"
    }
    hinted = by_line[25]
    assert hinted.help is not None
    assert hinted.help.endswith(
        "write `.map_indices_contiguous(false)` for the mirror `net: Vec<Layer>`"
    )
    assert "skip_enum_variants" not in hinted.help


def test_findings_in_test_code_are_tagged(tmp_path: Path) -> None:
    source = tmp_path / "lib.rs"
    source.write_text(
        "use burn_store::{ModuleSnapshot, BurnpackStore};\n"
        'pub fn save(m: &M) { let _ = m.save_into(&mut BurnpackStore::from_file("a")); }\n'
        "#[cfg(test)]\n"
        "mod tests {\n"
        "    use super::*;\n"
        "    #[test]\n"
        '    fn t() { let _ = m.save_into(&mut BurnpackStore::from_file("a")); }\n'
        "}\n",
        encoding="utf-8",
    )
    result = lint_files([source], EngineOptions(rule_ids=resolve(), project_root=tmp_path))
    tags = {f.location.span.start_line: "test-code" in f.tags for f in result.findings}
    assert tags == {2: False, 7: True}


def test_bl005_on_a_helper_names_its_callers_loads() -> None:
    """A store helper's implicit option is reported once, at its constructor, with each load
    of its callers (in other files, the lib's bin too) as a related location, and a fix in
    the helper's file."""
    findings = [
        f
        for f in _every_finding()
        if f.rule_id == "BL005" and "torch-helpers/" in f.location.path.as_posix()
    ]
    assert {f.location.path.name for f in findings} == {
        "stores.rs",
        "stores_safetensors.rs",
    }
    torch_store = next(
        f
        for f in findings
        if f.location.path.name == "stores.rs" and f.location.span.start_line == 11
    )
    loads = {
        (r.location.path.as_posix().split("torch-helpers/", 1)[1], r.location.span.start_line)
        for r in torch_store.related
        if r.message == "loaded here"
    }
    # `from_torch_dir` loads it through a second helper, `torch_store_in`
    assert loads == {
        ("src/import.rs", 18),
        ("src/import.rs", 25),
        ("src/import.rs", 48),
        ("src/bin/convert.rs", 15),
    }
    assert torch_store.fix is not None
    assert {e.path for e in torch_store.fix.edits} == {torch_store.location.path}


DISCARDED_SAVE = (
    "use burn_store::{ModuleSnapshot, BurnpackStore};\n"
    'pub fn save(m: &M) { let _ = m.save_into(&mut BurnpackStore::from_file("a")); }\n'
)


def test_the_test_code_tag_follows_the_cargo_target_not_the_project_root(tmp_path: Path) -> None:
    """A crate that sits in a directory named `tests` (a test fixture of another project) is
    not test code; its integration tests, benchmarks and `tests` modules are. Where the
    project root is, and so how the report names the files, changes nothing."""
    crate = tmp_path / "tests" / "fixture"
    files = {
        "src/lib.rs": "pub mod model;\n" + DISCARDED_SAVE,
        "src/model/tests/load.rs": DISCARDED_SAVE,
        "src/tests.rs": DISCARDED_SAVE,
        "tests/it.rs": DISCARDED_SAVE,
        "benches/speed.rs": DISCARDED_SAVE,
        "examples/demo.rs": DISCARDED_SAVE,
    }
    (crate / "Cargo.toml").parent.mkdir(parents=True)
    (crate / "Cargo.toml").write_text('[package]\nname = "fixture"\nversion = "0.1.0"\n')
    for name, source in files.items():
        (crate / name).parent.mkdir(parents=True, exist_ok=True)
        (crate / name).write_text(source, encoding="utf-8")
    expected = {
        "src/lib.rs": False,
        "src/model/tests/load.rs": True,
        "src/tests.rs": True,
        "tests/it.rs": True,
        "benches/speed.rs": True,
        "examples/demo.rs": False,
    }
    for root in (crate, tmp_path, tmp_path / "elsewhere"):
        root.mkdir(exist_ok=True)
        options = EngineOptions(rule_ids=resolve(), project_root=root)
        result = lint_files(sorted(crate / name for name in files), options)
        tagged = {
            f.location.path.relative_to(crate).as_posix(): "test-code" in f.tags
            for f in result.findings
        }
        assert tagged == expected, root
