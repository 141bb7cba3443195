"""Reading the expectations written into fixture files.

``// expect: BL001, BL002`` trailing on a line: those rules must report on that line.
``// expect-next: BL001`` alone on a line: on the next line.
``// todo-expect: BL001``: a known miss, which must *not* be reported today (so fixing it
forces the marker to be updated). ``// burnlint-test: select = BL004, BL001`` in a file adds
rules that are off by default. Comments are found with tree-sitter, not a regex over the text,
so a marker inside a string literal is not a marker.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from burnlint.rust.syntax import parse, walk

_MARKER = re.compile(r"^//\s*(expect|expect-next|todo-expect|burnlint-test):\s*(.*)$")
_IDS = re.compile(r"BL\d{3}")


@dataclass
class Expectations:
    expected: set[tuple[int, str]] = field(default_factory=set)
    todo: set[tuple[int, str]] = field(default_factory=set)
    select: set[str] = field(default_factory=set)


def read_expectations(path: Path) -> Expectations:
    data = path.read_bytes()
    tree = parse(data)
    out = Expectations()
    for node in walk(tree.root_node):
        if node.type != "line_comment" or node.text is None:
            continue
        match = _MARKER.match(node.text.decode().strip())
        if match is None:
            continue
        kind, body = match.groups()
        line = node.start_point[0] + 1
        ids = set(_IDS.findall(body))
        if kind == "burnlint-test":
            out.select |= ids
        elif kind == "expect":
            out.expected |= {(line, i) for i in ids}
        elif kind == "expect-next":
            out.expected |= {(line + 1, i) for i in ids}
        else:
            out.todo |= {(line, i) for i in ids}
    return out
