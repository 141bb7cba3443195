from __future__ import annotations

import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

# tests import their shared helpers (fixtures.py) as top-level modules
sys.path.insert(0, str(Path(__file__).resolve().parent))


@pytest.fixture
def runner() -> CliRunner:
    """A click runner that keeps stderr apart (click < 8.2 mixes it into stdout unless told
    not to)."""
    try:
        return CliRunner(mix_stderr=False)  # type: ignore[call-arg]
    except TypeError:
        return CliRunner()
