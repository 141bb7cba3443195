"""The persistent cache is never stale: after each change to a crate, a cached run reports
exactly what a run without the cache reports, and the change did change that report (so the
comparison is not between two empty answers). Then: what a warm run does not do (read an
unchanged file, import the parser), and a cache that is corrupt, truncated, unwritable or
shared by two runs at once."""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from burnlint.app.check import run_check
from burnlint.app.request import CheckRequest
from burnlint.engine.cache import CACHE_DIR_NAME

MANIFEST = """\
[package]
name = "trainer"
version = "0.1.0"
edition = "2021"

[dependencies]
burn = "0.22"
burn-store = "0.22"
"""

CHECKPOINT = """\
use std::path::Path;
use burn_store::{ModuleSnapshot, SafetensorsStore, SafetensorsStoreError};

pub fn save_checkpoint<M: ModuleSnapshot>(m: &M, path: &Path) -> Result<(), SafetensorsStoreError> {
    m.save_into(&mut SafetensorsStore::from_file(path))
}
"""

MAIN = """\
use std::path::Path;
use trainer::checkpoint::save_checkpoint;

fn main() {
    let model = trainer::Model::new();
    for epoch in 0..10 {
        let _ = save_checkpoint(&model, Path::new("latest.safetensors"));
    }
}
"""

LIB = """\
pub mod checkpoint;
pub struct Model;
impl Model {
    pub fn new() -> Self { Model }
}
"""


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def age(root: Path, seconds: float = 60.0) -> None:
    """Date every file back, so that the cache trusts their stat (a file modified in the
    last moments is hashed instead: ``cache.RACY_NS``)."""
    when = time.time() - seconds
    for path in root.rglob("*"):
        if path.is_file() and CACHE_DIR_NAME not in path.parts:
            os.utime(path, (when, when))


@pytest.fixture
def crate(tmp_path: Path) -> Path:
    root = tmp_path / "trainer"
    write(
        root,
        {
            "Cargo.toml": MANIFEST,
            "src/lib.rs": LIB,
            "src/checkpoint.rs": CHECKPOINT,
            "src/main.rs": MAIN,
        },
    )
    return root


def report(root: Path, *, cache: bool = True, jobs: int = 1, select: str = "") -> str:
    """The JSON report of a run over ``root`` (its cache in ``root/.burnlint_cache``)."""
    outputs: list[str] = []
    from burnlint.config.settings import CliSettings

    settings = CliSettings(select=tuple(select.split(",")) if select else None)
    request = CheckRequest(
        paths=(root,),
        settings=settings,
        output_format="json",
        format_given=True,
        project_root=root,
        jobs=jobs,
        cache=cache,
        cache_dir=root / CACHE_DIR_NAME,
        exit_zero=True,
        quiet=True,
    )
    outcome = run_check(request, emit=lambda message: outputs.append(message.text))
    assert outcome.exit_code == 0, outputs
    return "".join(outputs)


def rules_at(text: str) -> list[tuple[str, str, int]]:
    findings = json.loads(text)["findings"]
    return sorted((f["rule_id"], Path(f["path"]).name, f["start"]["line"]) for f in findings)


def same_as_cold(root: Path) -> str:
    """A cached run's report, checked against a run without the cache."""
    cached = report(root)
    assert cached == report(root, cache=False)
    return cached


def changes(root: Path, change: Callable[[], None]) -> tuple[str, str]:
    """The report before and after ``change``, each the same cached and not."""
    age(root)
    before = same_as_cold(root)
    assert report(root) == before  # warm, nothing changed
    change()
    after = same_as_cold(root)
    assert after != before, "the change must change the report, or the test shows nothing"
    return before, after


def test_editing_the_file_with_a_finding(crate: Path) -> None:
    path = crate / "src/main.rs"
    before, after = changes(
        crate,
        lambda: path.write_text(
            MAIN.replace("let _ = ", "").replace("));", ")).unwrap();"), "utf-8"
        ),
    )
    assert ("BL001", "main.rs", 7) in rules_at(before)
    assert ("BL001", "main.rs", 7) not in rules_at(after)


def test_editing_a_helper_in_another_file(crate: Path) -> None:
    path = crate / "src/checkpoint.rs"
    fixed = CHECKPOINT.replace("from_file(path)", "from_file(path).overwrite(true)")
    before, after = changes(crate, lambda: path.write_text(fixed, "utf-8"))
    assert any(code == "BL003" for code, _, _ in rules_at(before))
    assert not any(code == "BL003" for code, _, _ in rules_at(after))


def test_a_second_function_with_the_helpers_name(crate: Path) -> None:
    # another module defines `save_checkpoint` too, and `main` imports that one: it is not a
    # store helper, so nothing is said of its call
    def change() -> None:
        write(
            crate,
            {
                "src/other.rs": "pub fn save_checkpoint<M>(_m: &M, _p: &std::path::Path)"
                " -> Result<(), String> { Ok(()) }\n",
                "src/lib.rs": LIB.replace(
                    "pub mod checkpoint;", "pub mod checkpoint;\npub mod other;"
                ),
                "src/main.rs": MAIN.replace("trainer::checkpoint::", "trainer::other::"),
            },
        )

    before, after = changes(crate, change)
    assert rules_at(before) and not rules_at(after)


def test_renaming_and_deleting_files(crate: Path) -> None:
    def rename() -> None:
        (crate / "src/checkpoint.rs").rename(crate / "src/ckpt.rs")
        write(crate, {"src/lib.rs": LIB.replace("pub mod checkpoint;", "pub mod ckpt;")})

    before, after = changes(crate, rename)
    assert rules_at(before)
    # `trainer::checkpoint::save_checkpoint` names nothing now
    assert not any(name == "main.rs" for _, name, _ in rules_at(after))

    def delete() -> None:
        (crate / "src/main.rs").unlink()

    changes(crate, delete)


def test_renaming_a_helper_so_that_a_skipped_file_becomes_a_candidate(crate: Path) -> None:
    # `caller.rs` names no burn-store word and no helper at first: the prefilter skips it
    caller = (
        "pub fn run(m: &crate::Model) {\n    for _ in 0..3 {\n        let _ = keep(m);\n    }\n}\n"
    )
    write(
        crate,
        {
            "src/caller.rs": caller.replace(
                "keep(m)", 'crate::checkpoint::keep(m, std::path::Path::new("a"))'
            ),
            "src/lib.rs": LIB.replace(
                "pub mod checkpoint;", "pub mod checkpoint;\npub mod caller;"
            ),
        },
    )
    path = crate / "src/checkpoint.rs"
    before, after = changes(
        crate, lambda: path.write_text(CHECKPOINT.replace("save_checkpoint", "keep"), "utf-8")
    )
    assert not any(name == "caller.rs" for _, name, _ in rules_at(before))
    assert any(name == "caller.rs" for _, name, _ in rules_at(after))


def test_editing_the_manifest_package_name(crate: Path) -> None:
    # `trainer::` names the lib by its package name: renamed, the calls resolve no more
    path = crate / "Cargo.toml"
    before, after = changes(
        crate, lambda: path.write_text(MANIFEST.replace('"trainer"', '"other"'), "utf-8")
    )
    assert any(name == "main.rs" for _, name, _ in rules_at(before))
    assert not any(name == "main.rs" for _, name, _ in rules_at(after))


def test_editing_the_manifest_targets(crate: Path) -> None:
    # the lib target renamed: `trainer::` in the bin names it no more
    path = crate / "Cargo.toml"
    text = MANIFEST + '\n[lib]\nname = "trainer_core"\n'
    before, after = changes(crate, lambda: path.write_text(text, "utf-8"))
    assert any(name == "main.rs" for _, name, _ in rules_at(before))
    assert not any(name == "main.rs" for _, name, _ in rules_at(after))


def test_adding_a_path_dependency(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    helpers = CHECKPOINT
    write(
        workspace,
        {
            "helpers/Cargo.toml": MANIFEST.replace('"trainer"', '"helpers"'),
            "helpers/src/lib.rs": helpers,
            "app/Cargo.toml": MANIFEST.replace('"trainer"', '"app"'),
            "app/src/main.rs": "use std::path::Path;\nfn main() {\n    for _ in 0..3 {\n"
            '        let _ = helpers::save_checkpoint(&0, Path::new("a"));\n    }\n}\n',
        },
    )
    path = workspace / "app/Cargo.toml"
    text = MANIFEST.replace('"trainer"', '"app"') + 'helpers = { path = "../helpers" }\n'
    before, after = changes(workspace, lambda: path.write_text(text, "utf-8"))
    assert not any(name == "main.rs" for _, name, _ in rules_at(before))
    assert any(name == "main.rs" for _, name, _ in rules_at(after))


def test_changing_the_configuration(crate: Path) -> None:
    config = crate / "burnlint.toml"
    changes(crate, lambda: config.write_text('ignore = ["BL001"]\n', "utf-8"))
    changes(crate, lambda: config.write_text('[severity]\nBL003 = "note"\n', "utf-8"))


def test_changing_gitignore(crate: Path) -> None:
    # a git work tree: .gitignore is read there
    subprocess.run(["git", "init", "-q", str(crate)], check=True)
    ignore = crate / ".gitignore"
    changes(crate, lambda: ignore.write_text("src/main.rs\n", "utf-8"))


def test_changing_the_burn_version_in_the_lock_file(crate: Path) -> None:
    lock = crate / "Cargo.lock"

    def pin(version: str) -> None:
        lock.write_text(
            f'version = 3\n\n[[package]]\nname = "burn-store"\nversion = "{version}"\n', "utf-8"
        )

    # up to burn 0.21 a Burnpack store without its automatic extension checks and writes the
    # exact path it is given (`collect_from`), so it refuses to overwrite it; from 0.22 the
    # writer adds the extension after the check
    write(
        crate,
        {
            "src/record.rs": """\
use std::path::Path;
use burn_store::{BurnpackStore, ModuleSnapshot};
pub fn train<M: ModuleSnapshot>(model: M, dir: &Path) {
    let mut store = BurnpackStore::from_file(dir.join("latest")).auto_extension(false);
    for _ in 0..3 {
        model.save_into(&mut store).unwrap();
    }
}
""",
            "src/lib.rs": LIB.replace(
                "pub mod checkpoint;", "pub mod checkpoint;\npub mod record;"
            ),
        },
    )
    pin("0.22.0")
    before, after = changes(crate, lambda: pin("0.21.0"))
    assert ("BL003", "record.rs", 4) not in rules_at(before)
    assert ("BL003", "record.rs", 4) in rules_at(after)


def test_a_warm_run_reads_no_unchanged_file(crate: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    age(crate)
    cold = report(crate)
    opened: list[str] = []
    real_open = open

    def recording_open(file: object, *args: object, **kwargs: object) -> object:
        if str(file).endswith(".rs"):
            opened.append(str(file))
        return real_open(file, *args, **kwargs)  # type: ignore[call-overload]

    import builtins

    monkeypatch.setattr(builtins, "open", recording_open)
    assert report(crate) == cold
    assert opened == []
    # an edited file is read (only it: the others' facts are unchanged)
    (crate / "src/main.rs").write_text(MAIN + "\n", "utf-8")
    report(crate)
    assert {Path(p).name for p in opened} == {"main.rs"}


def test_a_warm_run_does_not_import_the_parser(crate: Path) -> None:
    age(crate)
    report(crate)
    code = (
        "import sys\n"
        "from burnlint.cli import main\n"
        "try:\n"
        f"    main([{str(crate)!r}, '--cache-dir', {str(crate / CACHE_DIR_NAME)!r}, '-q',"
        " '--exit-zero', '--format', 'json'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "print('PARSER' if 'tree_sitter' in sys.modules else 'NO PARSER', file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, cwd=crate
    )
    assert "NO PARSER" in done.stderr, done.stderr


def test_the_cache_directory_is_tagged_and_ignored(crate: Path) -> None:
    report(crate)
    cache = crate / CACHE_DIR_NAME
    assert (
        (cache / "CACHEDIR.TAG")
        .read_text()
        .startswith("Signature: 8a477f597d28d172789f06886806bc55")
    )
    assert (cache / ".gitignore").read_text().splitlines()[-1] == "*"


def test_no_cache_neither_reads_nor_writes(crate: Path) -> None:
    report(crate, cache=False)
    assert not (crate / CACHE_DIR_NAME).exists()


def _entries(crate: Path) -> list[Path]:
    return sorted(p for p in (crate / CACHE_DIR_NAME).rglob("*.pickle"))


@pytest.mark.parametrize("damage", ["corrupt", "truncated", "empty", "foreign"])
def test_a_damaged_cache_is_rebuilt(crate: Path, damage: str) -> None:
    age(crate)
    cold = report(crate, cache=False)
    report(crate)
    entries = _entries(crate)
    assert entries
    for entry in entries:
        data = entry.read_bytes()
        if damage == "corrupt":
            entry.write_bytes(bytes(b ^ 0x5A for b in data))
        elif damage == "truncated":
            entry.write_bytes(data[: len(data) // 2])
        elif damage == "empty":
            entry.write_bytes(b"")
        else:
            # a pickle that would run code when loaded: refused, never run
            entry.write_bytes(pickle.dumps(os.system))
    assert report(crate) == cold
    assert report(crate) == cold  # rebuilt


def test_an_unwritable_cache_is_said_on_stderr(crate: Path) -> None:
    blocker = crate / "not-a-directory"
    blocker.write_text("", "utf-8")
    env = {**os.environ, "BURNLINT_CACHE_DIR": str(blocker / "cache")}
    done = subprocess.run(
        [sys.executable, "-m", "burnlint", str(crate), "--format", "sarif", "--exit-zero"],
        capture_output=True,
        text=True,
        check=False,
        env=env,
        cwd=crate,
    )
    assert done.returncode == 0, done.stderr
    assert "cannot write the cache" in done.stderr
    assert "cache" not in json.dumps(json.loads(done.stdout)["runs"][0].get("invocations", []))


def test_two_runs_at_once(crate: Path) -> None:
    age(crate)
    cold = report(crate, cache=False)
    command = [sys.executable, "-m", "burnlint", str(crate), "--format", "json", "--exit-zero"]
    env = {**os.environ, "BURNLINT_CACHE_DIR": str(crate / CACHE_DIR_NAME)}
    for _ in range(3):
        runs = [
            subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=env, cwd=crate)
            for _ in range(4)
        ]
        outputs = [run.communicate()[0] for run in runs]
        assert all(run.returncode == 0 for run in runs)
        assert len({json.dumps(json.loads(o)) for o in outputs}) == 1
    assert report(crate) == cold


def test_workers_and_cache_give_the_same_report(crate: Path) -> None:
    age(crate)
    cold = report(crate, cache=False)
    assert report(crate, jobs=2) == cold
    assert report(crate, jobs=1) == cold


def test_cache_notes_never_reach_the_report(crate: Path) -> None:
    text = report(crate)
    assert CACHE_DIR_NAME not in text


def test_clean_removes_the_cache_and_nothing_else(crate: Path, tmp_path: Path) -> None:
    from click.testing import CliRunner

    from burnlint.cli import cli

    report(crate)
    cache = crate / CACHE_DIR_NAME
    assert cache.is_dir()
    done = CliRunner().invoke(cli, ["clean", "--cache-dir", str(cache)])
    assert done.exit_code == 0 and "removed" in done.output
    assert not cache.exists()
    assert (crate / "src/main.rs").is_file()
    # a directory that is not burnlint's cache is left alone
    other = tmp_path / "home"
    (other / "notes").mkdir(parents=True)
    done = CliRunner().invoke(cli, ["clean", "--cache-dir", str(other)])
    assert done.exit_code == 2
    assert (other / "notes").is_dir()


def test_entries_of_another_build_are_pruned(crate: Path) -> None:
    report(crate)
    cache = crate / CACHE_DIR_NAME
    (stale,) = [p for p in cache.iterdir() if p.is_dir()]
    older = cache / "0.0.1-0000000000000000"
    stale.rename(older)
    report(crate)
    assert not older.exists()
    assert [p.name for p in cache.iterdir() if p.is_dir()] == [stale.name]


def test_editing_a_module_layout_in_another_file(tmp_path: Path) -> None:
    # BL012 at the loaders in `import.rs` follows the layout `model.rs` declares: a mirror
    # `Vec` of a module enum needs the index option, plain fields need none
    import shutil

    root = tmp_path / "layout_mirror"
    fixture = Path(__file__).resolve().parent.parent / "testdata/crates/layout_mirror"
    shutil.copytree(fixture, root)
    model = root / "src/model.rs"
    flat = model.read_text("utf-8").replace(
        "    net: Vec<Layer<B>>, // [Linear, Relu, Linear]",
        "    first: Linear<B>,\n    second: Linear<B>,",
    )
    assert flat != model.read_text("utf-8")
    before, after = changes(root, lambda: model.write_text(flat, "utf-8"))
    assert any(code == "BL012" for code, _, _ in rules_at(before))
    assert not any(code == "BL012" for code, _, _ in rules_at(after))
