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
"""

from __future__ import annotations

import json
import re
import urllib.parse
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path, PurePath, PurePosixPath, PureWindowsPath
from typing import Any

import attr
import sarif_om as om

from burnlint import TOOL_NAME
from burnlint.docs import rule_doc
from burnlint.findings import (
    FINGERPRINT_KEY,
    Applicability,
    BaselineOutcome,
    Edit,
    Finding,
    Fix,
    Level,
    LintResult,
    Location,
    Notification,
    NotificationKind,
    Span,
)
from burnlint.report.base import ReportContext, one_line, sorted_edits, sorted_findings
from burnlint.rules import registry

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
SARIF_VERSION = "2.1.0"
SRCROOT = "%SRCROOT%"
COLUMN_KIND = "utf16CodeUnits"
FULL_DESCRIPTION_LIMIT = 1024
# Longer region and context snippets are left out (the region still locates the code): a
# finding on a minified 100 kB line must not copy the line into the log, once per finding.
SNIPPET_LIMIT = 4096
UNSAFE_SUFFIX = " (unsafe: changes behaviour)"

# https://semver.org/#is-there-a-suggested-regular-expression-regex-to-check-a-semver-string
_SEMVER = re.compile(
    r"(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)"
    r"(?:-((?:0|[1-9][0-9]*|[0-9]*[a-zA-Z-][0-9a-zA-Z-]*)"
    r"(?:\.(?:0|[1-9][0-9]*|[0-9]*[a-zA-Z-][0-9a-zA-Z-]*))*))?"
    r"(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?",
    re.ASCII,
)
_WINDOWS_ABSOLUTE = re.compile(r"[A-Za-z]:[/\\]")
_DRIVE = re.compile(r"[A-Za-z]:(?:/|$)")

# The properties burnlint writes, per sarif-om class, in the order of the official schema
# (a test checks every object of the output against the schema's order). Fields not listed
# here are written after these, in sarif-om's order.
_SCHEMA_ORDER: dict[str, tuple[str, ...]] = {
    "SarifLog": ("$schema", "version", "runs"),
    "Run": (
        "tool",
        "invocations",
        "originalUriBaseIds",
        "results",
        "automationDetails",
        "columnKind",
    ),
    "Tool": ("driver",),
    "ToolComponent": ("name", "version", "semanticVersion", "informationUri", "rules"),
    "ReportingDescriptor": (
        "id",
        "name",
        "shortDescription",
        "fullDescription",
        "defaultConfiguration",
        "helpUri",
        "help",
        "properties",
    ),
    "MultiformatMessageString": ("text", "markdown"),
    "ReportingConfiguration": ("level",),
    "Result": (
        "ruleId",
        "ruleIndex",
        "level",
        "message",
        "locations",
        "partialFingerprints",
        "relatedLocations",
        "suppressions",
        "baselineState",
        "fixes",
    ),
    "Message": ("text",),
    "Location": ("id", "physicalLocation", "message"),
    "PhysicalLocation": ("artifactLocation", "region", "contextRegion"),
    "ArtifactLocation": ("uri", "uriBaseId"),
    "Region": (
        "startLine",
        "startColumn",
        "endLine",
        "endColumn",
        "byteOffset",
        "byteLength",
        "snippet",
    ),
    "ArtifactContent": ("text",),
    "Fix": ("description", "artifactChanges"),
    "ArtifactChange": ("artifactLocation", "replacements"),
    "Replacement": ("deletedRegion", "insertedContent"),
    "Invocation": (
        "toolExecutionNotifications",
        "toolConfigurationNotifications",
        "executionSuccessful",
        "properties",
    ),
    "Notification": ("locations", "message", "level", "associatedRule"),
    "ReportingDescriptorReference": ("id", "index"),
    "RunAutomationDetails": ("id",),
}
# Empty but meaningful: `results: []` says "ran and found nothing", absent would say "did not run".
_KEEP_EMPTY = frozenset({"results"})


def render(result: LintResult, ctx: ReportContext) -> str:
    """The SARIF log as JSON text (two-space indent, UTF-8 characters kept, final newline)."""
    return dumps(build_log(result, ctx))


def dumps(log: Any) -> str:
    return json.dumps(to_json(log), indent=2, ensure_ascii=False) + "\n"


# --- serialization ------------------------------------------------------------------------------


@cache
def _field_names(cls: type) -> tuple[str, ...]:
    return tuple(field.name for field in attr.fields(cls))


def _om(cls: Any, **given: Any) -> Any:
    """A sarif-om object with exactly the ``given`` fields set; every other field is None."""
    unset = {name: None for name in _field_names(cls) if name not in given}
    return cls(**unset, **given)


def _is_empty_container(value: object) -> bool:
    return isinstance(value, (list, tuple, dict)) and not value


@cache
def _properties(cls: type) -> tuple[tuple[str, str], ...] | None:
    """(schema property, attribute) of a sarif-om class in the order they are written (the
    schema's, see ``_SCHEMA_ORDER``), or None for a class that is not a sarif-om one. Worked
    out once per class: a log can hold tens of thousands of results."""
    if not attr.has(cls):
        return None
    fields = {f.metadata["schema_property_name"]: f.name for f in attr.fields(cls)}
    preferred = _SCHEMA_ORDER.get(cls.__name__, ())
    order = [name for name in preferred if name in fields]
    order += [name for name in fields if name not in preferred]
    return tuple((name, fields[name]) for name in order)


def to_json(value: Any) -> Any:
    """Plain JSON data from sarif-om objects, dicts, lists and scalars.

    Properties are named by each attrs field's ``schema_property_name``. Only ``None`` and empty
    optional arrays/objects are left out; every other value is written, defaults included.
    """
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if isinstance(value, (list, tuple)):
        return [to_json(item) for item in value]
    cls: type = type(value)
    properties = _properties(cls)
    if properties is not None:
        out: dict[str, Any] = {}
        for name, attribute in properties:
            item = getattr(value, attribute)
            if item is None or (_is_empty_container(item) and name not in _KEEP_EMPTY):
                continue
            out[name] = to_json(item)
        return out
    if isinstance(value, Mapping):
        return {
            str(key): to_json(item)
            for key, item in value.items()
            if item is not None and not _is_empty_container(item)
        }
    raise TypeError(f"cannot write {type(value).__name__} to SARIF")


# --- the log --------------------------------------------------------------------------------------


def build_log(result: LintResult, ctx: ReportContext) -> Any:
    """The ``sarif_om.SarifLog`` of one run.

    With a baseline (``--baseline``) every result carries ``baselineState``: ``new`` for the
    findings reported, ``unchanged`` for those the baseline accepts, listed too (so the log
    still holds every finding and GitHub keeps their alerts open as existing ones) with an
    external, accepted suppression, so viewers and gates that honour suppressions leave them
    out. Baseline entries that are gone are counted in the invocation's properties, not listed:
    GitHub code scanning reads neither ``baselineState`` nor ``suppressions`` and would open an
    alert for each.
    """
    outcome = result.baseline
    listed = _listed(sorted_findings(result.findings, ctx), outcome, ctx)
    findings = [finding for finding, _ in listed]
    rule_ids = sorted(
        set(result.rules_run)
        | {finding.rule_id for finding in findings}
        | {n.rule_id for n in result.notifications if n.rule_id}
    )
    rule_index = {rule_id: index for index, rule_id in enumerate(rule_ids)}
    levels = _effective_levels(result)
    names = {finding.rule_id: finding.rule_name for finding in findings}
    driver = _om(
        om.ToolComponent,
        name=TOOL_NAME,
        version=ctx.tool_version,
        semantic_version=ctx.tool_version if is_semver(ctx.tool_version) else None,
        rules=[_rule_descriptor(rule_id, levels, names.get(rule_id)) for rule_id in rule_ids],
    )
    category = _category(ctx)
    run = _om(
        om.Run,
        tool=_om(om.Tool, driver=driver),
        invocations=[_invocation(result, rule_index, outcome)],
        original_uri_base_ids={SRCROOT: _om(om.ArtifactLocation, uri=root_uri(ctx.project_root))},
        results=[
            _result(finding, ctx, rule_index[finding.rule_id], state, outcome)
            for finding, state in listed
        ],
        automation_details=(
            _om(om.RunAutomationDetails, id=automation_id(category)) if category else None
        ),
        column_kind=COLUMN_KIND,
    )
    return _om(om.SarifLog, schema_uri=SCHEMA_URI, version=SARIF_VERSION, runs=[run])


def _listed(
    findings: list[Finding], outcome: BaselineOutcome | None, ctx: ReportContext
) -> list[tuple[Finding, str | None]]:
    """The findings to list with their ``baselineState`` (None without a baseline)."""
    if outcome is None:
        return [(finding, None) for finding in findings]
    listed: list[tuple[Finding, str | None]] = [(finding, "new") for finding in findings]
    listed += [(finding, "unchanged") for finding in outcome.unchanged]
    return sorted(listed, key=lambda item: item[0].sort_key(ctx.display))


def _category(ctx: ReportContext) -> str | None:
    """``--category``: read from the context when it carries one (``ReportContext.category``)."""
    value = ctx.category
    return value if isinstance(value, str) and value.strip() else None


def automation_id(category: str) -> str:
    """``automationDetails.id`` for a category: a trailing ``/`` makes it a category only, so
    GitHub keeps one analysis per category and replaces it on the next upload."""
    category = category.strip()
    return category if category.endswith("/") else category + "/"


def is_semver(version: str) -> bool:
    return _SEMVER.fullmatch(version) is not None


def root_uri(root: PurePath) -> str:
    """The project root as an absolute ``file://`` URI ending with ``/``."""
    if isinstance(root, Path) and not root.is_absolute():
        root = root.absolute()
    uri = file_uri(root)
    return uri if uri.endswith("/") else uri + "/"


def file_uri(path: PurePath) -> str:
    r"""An absolute path as an RFC 8089 ``file:`` URI, percent-encoded as UTF-8, for POSIX and
    Windows paths alike and the same on every Python version (``PurePath.as_uri`` is
    deprecated since Python 3.14)::

        /home/me/a b.rs           file:///home/me/a%20b.rs
        C:\Users\me\x.rs          file:///C:/Users/me/x.rs
        \\server\share\x.rs       file://server/share/x.rs
        \\?\C:\x.rs               file:///C:/x.rs (verbatim paths lose their prefix)
    """
    if not path.is_absolute():
        raise ValueError(f"a file URI needs an absolute path, not {str(path)!r}")
    text = path.as_posix()
    if not isinstance(path, PureWindowsPath):
        return "file://" + _quote_path(text)
    if text.startswith("//?/UNC/"):  # verbatim UNC path
        text = "//" + text[len("//?/UNC/") :]
    elif text.startswith("//?/"):  # verbatim drive path
        text = text[len("//?/") :]
    if text.startswith("//"):  # UNC: the server is the authority
        server, _, rest = text[2:].partition("/")
        return f"file://{_quote_path(server)}/{_quote_path(rest)}"
    if _DRIVE.match(text):
        return f"file:///{text[:2]}{_quote_path(text[2:])}"
    return "file://" + _quote_path(text)


def _quote_path(text: str) -> str:
    """Percent-encode everything but unreserved characters and ``/`` (so ``:`` too: a relative
    reference whose first segment holds a colon would read as a scheme). A file name that is
    not UTF-8 reaches us with surrogate escapes: its raw bytes are encoded (``\xff`` -> ``%FF``)."""
    return urllib.parse.quote(text.encode("utf-8", "surrogateescape"), safe="/")


def path_uri(path: str) -> tuple[str, bool]:
    """The URI of a reported path and whether it is relative to ``%SRCROOT%``.

    Reported paths are POSIX-style (``paths.display_path``). Relative paths are
    percent-encoded (spaces, ``#``, ``%``, ``\\``, non-ASCII; ``/`` kept) and lose any leading
    ``./``; absolute paths (a file outside the project root) become ``file:`` URIs: ``C:/x.rs``
    and ``//server/share/x.rs`` are Windows paths, other paths starting with ``/`` POSIX ones.
    """
    if _WINDOWS_ABSOLUTE.match(path) or path.startswith("//"):
        windows = PureWindowsPath(path)
        if windows.is_absolute():
            return file_uri(windows), False
    if path.startswith("/"):
        return file_uri(PurePosixPath(path)), False
    while path.startswith("./"):
        path = path[2:]
    return _quote_path(path), True


def _effective_levels(result: LintResult) -> dict[str, Level]:
    """Each rule's level in this run, severity overrides included: from the result's rules,
    else from what its findings carry (a hand-built result without ``rules``)."""
    levels: dict[str, Level] = {meta.id: meta.level for meta in result.rules}
    for finding in result.findings:
        levels.setdefault(finding.rule_id, finding.level)
    return levels


# --- rules --------------------------------------------------------------------------------------


def _rule_descriptor(rule_id: str, levels: Mapping[str, Level], name: str | None) -> Any:
    rule = registry.find(rule_id)
    if rule is None:  # not a registered rule (a hand-made result): say what we know
        level = levels.get(rule_id, Level.WARNING)
        return _om(
            om.ReportingDescriptor,
            id=rule_id,
            name=name,
            short_description=_om(om.MultiformatMessageString, text=name or rule_id),
            default_configuration=_om(om.ReportingConfiguration, level=level.value),
        )
    docs = rule_help(rule.id, rule.summary)
    return _om(
        om.ReportingDescriptor,
        id=rule.id,
        name=rule.name,
        short_description=_om(om.MultiformatMessageString, text=rule.summary),
        full_description=_om(
            om.MultiformatMessageString, text=docs.full_text, markdown=docs.full_markdown
        ),
        default_configuration=_om(
            om.ReportingConfiguration, level=levels.get(rule.id, rule.level).value
        ),
        help=_om(om.MultiformatMessageString, text=docs.help_text, markdown=docs.help_markdown),
        properties={"tags": list(rule.tags), "precision": rule.precision},
    )


@dataclass(frozen=True)
class RuleHelp:
    full_text: str
    full_markdown: str
    help_text: str
    help_markdown: str


@cache
def rule_help(rule_id: str, summary: str) -> RuleHelp:
    """The SARIF descriptions of a rule from its doc; the summary when it has none."""
    doc = rule_doc(rule_id)
    if not doc or not doc.strip():
        return RuleHelp(summary, summary, summary, summary)
    markdown = _strip_local_links(doc.strip()) + "\n"
    paragraph = _first_paragraph(doc, "What it does") or summary
    paragraph_md = _strip_local_links(paragraph)
    return RuleHelp(
        full_text=_truncate(_inline_text(paragraph), FULL_DESCRIPTION_LIMIT),
        full_markdown=_truncate(paragraph_md, FULL_DESCRIPTION_LIMIT),
        help_text=markdown_to_text(doc),
        help_markdown=markdown,
    )


_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_FENCE = re.compile(r"^\s*(```|~~~)")
_LIST_ITEM = re.compile(r"^(?:[-*+]|[0-9]+[.)])\s+")
_LINK = re.compile(r"\[([^\]\n]+)\]\(([^)\s]+)\)")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def _first_paragraph(doc: str, section: str) -> str | None:
    """The first paragraph under ``## <section>``, its lines joined with spaces."""
    lines = doc.splitlines()
    inside = False
    paragraph: list[str] = []
    for line in lines:
        heading = _HEADING.match(line)
        if heading:
            if paragraph:
                break
            inside = heading.group(2).strip().lower() == section.lower()
            continue
        if not inside:
            continue
        if line.strip():
            paragraph.append(line.strip())
        elif paragraph:
            break
    return " ".join(paragraph) if paragraph else None


def _outside_code(text: str, transform: Any) -> str:
    """Apply ``transform`` to the parts of ``text`` outside inline code spans."""
    parts = text.split("`")
    if len(parts) % 2 == 0:  # an unbalanced backtick: no code spans to protect
        return str(transform(text))
    return "`".join(str(transform(part)) if i % 2 == 0 else part for i, part in enumerate(parts))


def _strip_local_links(markdown: str) -> str:
    """``[BL002](BL002-store-error-only-logged.md)`` -> ``BL002``: relative links are dead in
    GitHub's alert view. Links with a scheme (``https:``) are kept. Fenced code is untouched."""

    def unlink(text: str) -> str:
        return _LINK.sub(
            lambda m: m.group(0) if _SCHEME.match(m.group(2)) else m.group(1),
            text,
        )

    out: list[str] = []
    in_code = False
    for line in markdown.split("\n"):
        if _FENCE.match(line):
            in_code = not in_code
            out.append(line)
        else:
            out.append(line if in_code else _outside_code(line, unlink))
    return "\n".join(out)


def _inline_text(markdown: str) -> str:
    """Inline Markdown to plain text: links become ``text (url)`` (local ones ``text``), bold
    markers go; inline code keeps its backticks, as in rustc's messages."""

    def plain(text: str) -> str:
        text = _LINK.sub(
            lambda m: f"{m.group(1)} ({m.group(2)})" if _SCHEME.match(m.group(2)) else m.group(1),
            text,
        )
        return text.replace("**", "")

    return _outside_code(markdown, plain)


def markdown_to_text(markdown: str) -> str:
    """A plain-text rendering of a rule doc: headings without ``#``, paragraphs and list items
    on one line each, code blocks indented by four spaces without their fences."""
    out: list[str] = []
    paragraph: list[str] = []
    in_code = False

    def flush() -> None:
        if paragraph:
            out.append(_inline_text(" ".join(paragraph)))
            paragraph.clear()

    def blank() -> None:
        if out and out[-1]:
            out.append("")

    for line in markdown.strip().splitlines():
        if _FENCE.match(line):
            flush()
            if not in_code:
                blank()
            in_code = not in_code
            continue
        if in_code:
            out.append("    " + line if line.strip() else "")
            continue
        stripped = line.strip()
        if not stripped:
            flush()
            blank()
            continue
        heading = _HEADING.match(stripped)
        if heading:
            flush()
            blank()
            out.append(_inline_text(heading.group(2)))
            out.append("")
            continue
        if _LIST_ITEM.match(stripped):
            flush()
        paragraph.append(stripped)
    flush()
    while out and not out[-1]:
        out.pop()
    return "\n".join(out) + "\n"


def _truncate(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if space > limit // 2:
        cut = cut[:space]
    return cut.rstrip() + "…"


# --- results ------------------------------------------------------------------------------------


def escape_text(text: str) -> str:
    """Escape a plain-text SARIF message so that no ``[...](...)`` in it reads as a link."""
    return text.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")


def _sentence(text: str) -> str:
    text = text.rstrip()
    return text if not text or text.endswith((".", "!", "?")) else text + "."


def _capitalized(text: str) -> str:
    return text[:1].upper() + text[1:] if text[:1].islower() else text


def result_message(finding: Finding) -> str:
    """The rustc-style message, its related locations as links, then the note and the help as
    sentences::

    the second save fails (see [the store is built here](1)). Set `.overwrite(true)`.
    """
    text = escape_text(one_line(finding.full_message).strip())
    if finding.related:
        links = ", ".join(
            f"[{escape_text(one_line(related.message).strip()) or 'here'}]({index})"
            for index, related in enumerate(finding.related, start=1)
        )
        text += f" (see {links})"
    text = _sentence(text)
    if finding.note and finding.note.strip():
        text += " " + _sentence(_capitalized(escape_text(one_line(finding.note).strip())))
    if finding.help and finding.help.strip():
        text += " " + _sentence(_capitalized(escape_text(one_line(finding.help).strip())))
    return text


def _utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def region_text(finding: Finding) -> str:
    """The source text of the finding's span, cut out of ``finding.snippet`` (whole lines).

    Lines are sliced by character columns; the UTF-16 columns must agree with them, else (a
    snippet that does not match the span) the text is left out rather than guessed. Line breaks
    inside a multi-line span are written as ``\\n``. A snippet cut out of long lines gives the
    text when it holds the whole span.
    """
    span = finding.location.span
    if not finding.snippet or span.end_line < span.start_line:
        return ""
    lines = finding.snippet.split("\n")
    count = span.end_line - span.start_line + 1
    if len(lines) < count:
        return ""
    first, last = lines[0], lines[count - 1]
    shift = finding.snippet_start  # the first line's characters left out of the snippet
    start = span.start_col - 1 - shift
    end = span.end_col - 1 - (shift if count == 1 else 0)
    if not (0 <= start <= len(first) and 0 <= end <= len(last)):
        return ""
    if shift == 0:
        agrees = (
            _utf16_len(first[:start]) + 1 == span.start_col_utf16
            and _utf16_len(last[:end]) + 1 == span.end_col_utf16
        )
    elif count == 1:  # the characters before the snippet are not there: count the span's own
        agrees = span.start_col_utf16 + _utf16_len(first[start:end]) == span.end_col_utf16
    else:  # likewise on the first line; the last line is whole from its start
        agrees = _utf16_len(last[:end]) + 1 == span.end_col_utf16
    if not agrees:
        return ""
    if count == 1:
        return first[start:end]
    return "\n".join([first[start:], *lines[1 : count - 1], last[:end]])


def _artifact_location(path: str) -> Any:
    uri, relative = path_uri(path)
    return _om(om.ArtifactLocation, uri=uri, uri_base_id=SRCROOT if relative else None)


def _region(span: Span, snippet: str = "") -> Any:
    return _om(
        om.Region,
        start_line=span.start_line,
        start_column=span.start_col_utf16,
        end_line=span.end_line,
        end_column=span.end_col_utf16,
        snippet=_om(om.ArtifactContent, text=snippet) if snippet else None,
    )


def _physical_location(
    location: Location, ctx: ReportContext, snippet: str = "", context: str = ""
) -> Any:
    span = location.span
    return _om(
        om.PhysicalLocation,
        artifact_location=_artifact_location(ctx.display(location.path)),
        region=_region(span, snippet),
        context_region=(
            _om(
                om.Region,
                start_line=span.start_line,
                end_line=span.end_line,
                snippet=_om(om.ArtifactContent, text=context),
            )
            if context
            else None
        ),
    )


def context_text(finding: Finding) -> str:
    """The whole lines of the finding (``finding.snippet``), for ``contextRegion``, when the
    snippet has exactly the span's lines (and none is cut)."""
    if finding.snippet_start or finding.snippet_cut:
        return ""
    span = finding.location.span
    lines = finding.snippet.split("\n") if finding.snippet else []
    return finding.snippet if len(lines) == span.end_line - span.start_line + 1 else ""


def _bounded(snippet: str) -> str:
    return snippet if len(snippet) <= SNIPPET_LIMIT else ""


def _result(
    finding: Finding,
    ctx: ReportContext,
    rule_index: int,
    baseline_state: str | None = None,
    outcome: BaselineOutcome | None = None,
) -> Any:
    related = [
        _om(
            om.Location,
            id=index,
            physical_location=_physical_location(item.location, ctx),
            message=_om(om.Message, text=escape_text(one_line(item.message).strip())),
        )
        for index, item in enumerate(finding.related, start=1)
    ]
    return _om(
        om.Result,
        rule_id=finding.rule_id,
        rule_index=rule_index,
        level=finding.level.value,
        message=_om(om.Message, text=result_message(finding)),
        locations=[
            _om(
                om.Location,
                physical_location=_physical_location(
                    finding.location,
                    ctx,
                    _bounded(region_text(finding)),
                    _bounded(context_text(finding)),
                ),
            )
        ],
        partial_fingerprints=(
            {FINGERPRINT_KEY: finding.fingerprint} if finding.fingerprint else None
        ),
        related_locations=related,
        suppressions=(
            [
                {
                    "kind": "external",
                    "status": "accepted",
                    "justification": f"in the baseline {outcome.file}",
                }
            ]
            if baseline_state == "unchanged" and outcome is not None
            else None
        ),
        baseline_state=baseline_state,
        fixes=[_fix(finding.fix, ctx)] if finding.fix is not None else None,
        # result-level tags say where the finding is (e.g. test-code); the rule's own tags
        # are on its reportingDescriptor
        properties=(_om(om.PropertyBag, tags=sorted(set(finding.tags))) if finding.tags else None),
    )


def fix_description(fix: Fix) -> str:
    unsafe = UNSAFE_SUFFIX if fix.applicability is Applicability.UNSAFE else ""
    return one_line(fix.title).strip() + unsafe


def _deleted_region(edit: Edit) -> Any:
    """Lines and UTF-16 columns when known (what the VS Code SARIF Viewer applies), else
    bytes."""
    span = edit.span
    if span is None:
        return _om(
            om.Region, byte_offset=edit.start_byte, byte_length=edit.end_byte - edit.start_byte
        )
    return _region(span)


def _fix(fix: Fix, ctx: ReportContext) -> Any:
    by_path: dict[str, list[Edit]] = {}
    for edit in sorted_edits(fix.edits, ctx):
        by_path.setdefault(ctx.display(edit.path), []).append(edit)
    changes = [
        _om(
            om.ArtifactChange,
            artifact_location=_artifact_location(path),
            replacements=[
                _om(
                    om.Replacement,
                    deleted_region=_deleted_region(edit),
                    inserted_content=_om(om.ArtifactContent, text=edit.content),
                )
                for edit in edits
            ],
        )
        for path, edits in sorted(by_path.items())
    ]
    return _om(
        om.Fix,
        description=_om(om.Message, text=escape_text(fix_description(fix))),
        artifact_changes=changes,
    )


# --- invocation ---------------------------------------------------------------------------------


def _invocation(
    result: LintResult, rule_index: Mapping[str, int], outcome: BaselineOutcome | None = None
) -> Any:
    execution = [n for n in result.notifications if n.kind is not NotificationKind.CONFIG]
    configuration = [n for n in result.notifications if n.kind is NotificationKind.CONFIG]
    properties: dict[str, Any] = {}
    if result.burn_version:
        properties["burnVersion"] = result.burn_version
    if outcome is not None:
        properties["baseline"] = {"file": outcome.file, **outcome.states()}
    return _om(
        om.Invocation,
        tool_execution_notifications=_notifications(execution, rule_index),
        tool_configuration_notifications=_notifications(configuration, rule_index),
        execution_successful=result.successful,
        properties=properties or None,
    )


def _notifications(notes: Iterable[Notification], rule_index: Mapping[str, int]) -> list[Any]:
    out = []
    for note in notes:
        locations = []
        if note.path:
            region = _om(om.Region, start_line=note.line) if note.line else None
            physical = _om(
                om.PhysicalLocation,
                artifact_location=_artifact_location(note.path),
                region=region,
            )
            locations.append(_om(om.Location, physical_location=physical))
        associated = None
        if note.rule_id:
            # SARIF §3.58.5: `associatedRule` names the rule that was running; `descriptor` would
            # name a notification descriptor in `driver.notifications`, which burnlint has none of.
            associated = _om(
                om.ReportingDescriptorReference,
                id=note.rule_id,
                index=rule_index.get(note.rule_id),
            )
        text = _sentence(escape_text(one_line(note.message).strip()))
        out.append(
            _om(
                om.Notification,
                locations=locations,
                message=_om(om.Message, text=text),
                level=note.level.value,
                associated_rule=associated,
            )
        )
    return out
