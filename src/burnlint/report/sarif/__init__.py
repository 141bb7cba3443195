"""SARIF 2.1.0 for GitHub code scanning and SARIF viewers (DESIGN.md §5).

The log is built from sarif-om objects and written by a small serializer of our own, because the
contract differs from what generic serializers do:

- A value is never dropped because it equals a schema default: ``level: "warning"`` is written.
  Objects are made with ``_om``, which sets every field we do not give to ``None``, so only what
  burnlint says is written (sarif-om's own defaults such as ``kind: "fail"``, ``rank: -1`` or
  ``byteOffset: -1`` are never written as if burnlint had said them). The serializer then skips
  only ``None`` and empty optional arrays and objects.
- Keys come in the order of the official schema (``_SCHEMA_ORDER``), which puts ``$schema`` and
  ``version`` first and ``ruleId``, ``level``, ``message`` before the locations; the output is
  byte-identical across runs.

Message texts are plain-text SARIF messages: ``\\``, ``[`` and ``]`` are escaped everywhere
(as CodeQL does), so that the only link syntax left is ``[text](n)`` pointing at the related
location with ``id`` n.

Rule help comes from the rule docs (``burnlint.docs``): the first paragraph of ``## What it
does`` is ``fullDescription``, the whole doc is ``help.markdown`` and a plain-text rendering of
it is ``help.text``. Links to other docs (relative ``.md`` paths) would be dead links in GitHub's
alert view, so they are reduced to their text.

The package follows the log's parts: ``log`` builds the sarif-om log (the run, the invocation
and its notifications), ``rules`` the rules' descriptors, ``results`` the results, ``uris`` the
artifact locations and the ``%SRCROOT%`` base URI, and ``serialize`` writes the log as JSON.
"""

from __future__ import annotations

from burnlint.findings import LintResult
from burnlint.report.base import ReportContext
from burnlint.report.sarif.log import automation_id, build_log, is_semver
from burnlint.report.sarif.results import (
    SNIPPET_LIMIT,
    context_text,
    escape_text,
    fix_description,
    region_text,
    result_message,
)
from burnlint.report.sarif.rules import RuleHelp, markdown_to_text, rule_help
from burnlint.report.sarif.serialize import dumps, to_json
from burnlint.report.sarif.uris import SRCROOT, file_uri, path_uri, root_uri


def render(result: LintResult, ctx: ReportContext) -> str:
    """The SARIF log as JSON text (two-space indent, UTF-8 characters kept, final newline)."""
    return dumps(build_log(result, ctx))


__all__ = [
    "SNIPPET_LIMIT",
    "SRCROOT",
    "RuleHelp",
    "automation_id",
    "build_log",
    "context_text",
    "dumps",
    "escape_text",
    "file_uri",
    "fix_description",
    "is_semver",
    "markdown_to_text",
    "path_uri",
    "region_text",
    "render",
    "result_message",
    "root_uri",
    "rule_help",
    "to_json",
]
