"""Negative tests: a load that a test means to fail tests the failure, not the key mapping
(in a `#[should_panic]` test, with its `Result` asserted to be an `Err`, or in a test that
asserts the load left tensors missing). None of the key-mapping rules speaks of it."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from burnlint.model.places import fn_item_around, let_bound
from burnlint.model.result_forms import ASSERT_MACROS, CHAIN_METHODS
from burnlint.rust.syntax import (
    field_of,
    macro_name,
    method_call_parts,
    outer_parens,
    text,
)

if TYPE_CHECKING:
    from tree_sitter import Node

    from burnlint.model.ops import StoreOp
    from burnlint.model.reads import SyntaxReads
    from burnlint.rust.syntax import Ancestry

_SPACE = re.compile(r"\s+")


_FAILURE_METHODS = frozenset({"unwrap_err", "expect_err"})
_ASSERT = r"(\w+::)*(debug_)?assert!"
_ASSERT_MATCHES = r"(\w+::)*(debug_)?assert_matches!"
_ERR = r"(\w+::)*Err\b"


def expected_to_fail(
    loads: Sequence[StoreOp], report_at: Node, model: SyntaxReads, asserting: dict[int, bool]
) -> bool:
    """Every load of a store is one a test means to fail (``report_at``, its constructor, for
    a store that is only returned, passed on or asked for its keys); ``asserting`` keeps, by
    function, whether it asserts missing tensors."""
    if not loads:
        return _in_should_panic_test(report_at, model.ancestry)
    return all(
        _in_should_panic_test(op.node, model.ancestry)
        or _asserted_to_fail(op, model)
        or _asserts_missing_tensors(op.node, model.ancestry, asserting)
        for op in loads
    )


# `assert!(!result.missing.is_empty())`, `assert!(r.missing.len() > 0)`: the test expects the
# load to leave tensors missing (burn's own tests show a mis-mapping this way)
_MISSING_ASSERTED = re.compile(
    rf"^{_ASSERT}\((!\w+(\.\w+)*\.missing\.is_empty\(\)|\w+(\.\w+)*\.missing\.len\(\)>0)[,)]"
)


_READS_MISSING = re.compile(r"^\w+(\.\w+)*\.missing\b")
_BINDING_ASSERTED = re.compile(
    rf"^{_ASSERT}\((!(?P<name>\w+)\.is_empty\(\)|(?P<named>\w+)\.len\(\)>0)[,)]"
)


def _asserts_missing_tensors(node: Node, ancestry: Ancestry, asserting: dict[int, bool]) -> bool:
    """The function around ``node`` asserts that a load left tensors missing (looked up once
    per function in ``asserting``: a file can hold thousands of loads in one function)."""
    function = fn_item_around(node, ancestry)
    if function is None:
        return False
    if function.id not in asserting:
        asserting[function.id] = _has_missing_assertion(function)
    return asserting[function.id]


def _has_missing_assertion(function: Node) -> bool:
    """An assertion that a load's ``missing`` is not empty: read directly, or through a
    binding made from it (`let missing_fc = r.missing.iter().filter(..).collect()`)."""
    if b".missing" not in (function.text or b""):
        return False
    assertions: list[str] = []
    from_missing: set[str] = set()
    stack = [function]
    while stack:
        current = stack.pop()
        if current.type == "macro_invocation":
            assertions.append(_SPACE.sub("", text(current)))
            continue
        if current.type == "let_declaration":
            pattern = current.child_by_field_name("pattern")
            value = current.child_by_field_name("value")
            if (
                pattern is not None
                and value is not None
                and pattern.type == "identifier"
                and _READS_MISSING.search(_SPACE.sub("", text(value)))
            ):
                from_missing.add(text(pattern))
        stack.extend(current.named_children)
    for compact in assertions:
        if _MISSING_ASSERTED.match(compact):
            return True
        bound = _BINDING_ASSERTED.match(compact)
        if bound is not None and (bound.group("name") or bound.group("named")) in from_missing:
            return True
    return False


def _in_should_panic_test(node: Node, ancestry: Ancestry) -> bool:
    function = fn_item_around(node, ancestry)
    if function is None:
        return False
    sibling = function.prev_named_sibling
    while sibling is not None and sibling.type in (
        "attribute_item",
        "line_comment",
        "block_comment",
    ):
        if sibling.type == "attribute_item" and _SPACE.sub("", text(sibling)).startswith(
            "#[should_panic"
        ):
            return True
        sibling = sibling.prev_named_sibling
    return False


def _asserted_to_fail(op: StoreOp, model: SyntaxReads) -> bool:
    """The load's ``Result`` (through ``map_err``-like adapters) is unwrapped as an error
    (``unwrap_err``, ``expect_err``), or bound and then asserted to be one
    (``assert!(r.is_err())``, ``assert!(!r.is_ok())``, ``assert!(matches!(r, Err(..)))``,
    ``assert_matches!(r, Err(..))``, ``r.unwrap_err()``)."""
    if not op.returns_result:
        return False
    ancestry = model.ancestry
    value = _result_end(op.node, ancestry)
    method = _method_called_on(value, ancestry)
    if method in _FAILURE_METHODS:
        return True
    binding = let_bound(value, model)
    if binding is None:
        return False
    for use in binding.uses:
        if use.macro is None:
            if _method_called_on(_result_end(use.node, ancestry), ancestry) in _FAILURE_METHODS:
                return True
        elif macro_name(use.macro) in ASSERT_MACROS and _asserts_err(use.macro, binding.name):
            return True
    return False


def _result_end(node: Node, ancestry: Ancestry) -> Node:
    """The end of the ``Result -> Result`` chain that starts at ``node``."""
    current = outer_parens(node, ancestry)
    while (call := _method_call_on(current, ancestry)) is not None and call[1] in CHAIN_METHODS:
        current = outer_parens(call[0], ancestry)
    return current


def _method_called_on(node: Node, ancestry: Ancestry) -> str | None:
    """``m`` when ``node`` is the receiver of a method call ``node.m(..)``."""
    call = _method_call_on(node, ancestry)
    return call[1] if call is not None else None


def _method_call_on(node: Node, ancestry: Ancestry) -> tuple[Node, str] | None:
    """The call ``node.m(..)`` and ``m``, when ``node`` is the receiver of a method call."""
    parent = ancestry.parent(node)
    if parent is None or parent.type != "field_expression" or field_of(node, ancestry) != "value":
        return None
    call = ancestry.parent(parent)
    if call is None or call.type != "call_expression":
        return None
    parts = method_call_parts(call)
    return (call, parts[1]) if parts is not None else None


def _asserts_err(macro: Node, name: str) -> bool:
    """An assertion whose whole condition says that the ``Result`` named ``name`` is an
    ``Err`` (``assert!(r.is_err(), "..")``); a condition that also says something else
    (``r.is_err() || ..``) or the opposite (``!r.is_err()``) does not count."""
    compact = _SPACE.sub("", text(macro))
    n = re.escape(name)
    return any(
        re.search(pattern, compact) is not None
        for pattern in (
            rf"^{_ASSERT}\({n}\.is_err\(\)[,)]",
            rf"^{_ASSERT}\(!{n}\.is_ok\(\)[,)]",
            rf"^{_ASSERT}\(matches!\({n},{_ERR}",
            rf"^{_ASSERT_MATCHES}\({n},{_ERR}",
        )
    )
