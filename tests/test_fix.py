"""--fix: before/after pairs, idempotence, and writes that never damage a file."""

from __future__ import annotations

import json
import os
import shutil
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner

from burnlint.app.fix import MAX_FIX_PASSES, apply_edits, fix_files
from burnlint.cli import cli
from burnlint.engine import lint_files, lint_paths
from burnlint.engine.finish import digest
from burnlint.findings import Applicability, Edit
from burnlint.options import EngineOptions
from burnlint.rules.registry import resolve

TESTDATA = Path(__file__).resolve().parent.parent / "testdata"
PAIRS = sorted(p for p in TESTDATA.rglob("*.rs.fixed"))
MAX_PASSES = MAX_FIX_PASSES  # as many as a `--fix` run makes

SEED_LOOP = """use burn_store::{ModuleSnapshot, SafetensorsStore};

fn train(model: &Model, file: &str) {
    for epoch in 0..3 {
        let res = model.save_into(&mut SafetensorsStore::from_file(file));
        if let Err(e) = res {
            panic!("epoch {epoch}: {e}");
        }
    }
}
"""


# an allow that suppresses nothing: BL008, with a safe fix
STALE_ALLOW = """
fn load(model: &mut Model) {
    // burnlint: allow(BL005)
    let _unused = 1;
}
"""


def _fix_once(path: Path, root: Path, unsafe: bool = True) -> int:
    # lint_paths: a file named alone is checked with the facts of its whole crate (its layout)
    result = lint_paths([path], EngineOptions(rule_ids=resolve(), project_root=root))
    digests = result.digests
    outcome = fix_files(result.findings, root=root, digests=digests, unsafe=unsafe, write=True)
    assert not outcome.notifications
    return outcome.total


def test_fix_pairs_exist() -> None:
    assert len(PAIRS) >= 4


@pytest.mark.parametrize("fixed", PAIRS, ids=lambda p: str(p.relative_to(TESTDATA)))
def test_fix_pairs(fixed: Path, tmp_path: Path) -> None:
    """Each `NAME.rs` becomes exactly `NAME.rs.fixed` in the passes of one `--fix` run (a fix
    can end a disagreement that hid an implicit option), and a further pass changes nothing."""
    original = fixed.with_suffix("")
    crate = next((p for p in original.parents if (p / "Cargo.toml").is_file()), None)
    if crate is not None and TESTDATA in crate.parents:
        copy = tmp_path / crate.name
        shutil.copytree(crate, copy)
        target = copy / original.relative_to(crate)
    else:
        target = tmp_path / original.name
        shutil.copy(original, target)
    root = copy if crate is not None and TESTDATA in crate.parents else tmp_path
    assert _fix_once(target, root) > 0
    for _ in range(MAX_PASSES):
        if _fix_once(target, root) == 0:
            break
    else:
        pytest.fail(f"fixes did not settle in {MAX_PASSES} passes")
    assert target.read_text(encoding="utf-8") == fixed.read_text(encoding="utf-8")


def test_key_option_fixes_go_right_after_the_constructor(tmp_path: Path) -> None:
    """The key-mapping fixes write an option right after the constructor call, so that any
    later setting still wins: in a chain with one call per line, on a line of its own (after a
    comment that ends the constructor's line), indented like the chain, with the file's line
    endings; in a chain on one line, on that line."""
    crate = tmp_path / "layout_mirror"
    shutil.copytree(TESTDATA / "crates" / "layout_mirror", crate)
    target = crate / "src" / "import.rs"
    source = target.read_text(encoding="utf-8")
    marked = (
        "let mut store = PytorchStore::from_file(path).skip_enum_variants(true); // expect: BL012"
    )
    assert marked in source
    source = source.replace(
        marked,
        "let mut store = PytorchStore::from_file(path) // expect: BL012\n"
        '        .with_top_level_key("state_dict")\n'
        "        .skip_enum_variants(true);",
    )
    target.write_bytes(source.replace("\n", "\r\n").encode())
    _fix_once(target, crate)
    fixed = target.read_bytes().decode()
    assert "\n" not in fixed.replace("\r\n", "")
    assert (
        "    let mut store = PytorchStore::from_file(path) // expect: BL012\r\n"
        "        .map_indices_contiguous(false)\r\n"
        '        .with_top_level_key("state_dict")\r\n'
        "        .skip_enum_variants(true);\r\n"
    ) in fixed
    # a chain on one line gets the options on that line, right after the constructor: BL012's
    # value for the enum and BL005's default for the index option, in one pass
    assert (
        "SafetensorsStore::from_file(path)"
        ".map_indices_contiguous(false).skip_enum_variants(true)"
        ".with_from_adapter(PyTorchToBurnAdapter);"
    ) in fixed


def test_fix_keeps_crlf_bom_and_permissions(tmp_path: Path) -> None:
    path = tmp_path / "train.rs"
    data = b"\xef\xbb\xbf" + SEED_LOOP.replace("\n", "\r\n").encode()
    path.write_bytes(data)
    path.chmod(0o640)
    assert _fix_once(path, tmp_path) == 1
    new = path.read_bytes()
    assert new.startswith(b"\xef\xbb\xbf")
    assert new.count(b"\r\n") == data.count(b"\r\n") and b"\n" not in new.replace(b"\r\n", b"")
    assert new.replace(b".overwrite(true)", b"") == data
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


def test_fix_skips_a_file_changed_since_it_was_read(tmp_path: Path) -> None:
    path = tmp_path / "train.rs"
    path.write_text(SEED_LOOP, encoding="utf-8")
    result = lint_files([path], EngineOptions(rule_ids=resolve(), project_root=tmp_path))
    path.write_text(SEED_LOOP + "// edited meanwhile\n", encoding="utf-8")
    digests = result.digests
    outcome = fix_files(result.findings, root=tmp_path, digests=digests, unsafe=True, write=True)
    assert outcome.total == 0
    assert "changed since" in outcome.notifications[0].message
    assert path.read_text(encoding="utf-8").endswith("// edited meanwhile\n")


def test_fix_refuses_an_edit_that_breaks_the_syntax(tmp_path: Path) -> None:
    path = tmp_path / "a.rs"
    path.write_text("fn f() {}\n", encoding="utf-8")
    from burnlint.findings import Finding, Fix, Level, Location, Span

    broken = Fix("break it", Applicability.SAFE, (Edit(path, 0, 2, "{{{"),))
    finding = Finding(
        Location(path, Span(0, 2, 1, 1, 1, 3, 1, 3)), "BL003", "x", Level.ERROR, "m", fix=broken
    )
    digests = {path: digest(path.read_bytes())}
    outcome = fix_files([finding], root=tmp_path, digests=digests, unsafe=True, write=True)
    assert outcome.total == 0
    assert "would not parse" in outcome.notifications[0].message
    assert path.read_text(encoding="utf-8") == "fn f() {}\n"


def test_failed_rename_leaves_the_original_intact(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "train.rs"
    path.write_text(SEED_LOOP, encoding="utf-8")

    def failing_replace(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", failing_replace)
    result = lint_files([path], EngineOptions(rule_ids=resolve(), project_root=tmp_path))
    digests = result.digests
    outcome = fix_files(result.findings, root=tmp_path, digests=digests, unsafe=True, write=True)
    assert outcome.total == 0
    assert "cannot write" in outcome.notifications[0].message
    assert path.read_text(encoding="utf-8") == SEED_LOOP
    assert [p.name for p in tmp_path.iterdir()] == ["train.rs"]  # no temporary file left


def test_unsafe_fixes_need_the_flag(tmp_path: Path) -> None:
    path = tmp_path / "train.rs"
    path.write_text(SEED_LOOP, encoding="utf-8")
    runner = CliRunner()
    safe_only = runner.invoke(cli, ["check", str(path), "--project-root", str(tmp_path), "--fix"])
    assert safe_only.exit_code == 1
    assert path.read_text(encoding="utf-8") == SEED_LOOP
    both = runner.invoke(
        cli, ["check", str(path), "--project-root", str(tmp_path), "--fix", "--unsafe-fixes"]
    )
    assert both.exit_code == 0, both.output
    assert ".overwrite(true)" in path.read_text(encoding="utf-8")


def test_diff_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "train.rs"
    path.write_text(SEED_LOOP, encoding="utf-8")
    runner = CliRunner()
    outcome = runner.invoke(
        cli, ["check", str(path), "--project-root", str(tmp_path), "--diff", "--unsafe-fixes"]
    )
    assert outcome.exit_code == 1
    fixed_line = (
        "let res = model.save_into(&mut SafetensorsStore::from_file(file).overwrite(true));"
    )
    assert f"+        {fixed_line}" in outcome.output
    assert path.read_text(encoding="utf-8") == SEED_LOOP


def test_fix_says_how_many_more_unsafe_fixes_would_apply(tmp_path: Path, runner: CliRunner) -> None:
    path = tmp_path / "train.rs"
    path.write_text(SEED_LOOP + STALE_ALLOW, encoding="utf-8")
    args = ["check", str(path), "--project-root", str(tmp_path)]
    diff = runner.invoke(cli, [*args, "--diff"])
    assert diff.exit_code == 1
    assert diff.stderr == "would fix 1 problem (1 more fix with `--unsafe-fixes`)\n"
    fixed = runner.invoke(cli, [*args, "--fix"])
    assert fixed.exit_code == 1
    assert fixed.stderr == "fixed 1 problem (1 more fix with `--unsafe-fixes`)\n"
    again = runner.invoke(cli, [*args, "--fix"])
    assert again.stderr == "fixed 0 problems (1 fix with `--unsafe-fixes`)\n"
    both = runner.invoke(cli, [*args, "--fix", "--unsafe-fixes"])
    assert both.exit_code == 0
    assert both.stderr == "fixed 1 problem\n"


def test_unsafe_fixes_without_fix_or_diff_warns(tmp_path: Path, runner: CliRunner) -> None:
    path = tmp_path / "train.rs"
    path.write_text(SEED_LOOP, encoding="utf-8")
    out = runner.invoke(
        cli, ["check", str(path), "--project-root", str(tmp_path), "--unsafe-fixes"]
    )
    assert out.exit_code == 1
    assert out.stderr == "burnlint: warning: --unsafe-fixes does nothing without --fix or --diff\n"
    assert path.read_text(encoding="utf-8") == SEED_LOOP


def test_diff_writes_the_requested_report_files(tmp_path: Path, runner: CliRunner) -> None:
    """--diff prints the diff on stdout and still writes -o and --output-format files; a
    report on stdout beside the diff is refused."""
    path = tmp_path / "train.rs"
    path.write_text(SEED_LOOP, encoding="utf-8")
    args = ["check", str(path), "--project-root", str(tmp_path), "--diff", "--unsafe-fixes"]
    out = runner.invoke(
        cli,
        [*args, "--format", "json", "-o", str(tmp_path / "r.json"), "--output-format",
         f"sarif={tmp_path / 'r.sarif'}"],
    )  # fmt: skip
    assert out.exit_code == 1
    assert out.stdout.startswith("--- a/train.rs\n+++ b/train.rs\n")
    assert json.loads((tmp_path / "r.json").read_text())["findings"][0]["rule_id"] == "BL003"
    assert json.loads((tmp_path / "r.sarif").read_text())["runs"][0]["results"]
    refused = runner.invoke(cli, [*args, "--format", "sarif"])
    assert refused.exit_code == 2
    assert refused.stderr == (
        "burnlint: error: --diff prints the diff on stdout: write the report to a file with "
        "-o FILE or --output-format FORMAT=FILE\n"
    )
    assert path.read_text(encoding="utf-8") == SEED_LOOP


def test_overlapping_edits_apply_the_first() -> None:
    edits = [Edit("a", 0, 3, "X"), Edit("a", 1, 2, "Y"), Edit("a", 3, 3, "Z")]
    assert apply_edits(b"abcdef", edits) == (b"XZdef", 2)


def test_demo_fix_removes_bl003_and_changes_nothing_else(tmp_path: Path) -> None:
    demo = tmp_path / "demo"
    shutil.copytree(TESTDATA / "demo", demo)
    runner = CliRunner()
    args = ["check", str(demo), "--project-root", str(demo), "--fix", "--unsafe-fixes"]
    first = runner.invoke(cli, [*args, "--format", "concise"])
    assert "BL003" not in first.output
    changed = [
        p.relative_to(demo).as_posix()
        for p in sorted(demo.rglob("*.rs"))
        if p.read_bytes() != (TESTDATA / "demo" / p.relative_to(demo)).read_bytes()
    ]
    assert changed == ["src/train.rs"]
    before = {p: p.read_bytes() for p in demo.rglob("*.rs")}
    runner.invoke(cli, args)
    assert {p: p.read_bytes() for p in demo.rglob("*.rs")} == before


def test_interprocedural_bl003_fix_edits_each_helper_once(
    tmp_path: Path, runner: CliRunner
) -> None:
    """BL003 at calls of helpers defined in another file (the lib's loops, the bin's loop, a
    helper reached through another helper, a store a helper returns): every fix is the same
    `.overwrite(true)` in the helper's file; each is written once, and no BL003 is left."""
    crate = tmp_path / "fix-helper"
    shutil.copytree(TESTDATA / "crates" / "fix-helper", crate)
    args = ["check", str(crate), "--project-root", str(crate)]

    before = runner.invoke(cli, [*args, "--format", "json"])
    findings = [f for f in json.loads(before.stdout)["findings"] if f["rule_id"] == "BL003"]
    assert {f["path"] for f in findings} == {"src/main.rs", "src/train.rs"}
    edits = {
        (e["path"], e["start_byte"], e["end_byte"], e["content"])
        for f in findings
        for e in f["fix"]["edits"]
    }
    assert len(findings) == 6 and len(edits) == 2  # six loops, two constructors
    assert {e[0] for e in edits} == {"src/checkpoint.rs"}

    fixed = runner.invoke(cli, [*args, "--fix", "--unsafe-fixes"])
    assert fixed.exit_code == 0, fixed.output
    assert fixed.stderr.startswith("fixed "), fixed.stderr
    changed = [
        p.relative_to(crate).as_posix()
        for p in sorted(crate.rglob("*.rs"))
        if p.read_bytes()
        != (TESTDATA / "crates" / "fix-helper" / p.relative_to(crate)).read_bytes()
    ]
    assert changed == ["src/checkpoint.rs"]
    original = (TESTDATA / "crates" / "fix-helper" / "src" / "checkpoint.rs").read_text("utf-8")
    expected = original.replace(
        "SafetensorsStore::from_file(path))?", "SafetensorsStore::from_file(path).overwrite(true))?"
    ).replace(
        "BurnpackStore::from_file(path)\n", "BurnpackStore::from_file(path).overwrite(true)\n"
    )
    assert (crate / "src" / "checkpoint.rs").read_text("utf-8") == expected

    after = runner.invoke(cli, [*args, "--format", "json"])
    assert not [f for f in json.loads(after.stdout)["findings"] if f["rule_id"] == "BL003"]
    again = runner.invoke(cli, [*args, "--fix", "--unsafe-fixes"])
    assert again.exit_code == 0, again.output
    assert (crate / "src" / "checkpoint.rs").read_text("utf-8") == expected


def test_no_fix_goes_into_a_constructor_call_the_parser_repaired(tmp_path: Path) -> None:
    """`from_file(path.allow_partial(true)` lacks its `)`: the parser closes the call at the end
    of the line, so `.overwrite(true)` after it would land inside the argument, the store would
    still refuse to overwrite, and every pass would add it again."""
    (tmp_path / "Cargo.toml").write_text('[package]\nname = "broken"\nversion = "0.1.0"\n')
    src = tmp_path / "src"
    src.mkdir()
    (src / "lib.rs").write_text(
        "use std::path::Path;\n"
        "use burn_store::{BurnpackStore, ModuleSnapshot};\n\n"
        "fn lenient(path: &Path) -> BurnpackStore {\n"
        "    BurnpackStore::from_file(path.allow_partial(true) }\n\n"
        "pub fn fit(model: &M, path: &Path) {\n"
        '    model.save_into(&mut lenient(path)).expect("save");\n'
        "}\n"
    )
    options = EngineOptions(rule_ids=resolve(select=["BL004"]), project_root=tmp_path)
    result = lint_paths([tmp_path], options)
    implicit = [f for f in result.findings if f.rule_id == "BL004"]
    assert implicit, result.findings
    assert all(f.fix is None for f in implicit)


def test_no_fix_inside_code_the_parser_could_not_read(tmp_path: Path) -> None:
    """A store built inside an `ERROR` node (here after an unfinished `save_into(&`) gets no
    fix: the edit's text would not parse, and `--fix` would refuse it."""
    path = tmp_path / "lib.rs"
    path.write_text(
        "use burn_store::{ModuleSnapshot, PytorchStore, SafetensorsStore};\n"
        "fn train(model: Mlp) {\n"
        "    drop(model.save_into(&\n"
        "pub fn import(device: &Device, path: &Path) -> Mlp {\n"
        "    let mut model = Mlp::new(device);\n"
        '    model.load_from(&mut PytorchStore::from_file(path)).expect("load");\n'
        "    model\n"
        "}\n"
    )
    result = lint_files([path], EngineOptions(rule_ids=resolve(), project_root=tmp_path))
    implicit = [f for f in result.findings if f.rule_id == "BL005"]
    assert implicit, result.findings
    assert all(f.fix is None for f in implicit)


def test_quiet_fix_and_diff_print_no_count(tmp_path: Path, runner: CliRunner) -> None:
    """With -q, as ruff's `check --fix -q`: the findings left and errors, no "fixed" line."""
    path = tmp_path / "train.rs"
    path.write_text(SEED_LOOP + STALE_ALLOW, encoding="utf-8")
    args = ["check", str(path), "--project-root", str(tmp_path), "-q"]
    diff = runner.invoke(cli, [*args, "--diff"])
    assert diff.exit_code == 1
    assert diff.stderr == ""
    assert diff.stdout.startswith("---")
    fixed = runner.invoke(cli, [*args, "--fix", "--format", "concise"])
    assert fixed.exit_code == 1
    assert fixed.stderr == ""
    assert "BL003" in fixed.stdout and "BL008" not in fixed.stdout
    assert "allow(BL005)" not in path.read_text(encoding="utf-8")
