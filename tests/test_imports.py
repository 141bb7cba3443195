"""The arrows point down (DESIGN.md §1): what names rules without running them loads no rule
code, no model and no parser.

The reporters, the configuration, the suppression stage and ``--statistics`` need rule
metadata only; they get it from ``rules/registry.py``. Each module is imported in a fresh
interpreter, and the modules it loaded are checked (the style of the start-up checks in
``tests/test_parallel.py``).
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

LIGHT = (
    "burnlint.rules.registry",
    "burnlint.report",
    "burnlint.report.base",
    "burnlint.report.text",
    "burnlint.report.concise",
    "burnlint.report.json",
    "burnlint.report.github",
    "burnlint.report.sarif",
    "burnlint.config",
    "burnlint.suppress",
    "burnlint.app.statistics",
)
# what the registry itself is made of: the only modules of the rules package these may load
METADATA = {"burnlint.rules", "burnlint.rules.registry"}


def _loaded_after_import(module: str) -> list[str]:
    code = f"import json, sys\nimport {module}\nprint(json.dumps(sorted(sys.modules)))\n"
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    loaded: list[str] = json.loads(proc.stdout)
    return loaded


@pytest.mark.parametrize("module", LIGHT)
def test_loads_no_model_and_no_parser(module: str) -> None:
    loaded = _loaded_after_import(module)
    assert module in loaded
    heavy = [
        name
        for name in loaded
        if name == "tree_sitter"
        or name.startswith(("tree_sitter.", "tree_sitter_rust", "burnlint.model"))
    ]
    assert heavy == [], f"importing {module} loads {heavy}"
    rule_code = sorted(n for n in loaded if n.startswith("burnlint.rules") and n not in METADATA)
    assert rule_code == [], f"importing {module} loads rule code: {rule_code}"
