"""A source file: its bytes, its syntax tree, and conversions between byte offsets and the
line/column pairs that people (1-based characters) and SARIF (UTF-16 code units) expect."""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from burnlint.findings import Span
from burnlint.rust.syntax import (
    INDEXED_TYPES,
    Ancestry,
    in_document_order,
    nodes_of_type,
    type_index,
)

if TYPE_CHECKING:
    from tree_sitter import Node, Tree


# A finding keeps the text of its lines for the reporters. A minified line can be 300 kB, and
# 10,000 findings on it would keep 3 GB: longer text is cut to a window around the span. The
# window holds every snippet SARIF shows (``report.sarif.SNIPPET_LIMIT``, 4,096 characters) and
# the text reporter's window of a long line (``report.text.MAX_SHOWN``, 300).
MAX_SNIPPET = 8192  # characters
SNIPPET_CONTEXT = 1024  # characters kept before the span when the text is cut


class Snippet(NamedTuple):
    """The text of a span's lines, joined by newlines, or a window of it: ``start`` characters
    of the first line are left out before ``text``, and ``cut`` says whether text is left out
    after it (the end of a line, or whole lines)."""

    text: str
    start: int = 0
    cut: bool = False


# From this many bytes into a line, columns are counted from marks (``SourceFile._columns``).
_COUNT_FROM_MARKS = 1_024


def _joined_slice(lines: list[str], start: int, end: int) -> str:
    """``"\\n".join(lines)[start:end]``, without joining the lines (one may be megabytes)."""
    pieces: list[str] = []
    position = 0  # where the current line starts in the joined text
    for index, line in enumerate(lines):
        if index and start <= position - 1 < end:  # the line break before this line
            pieces.append("\n")
        if position >= end:
            break
        pieces.append(line[max(0, start - position) : max(0, end - position)])
        position += len(line) + 1
    return "".join(pieces)


def _starts_character(data: bytes, byte: int) -> bool:
    """``byte`` is the first byte of a UTF-8 character, or the end of ``data``."""
    return byte >= len(data) or data[byte] & 0xC0 != 0x80  # not a continuation byte


class DecodeError(ValueError):
    """The file is not UTF-8 text (or is binary)."""


def decode_source(data: bytes) -> str:
    """Decode Rust source strictly: Rust files are UTF-8 by definition, and a NUL byte means the
    file is binary even when it happens to be valid UTF-8."""
    if b"\x00" in data:
        raise DecodeError("binary file (contains NUL bytes)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DecodeError(f"not valid UTF-8 at byte offset {exc.start}") from None


@dataclass
class SourceFile:
    """One parsed file. ``path`` is its identity: the absolute path of a file checked (or, for
    a source given in memory, the path it is checked as); reports name it relative to the
    project root."""

    path: Path
    data: bytes
    tree: Tree
    # by line: byte offsets at which its columns were counted, and the counts there
    _column_marks: dict[int, tuple[list[int], list[tuple[int, int]]]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    _long_lines: dict[int, str] = field(default_factory=dict, init=False, repr=False, compare=False)

    @cached_property
    def line_starts(self) -> list[int]:
        """Byte offset of each line's start; built on first use (most files have no finding)."""
        starts = [0]
        find = self.data.find
        pos = find(b"\n")
        while pos != -1:
            starts.append(pos + 1)
            pos = find(b"\n", pos + 1)
        return starts

    @property
    def root(self) -> Node:
        return self.tree.root_node

    @cached_property
    def ancestry(self) -> Ancestry:
        """Parents and ancestor facts: walk up with this, never with ``Node.parent`` (each call
        of which costs O(depth))."""
        return Ancestry(self.root)

    @cached_property
    def has_syntax_errors(self) -> bool:
        return self.tree.root_node.has_error

    @cached_property
    def _type_index(self) -> dict[str, list[Node]]:
        return type_index(self.root)

    def nodes_of_type(self, *types: str) -> list[Node]:
        """All nodes of the given types in the file, in document order. For the common types
        (``syntax.INDEXED_TYPES``) one walk finds them all at the first lookup; the file keeps
        them, so they go when it goes."""
        if not all(t in INDEXED_TYPES for t in types):
            return nodes_of_type(self.root, *types)
        index = self._type_index
        return in_document_order(node for t in types for node in index.get(t, ()))

    def line_of(self, byte: int) -> int:
        """0-based line index of a byte offset."""
        return bisect.bisect_right(self.line_starts, byte) - 1

    def line_bytes(self, line0: int) -> bytes:
        start = self.line_starts[line0]
        end = self.line_starts[line0 + 1] if line0 + 1 < len(self.line_starts) else len(self.data)
        return self.data[start:end].rstrip(b"\r\n")

    def _line_text(self, line0: int) -> str:
        """Line ``line0`` decoded, without its line break; a long line is decoded once (many
        findings on one line all take their snippet from it)."""
        text = self._long_lines.get(line0)
        if text is None:
            text = self.line_bytes(line0).decode("utf-8", errors="replace")
            if len(text) > MAX_SNIPPET:
                self._long_lines[line0] = text
        return text

    def _columns(self, byte: int) -> tuple[int, int, int]:
        """(line, character column, UTF-16 column) of ``byte``, 1-based. The columns count the
        characters of the line before ``byte``; far into a line they are counted from the
        nearest point counted before (many findings on one long line would each decode it
        again from its start)."""
        line0 = self.line_of(byte)
        base = self.line_starts[line0]
        chars = units = 0
        marks = None
        if byte - base > _COUNT_FROM_MARKS:
            marks = self._column_marks.setdefault(line0, ([base], [(0, 0)]))
            k = bisect.bisect_right(marks[0], byte) - 1
            base, (chars, units) = marks[0][k], marks[1][k]
        piece = self.data[base:byte].decode("utf-8", errors="replace")
        chars += len(piece)
        units += len(piece.encode("utf-16-le")) // 2
        # a point to count from next time, at a character's first byte only (so that decoding
        # from it gives what decoding from the line's start gives)
        if marks is not None and byte > base and _starts_character(self.data, byte):
            k = bisect.bisect_right(marks[0], byte)
            marks[0].insert(k, byte)
            marks[1].insert(k, (chars, units))
        return line0 + 1, chars + 1, units + 1

    def span(self, start_byte: int, end_byte: int) -> Span:
        start_line, start_col, start_u16 = self._columns(start_byte)
        end_line, end_col, end_u16 = self._columns(end_byte)
        return Span(
            start_byte=start_byte,
            end_byte=end_byte,
            start_line=start_line,
            start_col=start_col,
            end_line=end_line,
            end_col=end_col,
            start_col_utf16=start_u16,
            end_col_utf16=end_u16,
        )

    def node_span(self, node: Node) -> Span:
        return self.span(node.start_byte, node.end_byte)

    def snippet(self, span: Span) -> Snippet:
        """The text of the lines a span covers, without the final newline; longer than
        ``MAX_SNIPPET`` characters, a window of it (see ``Snippet``)."""
        kept: list[str] = []
        size = -1  # of "\n".join(kept)
        # a window starts at the span's start at the latest: text past its end is not needed
        wanted = span.start_col - 1 + MAX_SNIPPET
        line0 = span.start_line - 1
        while line0 < span.end_line and size <= wanted:
            line = self._line_text(line0)
            kept.append(line)
            size += 1 + len(line)
            line0 += 1
        if size <= MAX_SNIPPET and line0 == span.end_line:
            return Snippet("\n".join(kept))
        start = max(0, span.start_col - 1 - SNIPPET_CONTEXT)
        cut = line0 < span.end_line or size > start + MAX_SNIPPET
        return Snippet(_joined_slice(kept, start, start + MAX_SNIPPET), start, cut)

    def text(self, node: Node) -> str:
        return self.data[node.start_byte : node.end_byte].decode("utf-8", errors="replace")
