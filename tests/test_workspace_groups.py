"""Crates joined along path dependencies: a workspace crate's helpers reach the crates that
declare it, burn's own crates are never joined to their dependents, and a crate that only
calls a dependency's helpers is checked even with no trigger word of its own."""

from __future__ import annotations

from pathlib import Path

from burnlint.engine import lint_files, lint_paths
from burnlint.options import EngineOptions
from burnlint.paths import display_path
from burnlint.project.targets import manifest_of, path_dependencies
from burnlint.rules.registry import resolve

HELPER = """\
use burn_store::{ModuleSnapshot, SafetensorsStore};
pub fn save_latest<M: ModuleSnapshot>(model: &M) -> Result<(), burn_store::SafetensorsStoreError> {
    let mut store = SafetensorsStore::from_file("latest.safetensors");
    model.save_into(&mut store)
}
"""
CALLER = """\
pub fn train<M: burn_store::ModuleSnapshot>(model: &M) {
    for _ in 0..3 {
        let _ = NAME::save_latest(model);
    }
}
"""


def _crate(root: Path, directory: str, package: str, dependency: str | None, code: str) -> None:
    crate = root / directory
    (crate / "src").mkdir(parents=True)
    manifest = f'[package]\nname = "{package}"\nversion = "0.1.0"\n\n[dependencies]\n'
    if dependency is not None:
        manifest += f'{dependency} = {{ path = "../{dependency}" }}\n'
    (crate / "Cargo.toml").write_text(manifest, encoding="utf-8")
    (crate / "src" / "lib.rs").write_text(code, encoding="utf-8")


def _check(root: Path) -> set[tuple[str, int, str]]:
    files = sorted(root.rglob("*.rs"))
    result = lint_files(files, EngineOptions(rule_ids=resolve(), project_root=root))
    return {
        (display_path(f.location.path, root), f.location.span.start_line, f.rule_id)
        for f in result.findings
    }


def test_a_path_dependency_helper_reaches_its_dependent(tmp_path: Path) -> None:
    _crate(tmp_path, "ckpt", "ckpt", None, HELPER)
    # the caller names no store: only the dependency's helper makes it a crate to check
    _crate(tmp_path, "app", "app", "ckpt", CALLER.replace("NAME", "ckpt"))
    assert path_dependencies((tmp_path / "app").resolve().as_posix()) == (
        (tmp_path / "ckpt").resolve().as_posix(),
    )
    assert _check(tmp_path) == {("app/src/lib.rs", 3, "BL001"), ("app/src/lib.rs", 3, "BL003")}


def test_burn_crates_are_not_joined(tmp_path: Path) -> None:
    # a crate of burn's own workspace: its functions are the API, not helpers of dependents
    _crate(tmp_path, "burn-core", "burn-core", None, HELPER)
    _crate(tmp_path, "app", "app", "burn-core", CALLER.replace("NAME", "burn_core"))
    assert manifest_of((tmp_path / "burn-core").resolve().as_posix()).is_burn
    assert path_dependencies((tmp_path / "app").resolve().as_posix()) == ()
    assert _check(tmp_path) == set()


def test_without_the_dependency_declared_nothing_resolves(tmp_path: Path) -> None:
    _crate(tmp_path, "ckpt", "ckpt", None, HELPER)
    _crate(tmp_path, "app", "app", None, CALLER.replace("NAME", "ckpt"))
    assert _check(tmp_path) == set()


def test_a_file_named_alone_gets_its_dependencies_facts(tmp_path: Path) -> None:
    """Pre-commit names the staged files only: one of them still sees the helpers of the
    workspace crates its crate declares as path dependencies, as in a full run."""
    _crate(tmp_path, "ckpt", "ckpt", None, HELPER)
    _crate(tmp_path, "app", "app", "ckpt", CALLER.replace("NAME", "ckpt"))
    caller = tmp_path / "app" / "src" / "lib.rs"
    result = lint_paths([caller], EngineOptions(rule_ids=resolve(), project_root=tmp_path))
    found = {
        (display_path(f.location.path, tmp_path), f.location.span.start_line, f.rule_id)
        for f in result.findings
    }
    assert found == {("app/src/lib.rs", 3, "BL001"), ("app/src/lib.rs", 3, "BL003")}
