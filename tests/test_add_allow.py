"""--add-allow: an allow comment above every finding, written safely, recognised, idempotent."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from burnlint import cli
from burnlint.app.add_allow import add_allows
from burnlint.app.fix import syntax_error_count
from burnlint.engine import lint_paths
from burnlint.findings import LintResult
from burnlint.options import EngineOptions
from burnlint.rules.registry import resolve

TESTDATA = Path(__file__).resolve().parent.parent / "testdata"
RULE_FIXTURES = sorted((TESTDATA / "rules").rglob("*.rs"))
MANIFEST = '[package]\nname = "c"\nversion = "0.1.0"\n'


def run(runner: CliRunner, root: Path, *args: str) -> Result:
    return runner.invoke(cli.cli, ["--project-root", str(root), *args], catch_exceptions=False)


def lint(root: Path, *paths: Path) -> LintResult:
    options = EngineOptions(rule_ids=resolve(), project_root=root, jobs=1)
    return lint_paths(list(paths) or [root], options)


def add(root: Path, result: LintResult) -> int:
    digests = result.digests
    outcome = add_allows(result.findings, root=root, digests=digests)
    assert not outcome.notifications, outcome.notifications
    return outcome.total


def crate_with(tmp_path: Path, source: str | bytes, name: str = "src/main.rs") -> Path:
    (tmp_path / "Cargo.toml").write_text(MANIFEST)
    target = tmp_path / name
    target.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(source, str):
        source = source.encode()
    target.write_bytes(source)
    return target


def test_demo_crate(runner: CliRunner, tmp_path: Path) -> None:
    root = tmp_path / "demo"
    shutil.copytree(TESTDATA / "demo", root)
    before = {p: p.read_bytes() for p in root.rglob("*.rs")}
    out = run(runner, root, "--add-allow", "--format", "concise", str(root))
    assert out.exit_code == 0, out.stdout
    assert out.stderr == "burnlint: added allow comments for 6 findings in 3 files\n"
    assert out.stdout == "no problems found in 6 files checked\n"
    train = (root / "src" / "train.rs").read_text()
    assert (
        "        // Keep the latest weights around in case the run is interrupted.\n"
        "        // burnlint: allow(BL002, BL003) -- baseline\n"
        "        let res = model.save_into(&mut SafetensorsStore::from_file(&file));\n"
    ) in train
    assert (
        "            // burnlint: allow(BL001) -- baseline\n"
        "            let _ = model.save_into(&mut best);\n"
    ) in train
    for path, old in before.items():
        new = path.read_bytes()
        assert syntax_error_count(new) == syntax_error_count(old)
        # only whole comment lines were added
        added = [line for line in new.splitlines() if line not in old.splitlines()]
        assert all(line.strip().startswith(b"// burnlint: allow(") for line in added)
    after = {p: p.read_bytes() for p in root.rglob("*.rs")}

    again = run(runner, root, "--add-allow", str(root))
    assert again.exit_code == 0
    assert again.stderr == "burnlint: added allow comments for 0 findings in 0 files\n"
    assert {p: p.read_bytes() for p in root.rglob("*.rs")} == after


@pytest.mark.parametrize("fixture", RULE_FIXTURES, ids=lambda p: p.relative_to(TESTDATA).as_posix())
def test_every_rule_fixture_ends_clean(fixture: Path, tmp_path: Path) -> None:
    """On every rule's fixture: the findings are all covered, the file parses as well as
    before, and a second pass finds nothing to add. BL008 findings (unused allows) are left."""
    target = tmp_path / fixture.name
    shutil.copy(fixture, target)
    first = lint(tmp_path, target)
    left = sorted(f.rule_id for f in first.findings if f.rule_id == "BL008")
    old = target.read_bytes()
    add(tmp_path, first)
    second = lint(tmp_path, target)
    assert sorted(f.rule_id for f in second.findings) == left
    assert syntax_error_count(target.read_bytes()) <= syntax_error_count(old)
    assert add(tmp_path, second) == 0


def test_an_existing_allow_above_is_extended(tmp_path: Path) -> None:
    root = tmp_path / "demo"
    shutil.copytree(TESTDATA / "demo", root)
    source = root / "src" / "import.rs"
    text = source.read_text()
    anchor = "    if let Err(e) = model.load_from(&mut store) {\n"
    assert text.count(anchor) == 1
    source.write_text(
        text.replace(anchor, "    // burnlint: allow(BL002) -- logged on purpose\n" + anchor)
    )
    result = lint(root, source)
    assert [f.rule_id for f in result.findings] == ["BL007"]
    assert add(root, result) == 1
    assert (
        "    // burnlint: allow(BL002, BL007) -- logged on purpose\n" + anchor
    ) in source.read_text()
    assert lint(root, source).findings == ()


def test_crlf_bom_and_a_statement_that_does_not_begin_its_line(tmp_path: Path) -> None:
    """The finding's statement shares its line with `fn ..{`: the comment goes above the `fn`,
    after the BOM, with the file's CRLF line endings."""
    source = (
        "\ufeffuse burn_store::{ModuleSnapshot, SafetensorsStore};\r\n"
        "fn f<M: ModuleSnapshot>(m: &M) "
        '{ let _ = m.save_into(&mut SafetensorsStore::from_file("a")); }\r\n'
    )
    path = crate_with(tmp_path, source.encode("utf-8"))
    result = lint(tmp_path, path)
    assert [f.rule_id for f in result.findings] == ["BL001"]
    assert add(tmp_path, result) == 1
    data = path.read_bytes()
    assert data.startswith(b"\xef\xbb\xbfuse burn_store")
    assert data.count(b"\n") == data.count(b"\r\n") == 3
    assert b"\r\n// burnlint: allow(BL001) -- baseline\r\nfn f<M" in data
    assert lint(tmp_path, path).findings == ()


def test_bom_and_a_finding_on_the_first_line(tmp_path: Path) -> None:
    source = (
        "\ufefffn f<M: burn_store::ModuleSnapshot>(m: &M) "
        '{ let _ = m.save_into(&mut burn_store::SafetensorsStore::from_file("a")); }\n'
    )
    path = crate_with(tmp_path, source.encode("utf-8"))
    result = lint(tmp_path, path)
    assert [f.rule_id for f in result.findings] == ["BL001"]
    assert add(tmp_path, result) == 1
    assert path.read_bytes().startswith(b"\xef\xbb\xbf// burnlint: allow(BL001) -- baseline\nfn f")
    assert lint(tmp_path, path).findings == ()


def test_tabs_are_kept_as_indentation(tmp_path: Path) -> None:
    source = (
        "use burn_store::{ModuleSnapshot, SafetensorsStore};\n\n"
        "fn save<M: ModuleSnapshot>(model: &M) {\n"
        '\tlet mut store = SafetensorsStore::from_file("model.safetensors");\n'
        "\tlet _ = model.save_into(&mut store);\n"
        "}\n"
    )
    path = crate_with(tmp_path, source)
    assert add(tmp_path, lint(tmp_path, path)) == 1
    assert "\t// burnlint: allow(BL001) -- baseline\n\tlet _ = model" in path.read_text()


def test_never_inside_a_multi_line_string(tmp_path: Path) -> None:
    """The statement begins on a line that starts inside a raw string: the comment goes above
    the enclosing function, and the string is untouched."""
    source = (
        "use burn_store::{ModuleSnapshot, SafetensorsStore};\n\n"
        "fn save<M: ModuleSnapshot>(model: &M) {\n"
        '    let note = r"first line\n'
        'second line"; let _ = model.save_into(&mut SafetensorsStore::from_file("m"));\n'
        '    println!("{note}");\n'
        "}\n"
    )
    path = crate_with(tmp_path, source)
    assert add(tmp_path, lint(tmp_path, path)) == 1
    text = path.read_text()
    assert 'r"first line\nsecond line"; let _' in text
    assert "\n// burnlint: allow(BL001) -- baseline\nfn save<M" in text
    assert lint(tmp_path, path).findings == ()


def test_match_arms_and_closures(tmp_path: Path) -> None:
    source = """\
use burn_store::{ModuleSnapshot, SafetensorsStore};

fn save<M: ModuleSnapshot>(models: &[M], which: u8) {
    models.iter().for_each(|m| {
        let _ = m.save_into(&mut SafetensorsStore::from_file("a"));
    });
    match which {
        0 => {
            models[0].save_into(&mut SafetensorsStore::from_file("b")).ok();
        }
        _ => {}
    }
}
"""
    path = crate_with(tmp_path, source)
    result = lint(tmp_path, path)
    assert [f.rule_id for f in result.findings] == ["BL001", "BL003", "BL001"]
    assert add(tmp_path, result) == 3
    text = path.read_text()
    assert (
        "        // burnlint: allow(BL001, BL003) -- baseline\n        let _ = m.save_into" in text
    )
    assert "            // burnlint: allow(BL001) -- baseline\n            models[0]" in text
    assert lint(tmp_path, path).findings == ()


def test_a_file_changed_since_it_was_checked_is_left_alone(tmp_path: Path) -> None:
    root = tmp_path / "demo"
    shutil.copytree(TESTDATA / "demo", root)
    result = lint(root)
    export = root / "src" / "export.rs"
    export.write_bytes(export.read_bytes() + b"\n// edited meanwhile\n")
    changed = export.read_bytes()
    digests = result.digests
    outcome = add_allows(result.findings, root=root, digests=digests)
    assert export.read_bytes() == changed
    assert [(n.path, n.message) for n in outcome.notifications] == [
        (export, "no allow comments added: the file changed since it was checked")
    ]
    assert set(outcome.covered) == {root / "src" / "import.rs", root / "src" / "train.rs"}
    assert outcome.left == 1


def test_with_a_baseline_only_new_findings_get_comments(runner: CliRunner, tmp_path: Path) -> None:
    root = tmp_path / "demo"
    shutil.copytree(TESTDATA / "demo", root)
    assert run(runner, root, "--write-baseline", str(root / "base.json"), "-q", str(root))
    export = root / "src" / "export.rs"
    export.write_text(
        export.read_text() + "\nfn again<M: ModuleSnapshot>(model: &M) {\n"
        '    let _ = model.save_into(&mut SafetensorsStore::from_file("x"));\n}\n'
    )
    before = {p: p.read_bytes() for p in root.rglob("*.rs") if p != export}
    out = run(runner, root, "--baseline", str(root / "base.json"), "--add-allow", str(root))
    assert out.exit_code == 0, out.stdout
    assert "added allow comments for 1 finding in 1 file" in out.stderr
    assert export.read_text().count("// burnlint: allow(") == 1
    assert {p: p.read_bytes() for p in root.rglob("*.rs") if p != export} == before


@pytest.mark.parametrize(
    "args",
    [
        ["--add-allow", "--diff"],
        ["--add-allow", "--stdin-filename", "src/main.rs"],
    ],
)
def test_add_allow_usage_errors(runner: CliRunner, tmp_path: Path, args: list[str]) -> None:
    out = run(runner, tmp_path, *args)
    assert out.exit_code == 2
    assert out.stderr.startswith("burnlint: error: ")


def test_a_broken_baseline_adds_nothing(runner: CliRunner, tmp_path: Path) -> None:
    root = tmp_path / "demo"
    shutil.copytree(TESTDATA / "demo", root)
    before = {p: p.read_bytes() for p in root.rglob("*.rs")}
    out = run(runner, root, "--baseline", str(root / "missing.json"), "--add-allow", str(root))
    assert out.exit_code == 2
    assert {p: p.read_bytes() for p in root.rglob("*.rs")} == before


def test_the_edited_file_still_parses_when_it_had_errors(tmp_path: Path) -> None:
    source = """\
use burn_store::{ModuleSnapshot, SafetensorsStore};

fn save<M: ModuleSnapshot>(model: &M) {
    let _ = model.save_into(&mut SafetensorsStore::from_file("m"));
}

fn broken( {
"""
    path = crate_with(tmp_path, source)
    result = lint(tmp_path, path)
    assert [f.rule_id for f in result.findings] == ["BL001"]
    errors = syntax_error_count(path.read_bytes())
    assert add(tmp_path, result) == 1
    assert syntax_error_count(path.read_bytes()) == errors
    assert lint(tmp_path, path).findings == ()
