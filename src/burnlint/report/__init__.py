"""Output formats: a registry of pure ``render(result, ctx) -> str`` functions.

The CLI offers every key of ``FORMATS`` as a ``--format`` choice, so a new format is one entry
here. Register heavy formats (SARIF pulls in sarif-om) through ``lazy`` so that ``burnlint
--version`` and the light formats do not pay for their imports.
"""

from __future__ import annotations

import importlib

from burnlint.findings import LintResult
from burnlint.report import concise, text
from burnlint.report.base import Renderer, ReportContext


def lazy(module: str, function: str = "render") -> Renderer:
    """A renderer that imports ``module`` on first use."""

    def render(result: LintResult, ctx: ReportContext) -> str:
        target: Renderer = getattr(importlib.import_module(module), function)
        return target(result, ctx)

    render.__qualname__ = render.__name__ = f"{module}.{function}"
    return render


FORMATS: dict[str, Renderer] = {
    "text": text.render,
    "concise": concise.render,
    "json": lazy("burnlint.report.json"),
    "sarif": lazy("burnlint.report.sarif"),
    "github": lazy("burnlint.report.github"),
}

__all__ = ["FORMATS", "Renderer", "ReportContext", "lazy"]
