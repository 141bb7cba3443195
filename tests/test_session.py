"""``engine/session.py``: what the language server keeps between checks.

A file parsed again from its last tree must give the tree a fresh parse gives (every node's
type, extent and flags), whatever the edit; work left for later runs once, in order, and only
inside a session; and a check inside a session finds what one outside finds.
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from burnlint.engine import lint_source
from burnlint.engine.session import Later, RecentTrees, Session, in_session, run_or_defer
from burnlint.options import EngineOptions
from burnlint.project.discover import Discovery
from burnlint.rules import registry
from burnlint.rust.syntax import parse, reparse, walk
from rust_strategies import examples, mutated, programs

TESTDATA = Path(__file__).parent.parent / "testdata"


def _shape(data: bytes, tree: object) -> list[tuple[object, ...]]:
    root = tree.root_node  # type: ignore[attr-defined]
    return [
        (n.type, n.start_byte, n.end_byte, n.start_point, n.end_point, n.is_missing, n.is_error)
        for n in walk(root)
    ]


def _assert_same_as_fresh(old: bytes, new: bytes) -> None:
    again = reparse(parse(old), old, new)
    assert _shape(new, again) == _shape(new, parse(new))


@st.composite
def _edits(draw: st.DrawFn) -> tuple[bytes, bytes]:
    """A source and the same source with one region replaced (typed, deleted, pasted)."""
    old = draw(st.one_of(programs(), mutated()))
    start = draw(st.integers(0, len(old)))
    end = draw(st.integers(start, min(len(old), start + 200)))
    typed = draw(
        st.one_of(
            st.binary(max_size=20),
            st.sampled_from([b"", b"\n", b"{", b"}", b"/*", b'"', b"let x = 1;", b"fn f() {}"]),
            st.just(old[start:end] * 2),
        )
    )
    return old, old[:start] + typed + old[end:]


@settings(deadline=None, max_examples=examples(150))
@given(_edits())
def test_a_reparse_gives_the_fresh_tree(edit: tuple[bytes, bytes]) -> None:
    _assert_same_as_fresh(*edit)


def test_a_reparse_of_every_fixture_edited_in_its_middle() -> None:
    fixtures = sorted(TESTDATA.rglob("*.rs"))
    assert len(fixtures) > 20
    for path in fixtures:
        old = path.read_bytes()
        middle = len(old) // 2
        for typed in (b"", b"x", b"\n// note\n", b"{", b"let _edit = 1;\n"):
            _assert_same_as_fresh(old, old[:middle] + typed + old[middle + 1 :])


def test_a_reparse_when_the_edit_repeats_its_neighbours() -> None:
    # the common prefix and suffix overlap: `aa` -> `aaa` is one byte typed, not two
    _assert_same_as_fresh(b"fn f() { aa }", b"fn f() { aaa }")
    _assert_same_as_fresh(b"fn f() { aaa }", b"fn f() { aa }")
    _assert_same_as_fresh(b"", b"fn f() {}")
    _assert_same_as_fresh(b"fn f() {}", b"")


def test_recent_trees_reparse_the_file_they_hold_and_forget_the_oldest() -> None:
    trees = RecentTrees(kept=2)
    first = trees.parse("a.rs", b"fn a() {}")
    assert trees.parse("a.rs", b"fn a() {}") is first  # same bytes: the same tree
    edited = trees.parse("a.rs", b"fn a() { b(); }")
    assert edited is not first
    assert first.root_node.end_byte == len(b"fn a() {}")  # the old tree was not edited
    assert _shape(b"", edited) == _shape(b"", parse(b"fn a() { b(); }"))
    trees.parse("b.rs", b"fn b() {}")
    trees.parse("c.rs", b"fn c() {}")  # "a.rs" is the oldest: forgotten
    assert trees.parse("a.rs", b"fn a() { b(); }") is not edited


def test_work_is_left_for_later_only_in_a_session() -> None:
    done: list[str] = []

    def action(name: str) -> list[str]:
        done.append(name)
        return [f"problem {name}", "shared"]

    run_or_defer(lambda: action("now"))
    assert done == ["now"]
    session = Session()
    with in_session(session):
        run_or_defer(lambda: action("first"))
        run_or_defer(lambda: action("second"))
    run_or_defer(lambda: action("outside"))
    assert done == ["now", "outside"]
    assert len(session.later) == 2
    assert session.later.run() == ["problem first", "shared", "problem second"]
    assert done == ["now", "outside", "first", "second"]
    assert session.later.run() == []  # each once


def test_a_later_that_fails_raises_and_keeps_nothing() -> None:
    later = Later()

    def broken() -> list[str]:
        raise OSError("disk full")

    later.add(broken)
    try:
        later.run()
    except OSError as exc:
        assert str(exc) == "disk full"
    else:
        raise AssertionError("the failure was swallowed")
    assert len(later) == 0


def test_checks_in_a_session_find_what_a_run_finds(tmp_path: Path) -> None:
    crate = tmp_path / "crate"
    (crate / "src").mkdir(parents=True)
    (crate / "Cargo.toml").write_text('[package]\nname = "demo"\nversion = "0.1.0"\n')
    source = (TESTDATA / "rules" / "BL003" / "seed_epoch_loop.rs").read_bytes()
    path = crate / "src" / "lib.rs"
    path.write_bytes(source)
    cache = tmp_path / "cache"
    options = EngineOptions(
        rule_ids=registry.defaults(), project_root=crate, jobs=1, cache_dir=cache
    )
    session = Session()
    edits = [source, source + b"\n// typed\n", source.replace(b"fn ", b"fn  ", 1), b""]
    for index, data in enumerate(edits):
        with in_session(session):
            inside = lint_source(path, data, options)
        if index == 0:
            # the cache's writes were left for later: nothing is written yet
            assert len(session.later) > 0
            assert not list(cache.rglob("*.pickle"))
        session.later.run()
        assert list(cache.rglob("*.pickle"))
        outside = lint_source(path, data, options)
        assert inside.findings == outside.findings
        assert (len(inside.findings) > 0) == bool(data)


# -- the inputs a session keeps (``SourceInputs``) -----------------------------------------------


def _aged(root: Path, seconds_ago: float) -> None:
    """Every file and directory under ``root`` (and ``root``) modified ``seconds_ago``: out of
    the moments in which a stat is not trusted, so the session keeps what it found."""
    moment = time.time() - seconds_ago
    for path in [root, *root.rglob("*")]:
        os.utime(path, (moment, moment), follow_symlinks=False)


class _Helper:
    """The checkpoint-helper crate, its `src/main.rs` checked as an editor's buffer in a
    session and, for comparison, in a run of its own."""

    def __init__(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        import burnlint.engine as engine

        # in a git work tree: nothing above it is looked into (the temporary directories
        # above change all the time)
        self.tree = tmp_path / "repository"
        (self.tree / ".git").mkdir(parents=True)
        self.crate = self.tree / "checkpoint-helper"
        shutil.copytree(TESTDATA / "crates" / "checkpoint-helper", self.crate)
        self.main = self.crate / "src" / "main.rs"
        self.buffer = self.main.read_bytes()
        self.options = EngineOptions(
            rule_ids=registry.defaults(), project_root=self.crate, jobs=1, force_exclude=True
        )
        self.session = Session()
        self.walks = 0
        walk = engine._discover

        def counted(roots: Sequence[Path], options: EngineOptions) -> Discovery:
            self.walks += 1
            return walk(roots, options)

        monkeypatch.setattr(engine, "_discover", counted)
        monkeypatch.chdir(self.crate)
        _aged(self.tree, 100)

    def check(self) -> list[tuple[str, int]]:
        """The findings in the session, which must be those of a run of its own."""
        with in_session(self.session):
            inside = lint_source(self.main, self.buffer, self.options)
        self.session.later.run()
        outside = lint_source(self.main, self.buffer, self.options)
        assert inside.findings == outside.findings
        return [(f.rule_id, f.location.span.start_line) for f in inside.findings]


def test_a_session_keeps_what_it_found_while_nothing_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    crate = _Helper(tmp_path, monkeypatch)
    found = crate.check()
    assert [rule for rule, _ in found] == ["BL002", "BL001", "BL001"]
    walks = crate.walks
    crate.buffer += b"\n// typed\n"
    assert crate.check() == found
    assert crate.walks == walks + 2  # the run of its own walked the crate; the session did not


def test_a_helper_file_removed_and_restored_is_seen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    crate = _Helper(tmp_path, monkeypatch)
    found = crate.check()
    helper = crate.crate / "src" / "checkpoint.rs"
    kept = helper.read_bytes()
    helper.unlink()
    _aged(crate.tree, 50)
    assert crate.check() == []  # the helpers' calls resolve to nothing
    helper.write_bytes(kept)
    _aged(crate.tree, 40)
    assert crate.check() == found


def test_an_ignore_file_added_and_edited_is_seen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    crate = _Helper(tmp_path, monkeypatch)
    found = crate.check()
    ignore = crate.crate / ".gitignore"
    ignore.write_text("src/checkpoint.rs\n")
    _aged(crate.tree, 50)
    assert crate.check() == []
    ignore.write_text("target/\n")  # only the file changes, not its directory's entries
    os.utime(ignore, (time.time() - 40, time.time() - 40))
    assert crate.check() == found


def test_a_manifest_edited_is_seen(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    crate = _Helper(tmp_path, monkeypatch)
    found = crate.check()
    manifest = crate.crate / "Cargo.toml"
    text = manifest.read_text()
    # `checkpoint_helper::checkpoint::save_best` names another crate now
    manifest.write_text(text.replace('name = "checkpoint-helper"', 'name = "renamed"'))
    os.utime(manifest, (time.time() - 50, time.time() - 50))
    assert crate.check() == []
    manifest.write_text(text)
    os.utime(manifest, (time.time() - 40, time.time() - 40))
    assert crate.check() == found


def test_what_was_modified_in_the_last_moments_is_not_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    crate = _Helper(tmp_path, monkeypatch)
    (crate.crate / "src" / "notes.rs").write_text("// new\n")  # its directory: just now
    crate.check()
    walks = crate.walks
    crate.check()
    assert crate.walks == walks + 4  # each check walked again, in the session too


def test_a_reparse_with_errors_gives_the_fresh_tree() -> None:
    """An unclosed string literal: tree-sitter's error recovery from the old tree differed from
    a fresh parse (a `use` read as an `ERROR`), so a tree with errors is parsed afresh."""
    head = b'\nuse std::path::Path;\n\nuse anyhow::"Result;\n'
    body = FIXTURE_BODY
    _assert_same_as_fresh(head + body, head + b"u" + head + body)


FIXTURE_BODY = (
    b"use burn::nn::{Linear, Relu};\n"
    b"use burn::prelude::*;\n"
    b"use burn_store::{ModuleSnapshot, PyTorchToBurnAdapter, PytorchStore, SafetensorsStore};\n"
    b"\n"
    b"#[derive(Module, Debug)]\n"
    b"pub enum Layer<B: Backend> {\n"
    b"    Linear(Linear<B>),\n"
    b"    Relu(Relu),\n"
    b"}\n"
    b"\n"
    b"#[derive(Module, Debug)]\n"
    b"pub struct MirrorMlp<B: Backend> {\n"
    b"    net: Vec<Layer<B>>,\n"
    b"}\n"
    b"\n"
    b"/// Clean: no option to write in 0.19.\n"
    b"pub fn from_torch<B: Backend>(device: &B::Device, path: &Path) -> Result<MirrorMlp<B>> {\n"
    b"    let mut model = MirrorMlp::new(device);\n"
    b"    model.load_from(&mut PytorchStore::from_file(path))?;\n"
    b"    Ok(model)\n"
    b"}\n"
    b"\n"
    b"/// Clean: nor here.\n"
    b"pub fn from_safetensors<B: Backend>(device: &B::Device,"
    b" path: &Path) -> Result<MirrorMlp<B>> {\n"
    b"    let mut model = MirrorMlp::new(device);\n"
    b"    let mut store ="
    b" SafetensorsStore::from_file(path).with_from_adapter(PyTorchToBurnAdapter);\n"
    b"    model.load_from(&mut store)?;\n"
    b"    Ok(model)\n"
    b"}\n"
)
