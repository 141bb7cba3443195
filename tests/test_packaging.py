"""What ships: the wheel (rule docs, licence, metadata, a working console script), the GitHub
Action (``action.yml``) and the CI workflow.

The slow tests build the wheel with ``python -m build`` and install it, or the action's install
step, into fresh virtual environments; they are skipped when no package index can be reached.
The action's other steps are bash scripts run here as GitHub runs them (``bash -eo pipefail``),
with this checkout's burnlint, on the demo crate.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
import yaml

import burnlint
import processes
from burnlint.rules import registry

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

REPO = Path(__file__).resolve().parent.parent
DEMO = REPO / "testdata" / "demo"
PROJECT = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))["project"]
# the version's one source; pyproject.toml builds the metadata from it (see test below)
VERSION = burnlint.__version__


# --- the wheel ----------------------------------------------------------------------------------


@pytest.mark.slow
def test_built_wheel_installs_and_runs_with_its_rule_docs(tmp_path: Path) -> None:
    pytest.importorskip("build", reason="`build` is in the test extra: pip install -e '.[test]'")
    dist = tmp_path / "dist"
    built = processes.run(
        [sys.executable, "-m", "build", "--wheel", "--outdir", dist, REPO], tmp_path
    )
    processes.succeeded(built, "python -m build --wheel")
    (wheel,) = dist.glob("burnlint-*.whl")
    assert wheel.name == f"burnlint-{VERSION}-py3-none-any.whl"

    docs = sorted(path.name for path in (REPO / "rules").glob("BL*.md"))
    info = f"burnlint-{VERSION}.dist-info"
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        metadata = archive.read(f"{info}/METADATA").decode("utf-8")
        packaged_license = archive.read(f"{info}/licenses/LICENSE").decode("utf-8")
    assert sorted(n.rsplit("/", 1)[1] for n in names if n.startswith("burnlint/_rule_docs/")) == (
        docs
    )
    assert "burnlint/py.typed" in names
    assert not [n for n in names if n.startswith(("tests/", "testdata/", "rules/"))]
    assert packaged_license == (REPO / "LICENSE").read_text("utf-8")
    assert "License-Expression: MIT" in metadata
    for classifier in PROJECT["classifiers"]:
        assert f"Classifier: {classifier}" in metadata

    venv = tmp_path / "venv"
    made = processes.run([sys.executable, "-m", "venv", venv], tmp_path)
    if made.returncode != 0:  # e.g. a Python without ensurepip
        pytest.skip(f"cannot create a virtual environment: {(made.stdout + made.stderr)[-300:]}")
    python = processes.venv_script(venv, "python")
    installed = processes.run(
        [python, "-m", "pip", "install", "--disable-pip-version-check", "--quiet", wheel],
        tmp_path,
    )
    processes.succeeded(installed, f"pip install {wheel.name}")

    # from a directory outside the checkout, so nothing can be read from its rules/; UTF-8
    # output (the docs are not all ASCII) also where a pipe would get the ANSI code page
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    burnlint = processes.venv_script(venv, "burnlint")
    env = {**os.environ, "PYTHONUTF8": "1"}
    env.pop("BURNLINT_DEBUG", None)

    version = processes.run([burnlint, "--version"], elsewhere, env)
    assert version.returncode == 0, version.stderr
    assert version.stdout == f"burnlint {VERSION}\n"

    where = processes.run(
        [python, "-c", "from burnlint import docs; print(docs.rule_docs_dir())"], elsewhere, env
    )
    assert where.returncode == 0, where.stderr
    assert "_rule_docs" in where.stdout
    assert str(REPO) not in where.stdout

    listed = processes.run([burnlint, "rules"], elsewhere, env)
    assert listed.returncode == 0, listed.stderr
    rows = listed.stdout.splitlines()
    assert rows[0].split() == ["id", "name", "level", "default", "fixable"]
    assert [row.split()[0] for row in rows[1:]] == [rule.id for rule in registry.ALL]

    (bl003,) = (REPO / "rules").glob("BL003-*.md")
    shown = processes.run([burnlint, "rule", "BL003"], elsewhere, env)
    assert shown.returncode == 0, shown.stderr
    assert shown.stderr == ""  # no "no documentation file found" warning
    assert shown.stdout == bl003.read_text("utf-8")

    # a real check: tree-sitter's wheels work, and SARIF rule help comes from the packaged docs
    crate = elsewhere / "demo"
    shutil.copytree(DEMO, crate)
    checked = processes.run(
        [burnlint, "check", crate, "--format", "sarif", "--exit-zero"], elsewhere, env
    )
    assert checked.returncode == 0, checked.stderr
    rules = json.loads(checked.stdout)["runs"][0]["tool"]["driver"]["rules"]
    by_id = {rule["id"]: rule for rule in rules}
    assert by_id["BL003"]["help"]["markdown"].startswith("# BL003")


# --- the GitHub Action --------------------------------------------------------------------------

ACTION: dict[str, Any] = yaml.safe_load((REPO / "action.yml").read_text("utf-8"))
_EXPRESSION = re.compile(r"\$\{\{\s*([^}]*?)\s*\}\}")
needs_bash = pytest.mark.skipif(
    os.name == "nt" or shutil.which("bash") is None,
    reason="the action's steps are bash scripts; the CI workflow runs them on Windows",
)


def _step(step_id: str) -> dict[str, Any]:
    steps: list[dict[str, Any]] = [s for s in ACTION["runs"]["steps"] if s.get("id") == step_id]
    assert len(steps) == 1, f"action.yml has {len(steps)} steps with id {step_id}"
    return steps[0]


def _inputs(**given: str) -> dict[str, str]:
    values = {name: str(spec.get("default", "")) for name, spec in ACTION["inputs"].items()}
    for name, value in given.items():
        key = name.replace("_", "-")
        assert key in values, f"action.yml has no input {key}"
        values[key] = value
    return values


def _evaluate(text: str, context: Mapping[str, str]) -> str:
    """``${{ inputs.x }}`` and ``${{ steps.s.outputs.y }}``: what the steps' ``env`` uses."""

    def value(match: re.Match[str]) -> str:
        expression = match.group(1)
        assert expression in context, f"cannot evaluate ${{{{ {expression} }}}} in this test"
        return context[expression]

    return _EXPRESSION.sub(value, text)


def _read_outputs(path: Path) -> dict[str, str]:
    outputs: dict[str, str] = {}
    if path.exists():
        for line in path.read_text("utf-8").splitlines():
            key, _, value = line.partition("=")
            outputs[key] = value
    return outputs


class _Runner:
    """Runs the action's bash steps as GitHub does, in the checkout, with this Python's
    burnlint standing in for the one the install step makes."""

    def __init__(self, tmp: Path, python: str = sys.executable) -> None:
        self.tmp = tmp
        self.context: dict[str, str] = {"steps.install.outputs.python": python}

    def step(self, step_id: str, inputs: Mapping[str, str]) -> subprocess.CompletedProcess[str]:
        step = _step(step_id)
        assert step["shell"] == "bash"
        context = {**self.context, **{f"inputs.{k}": v for k, v in inputs.items()}}
        output = self.tmp / f"{step_id}.output"
        env = {
            **os.environ,
            **{key: _evaluate(str(value), context) for key, value in step.get("env", {}).items()},
            "GITHUB_OUTPUT": str(output),
            "GITHUB_ACTION_PATH": str(REPO),
            "GITHUB_RUN_ID": "7",
            "GITHUB_RUN_ATTEMPT": "1",
            "RUNNER_TEMP": str(self.tmp),
        }
        env.pop("BURNLINT_DEBUG", None)
        script = self.tmp / f"{step_id}.sh"
        script.write_text(step["run"], encoding="utf-8")
        proc = processes.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", script], REPO, env
        )
        for key, value in _read_outputs(output).items():
            self.context[f"steps.{step_id}.outputs.{key}"] = value
        return proc

    def output(self, step_id: str, key: str) -> str:
        return self.context.get(f"steps.{step_id}.outputs.{key}", "")


def test_action_inputs_and_steps() -> None:
    inputs = ACTION["inputs"]
    assert list(inputs) == ["paths", "args", "fail-on", "upload-sarif", "category"]
    assert inputs["upload-sarif"]["default"] == "true"
    assert inputs["fail-on"]["default"] == "note"  # burnlint's own default
    assert inputs["category"]["default"] == "burnlint"
    assert all(spec["description"].strip() for spec in inputs.values())
    assert ACTION["runs"]["using"] == "composite"
    steps = ACTION["runs"]["steps"]
    (upload,) = [s for s in steps if "upload-sarif" in s.get("uses", "")]
    assert upload["uses"] == "github/codeql-action/upload-sarif@v4"
    assert upload["with"] == {
        "sarif_file": "${{ steps.run.outputs.sarif-file }}",
        "category": "${{ inputs.category }}",
    }
    order = [s.get("id") for s in steps]
    assert order.index("run") < steps.index(upload) < order.index("gate")
    for step in steps:
        if "run" in step:  # inputs reach scripts through the environment, never pasted in
            assert "${{" not in step["run"], step["name"]


@needs_bash
@pytest.mark.parametrize(
    ("fail_on", "gate_code"), [("error", 1), ("warning", 1), ("note", 1), ("never", 0)]
)
def test_action_uploads_then_fails_on(tmp_path: Path, fail_on: str, gate_code: int) -> None:
    runner = _Runner(tmp_path)
    inputs = _inputs(paths="testdata/demo", fail_on=fail_on)
    run = runner.step("run", inputs)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "error[BL003]" in run.stdout  # the text report in the log
    sarif = Path(runner.output("run", "sarif-file"))
    assert sarif.parent == tmp_path and sarif.suffix == ".sarif"
    log = json.loads(sarif.read_text("utf-8"))
    assert log["runs"][0]["automationDetails"] == {"id": "burnlint/"}
    assert len(log["runs"][0]["results"]) == 6

    gate = runner.step("gate", inputs)
    assert gate.returncode == gate_code, gate.stdout + gate.stderr
    assert "burnlint: 3 errors, 3 warnings" in gate.stdout
    assert ("::error title=burnlint::" in gate.stdout) == (gate_code == 1)


@needs_bash
def test_action_passes_a_clean_crate_and_splits_paths_and_args(tmp_path: Path) -> None:
    runner = _Runner(tmp_path)
    inputs = _inputs(
        paths="testdata/demo/src/train.rs\n  testdata/demo/src/export.rs ",
        args="--select BL005,BL006 --quiet",
        category="burnlint/demo",
    )
    run = runner.step("run", inputs)
    assert run.returncode == 0, run.stdout + run.stderr
    log = json.loads(Path(runner.output("run", "sarif-file")).read_text("utf-8"))
    assert log["runs"][0]["automationDetails"] == {"id": "burnlint/demo/"}
    rules = [rule["id"] for rule in log["runs"][0]["tool"]["driver"]["rules"]]
    assert rules == ["BL005", "BL006"]
    assert log["runs"][0]["results"] == []
    gate = runner.step("gate", inputs)
    assert gate.returncode == 0, gate.stdout + gate.stderr
    assert "burnlint: no findings (fail-on: note)" in gate.stdout


@needs_bash
@pytest.mark.parametrize(("fail_on", "code"), [("error", 1), ("note", 1), ("never", 0)])
def test_action_without_upload_exits_like_burnlint(tmp_path: Path, fail_on: str, code: int) -> None:
    runner = _Runner(tmp_path)
    run = runner.step("run", _inputs(paths="testdata/demo", upload_sarif="false", fail_on=fail_on))
    assert run.returncode == code, run.stdout + run.stderr
    assert "error[BL003]" in run.stdout
    assert runner.output("run", "sarif-file") == ""
    assert not list(tmp_path.glob("*.sarif"))


@needs_bash
def test_action_rejects_an_unknown_fail_on(tmp_path: Path) -> None:
    run = _Runner(tmp_path).step("run", _inputs(fail_on="errors"))
    assert run.returncode == 2
    assert "::error title=burnlint::fail-on must be error, warning, note or never" in run.stdout


@needs_bash
def test_action_does_not_upload_an_incomplete_check(tmp_path: Path) -> None:
    runner = _Runner(tmp_path)
    run = runner.step("run", _inputs(paths="testdata/demo no/such/dir"))
    assert run.returncode == 2, run.stdout + run.stderr
    assert runner.output("run", "sarif-file") == ""


@pytest.mark.slow
@needs_bash
def test_action_install_step(tmp_path: Path) -> None:
    runner = _Runner(tmp_path, python="")
    install = runner.step("install", _inputs())
    processes.succeeded(install, "the action's install step")
    assert f"burnlint {VERSION}" in install.stdout
    python = Path(runner.output("install", "python"))
    assert python == processes.venv_script(tmp_path / "burnlint-venv", "python")
    run = runner.step("run", _inputs(paths="testdata/demo", upload_sarif="false", fail_on="never"))
    assert run.returncode == 0, run.stdout + run.stderr
    assert "error[BL003]" in run.stdout


# --- the CI workflow ----------------------------------------------------------------------------


def test_ci_workflow_matrix() -> None:
    workflow = yaml.safe_load((REPO / ".github" / "workflows" / "ci.yml").read_text("utf-8"))
    jobs = workflow["jobs"]
    matrix = jobs["test"]["strategy"]["matrix"]
    assert matrix["python-version"] == ["3.10", "3.11", "3.12", "3.13", "3.14"]
    assert matrix["os"] == ["ubuntu-latest", "macos-latest", "windows-latest"]
    supported = [c.rsplit(" ", 1)[1] for c in PROJECT["classifiers"] if re.search(r":: 3\.\d+$", c)]
    assert supported == matrix["python-version"]
    runs = [step.get("run", "") for step in jobs["test"]["steps"]]
    assert 'python -m pip install -e ".[test]"' in runs
    assert "python -m pytest" in runs
    sarif_steps = " ".join(step.get("run", "") for step in jobs["sarif"]["steps"])
    assert "--output-format sarif=burnlint.sarif --category burnlint" in sarif_steps
    assert '--rule-kind "Sarif;Ghas"' in sarif_steps


def test_the_version_has_one_source() -> None:
    """pyproject.toml takes the version from `burnlint/__init__.py` (no second copy)."""
    document = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))
    assert "version" in document["project"]["dynamic"]
    assert "version" not in document["project"]
    assert document["tool"]["hatch"]["version"]["path"] == "src/burnlint/__init__.py"
