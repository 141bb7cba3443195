"""``scripts/new_rule.py`` scaffolds a rule that is registered, lint-clean and tested.

The script runs in a copy of the project; the copy's own tests then find the new rule
registered (module, registry, engine list, README table) and collect its tests.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from burnlint.rules import registry

REPO = Path(__file__).resolve().parent.parent
COPIED = ("src", "rules", "scripts", "tests", "testdata", "docs", "README.md", "pyproject.toml")


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(cwd / "src")}
    return subprocess.run(
        args, cwd=cwd, env=env, capture_output=True, text=True, check=False, timeout=300
    )


def test_new_rule_is_registered_and_its_tests_collect(tmp_path: Path) -> None:
    # the next free id: one more than the highest the registry holds
    new_id = f"BL{max(int(meta.id[2:]) for meta in registry.ALL) + 1:03d}"
    copy = tmp_path / "project"
    ignore = shutil.ignore_patterns("__pycache__", ".pytest_cache", ".hypothesis", "*.pyc")
    for name in COPIED:
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, copy / name, ignore=ignore)
        else:
            copy.mkdir(exist_ok=True)
            shutil.copy2(source, copy / name)

    made = _run(
        [
            sys.executable,
            "scripts/new_rule.py",
            "checkpoint-without-metadata",
            "--summary",
            "a checkpoint is saved without metadata",
        ],
        copy,
    )
    assert made.returncode == 0, made.stderr
    module = copy / "src" / "burnlint" / "rules" / "checkpoint_without_metadata.py"
    assert module.is_file()
    assert (copy / "rules" / f"{new_id}-checkpoint-without-metadata.md").is_file()
    assert (copy / "testdata" / "rules" / new_id / "checkpoint_without_metadata.rs").is_file()

    # registered where the engine and the metadata-only code look
    probe = _run(
        [
            sys.executable,
            "-c",
            "from burnlint.rules import registry\n"
            "from burnlint.rules.all_rules import ALL_RULES\n"
            "meta = registry.by_selector('checkpoint-without-metadata')\n"
            f"assert meta.id == '{new_id}' and not meta.enabled_by_default, meta\n"
            "assert ALL_RULES[-1].meta == meta\n",
        ],
        copy,
    )
    assert probe.returncode == 0, probe.stderr
    check = _run([sys.executable, "scripts/update_registry.py", "--check"], copy)
    assert check.returncode == 0, check.stdout + check.stderr

    # what it wrote passes the project's lint and format checks
    written = [str(module), "src/burnlint/rules/registry.py", "src/burnlint/rules/all_rules.py"]
    ruff = shutil.which("ruff") or str(Path(sys.executable).with_name("ruff"))
    lint = _run([ruff, "check", *written], copy)
    assert lint.returncode == 0, lint.stdout
    formatted = _run([ruff, "format", "--check", *written], copy)
    assert formatted.returncode == 0, formatted.stdout

    # the registration tests pass in the copy, and the per-rule tests collect the new rule
    registered = _run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "tests/test_registry.py",
            "tests/test_docs.py::test_the_readme_rule_table_is_the_registry",
        ],
        copy,
    )
    assert registered.returncode == 0, registered.stdout[-3000:]
    collected = _run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--collect-only",
            "-q",
            "-p",
            "no:cacheprovider",
            "tests/test_rule_docs.py",
            "tests/test_fixtures.py",
            "tests/test_rule_snippets.py",
            "tests/test_snapshots.py",
        ],
        copy,
    )
    assert collected.returncode == 0, collected.stdout[-3000:]
    assert new_id in collected.stdout
    assert "checkpoint_without_metadata.rs" in collected.stdout
