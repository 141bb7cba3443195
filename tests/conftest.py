from __future__ import annotations

import pytest
from click.testing import CliRunner


@pytest.fixture
def runner() -> CliRunner:
    """A click runner that keeps stderr apart (click < 8.2 mixes it into stdout unless told
    not to)."""
    try:
        return CliRunner(mix_stderr=False)  # type: ignore[call-arg]
    except TypeError:
        return CliRunner()


@pytest.fixture(autouse=True, scope="session")
def _cache_in_a_temporary_directory(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Runs of the suite share one cache outside the source tree (the default one is in the
    project root): so the whole suite also runs burnlint warm, on what earlier tests cached.
    ``BURNLINT_CACHE_DIR`` reaches the subprocesses too, and so does ``BURNLINT_KEY_DIR``: the
    key that signs the entries is made in a temporary directory, never in the home directory."""
    import os

    if "BURNLINT_CACHE_DIR" not in os.environ:
        os.environ["BURNLINT_CACHE_DIR"] = str(tmp_path_factory.mktemp("burnlint-cache"))
    if "BURNLINT_KEY_DIR" not in os.environ:
        os.environ["BURNLINT_KEY_DIR"] = str(tmp_path_factory.mktemp("burnlint-key") / "key-dir")
