"""Offsets to lines and columns, and snippets, on long lines: the shortcuts that keep many
findings on one long line linear (counting columns from marks, decoding a long line once,
slicing without joining) give exactly what counting from each line's start gives."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from burnlint.findings import Span
from burnlint.rust.source import MAX_SNIPPET, SNIPPET_CONTEXT, Snippet, SourceFile, _joined_slice
from burnlint.rust.syntax import parse

# ASCII, 2-, 3- and 4-byte characters (4-byte ones are two UTF-16 units)
_CHARACTERS = st.sampled_from(["a", "b", " ", "é", "检", "\U0001f525"])


def _naive_columns(data: bytes, byte: int) -> tuple[int, int, int]:
    line_start = data.rfind(b"\n", 0, byte) + 1
    prefix = data[line_start:byte].decode("utf-8", errors="replace")
    line = data.count(b"\n", 0, byte) + 1
    return line, len(prefix) + 1, len(prefix.encode("utf-16-le")) // 2 + 1


# A line: a short run of characters repeated, up to a few thousand bytes (columns are counted
# from marks only far into a line).
_LINES = st.tuples(st.text(_CHARACTERS, min_size=1, max_size=8), st.integers(0, 700)).map(
    lambda run: run[0] * run[1]
)


@settings(max_examples=200, deadline=None)
@given(st.lists(_LINES, min_size=1, max_size=3), st.data())
def test_columns_counted_from_marks_equal_counting_from_the_line_start(
    lines: list[str], data: st.DataObject
) -> None:
    raw = "\n".join(lines).encode("utf-8")
    source = SourceFile(Path("long.rs"), raw, parse(b""))  # columns need no tree
    # any order, any byte (mid-character ones included), several times each
    offsets = data.draw(st.lists(st.integers(0, len(raw)), min_size=1, max_size=60))
    for byte in offsets:
        span = source.span(byte, byte)
        line, column, unit = _naive_columns(raw, byte)
        assert (span.start_line, span.start_col, span.start_col_utf16) == (line, column, unit)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.text(_CHARACTERS, max_size=30), min_size=1, max_size=6),
    st.integers(0, 200),
    st.integers(0, 200),
)
def test_joined_slice_is_a_slice_of_the_joined_lines(
    lines: list[str], start: int, size: int
) -> None:
    assert _joined_slice(lines, start, start + size) == "\n".join(lines)[start : start + size]


def _reference_snippet(source: SourceFile, span: Span) -> Snippet:
    """``SourceFile.snippet`` as first written: each covered line decoded from its bytes and
    the lines joined, then the window cut from the joined text."""
    kept: list[str] = []
    size = -1
    wanted = span.start_col - 1 + MAX_SNIPPET
    line0 = span.start_line - 1
    while line0 < span.end_line and size <= wanted:
        line = source.line_bytes(line0).decode("utf-8", errors="replace")
        kept.append(line)
        size += 1 + len(line)
        line0 += 1
    text = "\n".join(kept)
    if size <= MAX_SNIPPET and line0 == span.end_line:
        return Snippet(text)
    start = max(0, span.start_col - 1 - SNIPPET_CONTEXT)
    cut = line0 < span.end_line or size > start + MAX_SNIPPET
    return Snippet(text[start : start + MAX_SNIPPET], start, cut)


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.tuples(_CHARACTERS, st.integers(0, 12_000)), min_size=1, max_size=4),
    st.data(),
)
def test_snippets_equal_the_windows_of_the_joined_lines(
    lines: list[tuple[str, int]], data: st.DataObject
) -> None:
    raw = "\n".join(char * count for char, count in lines).encode("utf-8")
    source = SourceFile(Path("long.rs"), raw, parse(b""))
    for _ in range(3):  # later snippets of a long line come from its decoded text, kept
        start = data.draw(st.integers(0, len(raw)))
        end = data.draw(st.integers(start, len(raw)))
        span = source.span(start, end)
        assert source.snippet(span) == _reference_snippet(source, span)
