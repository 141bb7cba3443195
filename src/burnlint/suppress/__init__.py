"""Suppression comments and per-file ignores, applied to one file's findings after the rules ran.

Rust rejects ``#[allow(burnlint::..)]`` (E0710), so suppressions are comments::

    // burnlint: allow(BL003) -- the name is fixed on purpose
    let mut store = SafetensorsStore::from_file("latest.safetensors");

    let mut store = SafetensorsStore::from_file(path); // burnlint: allow(store-overwrite-in-loop)

    // burnlint: allow-file(BL005, BL006) -- converted checkpoints are checked by tests/keys.rs

- ``allow(..)`` alone on its line covers the next statement (or item, match arm, argument):
  every line of it, so a ``fn`` or a ``for`` loop is covered whole. Comments and attributes
  between the allow and the statement are skipped, so several allows can be stacked.
- ``allow(..)`` trailing on a line covers the statement that line belongs to, every line of it
  (a trailing allow on ``for x in xs {`` covers the loop).
- ``allow-file(..)``, anywhere, covers the file.
- Rules are named by id or name, several comma-separated; a reason may follow ``--``. There is
  no blanket form: an allow without ids is malformed.

A finding is suppressed when its first line is covered by an allow naming its rule. Allows that
suppress nothing, name unknown rules or do not parse are reported by BL008
(``rules/unused_suppression.py``, which the engine passes to ``finish_file``), which judges only
the rules that ran on the file.

Per-file ignores (configuration ``per-file-ignores``) are applied after the comments, so an
allow that also matches a per-file ignore still counts as used.

``directives.py`` parses the comments, ``statements.py`` finds the lines each allow covers and
``apply.py`` applies them (``finish_file``); this package re-exports what other packages use.
"""

from burnlint.suppress.apply import (
    AllowIndex,
    FileVerdict,
    UnusedReport,
    finish_file,
    ignored_rules,
)
from burnlint.suppress.directives import Allow, AllowId, Directives, Malformed, parse_directives
from burnlint.suppress.statements import StatementSearch, next_statement, statement_of

__all__ = [
    "Allow",
    "AllowId",
    "AllowIndex",
    "Directives",
    "FileVerdict",
    "Malformed",
    "StatementSearch",
    "UnusedReport",
    "finish_file",
    "ignored_rules",
    "next_statement",
    "parse_directives",
    "statement_of",
]
