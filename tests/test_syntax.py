"""The tree walks of ``burnlint.rust.syntax`` agree with each other on any input."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings

from burnlint.rust.syntax import parse, walk, walk_with_cursor
from rust_strategies import any_rust, examples

SKIPS = (
    frozenset(),
    frozenset({"function_item"}),
    frozenset({"block", "call_expression", "token_tree"}),
)


@settings(deadline=None, max_examples=examples(40), suppress_health_check=[HealthCheck.too_slow])
@given(any_rust())
def test_walk_with_cursor_visits_what_walk_visits(data: bytes) -> None:
    root = parse(data).root_node
    # from every node, so that a walk from a subtree is seen not to leave it
    for start in walk(root):
        for skip in SKIPS:
            expected = [(node.id, node.type) for node in walk(start, skip=skip)]
            assert [(node.id, node.type) for node in walk_with_cursor(start, skip=skip)] == (
                expected
            )
