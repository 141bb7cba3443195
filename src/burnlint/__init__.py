"""burnlint: find Rust code that makes burn-store checkpoints silently stale."""

from __future__ import annotations

# The single source of the version: the package metadata is built from this line
# (`[tool.hatch.version]` in pyproject.toml). A literal, because reading the installed metadata
# (`importlib.metadata`) costs 50 ms on every start, `burnlint --version` included.
__version__ = "0.1.0"

__all__ = ["__version__"]
