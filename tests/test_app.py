"""The check workflow without the command line: ``run_check`` on a ``CheckRequest``, with the
real engine on small crates made on the fly (--fix, --diff, --add-allow, baselines), the
messages it hands back in order and the exit code."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from burnlint import engine
from burnlint.app import EXIT_ERROR, EXIT_FINDINGS, EXIT_OK
from burnlint.app.check import run_check
from burnlint.app.console import Message, Stream
from burnlint.app.request import CheckRequest, RequestError
from burnlint.findings import Level, LintResult, NotificationKind
from burnlint.rules import registry

TESTDATA = Path(__file__).resolve().parent.parent / "testdata"


@pytest.fixture
def seed_loop(tmp_path: Path) -> Path:
    """A crate-less file whose BL003 has an unsafe fix (`testdata/fixes/seed_loop.rs`)."""
    shutil.copy(TESTDATA / "fixes" / "seed_loop.rs", tmp_path / "seed_loop.rs")
    return tmp_path / "seed_loop.rs"


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    root = tmp_path / "demo"
    shutil.copytree(TESTDATA / "demo", root)
    return root


def _request(root: Path, **changes: object) -> CheckRequest:
    return replace(CheckRequest(paths=(root,), project_root=root, jobs=1), **changes)  # type: ignore[arg-type]


def _stderr(messages: tuple[Message, ...]) -> list[str]:
    return [m.text for m in messages if m.stream is Stream.STDERR]


def test_fix_applies_the_fixes_then_reports_what_is_left(seed_loop: Path) -> None:
    root = seed_loop.parent
    before = run_check(_request(root, output_format="json"))
    assert "BL003" in {f.rule_id for f in before.result.findings}
    outcome = run_check(_request(root, fix=True, unsafe_fixes=True))
    fixed = (TESTDATA / "fixes" / "seed_loop.rs.fixed").read_text(encoding="utf-8")
    assert seed_loop.read_text(encoding="utf-8") == fixed
    assert "BL003" not in {f.rule_id for f in outcome.result.findings}
    assert any(text.startswith("fixed ") for text in _stderr(outcome.messages))
    assert outcome.exit_code == (EXIT_FINDINGS if outcome.result.findings else EXIT_OK)


def test_fix_without_unsafe_fixes_names_what_it_left(seed_loop: Path) -> None:
    original = seed_loop.read_bytes()
    outcome = run_check(_request(seed_loop.parent, fix=True))
    assert seed_loop.read_bytes() == original  # the BL003 fix changes behaviour: not applied
    assert _stderr(outcome.messages) == ["fixed 0 problems (2 fixes with `--unsafe-fixes`)"]
    assert outcome.exit_code == EXIT_FINDINGS


def test_diff_prints_the_fix_and_edits_nothing(seed_loop: Path) -> None:
    original = seed_loop.read_bytes()
    outcome = run_check(_request(seed_loop.parent, diff=True, unsafe_fixes=True))
    assert seed_loop.read_bytes() == original
    stdout = "".join(m.text for m in outcome.messages if m.stream is Stream.STDOUT)
    assert stdout.startswith("--- a/seed_loop.rs\n+++ b/seed_loop.rs\n")
    assert "+" in stdout and ".overwrite(true)" in stdout
    assert _stderr(outcome.messages) == ["would fix 2 problems"]
    assert outcome.outputs == ()  # stdout holds the diff, not the report
    assert outcome.exit_code == EXIT_FINDINGS  # --fix would change something


def test_add_allow_suppresses_every_finding_reported(demo: Path) -> None:
    found = run_check(_request(demo)).result.findings
    assert found
    outcome = run_check(_request(demo, add_allow=True))
    files = len({f.location.path for f in found})
    assert _stderr(outcome.messages)[0] == (
        f"burnlint: added allow comments for {len(found)} findings in {files} files"
    )
    assert outcome.result.findings == ()
    assert outcome.result.stats.suppressed == len(found)
    assert outcome.exit_code == EXIT_OK
    assert "// burnlint: allow(" in (demo / "src" / "export.rs").read_text(encoding="utf-8")
    again = run_check(_request(demo, add_allow=True))
    assert _stderr(again.messages)[0] == "burnlint: added allow comments for 0 findings in 0 files"


def test_a_baseline_accepts_todays_findings_and_reports_new_ones(demo: Path) -> None:
    baseline = demo / "baseline.json"
    written = run_check(_request(demo, write_baseline=baseline, quiet=True))
    assert [(o.format, o.path, o.written) for o in written.outputs] == [
        ("json", baseline, True),
        ("text", None, True),
    ]
    count = len(written.result.findings)
    assert json.loads(written.outputs[0].text) == json.loads(baseline.read_text("utf-8"))

    accepted = run_check(_request(demo, baseline=baseline))
    assert accepted.result.findings == ()
    assert accepted.result.baseline is not None
    assert accepted.result.baseline.states() == {"new": 0, "unchanged": count, "absent": 0}
    summary = f"burnlint: baseline `{baseline.as_posix()}`: 0 new, {count} unchanged, 0 absent"
    assert summary in _stderr(accepted.messages)
    assert accepted.exit_code == EXIT_OK

    export = demo / "src" / "export.rs"
    export.write_text(
        export.read_text("utf-8")
        + "\npub fn again<B: Backend>(model: &Model<B>) {\n"
        + '    let _ = model.save_into(&mut BurnpackStore::from_file("again.bpk"));\n}\n',
        encoding="utf-8",
    )
    grown = run_check(_request(demo, baseline=baseline))
    assert [f.rule_id for f in grown.result.findings] == ["BL001"]
    assert grown.exit_code == EXIT_FINDINGS


def test_a_baseline_that_cannot_be_read_is_a_configuration_error(demo: Path) -> None:
    outcome = run_check(_request(demo, baseline=demo / "missing.json", output_format="json"))
    problem = outcome.result.notifications[0]
    assert problem.kind is NotificationKind.CONFIG
    assert problem.message.startswith("cannot read baseline")
    assert _stderr(outcome.messages) == [f"burnlint: error: {problem.message}"]
    assert outcome.exit_code == EXIT_ERROR


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"add_allow": True, "diff": True}, "--add-allow writes files; it cannot be used"),
        ({"diff": True, "format_given": True}, "--diff prints the diff on stdout"),
        ({"paths": (Path("-"),)}, "`-` reads the source from stdin"),
        ({"paths": (), "stdin_filename": Path("a.rs"), "fix": True}, "--fix, --diff and --add"),
    ],
)
def test_refused_requests_run_nothing(demo: Path, changes: dict[str, object], message: str) -> None:
    request = replace(_request(demo), read_stdin=lambda: b"fn main() {}\n")
    with pytest.raises(RequestError, match=message.replace("(", r"\(")):
        run_check(replace(request, **changes))  # type: ignore[arg-type]


def test_messages_reach_emit_in_order_as_they_come(demo: Path) -> None:
    heard: list[Message] = []
    outcome = run_check(
        _request(demo, unsafe_fixes=True, statistics=True, output_format="concise"),
        emit=heard.append,
    )
    assert tuple(heard) == outcome.messages
    assert heard[0] == Message(
        "burnlint: warning: --unsafe-fixes does nothing without --fix or --diff"
    )
    assert [m.stream for m in heard[1:]] == [Stream.STDOUT, Stream.STDOUT]
    assert heard[1].text == outcome.outputs[-1].text  # the report, then the statistics
    assert heard[2].text.startswith("\nfindings  suppressed  rule\n")


def test_an_engine_crash_is_a_result_and_every_output_is_written(
    demo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def crash(*args: object, **kwargs: object) -> LintResult:
        raise RuntimeError("boom")

    monkeypatch.setattr(engine, "lint_paths", crash)
    sarif = demo / "out.sarif"
    outcome = run_check(_request(demo, extra_outputs=(("sarif", sarif),)))
    message = "burnlint: internal error: RuntimeError: boom (set BURNLINT_DEBUG=1 for a traceback)"
    assert _stderr(outcome.messages) == [message]
    (note,) = outcome.result.notifications
    assert note.kind is NotificationKind.INTERNAL
    log = json.loads(sarif.read_text("utf-8"))
    assert log["runs"][0]["invocations"][0]["executionSuccessful"] is False
    assert outcome.exit_code == EXIT_ERROR
    with pytest.raises(RuntimeError):
        run_check(_request(demo, debug=True))


def test_merged_configurations_keep_each_rules_level_in_sarif(tmp_path: Path) -> None:
    """Two crates under two configurations are two engine runs, merged: a rule that ran in
    either is in the log, at the level its configuration gives it, findings or not."""
    for name, config in (
        ("strict", '[severity]\nBL005 = "error"\nBL003 = "note"\n'),
        ("loose", 'ignore = ["BL003"]\n\n[severity]\nBL002 = "error"\n'),
    ):
        crate = tmp_path / name
        (crate / "src").mkdir(parents=True)
        (crate / "Cargo.toml").write_text(
            f'[package]\nname = "{name}"\nversion = "0.1.0"\n', encoding="utf-8"
        )
        (crate / "src" / "lib.rs").write_text("pub fn f() {}\n", encoding="utf-8")
        (crate / "burnlint.toml").write_text(config, encoding="utf-8")
    outcome = run_check(
        _request(tmp_path, paths=(tmp_path / "strict", tmp_path / "loose"), output_format="sarif")
    )
    assert outcome.result.findings == ()
    driver = json.loads(outcome.outputs[0].text)["runs"][0]["tool"]["driver"]
    levels = {rule["id"]: rule["defaultConfiguration"]["level"] for rule in driver["rules"]}
    assert levels["BL005"] == "error"  # the strict crate's override, though nothing was found
    assert levels["BL003"] == "note"  # ran in the strict crate only, at its level there
    assert levels["BL002"] == "error"  # the loose crate's override (warning in the other)
    assert levels["BL001"] == "error"  # the registered level, in both
    default_on = [meta.id for meta in registry.ALL if meta.enabled_by_default]
    assert sorted(levels) == sorted(default_on)


def test_merging_gives_a_rule_the_most_severe_level_its_configurations_give_it() -> None:
    bl004 = registry.by_id("BL004")
    quiet = LintResult((), (), rules=(bl004.effective({"BL004": Level.NOTE}),))
    loud = LintResult(
        (), (), rules=(registry.by_id("BL001"), bl004.effective({"BL004": Level.ERROR}))
    )
    for parts in ((quiet, loud), (loud, quiet)):
        merged = LintResult.merge(*parts)
        assert [(meta.id, meta.level) for meta in merged.rules] == [
            ("BL001", Level.ERROR),
            ("BL004", Level.ERROR),
        ]


def test_notifications_name_files_as_findings_do_from_any_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Run from a crate below the project root, with paths typed relative to it: a file the
    walk skips, a file the engine skips and a finding all name their file from the project
    root (a notification's file is its absolute path, named only by the report)."""
    crate = tmp_path / "sub"
    shutil.copytree(TESTDATA / "demo", crate)
    (crate / "src" / "blob.rs").write_bytes(b"fn main() {}\0\n")
    (crate / "src" / "notes.txt").write_text("not rust\n", encoding="utf-8")
    monkeypatch.chdir(crate)
    outcome = run_check(
        _request(
            tmp_path,
            paths=(Path("src"), Path("src/notes.txt")),
            output_format="concise",
            quiet=True,
        )
    )
    lines = outcome.outputs[0].text.splitlines()
    assert "sub/src/notes.txt: note: not a Rust source file (`.rs`), skipped" in lines
    assert "sub/src/blob.rs: warning: skipped: binary file (contains NUL bytes)" in lines
    assert lines[0].startswith("sub/src/")  # a finding
    notes = [n for n in outcome.result.notifications if n.path is not None]
    assert {n.path for n in notes} == {crate / "src" / "blob.rs", crate / "src" / "notes.txt"}
