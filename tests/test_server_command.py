"""``burnlint server`` as a command: without the ``lsp`` extra it says what to install, and the
other commands never load the server's packages."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from burnlint import cli, server

TESTDATA = Path(__file__).resolve().parent.parent / "testdata"


def test_server_without_the_lsp_extra_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(server, "available", lambda: False)
    out = CliRunner().invoke(cli.cli, ["server"], catch_exceptions=False)
    assert out.exit_code == 2
    assert out.stderr.splitlines() == [f"burnlint: error: {server.MISSING}"]
    assert "pip install 'burnlint[lsp]'" in out.stderr


def test_check_does_not_load_the_server(tmp_path: Path) -> None:
    shutil.copy(TESTDATA / "fixes" / "seed_loop.rs", tmp_path / "seed_loop.rs")
    code = (
        "import sys\n"
        "from burnlint.cli import main\n"
        "try:\n"
        f"    main(['check', '-q', {str(tmp_path / 'seed_loop.rs')!r}])\n"
        "except SystemExit as exit:\n"
        "    print(exit.code)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pygls', 'lsprotocol')"
        " or m.startswith('burnlint.server')))\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert run.stdout.splitlines()[-2:] == ["1", "[]"], run.stderr
