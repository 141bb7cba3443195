"""burnlint: find Rust code that makes burn-store checkpoints silently stale.

The subpackages are the stages of a run (README.md, "Layout"): ``cli`` -> ``app`` ->
``config`` and ``engine`` -> ``project``, ``rust``, ``model``, ``rules``, ``suppress``; ``report``
renders the result.
"""

from __future__ import annotations

# The single source of the version: the package metadata is built from this line
# (`[tool.hatch.version]` in pyproject.toml). A literal, because reading the installed metadata
# (`importlib.metadata`) costs 50 ms on every start, `burnlint --version` included.
__version__ = "0.1.0"
# The tool's name in its reports (JSON `tool.name`, SARIF `tool.driver.name`), which a baseline
# must carry to be read as burnlint's.
TOOL_NAME = "burnlint"

__all__ = ["TOOL_NAME", "__version__"]
