"""``MarkedTestItems``: which items a test attribute marks, past comments and other attributes."""

from __future__ import annotations

from burnlint.model.file_model import MarkedTestItems
from burnlint.rust.syntax import Ancestry, parse


def _marked(code: str) -> dict[str, bool]:
    root = parse(code.encode()).root_node
    marks = MarkedTestItems(Ancestry(root))
    return {
        item.child_by_field_name("name").text.decode(): marks.has_test_attribute(item)  # type: ignore[union-attr]
        for item in root.named_children
        if item.type in ("function_item", "mod_item")
    }


def test_attributes_and_comments_before_an_item() -> None:
    code = (
        "#[test]\n// why\n/* more */\n#[ignore]\nfn a() {}\n"
        "fn b() {}\n"
        "#[cfg(test)]\nstruct S;\nfn c() {}\n"
        "#[cfg(test)]\nmod d {}\n"
        "#[tokio::test]\n#![allow(x)]\nfn e() {}\n"
    )
    assert _marked(code) == {"a": True, "b": False, "c": False, "d": True, "e": False}


def test_an_item_after_many_comment_lines() -> None:
    """One pass over the siblings: 40,000 comment lines are read once, not once per step."""
    code = "#[test]\n" + "// x\n" * 40_000 + "fn a() {}\nfn b() {}\n"
    assert _marked(code) == {"a": True, "b": False}
