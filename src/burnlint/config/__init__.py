"""Configuration: where it is found, what it may say, and the effective settings of a run.

A configuration is one of, in this order of preference within a directory:

- ``burnlint.toml`` or ``.burnlint.toml`` (keys at the top level),
- a ``[package.metadata.burnlint]`` or ``[workspace.metadata.burnlint]`` table in ``Cargo.toml``,
- a ``[tool.burnlint]`` table in ``pyproject.toml`` (where ruff users look first).

It is searched upward from each checked path; the nearest one wins, whole (no merging across
files, so what a file says is all there is to read). ``--config FILE`` replaces the search.
Patterns in a configuration (``exclude``, ``per-file-ignores``) are relative to its directory.

Precedence is command line > configuration file > defaults. Rule selection is layered as in
ruff: each layer (defaults, file, command line) may ``select`` (start over), then
``extend-select`` (add), then ``ignore`` (remove), so ``--select`` on the command line wins over
everything the file said about rules, while ``--extend-select`` and ``--ignore`` adjust it.

Nothing here raises on bad input: every problem becomes a ``Problem`` naming the file, the key
and what was expected, and the CLI turns problems into exit code 2 with outputs still written.
This package stays free of tree-sitter so that ``burnlint config`` is fast.

Modules: ``discovery`` (finding the configuration of a path), ``schema`` (keys, types, loading
and validating one file), ``sizes`` (byte sizes), ``settings`` (the effective settings, rule
selection and the plan of a run), ``show`` (the text of ``burnlint config``), ``helpers``
(TOML reading and message pieces they share). Here: the names other packages use.
"""

from burnlint.config.helpers import display
from burnlint.config.schema import Problem
from burnlint.config.settings import CliSettings, Plan, plan
from burnlint.config.show import render_settings
from burnlint.config.sizes import parse_size

__all__ = [
    "CliSettings",
    "Plan",
    "Problem",
    "display",
    "parse_size",
    "plan",
    "render_settings",
]
