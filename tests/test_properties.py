"""Property tests: burnlint on random and mutated Rust never crashes, never writes invalid
SARIF, never points outside a file, and gives byte-identical output run after run, with one
process or a pool, with the prefilter on or off (DESIGN.md §6).

Inputs come from ``rust_strategies``: token soups, programs from a grammar of burn-store
usage, real fixtures mutated line by line and byte by byte, and Unicode in comments and
strings. Every input must give:

- no exception, and no rule crash (an ``error`` notification with a ``rule_id``);
- SARIF that validates against the official 2.1.0 schema (Draft 4), and every other format
  rendered without an error;
- every region inside its file: byte offsets, lines, and both column kinds agreeing with the
  bytes; fix edits inside the file and on UTF-8 boundaries;
- the same output when run again, and the same findings with the prefilter off.

Inputs that once broke one of these are kept in ``testdata/robustness/`` and checked first.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import urllib.parse
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from unittest import mock

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import burnlint.engine.workers
from burnlint.cli import cli
from burnlint.engine import lint_files, lint_paths, lint_source
from burnlint.engine.workers import PARALLEL_MIN_CANDIDATES
from burnlint.findings import LintResult
from burnlint.options import EngineOptions
from burnlint.project.prefilter import has_trigger
from burnlint.rules.registry import resolve
from rust_strategies import (
    MUTATIONS,
    ROBUSTNESS,
    TESTDATA,
    _mutate,
    all_problems,
    any_rust,
    crashes,
    examples,
    explain,
    fixture_paths,
    fixture_sources,
    mutated,
    programs,
    render_all,
    sarif_errors,
    time_limit,
    token_soups,
    with_unicode,
)

ALL_RULES = resolve(select=["ALL"])
ROOT = Path(tempfile.gettempdir()) / "burnlint-properties"  # never written: sources are in memory
DISPLAY = "src/train.rs"
OPTIONS = EngineOptions(rule_ids=ALL_RULES, project_root=ROOT)
FAST = settings(
    deadline=None, max_examples=examples(60), suppress_health_check=[HealthCheck.too_slow]
)


def _lint(data: bytes, options: EngineOptions = OPTIONS) -> LintResult:
    return lint_source(ROOT / DISPLAY, data, options)


def _findings(result: LintResult) -> list[tuple[object, ...]]:
    """What a finding says, without the fingerprint (which depends on nothing else)."""
    return [
        (f.location, f.rule_id, f.level, f.message, f.help, f.label, f.related, f.fix)
        for f in result.findings
    ]


def check_one_source(data: bytes) -> None:
    """All the in-process properties for one file."""
    first = _lint(data)
    problems = all_problems(first, {DISPLAY: data}, ROOT)
    assert not problems, explain(problems)
    second = _lint(data)
    assert render_all(first, ROOT) == render_all(second, ROOT), "a second run differs"
    unfiltered = _lint(data, replace(OPTIONS, prefilter=False))
    assert _findings(unfiltered) == _findings(first), "the prefilter changes the findings"


@pytest.fixture(autouse=True)
def _hang_guard() -> Iterator[None]:
    """Fail a test that runs longer than 180 s per unit of ``BURNLINT_PROPERTY_SCALE`` (a
    guard against a hang, not a benchmark)."""
    with time_limit(examples(180)):
        yield


# --- inputs found earlier -----------------------------------------------------------------------


# Kept inputs that still break burnlint, with the reason: strict, so that the fix of the bug
# turns the test red until the entry goes.
KNOWN_FAILURES: dict[str, str] = {}


def _robustness_fixtures() -> list[object]:
    paths = sorted(ROBUSTNESS.glob("*.rs")) if ROBUSTNESS.is_dir() else []
    return [
        pytest.param(
            path,
            id=path.name,
            marks=(
                pytest.mark.xfail(strict=True, reason=KNOWN_FAILURES[path.name])
                if path.name in KNOWN_FAILURES
                else ()
            ),
        )
        for path in paths
    ]


def test_known_failures_are_kept() -> None:
    assert set(KNOWN_FAILURES) <= {p.name for p in ROBUSTNESS.glob("*.rs")}


@pytest.mark.parametrize("fixture", _robustness_fixtures())
def test_kept_examples(fixture: Path) -> None:
    check_one_source(fixture.read_bytes())


@pytest.mark.parametrize(
    "fixture", fixture_paths(), ids=lambda p: p.relative_to(TESTDATA).as_posix()
)
def test_every_fixture_unmutated(fixture: Path) -> None:
    check_one_source(fixture.read_bytes())


# --- random inputs, in process ------------------------------------------------------------------


@FAST
@given(token_soups())
def test_token_soups(data: bytes) -> None:
    check_one_source(data)


@FAST
@given(programs())
def test_generated_programs(data: bytes) -> None:
    check_one_source(data)


@settings(FAST, max_examples=examples(100))
@given(mutated())
def test_mutated_fixtures(data: bytes) -> None:
    check_one_source(data)


@FAST
@given(mutated(programs()))
def test_mutated_programs(data: bytes) -> None:
    check_one_source(data)


@FAST
@given(st.one_of(with_unicode(), with_unicode(programs()), with_unicode(mutated())))
def test_unicode_in_comments_and_strings(data: bytes) -> None:
    check_one_source(data)


@st.composite
def _crates(draw: st.DrawFn) -> dict[str, bytes]:
    """A crate: a lib with helpers, a main, a bin, a test: cross-file facts flow between them."""
    names = ["src/lib.rs", "src/model.rs", "src/main.rs", "src/bin/export.rs", "tests/it.rs"]
    chosen = draw(st.lists(st.sampled_from(names), min_size=1, max_size=5, unique=True))
    files = {name: draw(any_rust()) for name in chosen}
    files["Cargo.toml"] = b'[package]\nname = "fuzzed"\nversion = "0.1.0"\n'
    return files


def _write_tree(root: Path, files: dict[str, bytes]) -> None:
    for name, data in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


@settings(FAST, max_examples=examples(40))
@given(_crates())
def test_crates_of_random_files(files: dict[str, bytes]) -> None:
    """Whole crates on disk, through ``lint_paths``: helpers and layouts cross files."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp).resolve()
        _write_tree(root, files)
        options = EngineOptions(rule_ids=ALL_RULES, project_root=root)
        first = lint_paths([root], options)
        sources = {k: v for k, v in files.items() if k.endswith(".rs")}
        problems = all_problems(first, sources, root)
        assert not problems, explain(problems)
        again = lint_paths([root], options)
        assert render_all(first, root) == render_all(again, root)
        unfiltered = lint_paths([root], replace(options, prefilter=False))
        assert _findings(unfiltered) == _findings(first), "the prefilter changes the findings"
        # a file named alone is checked with the facts of its crate: the same findings
        for name in sources:
            alone = lint_paths([root / name], options)
            assert _findings(alone) == _findings(_only(first, root / name)), name


def _only(result: LintResult, path: Path) -> LintResult:
    return replace(result, findings=tuple(f for f in result.findings if f.location.path == path))


# --- one process or a pool ----------------------------------------------------------------------


@pytest.fixture
def pool_always() -> Iterator[None]:
    """A process pool whatever the number of candidates."""
    with mock.patch.object(burnlint.engine.workers, "PARALLEL_MIN_CANDIDATES", 0):
        yield


def _cli_sarif(root: Path, jobs: int) -> tuple[int, str]:
    outcome = CliRunner().invoke(
        cli,
        [
            *("check", str(root), "--project-root", str(root), "--format", "sarif"),
            *("--select", "ALL", "--jobs", str(jobs), "--no-prefilter"),
        ],
    )
    if outcome.exception is not None and not isinstance(outcome.exception, SystemExit):
        raise outcome.exception
    return outcome.exit_code, outcome.output


# where the files of a pool test go: two crates and loose files, so several groups
POOL_SLOTS = (
    "a/src/lib.rs",
    "a/src/main.rs",
    "a/src/bin/export.rs",
    "b/src/lib.rs",
    "b/src/model.rs",
    "c.rs",
    "d/e.rs",
    "f.rs",
)


@settings(
    deadline=None,
    max_examples=examples(25),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(st.lists(any_rust(), min_size=2, max_size=6), st.data())
def test_jobs_1_and_jobs_2_give_identical_sarif(
    pool_always: None, sources: list[bytes], data: st.DataObject
) -> None:
    """``burnlint --jobs 1`` and ``--jobs 2`` write the same bytes (several crates, so the pool
    really gets more than one group), and both runs are valid and crash-free."""
    layout = data.draw(
        st.lists(
            st.sampled_from(POOL_SLOTS), min_size=len(sources), max_size=len(sources), unique=True
        )
    )
    files = dict(zip(layout, sources, strict=True))
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp).resolve()
        _write_tree(root, files)
        for crate in ("a", "b"):
            if (root / crate).is_dir():
                (root / crate / "Cargo.toml").write_text(f'[package]\nname = "{crate}"\n')
        code1, one = _cli_sarif(root, 1)
        code2, two = _cli_sarif(root, 2)
        assert one == two
        assert code1 == code2
        result = lint_paths([root], EngineOptions(rule_ids=ALL_RULES, project_root=root, jobs=2))
        # 2 would be a crash or an unsuccessful run, unless every file was skipped (binary
        # sources): a run that checked nothing exits 2 by design
        skipped_all = result.stats.files_checked == 0 and result.stats.files_skipped > 0
        assert code1 in ((2,) if skipped_all else (0, 1)), one
        problems = all_problems(result, files, root)
        assert not problems, explain(problems)


def test_the_pool_is_really_used(pool_always: None, tmp_path: Path) -> None:
    """Guard for the test above: with the threshold at 0 and two crates, a pool runs."""
    (tmp_path / "a.rs").write_bytes(fixture_sources()[0])
    (tmp_path / "b.rs").write_bytes(fixture_sources()[1])
    with mock.patch("concurrent.futures.ProcessPoolExecutor") as pool:
        pool.return_value.__enter__.return_value.map.side_effect = lambda f, *a: map(f, *a)
        lint_files(
            [tmp_path / "a.rs", tmp_path / "b.rs"],
            EngineOptions(rule_ids=ALL_RULES, project_root=tmp_path, jobs=2),
        )
    assert pool.called


def test_jobs_on_the_fixture_tree_above_the_threshold(tmp_path: Path) -> None:
    """Without patching: the whole ``testdata`` tree plus mutated copies (more candidates than
    ``PARALLEL_MIN_CANDIDATES``) gives the same bytes with ``--jobs 1`` and ``--jobs 2``."""
    tree = _mutated_tree(tmp_path / "tree", seed=7, copies=2)
    candidates = sum(has_trigger(p.read_bytes()) for p in tree.rglob("*.rs"))
    assert candidates > PARALLEL_MIN_CANDIDATES
    code1, one = _cli_sarif(tree, 1)
    code2, two = _cli_sarif(tree, 2)
    assert (code1, one) == (code2, two)
    assert code1 in (0, 1)


# --- run twice, in separate processes -----------------------------------------------------------


def _mutated_tree(root: Path, seed: int, copies: int) -> Path:
    """``testdata`` (without the robustness inputs) plus ``copies`` mutated copies of it."""
    rng = random.Random(seed)
    shutil.copytree(TESTDATA, root / "orig", ignore=shutil.ignore_patterns("robustness", "*.json"))
    for copy in range(copies):
        for path in sorted((root / "orig").rglob("*")):
            target = root / f"copy{copy}" / path.relative_to(root / "orig")
            if path.is_dir():
                target.mkdir(parents=True, exist_ok=True)
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            data = path.read_bytes()
            if path.suffix == ".rs":
                for _ in range(rng.randint(1, 4)):
                    op = rng.choice(MUTATIONS)
                    data = _mutate(data, op, rng.randrange(1 << 20), rng.randrange(1 << 20), 0x7B)
            target.write_bytes(data)
    return root


def test_output_is_byte_identical_across_processes(tmp_path: Path) -> None:
    """Two processes with different hash seeds (set and dict order of strings change) write the
    same SARIF and text for a tree of fixtures and mutated copies."""
    tree = _mutated_tree(tmp_path / "tree", seed=11, copies=1)
    outputs = []
    for seed in ("1", "2"):
        for fmt in ("sarif", "text"):
            proc = subprocess.run(
                [
                    *(sys.executable, "-m", "burnlint", "check", str(tree)),
                    *("--project-root", str(tree), "--format", fmt, "--select", "ALL"),
                    *("--jobs", "2", "--no-prefilter"),
                ],
                capture_output=True,
                env={**os.environ, "PYTHONHASHSEED": seed, "NO_COLOR": "1"},
                timeout=120,
                check=False,
            )
            assert proc.returncode in (0, 1), proc.stderr.decode()
            outputs.append(proc.stdout)
    assert outputs[0] == outputs[2]
    assert outputs[1] == outputs[3]


# --- odd file names -----------------------------------------------------------------------------

_NAME_BYTES = st.binary(min_size=1, max_size=12).filter(lambda b: b"/" not in b and b"\0" not in b)
_NAME_TEXT = st.text(
    st.characters(blacklist_categories=("Cs",), blacklist_characters="/\0"), min_size=1, max_size=12
)


@settings(FAST, max_examples=examples(40))
@given(st.lists(_NAME_TEXT.map(os.fsencode) | _NAME_BYTES, min_size=1, max_size=4, unique=True))
def test_odd_file_names(names: list[bytes]) -> None:
    """Any file name the file system takes (spaces, ``%``, ``#``, newlines, bytes that are not
    UTF-8): every format renders, the SARIF validates, and each result's URI, percent-decoded,
    gives back the file name's bytes."""
    source = (TESTDATA / "fixes" / "seed_loop.rs").read_bytes()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp).resolve()
        paths = []
        for name in names:
            path = os.path.join(os.fsencode(root), name + b".rs")
            try:
                with open(path, "wb") as stream:
                    stream.write(source)
            except OSError:
                continue  # not a name this file system takes
            paths.append(Path(os.fsdecode(path)))
        result = lint_files(paths, EngineOptions(rule_ids=ALL_RULES, project_root=root))
        assert not crashes(result)
        outputs = render_all(result, root)
        assert not sarif_errors(outputs["sarif"])
        log = json.loads(outputs["sarif"])
        uris = {
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            for r in log["runs"][0]["results"]
        }
        decoded = {urllib.parse.unquote_to_bytes(uri) for uri in uris}
        assert decoded == {os.fsencode(p.name) for p in paths}
