"""File discovery: what gets checked, what is skipped and what the user is told."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

import pytest

from burnlint.findings import Level, NotificationKind
from burnlint.project.discover import Discovery, discover


def make(root: Path, *names: str, content: str = "fn main() {}\n") -> None:
    for name in names:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content)


def rel(discovery: Discovery, root: Path) -> list[str]:
    return [p.relative_to(root).as_posix() for p in discovery.files]


def messages(discovery: Discovery) -> list[str]:
    return [f"{n.level.value}: {n.message}" for n in discovery.notifications]


needs_symlinks = pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symlinks")
needs_fifos = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs")


def link(target: Path | str, at: Path) -> None:
    try:
        at.symlink_to(target)
    except OSError as exc:  # e.g. Windows without the privilege
        pytest.skip(f"cannot create symlinks: {exc}")


def test_walks_recursively_and_keeps_only_rust_files_sorted(tmp_path: Path) -> None:
    make(tmp_path, "src/main.rs", "src/b/z.rs", "src/a.rs", "build.rs", "README.md", "x.rsx")
    found = discover([tmp_path])
    assert rel(found, tmp_path) == ["build.rs", "src/a.rs", "src/b/z.rs", "src/main.rs"]
    assert found.notifications == ()
    assert found.explicit == frozenset()


def test_order_is_posix_string_order_and_stable(tmp_path: Path) -> None:
    make(tmp_path, "a_b.rs", "a/b.rs", "a-b.rs", "A.rs", "a.rs")
    first = discover([tmp_path])
    assert rel(first, tmp_path) == sorted(rel(first, tmp_path))
    assert [p.as_posix() for p in first.files] == sorted(p.as_posix() for p in first.files)
    assert discover([tmp_path]) == first


def test_relative_paths_are_reported_as_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    make(tmp_path, "crate/src/lib.rs")
    monkeypatch.chdir(tmp_path)
    assert discover([Path("crate")]).files == (Path("crate/src/lib.rs"),)
    assert discover([Path("./crate/")]).files == (Path("crate/src/lib.rs"),)
    monkeypatch.chdir(tmp_path / "crate")
    assert discover([Path(".")]).files == (Path("src/lib.rs"),)


def test_hidden_and_cargo_target_directories_are_skipped(tmp_path: Path) -> None:
    make(
        tmp_path,
        "Cargo.toml",
        "src/lib.rs",
        ".git/hooks/x.rs",
        ".cargo/registry/y.rs",
        "target/debug/build/out.rs",
        "src/.hidden/z.rs",
    )
    assert rel(discover([tmp_path]), tmp_path) == ["src/lib.rs"]


def test_a_target_module_directory_is_not_a_build_directory(tmp_path: Path) -> None:
    # `mod target;` in src/lib.rs: only a `target` beside a Cargo.toml is cargo's output.
    make(tmp_path, "Cargo.toml", "src/lib.rs", "src/target/mod.rs")
    assert rel(discover([tmp_path]), tmp_path) == ["src/lib.rs", "src/target/mod.rs"]


def test_a_directory_tagged_as_cache_is_skipped(tmp_path: Path) -> None:
    make(tmp_path, "src/lib.rs", "build-out/gen.rs", "fake/gen.rs")
    (tmp_path / "build-out/CACHEDIR.TAG").write_bytes(
        b"Signature: 8a477f597d28d172789f06886806bc55\n# created by cargo\n"
    )
    (tmp_path / "fake/CACHEDIR.TAG").write_text("not a real tag\n")
    assert rel(discover([tmp_path]), tmp_path) == ["fake/gen.rs", "src/lib.rs"]


def test_hidden_or_target_directory_given_explicitly_is_walked(tmp_path: Path) -> None:
    make(tmp_path, "Cargo.toml", ".config/a.rs", "target/b.rs")
    found = discover([tmp_path / ".config", tmp_path / "target"])
    assert rel(found, tmp_path) == [".config/a.rs", "target/b.rs"]


def test_gitignore_root_and_nested(tmp_path: Path) -> None:
    make(
        tmp_path,
        "src/lib.rs",
        "src/generated.rs",
        "gen/a.rs",
        "sub/keep.rs",
        "sub/skip.rs",
        "sub/deeper/skip.rs",
        "sub/deeper/again.rs",
        "other/skip.rs",
    )
    (tmp_path / ".gitignore").write_text("# comment\n/gen/\ngenerated.rs\nskip.rs\n")
    # A nested file overrides the root one for its own subtree (`!` re-includes).
    (tmp_path / "sub/deeper/.gitignore").write_text("!skip.rs\nagain.rs\n")
    found = discover([tmp_path])
    assert rel(found, tmp_path) == ["src/lib.rs", "sub/deeper/skip.rs", "sub/keep.rs"]


def test_gitignore_directory_patterns_prune_the_walk(tmp_path: Path) -> None:
    make(tmp_path, "vendor/a.rs", "vendor/b/c.rs", "src/vendor.rs", "src/lib.rs")
    (tmp_path / ".gitignore").write_text("vendor/\n")
    assert rel(discover([tmp_path]), tmp_path) == ["src/lib.rs", "src/vendor.rs"]


def test_gitignore_can_be_turned_off(tmp_path: Path) -> None:
    make(tmp_path, "a.rs", "b.rs")
    (tmp_path / ".gitignore").write_text("b.rs\n")
    assert rel(discover([tmp_path]), tmp_path) == ["a.rs"]
    assert rel(discover([tmp_path], respect_gitignore=False), tmp_path) == ["a.rs", "b.rs"]


def test_gitignore_of_the_enclosing_repository_applies_to_a_subdirectory(tmp_path: Path) -> None:
    (tmp_path / ".git" / "info").mkdir(parents=True)
    (tmp_path / ".git" / "info" / "exclude").write_text("local.rs\n")
    (tmp_path / ".gitignore").write_text("*.gen.rs\n")
    (tmp_path / "crates" / ".gitignore").parent.mkdir()
    (tmp_path / "crates" / ".gitignore").write_text("/core/skip.rs\n")
    make(tmp_path, "crates/core/a.rs", "crates/core/b.gen.rs", "crates/core/skip.rs")
    make(tmp_path, "crates/core/local.rs")
    found = discover([tmp_path / "crates" / "core"])
    assert rel(found, tmp_path) == ["crates/core/a.rs"]


def test_ignore_files_outside_a_repository_stop_at_the_given_root(tmp_path: Path) -> None:
    # Without a git work tree around it, a parent's .gitignore is not git's business.
    (tmp_path / ".gitignore").write_text("*.rs\n")
    make(tmp_path, "proj/a.rs")
    assert rel(discover([tmp_path / "proj"]), tmp_path) == ["proj/a.rs"]


def test_exclude_globs_are_relative_to_the_given_root(tmp_path: Path) -> None:
    make(tmp_path, "src/lib.rs", "src/gen/a.rs", "gen/b.rs", "benches/x.rs", "src/x_test.rs")
    found = discover([tmp_path], exclude=["/gen", "benches/", "*_test.rs"])
    assert rel(found, tmp_path) == ["src/gen/a.rs", "src/lib.rs"]


def test_exclude_root_anchors_patterns_elsewhere(tmp_path: Path) -> None:
    make(tmp_path, "crate/gen/a.rs", "crate/src/lib.rs")
    found = discover([tmp_path / "crate"], exclude=["/crate/gen"], exclude_root=tmp_path)
    assert rel(found, tmp_path) == ["crate/src/lib.rs"]


def test_explicit_files_are_always_included(tmp_path: Path) -> None:
    make(tmp_path, ".hidden/a.rs", "ignored.rs", "target/t.rs", "Cargo.toml")
    (tmp_path / ".gitignore").write_text("ignored.rs\n")
    given = [tmp_path / ".hidden/a.rs", tmp_path / "ignored.rs", tmp_path / "target/t.rs"]
    found = discover(given, exclude=["*.rs"])
    assert rel(found, tmp_path) == [".hidden/a.rs", "ignored.rs", "target/t.rs"]
    assert found.explicit == frozenset(given)


def test_explicit_non_rust_file_gets_a_note(tmp_path: Path) -> None:
    make(tmp_path, "notes.txt")
    found = discover([tmp_path / "notes.txt"])
    assert found.files == ()
    assert messages(found) == ["note: not a Rust source file (`.rs`), skipped"]


def test_missing_path_is_a_config_error_naming_it(tmp_path: Path) -> None:
    make(tmp_path, "a.rs")
    missing = tmp_path / "nope"
    found = discover([missing, tmp_path])
    assert rel(found, tmp_path) == ["a.rs"]
    (note,) = found.notifications
    assert note.path == missing
    assert note.message == "path does not exist"
    assert note.level is Level.ERROR
    assert note.kind is NotificationKind.CONFIG


def test_a_path_given_twice_is_checked_once(tmp_path: Path) -> None:
    make(tmp_path, "src/lib.rs", "src/a/b.rs")
    found = discover([tmp_path / "src", tmp_path / "src", tmp_path / "src/lib.rs", tmp_path])
    assert rel(found, tmp_path) == ["src/a/b.rs", "src/lib.rs"]
    assert found.explicit == frozenset({tmp_path / "src/lib.rs"})


def test_a_subdirectory_given_with_its_parent_is_walked_once(tmp_path: Path) -> None:
    make(tmp_path, "a/b/c.rs", "a/d.rs")
    found = discover([tmp_path / "a" / "b", tmp_path / "a"])
    assert rel(found, tmp_path) == ["a/b/c.rs", "a/d.rs"]


def test_an_empty_directory_finds_nothing_quietly(tmp_path: Path) -> None:
    make(tmp_path, "README.md")
    assert discover([tmp_path]) == Discovery(files=(), notifications=(), explicit=frozenset())


def test_unreadable_directory_is_reported_and_the_walk_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    make(tmp_path, "ok/a.rs", "locked/b.rs")
    locked = os.path.realpath(tmp_path / "locked")
    real_scandir = os.scandir

    def scandir(path: str) -> Iterable[os.DirEntry[str]]:
        if os.fspath(path) == locked:
            raise PermissionError(13, "Permission denied", path)
        return real_scandir(path)

    # Patched rather than chmod-ed: the tests may run as root, who can read anything.
    monkeypatch.setattr("burnlint.project.discover.os.scandir", scandir)
    found = discover([tmp_path])
    assert rel(found, tmp_path) == ["ok/a.rs"]
    (note,) = found.notifications
    assert note.path == tmp_path / "locked"
    assert note.level is Level.WARNING
    assert "Permission denied" in note.message
    # named on the command line, the directory that cannot be read is an error (exit 2)
    (note,) = discover([tmp_path / "locked"]).notifications
    assert (note.level, note.message) == (Level.ERROR, "cannot read directory: Permission denied")


def test_unreadable_gitignore_is_reported(tmp_path: Path) -> None:
    make(tmp_path, "a.rs")
    (tmp_path / ".gitignore").mkdir()  # a directory where a file was expected: read fails
    found = discover([tmp_path])
    assert rel(found, tmp_path) == ["a.rs"]
    (note,) = found.notifications
    assert note.path == tmp_path / ".gitignore"
    assert note.level is Level.WARNING
    assert note.message.startswith("cannot read ignore file: ")


@needs_fifos
def test_a_fifo_named_like_a_rust_file_is_skipped_with_a_warning(tmp_path: Path) -> None:
    """Reading a FIFO waits for a writer: the walk must not hand one to the engine. A Rust file
    that cannot be checked is a warning, and counted as skipped."""
    make(tmp_path, "b.rs")
    os.mkfifo(tmp_path / "a.rs")
    if hasattr(os, "symlink"):
        link(tmp_path / "a.rs", tmp_path / "c.rs")
    found = discover([tmp_path])
    assert rel(found, tmp_path) == ["b.rs"]
    expected = ["warning: not a regular file, skipped"]
    if hasattr(os, "symlink"):
        expected.append("warning: symbolic link to something that is not a regular file, skipped")
    assert messages(found) == expected
    assert found.notifications[0].path == tmp_path / "a.rs"
    assert found.skipped == len(expected)


@needs_fifos
def test_a_fifo_named_gitignore_or_cachedir_tag_is_not_read(tmp_path: Path) -> None:
    make(tmp_path, "a.rs", "sub/b.rs")
    os.mkfifo(tmp_path / ".gitignore")
    os.mkfifo(tmp_path / "sub" / "CACHEDIR.TAG")
    found = discover([tmp_path])  # returns at all: neither FIFO was opened for a blocking read
    assert rel(found, tmp_path) == ["a.rs", "sub/b.rs"]
    assert messages(found) == ["warning: cannot read ignore file: not a regular file"]


def test_deep_trees_do_not_hit_the_recursion_limit(tmp_path: Path) -> None:
    deep = tmp_path
    for _ in range(60):
        deep = deep / "d"
    make(deep, "x.rs")
    assert len(discover([tmp_path]).files) == 1


@needs_symlinks
def test_symlink_loop_terminates_with_a_note(tmp_path: Path) -> None:
    make(tmp_path, "src/lib.rs", "src/inner/a.rs")
    link(tmp_path / "src", tmp_path / "src/inner/back")
    link(tmp_path, tmp_path / "src/root")
    found = discover([tmp_path])
    assert rel(found, tmp_path) == ["src/inner/a.rs", "src/lib.rs"]
    assert messages(found) == [
        "note: symbolic link to one of its own parent directories, skipped",
        "note: symbolic link to one of its own parent directories, skipped",
    ]
    assert [n.path for n in found.notifications] == [
        tmp_path / "src/inner/back",
        tmp_path / "src/root",
    ]


@needs_symlinks
def test_self_referencing_links_terminate(tmp_path: Path) -> None:
    link(tmp_path / "b.rs", tmp_path / "a.rs")
    link(tmp_path / "a.rs", tmp_path / "b.rs")
    link(tmp_path / "self", tmp_path / "self")
    found = discover([tmp_path])
    assert found.files == ()
    assert messages(found) == [
        "warning: broken or looping symbolic link, skipped",
        "warning: broken or looping symbolic link, skipped",
    ]
    assert found.skipped == 2


@needs_symlinks
def test_links_leaving_the_root_are_skipped_with_a_note(tmp_path: Path) -> None:
    root = tmp_path / "root"
    outside = tmp_path / "outside"
    make(root, "src/lib.rs")
    make(outside, "secret.rs", "dir/x.rs")
    link(outside / "secret.rs", root / "src/secret.rs")
    link(outside / "dir", root / "src/dir")
    found = discover([root])
    assert rel(found, root) == ["src/lib.rs"]
    assert [(n.path, n.message) for n in found.notifications] == [
        (
            root / "src/dir",
            "symbolic link leads outside the checked directory, skipped",
        ),
        (
            root / "src/secret.rs",
            "symbolic link leads outside the checked directory, skipped",
        ),
    ]
    assert all(n.level is Level.NOTE for n in found.notifications)


@needs_symlinks
def test_file_link_inside_the_root_is_checked_once_under_its_real_path(tmp_path: Path) -> None:
    make(tmp_path, "src/real.rs")
    link(tmp_path / "src/real.rs", tmp_path / "alias.rs")
    link("real.rs", tmp_path / "src/relative_alias.rs")
    found = discover([tmp_path])
    assert rel(found, tmp_path) == ["src/real.rs"]
    assert found.notifications == ()


@needs_symlinks
def test_directory_link_inside_the_root_is_not_walked_twice(tmp_path: Path) -> None:
    make(tmp_path, "crates/core/lib.rs")
    link(tmp_path / "crates/core", tmp_path / "core")
    found = discover([tmp_path])
    assert rel(found, tmp_path) == ["crates/core/lib.rs"]
    assert found.notifications == ()


@needs_symlinks
def test_a_given_link_to_a_directory_is_walked_under_the_given_name(tmp_path: Path) -> None:
    make(tmp_path, "real/a.rs")
    link(tmp_path / "real", tmp_path / "alias")
    assert discover([tmp_path / "alias"]).files == (tmp_path / "alias" / "a.rs",)


@needs_symlinks
def test_broken_link_given_explicitly_does_not_exist(tmp_path: Path) -> None:
    link(tmp_path / "gone.rs", tmp_path / "dangling.rs")
    found = discover([tmp_path / "dangling.rs"])
    assert found.files == ()
    assert messages(found) == ["error: path does not exist"]


# --- the fast path of ignore files ----------------------------------------------------------

_IGNORE_LINES = [
    "target",
    "**/*.rs.bk",
    ".idea",
    "out/",
    "examples/**/Cargo.lock",
    "*.map",
    "/generated/*.rs",
    "!generated/keep.rs",
    "src/**/gen_*.rs",
    "# a comment",
    "",
    "weird[ab].rs",
    "\\#hash.rs",
    "a?c.rs",
]
_PATHS = [
    "target/",
    "crates/x/target/",
    "src/lib.rs",
    "src/lib.rs.bk",
    "out/",
    "out.rs",
    "examples/a/b/Cargo.lock",
    "x.map",
    "generated/a.rs",
    "generated/keep.rs",
    "deep/generated/a.rs",
    "src/m/gen_x.rs",
    "weirda.rs",
    "weirdc.rs",
    "#hash.rs",
    "abc.rs",
    ".idea/",
    "src/.idea/x.rs",
]


def test_the_combined_pattern_gives_the_verdicts_of_pathspec() -> None:
    from pathspec import GitIgnoreSpec

    from burnlint.project.discover import _any_pattern, _IgnoreFile

    for count in range(1, len(_IGNORE_LINES) + 1):
        spec = GitIgnoreSpec.from_lines(_IGNORE_LINES[:count])
        fast = _IgnoreFile("/r/", spec, _any_pattern(spec))
        assert fast.any_pattern is not None
        for path in _PATHS:
            assert fast.check(path) == spec.check_file(path).include, (count, path)
