"""The tree walks of ``burnlint.rust.syntax`` agree with each other on any input, and lose no
node on deep trees."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings

from burnlint.engine import lint_source
from burnlint.options import EngineOptions
from burnlint.rules.registry import resolve
from burnlint.rust.syntax import (
    INDEXED_TYPES,
    nodes_of_type,
    parse,
    type_index,
    walk,
    walk_with_cursor,
)
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


@settings(deadline=None, max_examples=examples(40), suppress_health_check=[HealthCheck.too_slow])
@given(any_rust())
def test_the_type_index_finds_what_walk_finds(data: bytes) -> None:
    root = parse(data).root_node
    index = type_index(root)
    for kind in INDEXED_TYPES:
        expected = [node.id for node in walk(root) if node.type == kind]
        assert [node.id for node in index.get(kind, ())] == expected
    wanted = ("block", "line_comment", "ERROR")
    expected = [node.id for node in walk(root) if node.type in wanted]
    assert [node.id for node in nodes_of_type(root, *wanted)] == expected


def test_no_call_of_a_long_method_chain_is_lost() -> None:
    """A chain of 40,000 calls nests 80,000 levels deep: a tree-sitter query returned 32,766
    of its calls (``node_index.py``), and the findings on the others were lost."""
    n = 40_000
    root = parse(b"fn f() { let x = a" + b".b()" * n + b"; }\n").root_node
    assert len(type_index(root)["call_expression"]) == n
    assert len(nodes_of_type(root, "call_expression")) == n


def test_a_finding_at_the_bottom_of_a_long_method_chain_is_reported(tmp_path: Path) -> None:
    save = 'let _ = model.save_into(&mut SafetensorsStore::from_file("m"));'
    code = (
        "use burn_store::{ModuleSnapshot, SafetensorsStore};\n"
        f"fn f(model: &M) {{ let x = a.b(|| {{ {save} }})" + ".b()" * 40_000 + "; }\n"
    )
    options = EngineOptions(rule_ids=resolve(select=["BL001"]), project_root=tmp_path)
    result = lint_source(tmp_path / "src" / "lib.rs", code.encode(), options)
    assert [f.rule_id for f in result.findings] == ["BL001"]


def test_a_finding_at_block_depth_51200_is_reported(tmp_path: Path) -> None:
    """The query lost every node deeper than 65,535 levels: this finding vanished without a
    word. Nothing is bounded by depth now (the model's bounds, ``limits.py``, are on values
    followed, not on nesting)."""
    depth = 51_200
    save = 'let _ = model.save_into(&mut SafetensorsStore::from_file("m"));'
    code = (
        "use burn_store::{ModuleSnapshot, SafetensorsStore};\n"
        f"fn f(model: &M) {'{' * depth}{save}{'}' * depth}\n"
    )
    options = EngineOptions(rule_ids=resolve(select=["BL001"]), project_root=tmp_path)
    result = lint_source(tmp_path / "src" / "lib.rs", code.encode(), options)
    assert [f.rule_id for f in result.findings] == ["BL001"]
    assert not result.notifications
