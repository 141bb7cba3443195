"""Commands and virtual environments for the tests that install packages (the wheel, the
GitHub Action, the pre-commit hook)."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping
from pathlib import Path

import pytest

TIMEOUT = 300
# What pip and build print when they cannot reach a package index (the test is skipped then).
OFFLINE = (
    "Could not find a version that satisfies",
    "No matching distribution found",
    "Failed to establish a new connection",
    "Temporary failure in name resolution",
    "Network is unreachable",
    "Max retries exceeded",
    "ProxyError",
)


def run(
    args: list[str | Path],
    cwd: Path,
    env: Mapping[str, str] | None = None,
    stdin: str | None = None,
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(arg) for arg in args],
        cwd=cwd,
        env=dict(env) if env is not None else None,
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="replace",
        timeout=TIMEOUT,
        check=False,
    )


def succeeded(proc: subprocess.CompletedProcess[str], what: str) -> None:
    """Fail with the output, or skip when the command could not reach a package index."""
    if proc.returncode == 0:
        return
    output = proc.stdout + proc.stderr
    if any(sign in output for sign in OFFLINE):
        pytest.skip(f"{what}: no package index reachable: {output[-300:]}")
    pytest.fail(f"{what} exited {proc.returncode}:\n{output}")


def venv_script(venv: Path, name: str) -> Path:
    """A program of the virtual environment ``venv`` (``python``, a console script)."""
    scripts = venv / ("Scripts" if os.name == "nt" else "bin")
    return scripts / (name + ".exe" if os.name == "nt" else name)
