"""Which statements hold their block's value (``syntax.holds_block_value``): the last one
without ``;``, and a block-like one without ``;`` anywhere (its value, when not ``()``, makes
it compile only as the tail, as with ``#[cfg(..)]``-gated alternatives)."""

from __future__ import annotations

import pytest

from burnlint.rust.syntax import Ancestry, holds_block_value, parse


def _holds(body: str) -> bool:
    """Whether the statement of ``fn f() -> R { body }`` that holds ``MARK`` holds the value."""
    data = f"fn f() -> R {{ {body} }}".encode()
    root = parse(data).root_node
    at = data.index(b"MARK")
    block = root.named_children[0].child_by_field_name("body")
    assert block is not None
    statement = next(c for c in block.named_children if c.start_byte <= at < c.end_byte)
    assert statement.type == "expression_statement"
    return holds_block_value(statement, Ancestry(root))


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("a(); match x { _ => MARK() }", True),
        ("#[cfg(f)] { MARK() } #[cfg(not(f))] { b() }", True),
        ("#[cfg(f)] if c { MARK() } else { d() } #[cfg(not(f))] { b() }", True),
        ("#[cfg(f)] match c { _ => MARK() } #[cfg(not(f))] { b() }", True),
        ("#[cfg(f)] unsafe { MARK() } #[cfg(not(f))] { b() }", True),
        ("#[cfg(f)] { MARK() } // the other build\n #[cfg(not(f))] { b() }", True),
        # `;` after a block is a sibling (an empty statement) in tree-sitter's tree
        ("#[cfg(f)] { MARK() }; Ok(())", False),
        ("#[cfg(f)] { MARK() } /* note */ ; Ok(())", False),
        ("MARK(); Ok(())", False),
        ("for x in y { MARK() } Ok(())", False),
    ],
)
def test_holds_block_value(body: str, expected: bool) -> None:
    assert _holds(body) is expected
