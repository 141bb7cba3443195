"""``--fix --unsafe-fixes`` under stress: random files with fixable findings.

For every generated crate, pass by pass (the way ``burnlint --fix`` loops):

- every file parses with no new syntax error (none at all when it had none before);
- the new bytes are exactly the old bytes with the pass's edits applied (by an independent
  implementation here), so everything outside the edited spans is byte-identical; a file
  without edits is not touched; line endings, a BOM and the file mode survive;
- fixes converge: after ``burnlint --fix --unsafe-fixes`` a second run changes nothing.

And a write that fails at any step (creating the temporary file, writing, fsync, chmod, the
rename, an interrupt) leaves the original intact and no temporary file behind.
"""

from __future__ import annotations

import errno
import os
import shutil
import stat
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from burnlint import fsutil
from burnlint.app.fix import applicable_fixes, fix_files
from burnlint.cli import cli
from burnlint.engine import lint_paths
from burnlint.findings import Edit, LintResult
from burnlint.options import EngineOptions
from burnlint.paths import display_path
from burnlint.rules.registry import resolve
from burnlint.rust.syntax import parse, walk
from rust_strategies import (
    TESTDATA,
    crashes,
    examples,
    explain,
    finding_problems,
    mutated,
    programs,
    time_limit,
    with_unicode,
)

ALL = resolve(select=["ALL"])
STRESS = settings(
    deadline=None,
    max_examples=examples(60),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)

# Functions with a fixable finding each, to mix into random programs: BL003/BL004 insert
# `.overwrite(true)`, BL005 writes key-mapping options, BL008 removes a useless allow.
FIXABLE = (
    "pub fn fit(model: &Mlp, dir: &Path, epochs: usize) {\n"
    "    for epoch in 0..epochs {\n"
    '        model.save_into(&mut SafetensorsStore::from_file(dir.join("last.st")))'
    '.expect("save");\n'
    "    }\n}\n",
    "pub fn fit_bound(model: &Mlp, file: &Path) -> Result<()> {\n"
    "    let mut store = BurnpackStore::from_file(file)\n"
    '        .metadata("stage", "train");\n'
    "    loop {\n        model.save_into(&mut store)?;\n        break;\n    }\n"
    "    for _ in 0..3 {\n        model.save_into(&mut store)?;\n    }\n    Ok(())\n}\n",
    "pub fn import(device: &Device, path: &Path) -> Mlp {\n"
    "    let mut model = Mlp::new(device);\n"
    '    model.load_from(&mut PytorchStore::from_file(path)).expect("load");\n'
    "    model\n}\n",
    "pub fn export(model: &Mlp, path: &Path) -> Result<()> {\n"
    "    // burnlint: allow(BL001, BL006) -- only one of these is used\n"
    "    let _ = model.save_into(&mut SafetensorsStore::from_file(path).overwrite(true));\n"
    "    Ok(())\n}\n",
    "pub fn closures(models: &[Mlp], out: &str) {\n"
    "    models.iter().for_each(|m| {\n"
    '        m.save_into(&mut BurnpackStore::from_file(format!("{out}/m.bpk"))).unwrap();'
    " // burnlint: allow(BL999)\n"
    "    });\n}\n",
)
HEADER = (
    "use std::path::Path;\n"
    "use anyhow::Result;\n"
    "use burn_store::{BurnpackStore, ModuleSnapshot, PytorchStore, SafetensorsStore};\n"
)
LAYOUT = "#[derive(Module, Debug)]\npub struct Mlp<B: Backend> {\n    layers: Vec<Linear<B>>,\n}\n"
PAIRS = sorted(p.with_suffix("") for p in TESTDATA.rglob("*.rs.fixed"))


@st.composite
def fixable_sources(draw: st.DrawFn) -> bytes:
    """Generated or mutated Rust with at least one fixable function in it."""
    chosen = draw(st.lists(st.sampled_from(FIXABLE), min_size=1, max_size=4))
    base = draw(
        st.one_of(
            programs(),
            mutated(programs()),
            st.sampled_from([p.read_bytes() for p in PAIRS]),
            st.just(b""),
        )
    )
    # Invalid UTF-8 or a NUL byte makes a file skipped, with nothing to fix
    # (tests/test_bad_input.py): keep the mutations that leave a checked text file.
    base = base.decode("utf-8", "replace").replace("\x00", "").encode("utf-8")
    body = HEADER.encode() + base + b"\n" + "\n".join(chosen).encode()
    return body if draw(st.integers(0, 3)) else draw(with_unicode(st.just(body)))


@st.composite
def line_endings(draw: st.DrawFn, data: bytes) -> bytes:
    kind = draw(st.sampled_from(("lf", "crlf", "bom", "bom-crlf", "tabs")))
    if "crlf" in kind:
        data = data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
    if "bom" in kind:
        data = b"\xef\xbb\xbf" + data
    if kind == "tabs":
        data = data.replace(b"    ", b"\t")
    return data


@st.composite
def fixable_crates(draw: st.DrawFn) -> dict[str, bytes]:
    files = {"src/train.rs": draw(line_endings(draw(fixable_sources())))}
    if draw(st.booleans()):
        files["src/lib.rs"] = b"pub mod train;\npub mod model;\n"
        files["src/model.rs"] = LAYOUT.encode()
    if draw(st.booleans()):
        files["src/bin/export.rs"] = draw(fixable_sources())
    files["Cargo.toml"] = b'[package]\nname = "stress"\nversion = "0.1.0"\n'
    return files


@pytest.fixture(autouse=True)
def _hang_guard() -> Iterator[None]:
    """Fail a test that runs longer than 180 s per unit of ``BURNLINT_PROPERTY_SCALE`` (a
    guard against a hang, not a benchmark)."""
    with time_limit(examples(180)):
        yield


# --- helpers ------------------------------------------------------------------------------------


def _write(root: Path, files: dict[str, bytes]) -> None:
    for name, data in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def _snapshot(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def _errors(data: bytes) -> int:
    return sum(1 for n in walk(parse(data).root_node) if n.type == "ERROR" or n.is_missing)


def reference_apply(data: bytes, edits: list[Edit]) -> tuple[bytes, list[tuple[int, int]]]:
    """The edits applied by an implementation independent of ``burnlint.app.fix``: left to right,
    an edit that starts inside an earlier applied one is left out. Also returns the kept
    spans of ``data`` (what must be byte-identical)."""
    chosen: list[Edit] = []
    for edit in sorted(edits, key=lambda e: (e.start_byte, e.end_byte, e.content)):
        if chosen and edit.start_byte < chosen[-1].end_byte:
            continue
        chosen.append(edit)
    pieces: list[bytes] = []
    kept: list[tuple[int, int]] = []
    position = 0
    for edit in chosen:
        pieces += [data[position : edit.start_byte], edit.content.encode("utf-8")]
        kept.append((position, edit.start_byte))
        position = edit.end_byte
    pieces.append(data[position:])
    kept.append((position, len(data)))
    return b"".join(pieces), kept


def _lint(root: Path) -> LintResult:
    return lint_paths([root], EngineOptions(rule_ids=ALL, project_root=root))


def _one_pass(root: Path, result: LintResult) -> tuple[int, list[str]]:
    """Apply one pass of fixes and check it; returns how many edits it applied and the
    problems found."""
    problems: list[str] = []
    before = _snapshot(root)
    modes = {name: stat.S_IMODE((root / name).stat().st_mode) for name in before}
    edits = {
        display_path(path, root): file_edits
        for path, file_edits in applicable_fixes(result.findings, unsafe=True).items()
    }
    digests = result.digests
    outcome = fix_files(result.findings, root=root, digests=digests, unsafe=True, write=True)
    fixed = {display_path(path, root) for path in outcome.fixed}
    after = _snapshot(root)
    if set(after) != set(before):
        problems.append(f"files appeared or vanished: {sorted(set(after) ^ set(before))}")
    for note in outcome.notifications:
        refused = "would not parse" in note.message
        shown = display_path(note.path, root) if note.path is not None else ""
        if not refused or _errors(before[shown]) == 0:
            problems.append(f"{shown}: {note.message}")
    for name, old in before.items():
        new = after.get(name, b"")
        if name not in edits or name not in fixed:
            if new != old:
                problems.append(f"{name}: changed without an applied fix")
            continue
        expected, kept = reference_apply(old, edits[name])
        if new != expected:
            problems.append(f"{name}: the bytes are not the old ones with the edits applied")
        # everything outside the edited spans, byte for byte and in order
        position = 0
        for start, end in kept:
            found = new.find(old[start:end], position)
            if found < 0:
                problems.append(f"{name}: bytes {start}..{end} outside the edits were changed")
                break
            position = found + end - start
        if _errors(new) > _errors(old):
            problems.append(f"{name}: {_errors(old)} syntax errors became {_errors(new)}")
        if old.startswith(b"\xef\xbb\xbf") and not new.startswith(b"\xef\xbb\xbf"):
            problems.append(f"{name}: the BOM was lost")
        crlf_only = b"\r\n" in old and b"\n" not in old.replace(b"\r\n", b"")
        if crlf_only and b"\n" in new.replace(b"\r\n", b""):
            problems.append(f"{name}: a CRLF file got a bare LF")
        if stat.S_IMODE((root / name).stat().st_mode) != modes[name]:
            problems.append(f"{name}: the file mode changed")
    return outcome.total, problems


# --- the properties -----------------------------------------------------------------------------


@STRESS
@given(fixable_crates(), st.sampled_from([0o644, 0o600, 0o755]))
def test_fix_passes_touch_only_the_edited_spans(files: dict[str, bytes], mode: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp).resolve()
        _write(root, files)
        (root / "src" / "train.rs").chmod(mode)
        result = _lint(root)
        assume(applicable_fixes(result.findings, unsafe=True))
        applied_total = 0
        for passes in range(6):
            problems = crashes(result)
            sources = {k: v for k, v in _snapshot(root).items() if k.endswith(".rs")}
            for finding in result.findings:
                problems += finding_problems(finding, sources, root)
            assert not problems, explain(problems)
            applied, problems = _one_pass(root, result)
            assert not problems, explain(problems)
            applied_total += applied
            if applied == 0:
                event(f"converged after {passes} passes")
                event(f"applied {min(applied_total, 5)}{'+' if applied_total >= 5 else ''} edits")
                break
            result = _lint(root)
        else:
            pytest.fail("fixes did not converge in 6 passes")


def _cli(root: Path, *args: str) -> tuple[int, str]:
    outcome = CliRunner().invoke(
        cli,
        ["check", str(root), "--project-root", str(root), "--select", "ALL", *args],
    )
    if outcome.exception is not None and not isinstance(outcome.exception, SystemExit):
        raise outcome.exception
    return outcome.exit_code, outcome.output


@settings(STRESS, max_examples=examples(40))
@given(fixable_crates())
def test_a_second_fix_run_changes_nothing(files: dict[str, bytes]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp).resolve()
        _write(root, files)
        code, output = _cli(root, "--fix", "--unsafe-fixes", "--format", "concise")
        assert code in (0, 1), output
        first = _snapshot(root)
        for name, data in first.items():
            if name.endswith(".rs"):
                assert _errors(data) <= _errors(files[name]), name
        code, output = _cli(root, "--fix", "--unsafe-fixes", "--format", "concise")
        assert code in (0, 1), output
        assert _snapshot(root) == first, "the second --fix changed files"
        assert "fixed" not in output


# --- failed writes ------------------------------------------------------------------------------


class _Boom(OSError):
    def __init__(self) -> None:
        super().__init__(errno.ENOSPC, "No space left on device")


def _failing_stream(real_fdopen: Callable[..., Any]) -> Callable[..., Any]:
    def fdopen(fd: int, *args: Any, **kwargs: Any) -> Any:
        stream = real_fdopen(fd, *args, **kwargs)
        real_write = stream.write

        def write(data: bytes) -> int:
            real_write(data[: len(data) // 2])  # half of it reaches the disk
            raise _Boom()

        stream.write = write
        return stream

    return fdopen


def _raise(exc: BaseException) -> Callable[..., Any]:
    def fail(*args: Any, **kwargs: Any) -> Any:
        raise exc

    return fail


FAILURES: dict[str, Callable[[], Any]] = {
    "mkstemp": lambda: mock.patch.object(fsutil.tempfile, "mkstemp", _raise(_Boom())),
    "write": lambda: mock.patch.object(fsutil.os, "fdopen", _failing_stream(os.fdopen)),
    "fsync": lambda: mock.patch.object(fsutil.os, "fsync", _raise(_Boom())),
    "chmod": lambda: mock.patch.object(fsutil.os, "chmod", _raise(PermissionError(1, "denied"))),
    "rename": lambda: mock.patch.object(fsutil.os, "replace", _raise(_Boom())),
    "interrupt": lambda: mock.patch.object(fsutil.os, "replace", _raise(KeyboardInterrupt())),
}


@settings(STRESS, max_examples=examples(40))
@given(fixable_crates(), st.sampled_from(sorted(FAILURES)))
def test_a_failed_write_leaves_the_original_intact(files: dict[str, bytes], failure: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp).resolve()
        _write(root, files)
        result = _lint(root)
        assume(applicable_fixes(result.findings, unsafe=True))
        before = _snapshot(root)
        digests = result.digests
        interrupted = False
        with FAILURES[failure]():
            try:
                outcome = fix_files(
                    result.findings, root=root, digests=digests, unsafe=True, write=True
                )
            except KeyboardInterrupt:
                interrupted = True
        assert _snapshot(root) == before, "a file changed, or a temporary file was left"
        if failure == "interrupt":
            assert interrupted
        else:
            assert outcome.total == 0
            assert outcome.notifications
            assert all("cannot write" in n.message for n in outcome.notifications)


def test_a_failed_rename_through_the_cli(tmp_path: Path) -> None:
    """The CLI reports the write failure, exits non-zero (findings remain), leaves the file."""
    source = (TESTDATA / "fixes" / "seed_loop.rs").read_bytes()
    (tmp_path / "train.rs").write_bytes(source)
    with mock.patch.object(fsutil.os, "replace", _raise(_Boom())):
        outcome = CliRunner().invoke(
            cli,
            ["check", str(tmp_path), "--project-root", str(tmp_path), "--fix", "--unsafe-fixes"],
        )
    assert outcome.exit_code == 1, outcome.output
    assert "cannot write" in outcome.output
    assert [p.name for p in tmp_path.iterdir()] == ["train.rs"]
    assert (tmp_path / "train.rs").read_bytes() == source


@pytest.fixture
def linked(tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    real = tmp_path / "real" / "train.rs"
    real.parent.mkdir()
    shutil.copy(TESTDATA / "fixes" / "seed_loop.rs", real)
    project = tmp_path / "project"
    project.mkdir()
    link = project / "train.rs"
    try:
        link.symlink_to(real)
    except OSError:
        pytest.skip("cannot create symbolic links here")
    yield link, real


def test_fix_writes_through_a_symbolic_link(linked: tuple[Path, Path]) -> None:
    """The link stays a link and its target gets the fix (it used to be replaced by a regular
    file holding the fixed text, the target left as it was)."""
    link, real = linked
    outcome = CliRunner().invoke(
        cli, ["check", str(link), "--project-root", str(link.parent), "--fix", "--unsafe-fixes"]
    )
    assert outcome.exit_code in (0, 1), outcome.output
    assert link.is_symlink()
    assert ".overwrite(true)" in real.read_text(encoding="utf-8")
    assert sorted(p.name for p in real.parent.iterdir()) == ["train.rs"]
