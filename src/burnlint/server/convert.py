"""Findings as the protocol has them: positions in the negotiated encoding, diagnostics, text
edits, and the hover text of a finding."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from lsprotocol import types
from pygls.uris import from_fs_path, to_fs_path

from burnlint.findings import Edit, Finding, Level, Location, Span
from burnlint.rules.registry import UNUSED_SUPPRESSION

SOURCE = "burnlint"

_SEVERITY = {
    Level.ERROR: types.DiagnosticSeverity.Error,
    Level.WARNING: types.DiagnosticSeverity.Warning,
    Level.NOTE: types.DiagnosticSeverity.Information,
}


def path_of(uri: str) -> Path | None:
    """The absolute path of a ``file:`` URI, None for any other scheme."""
    if not uri.startswith("file:"):
        return None
    fs_path = to_fs_path(uri)
    return Path(os.path.abspath(fs_path)) if fs_path else None


def uri_of(path: Path) -> str:
    return from_fs_path(str(path)) or path.as_uri()


@dataclass
class Texts:
    """The bytes of the files a check read, for UTF-8 columns: the document's, the other open
    buffers', else the disk's (read once)."""

    buffers: Mapping[Path, bytes]
    _read: dict[Path, bytes | None] = field(default_factory=dict)

    def get(self, path: Path) -> bytes | None:
        if path in self.buffers:
            return self.buffers[path]
        if path not in self._read:
            try:
                self._read[path] = path.read_bytes()
            except OSError:
                self._read[path] = None
        return self._read[path]


class Positions:
    """Spans as protocol ranges, in the position encoding agreed with the client (UTF-16
    unless it asked for another)."""

    def __init__(self, encoding: str | None, texts: Texts) -> None:
        self.encoding = encoding or types.PositionEncodingKind.Utf16
        self.texts = texts

    def range(self, path: Path, span: Span) -> types.Range:
        return types.Range(
            start=self._position(path, span.start_line, span.start_col, span.start_col_utf16,
                                 span.start_byte),
            end=self._position(path, span.end_line, span.end_col, span.end_col_utf16,
                               span.end_byte),
        )  # fmt: skip

    def _position(
        self, path: Path, line: int, col: int, col_utf16: int, byte: int
    ) -> types.Position:
        if self.encoding == types.PositionEncodingKind.Utf32:
            return types.Position(line - 1, col - 1)
        if self.encoding == types.PositionEncodingKind.Utf8:
            data = self.texts.get(path)
            if data is not None:
                return types.Position(line - 1, byte - (data.rfind(b"\n", 0, byte) + 1))
        return types.Position(line - 1, col_utf16 - 1)

    def location(self, location: Location, uri: Callable[[Path], str]) -> types.Location:
        return types.Location(uri(location.path), self.range(location.path, location.span))

    def text_edit(self, edit: Edit) -> types.TextEdit | None:
        if edit.span is None:
            return None
        return types.TextEdit(range=self.range(edit.path, edit.span), new_text=edit.content)


def diagnostic(
    finding: Finding, positions: Positions, uri: Callable[[Path], str]
) -> types.Diagnostic:
    """One finding as a diagnostic: its message with the help, the rule id as ``code``, the
    related locations, and ``Unnecessary`` for an allow that suppresses nothing."""
    message = finding.full_message
    if finding.note:
        message += f"\nnote: {finding.note}"
    if finding.help:
        message += f"\nhelp: {finding.help}"
    related = [
        types.DiagnosticRelatedInformation(
            location=positions.location(item.location, uri), message=item.message
        )
        for item in finding.related
    ]
    unused = finding.rule_id == UNUSED_SUPPRESSION.id
    return types.Diagnostic(
        range=positions.range(finding.location.path, finding.location.span),
        message=message,
        severity=_SEVERITY[finding.level],
        code=finding.rule_id,
        source=SOURCE,
        related_information=related or None,
        tags=[types.DiagnosticTag.Unnecessary] if unused else None,
    )


def hover_text(finding: Finding) -> str:
    """Markdown for a finding under the cursor: the rule and its summary, the finding's help,
    and the doc's "Use instead" (what to write instead)."""
    from burnlint.docs import doc_section, rule_doc
    from burnlint.rules.registry import find

    meta = find(finding.rule_id)
    summary = meta.summary if meta is not None else finding.message
    parts = [f"**{finding.rule_id}** `{finding.rule_name}`: {summary}"]
    if finding.help:
        parts.append(f"help: {finding.help}")
    doc = rule_doc(finding.rule_id)
    instead = doc_section(doc, "Use instead") if doc else None
    if instead:
        parts.append(f"**Use instead**\n\n{instead}")
    parts.append(f"`burnlint rule {finding.rule_id}` shows the whole documentation.")
    return "\n\n".join(parts)


def contains(outer: types.Range, position: types.Position) -> bool:
    start, end = outer.start, outer.end
    after_start = (position.line, position.character) >= (start.line, start.character)
    before_end = (position.line, position.character) <= (end.line, end.character)
    return after_start and before_end


def overlaps(a: types.Range, b: types.Range) -> bool:
    a_start, a_end = (a.start.line, a.start.character), (a.end.line, a.end.character)
    b_start, b_end = (b.start.line, b.start.character), (b.end.line, b.end.character)
    return a_start <= b_end and b_start <= a_end


@dataclass(frozen=True)
class Checked:
    """What was published for one version of a document: its findings, each with the
    diagnostic it became, and what code actions need to place their edits."""

    uri: str
    version: int | None
    path: Path
    data: bytes
    findings: tuple[tuple[Finding, types.Diagnostic], ...]
    positions: Positions
    uri_for: Callable[[Path], str]
    # the versions of the other open documents whose text the check read (``positions``): an
    # edit of one of them is for that version; a file not open (None) is edited on disk
    versions: Mapping[Path, int | None] = field(default_factory=dict)

    def version_of(self, path: Path) -> int | None:
        """The version of ``path``'s text that the findings were computed for."""
        return self.version if path == self.path else self.versions.get(path)
