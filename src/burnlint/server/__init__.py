"""The language server (``burnlint server``): burnlint's findings in an editor as you type.

It runs on pygls and lsprotocol, which the ``lsp`` extra installs (``pip install
'burnlint[lsp]'``); nothing else in burnlint imports them, so ``burnlint check`` never loads
them. Modules: ``checking`` (the one call into the engine, and the configuration kept between
checks), ``documents`` (when each open document is checked and what is published), ``convert``
(findings as diagnostics, positions and hovers), ``actions`` (code actions), ``lsp`` (the
server and its features).
"""

from __future__ import annotations

MISSING = (
    "`burnlint server` needs the language-server packages: install them with "
    "`pip install 'burnlint[lsp]'`"
)


def available() -> bool:
    """Whether pygls and lsprotocol can be imported."""
    from importlib.util import find_spec

    return all(find_spec(name) is not None for name in ("pygls", "lsprotocol"))
