"""Speed-related guarantees that are not timings: a process pool changes nothing in the output,
and the commands that need no parser never import one."""

from __future__ import annotations

import concurrent.futures
import os
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

import burnlint.engine.workers
from burnlint import engine
from burnlint.engine.workers import PARALLEL_MIN_CANDIDATES
from burnlint.options import EngineOptions
from burnlint.project.prefilter import has_trigger
from burnlint.report import FORMATS
from burnlint.rules import registry

TESTDATA = Path(__file__).resolve().parent.parent / "testdata"
SOURCES = [TESTDATA / "demo", *sorted(p for p in (TESTDATA / "crates").iterdir() if p.is_dir())]
BURNLINT = [sys.executable, "-m", "burnlint"]


def _candidates(directory: Path) -> int:
    return sum(has_trigger(p.read_bytes()) for p in directory.rglob("*.rs"))


@pytest.fixture(scope="module")
def many_crates(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Copies of the demo and fixture crates, enough for the process pool to be used: several
    crates (helpers, module layouts, several targets) with findings of every kind."""
    root = tmp_path_factory.mktemp("many")
    per_copy = sum(_candidates(source) for source in SOURCES)
    assert per_copy > 0
    copies = PARALLEL_MIN_CANDIDATES // per_copy + 2
    for index in range(copies):
        for source in SOURCES:
            shutil.copytree(source, root / f"copy{index:02}" / source.name)
    assert _candidates(root) > PARALLEL_MIN_CANDIDATES
    return root


def _check(root: Path, *args: str) -> bytes:
    proc = subprocess.run(
        [*BURNLINT, "check", ".", "--select", "ALL", "--project-root", ".", *args],
        cwd=root,
        capture_output=True,
        check=False,
        timeout=300,
    )
    assert proc.returncode == 1, proc.stderr.decode()  # findings, and no error
    return proc.stdout


@pytest.mark.parametrize("output_format", [f for f in ("json", "sarif", "text") if f in FORMATS])
def test_jobs_2_output_equals_jobs_1_byte_for_byte(many_crates: Path, output_format: str) -> None:
    one = _check(many_crates, "--format", output_format, "--jobs", "1")
    two = _check(many_crates, "--format", output_format, "--jobs", "2")
    assert one, "no output"
    assert two == one


def test_the_pool_is_used_above_the_threshold_and_changes_nothing(
    many_crates: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    used: list[int] = []

    class Spy(concurrent.futures.ProcessPoolExecutor):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            used.append(kwargs.get("max_workers") or 0)
            super().__init__(*args, **kwargs)

    options = EngineOptions(
        rule_ids=frozenset(rule.id for rule in registry.ALL), project_root=many_crates, jobs=1
    )
    serial = engine.lint_paths([many_crates], options)
    assert not used
    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", Spy)
    pooled = engine.lint_paths([many_crates], replace(options, jobs=2))
    assert used == [2]
    assert serial.findings  # something to compare
    assert pooled == serial


def test_many_files_are_read_in_workers_with_the_same_result(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Above ``PARALLEL_MIN_FILES`` the files are read and prefiltered in the pool: the same
    candidates, the same skipped files with the same notes, in the same order."""
    shutil.copytree(TESTDATA / "demo", tmp_path / "demo")
    src = tmp_path / "demo" / "src"
    (src / "blob.rs").write_bytes(b"fn save_into() {}\x00")
    (src / "big.rs").write_text("// " + "x" * 5_000 + "\n")
    (src / "latin1.rs").write_bytes(b"// caf\xe9\nfn f(m: M) { m.save_into(&mut s); }\n")
    options = EngineOptions(
        rule_ids=frozenset(rule.id for rule in registry.ALL),
        project_root=tmp_path,
        jobs=1,
        max_file_bytes=4_000,
    )
    serial = engine.lint_paths([tmp_path], options)
    started: list[int] = []

    class Spy(concurrent.futures.ProcessPoolExecutor):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            started.append(kwargs.get("max_workers") or 0)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", Spy)
    monkeypatch.setattr(burnlint.engine.workers, "PARALLEL_MIN_FILES", 2)
    pooled = engine.lint_paths([tmp_path], replace(options, jobs=3))
    assert started == [3]  # the demo has too few candidates for the crates to need it
    assert pooled == serial
    assert serial.findings
    messages = {(n.path.name if n.path else "", n.message) for n in serial.notifications}
    assert ("blob.rs", "skipped: binary file (contains NUL bytes)") in messages
    assert ("big.rs", "skipped: 5,004 bytes is over the limit of 4,000") in messages
    assert any(name == "latin1.rs" and "UTF-8" in text for name, text in messages)


def test_below_the_threshold_no_pool_is_started(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shutil.copytree(TESTDATA / "demo", tmp_path / "demo")

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("a process pool was started for a handful of files")

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", refuse)
    options = EngineOptions(
        rule_ids=frozenset(rule.id for rule in registry.ALL), project_root=tmp_path, jobs=8
    )
    assert engine.lint_paths([tmp_path], options).findings


@pytest.mark.parametrize("jobs", [1, 2])
def test_meanwhile_runs_once_in_this_process(many_crates: Path, jobs: int) -> None:
    """The CLI loads its output format in ``meanwhile``: it must run exactly once, in the
    calling process, with or without workers."""
    calls: list[int] = []
    options = EngineOptions(
        rule_ids=frozenset(rule.id for rule in registry.ALL), project_root=many_crates, jobs=jobs
    )
    result = engine.lint_paths([many_crates], options, meanwhile=lambda: calls.append(os.getpid()))
    assert calls == [os.getpid()]
    assert result.findings


def test_prefilter_off_changes_no_finding(many_crates: Path) -> None:
    options = EngineOptions(
        rule_ids=frozenset(rule.id for rule in registry.ALL), project_root=many_crates, jobs=1
    )
    on = engine.lint_paths([many_crates], options)
    off = engine.lint_paths([many_crates], replace(options, prefilter=False))
    assert on.findings == off.findings


# --- start-up: what each command imports ----------------------------------------------------

_HEAVY = ("tree_sitter", "tree_sitter_rust", "sarif_om", "attr", "burnlint.engine")


def _heavy_imports(args: list[str], cwd: Path | None = None) -> list[str]:
    code = (
        "import sys\n"
        "from burnlint.cli import main\n"
        "try:\n"
        f"    main({args!r})\n"
        "except SystemExit:\n"
        "    pass\n"
        f"heavy = {_HEAVY!r}\n"
        "print('heavy:' + ','.join(m for m in heavy if m in sys.modules), file=sys.stderr)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
        cwd=cwd,
    )
    last = proc.stderr.strip().splitlines()[-1]
    assert last.startswith("heavy:"), proc.stderr
    return [m for m in last.removeprefix("heavy:").split(",") if m]


@pytest.mark.parametrize("args", [["--version"], ["rules"], ["rule", "BL001"]])
def test_commands_without_files_import_no_parser(args: list[str]) -> None:
    assert _heavy_imports(args) == []


def test_a_check_without_candidates_imports_no_parser_and_no_sarif(tmp_path: Path) -> None:
    (tmp_path / "lib.rs").write_text("pub fn add(a: i32, b: i32) -> i32 { a + b }\n")
    heavy = _heavy_imports(["check", ".", "--format", "text"], cwd=tmp_path)
    assert "tree_sitter" not in heavy
    assert "sarif_om" not in heavy
