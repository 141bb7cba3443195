"""Output formats: a registry of pure ``render(result, ctx) -> str`` functions.

The CLI offers every key of ``FORMATS`` as a ``--format`` choice, so a new format is one entry
here. Register heavy formats (SARIF pulls in sarif-om) through ``lazy`` so that ``burnlint
--version`` and the light formats do not pay for their imports.
"""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import Iterable

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


# format name -> the module of its renderer, imported on first use
_LAZY_MODULES = {
    "json": "burnlint.report.json",
    "sarif": "burnlint.report.sarif",
    "github": "burnlint.report.github",
}
FORMATS: dict[str, Renderer] = {
    "text": text.render,
    "concise": concise.render,
    **{name: lazy(module) for name, module in _LAZY_MODULES.items()},
}


def preload(formats: Iterable[str]) -> None:
    """Import what the renderers of ``formats`` need now, while there is time to spare (the
    engine's worker processes are busy). A failure is left to the render itself to report."""
    for name in formats:
        module = _LAZY_MODULES.get(name)
        if module is not None:
            with contextlib.suppress(ImportError):
                importlib.import_module(module)


__all__ = ["FORMATS", "Renderer", "ReportContext", "lazy", "preload"]
