"""The pre-commit hook (``.pre-commit-hooks.yaml``), installed by pre-commit itself.

pre-commit is installed into a throwaway virtual environment; the test is skipped when that is
not possible (no network, no package index). pre-commit installs hooks from a git revision, and
burnlint's working tree may hold changes that are not committed yet (a new hook file among
them), so the repository it installs from is a snapshot: the working tree's files, tracked and
untracked but not ignored, committed once into a temporary repository.

The project the hook runs in is a small cargo crate whose `main.rs` calls a checkpoint helper
defined in `checkpoint.rs`: the finding in `main.rs` exists only because burnlint reads the
helper from disk although pre-commit names only the staged `main.rs`.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

import pytest

import processes

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parent.parent
PRE_COMMIT = "pre-commit>=3.2,<5"

CARGO_TOML = """\
[package]
name = "trainer"
version = "0.1.0"
edition = "2021"

[dependencies]
burn = "0.22"
burn-store = "0.22"
"""

CHECKPOINT_RS = """\
//! Checkpoints go through this helper, so `main.rs` never names a store itself.

use std::path::Path;

use burn_store::{ModuleSnapshot, SafetensorsStore, SafetensorsStoreError};

/// Writes `model` to `path`, replacing an earlier checkpoint.
pub fn save_checkpoint<M: ModuleSnapshot>(
    model: &M,
    path: &Path,
) -> Result<(), SafetensorsStoreError> {
    model.save_into(&mut SafetensorsStore::from_file(path).overwrite(true))
}
"""

LIB_RS = "pub mod checkpoint;\n"

MAIN_RS = """\
use std::error::Error;
use std::path::PathBuf;

use trainer::checkpoint::save_checkpoint;

fn main() -> Result<(), Box<dyn Error>> {{
    let model = trainer::Model::default();
    let path = PathBuf::from("runs/latest.safetensors");
    for _epoch in 0..10 {{
        {save}
    }}
    Ok(())
}}
"""
PASSING_MAIN_RS = MAIN_RS.format(save="save_checkpoint(&model, &path)?;")
FAILING_MAIN_RS = MAIN_RS.format(save="save_checkpoint(&model, &path).ok(); // BL001")


def _checked(proc: subprocess.CompletedProcess[str]) -> subprocess.CompletedProcess[str]:
    assert proc.returncode == 0, (
        f"{proc.args} exited {proc.returncode}:\n{proc.stdout}{proc.stderr}"
    )
    return proc


def _git_env(home: Path) -> dict[str, str]:
    """Git without the user's or the system's configuration (no signing, no hooks path)."""
    config = home / "gitconfig"
    config.write_text("[init]\n\tdefaultBranch = main\n", encoding="utf-8")
    return {
        **os.environ,
        "GIT_CONFIG_GLOBAL": str(config),
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_NAME": "burnlint tests",
        "GIT_AUTHOR_EMAIL": "tests@burnlint.invalid",
        "GIT_COMMITTER_NAME": "burnlint tests",
        "GIT_COMMITTER_EMAIL": "tests@burnlint.invalid",
        "PRE_COMMIT_HOME": str(home / "pre-commit-cache"),
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
    }


def _install_pre_commit(venv: Path) -> Path:
    """pre-commit in a fresh virtual environment; skips the test when it cannot be installed."""
    made = processes.run([sys.executable, "-m", "venv", venv], cwd=venv.parent)
    if made.returncode != 0:  # e.g. a Python without ensurepip
        pytest.skip(f"cannot create a virtual environment: {(made.stdout + made.stderr)[-300:]}")
    pip = processes.run(
        [processes.venv_script(venv, "python"), "-m", "pip", "install", "--quiet", PRE_COMMIT],
        venv.parent,
    )
    processes.succeeded(pip, f"pip install {PRE_COMMIT}")
    return processes.venv_script(venv, "pre-commit")


def _snapshot(target: Path, env: Mapping[str, str]) -> str:
    """Commit burnlint's working tree (tracked and untracked files, not ignored ones) into a
    new repository at ``target``; the commit's id."""
    listed = processes.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], REPO, env
    )
    if listed.returncode != 0:
        pytest.skip(f"{REPO} is not a git work tree: {listed.stderr.strip()}")
    target.mkdir()
    for name in filter(None, listed.stdout.split("\0")):
        source = REPO / name
        if source.is_file():  # deleted but not yet committed: left out
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    assert (target / ".pre-commit-hooks.yaml").is_file()
    _checked(processes.run(["git", "init", "--quiet"], target, env))
    _checked(processes.run(["git", "add", "--all"], target, env))
    _checked(
        processes.run(["git", "commit", "--quiet", "--no-verify", "-m", "snapshot"], target, env)
    )
    return _checked(processes.run(["git", "rev-parse", "HEAD"], target, env)).stdout.strip()


def _project(root: Path, hooks_repo: Path, rev: str, env: Mapping[str, str]) -> None:
    """A git repository with a committed cargo crate and a pre-commit configuration."""
    (root / "src").mkdir(parents=True)
    (root / "Cargo.toml").write_text(CARGO_TOML, encoding="utf-8")
    (root / "src" / "lib.rs").write_text(LIB_RS, encoding="utf-8")
    (root / "src" / "checkpoint.rs").write_text(CHECKPOINT_RS, encoding="utf-8")
    (root / "README.md").write_text("# trainer\n", encoding="utf-8")
    # a YAML single-quoted scalar: backslashes (Windows paths) are literal
    (root / ".pre-commit-config.yaml").write_text(
        "repos:\n"
        f"  - repo: '{hooks_repo.as_posix()}'\n"
        f"    rev: {rev}\n"
        "    hooks:\n"
        "      - id: burnlint\n",
        encoding="utf-8",
    )
    _checked(processes.run(["git", "init", "--quiet"], root, env))
    _checked(processes.run(["git", "add", "--all"], root, env))
    _checked(processes.run(["git", "commit", "--quiet", "--no-verify", "-m", "crate"], root, env))


def _stage(root: Path, name: str, text: str, env: Mapping[str, str]) -> None:
    (root / name).write_text(text, encoding="utf-8")
    _checked(processes.run(["git", "add", name], root, env))


def _burnlint_locations(root: Path, env: Mapping[str, str]) -> set[str]:
    """``path:line:col`` of every finding of a full run of this checkout's burnlint."""
    proc = processes.run(
        [sys.executable, "-m", "burnlint", "check", ".", "--format", "concise", "--quiet"],
        root,
        env,
    )
    assert proc.returncode in (0, 1), proc.stdout + proc.stderr
    return set(re.findall(r"^(\S+?:\d+:\d+):", proc.stdout, re.MULTILINE))


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_pre_commit_hook_on_a_passing_and_a_failing_file(tmp_path: Path) -> None:
    env = _git_env(tmp_path)
    pre_commit = _install_pre_commit(tmp_path / "venv")
    rev = _snapshot(tmp_path / "burnlint", env)
    project = tmp_path / "trainer"
    _project(project, tmp_path / "burnlint", rev, env)

    def pre_commit_run() -> subprocess.CompletedProcess[str]:
        # the staged files, as `git commit` would run the hook
        return processes.run([pre_commit, "run", "--color", "never"], project, env)

    # a staged file that is not Rust: the hook does not run
    _stage(project, "README.md", "# trainer\n\nTrains.\n", env)
    skipped = pre_commit_run()
    assert skipped.returncode == 0, skipped.stdout + skipped.stderr
    assert re.search(r"^burnlint\.+\(no files to check\)Skipped$", skipped.stdout, re.MULTILINE)

    _stage(project, "src/main.rs", PASSING_MAIN_RS, env)
    passing = pre_commit_run()
    assert passing.returncode == 0, passing.stdout + passing.stderr
    assert re.search(r"^burnlint\.+Passed$", passing.stdout, re.MULTILINE), passing.stdout
    _checked(processes.run(["git", "commit", "--quiet", "--no-verify", "-m", "main"], project, env))

    _stage(project, "src/main.rs", FAILING_MAIN_RS, env)
    failing = pre_commit_run()
    output = failing.stdout + failing.stderr
    assert failing.returncode == 1, output
    assert re.search(r"^burnlint\.+Failed$", failing.stdout, re.MULTILINE), output
    assert "- exit code: 1" in failing.stdout
    assert "error[BL001]" in failing.stdout
    assert "--> src/main.rs:10:9" in failing.stdout
    # only the staged file is reported on, with the helper's facts read from the unstaged one
    assert "checkpoint.rs:" not in failing.stdout
    # the same findings as a full run of the crate
    full = _burnlint_locations(project, env)
    assert full == {"src/main.rs:10:9"}
    for location in full:
        assert f"--> {location}" in failing.stdout
