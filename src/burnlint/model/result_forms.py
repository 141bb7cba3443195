"""The forms a store operation's ``Result`` use takes (``UseClass``, ``ResultUse``), the
methods and macros that decide it, and the patterns of `match`/`if let` that split it."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from burnlint.rust.syntax import (
    call_path,
    is_tail_expression,
    macro_name,
    method_call_parts,
    text,
    walk,
)

if TYPE_CHECKING:
    from tree_sitter import Node

    from burnlint.model.scopes import Binding
    from burnlint.rust.syntax import Ancestry


class UseClass(enum.IntEnum):
    """Ordered from weakest to strongest: where a value has several uses, the strongest
    decides (``println!("{r:?}"); r?;`` is propagated)."""

    DISCARDED = 0
    LOGGED_ONLY = 1
    HANDLED = 2
    PANICKING = 3
    PROPAGATED = 4


# Result -> Result adapters: the chain takes the use of its end.
CHAIN_METHODS = frozenset(
    {
        "map_err",
        "context",
        "with_context",
        "wrap_err",
        "wrap_err_with",
        "inspect_err",
        "inspect",
        "map",
        "into",
    }
)
# The methods of `CHAIN_METHODS` that hand the Ok value on unchanged (`map` replaces it with
# what a closure makes of it, `into` with another type): `make_store(p).context("..")?` is the
# store, `load(..).map_err(..)?` the `ApplyResult`.
OK_KEEPING = CHAIN_METHODS - {"map", "into"}
PANIC_METHODS = frozenset({"unwrap", "expect", "unwrap_unchecked", "unwrap_err", "expect_err"})
DISCARD_METHODS = frozenset({"unwrap_or_default", "unwrap_or"})
PANIC_MACROS = frozenset(
    {"panic", "unreachable", "todo", "unimplemented", "assert", "assert_eq", "assert_ne"}
)
ASSERT_MACROS = frozenset(
    {
        "assert",
        "assert_eq",
        "assert_ne",
        "debug_assert",
        "debug_assert_eq",
        "debug_assert_ne",
        "assert_matches",
    }
)
EARLY_RETURN_MACROS = frozenset({"ensure", "bail", "anyhow_ensure"})
LOG_MACROS = frozenset(
    {
        "println",
        "eprintln",
        "print",
        "eprint",
        "warn",
        "error",
        "info",
        "debug",
        "trace",
        "log",
        "event",
        "dbg",
    }
)
FORMAT_MACROS = frozenset({"format", "format_args", "write", "writeln"})
# Calls in an Err path that only prepare a log message; anything else counts as handling.
NEUTRAL_CALLS = frozenset(
    {
        "to_string",
        "clone",
        "display",
        "as_str",
        "as_ref",
        "to_owned",
        "into",
        "len",
        "is_empty",
        "flush",
        "format",
        "source",
        "chain",
        "root_cause",
        "kind",
    }
)
# Calls that only build a value: wrapping the error, or a fallback after logging
# (`unwrap_or_else(|e| { eprintln!(..); Default::default() })` is still logged only).
VALUE_CALLS = frozenset({"Ok", "Some", "Err", "drop", "default"})
EXIT_PATHS = (
    ["process", "exit"],
    ["std", "process", "exit"],
    ["exit"],
    ["process", "abort"],
    ["std", "process", "abort"],
)


@dataclass
class ResultUse:
    """How an op's Result is consumed.

    ``decided_at`` is the node whose form decided the class; ``err_path`` the code run on
    ``Err`` when there is one; ``ok_values`` the expressions holding the Ok value (for a load:
    the ``ApplyResult``), and ``ok_dropped`` whether some path drops the Ok value unread.
    """

    use: UseClass
    decided_at: Node
    err_path: list[Node] = field(default_factory=list)
    ok_values: list[Node] = field(default_factory=list)
    ok_bindings: list[Binding] = field(default_factory=list)
    # patterns that take the Ok value apart (`Ok((net, report))`, `Ok(Loaded { report, .. })`)
    ok_patterns: list[Node] = field(default_factory=list)
    ok_dropped: bool = False
    ok_escapes: bool = False  # the whole Result left the function: the caller checks it
    # the code asserts that the op fails (`assert!(op.is_err())`): a test of the refusal
    failure_expected: bool = False


def strongest(uses: list[ResultUse], fallback: Node) -> ResultUse:
    if not uses:
        return ResultUse(UseClass.DISCARDED, fallback, ok_dropped=True)
    best = max(uses, key=lambda u: u.use)
    merged = ResultUse(best.use, best.decided_at, err_path=list(best.err_path))
    for use in uses:
        merged.ok_values.extend(use.ok_values)
        merged.ok_bindings.extend(use.ok_bindings)
        merged.ok_patterns.extend(use.ok_patterns)
        merged.ok_dropped = merged.ok_dropped or use.ok_dropped
        merged.ok_escapes = merged.ok_escapes or use.ok_escapes
    return merged


_DIVERGING = frozenset({"panic", "unreachable", "todo", "unimplemented"})


def always_panics(block: Node) -> bool:
    """Whether a block panics whenever it runs: a `panic!`-like statement of its own (an
    `assert!` in it asserts something of the success instead)."""
    for statement in block.named_children:
        expression = (
            statement.named_children[0]
            if statement.type == "expression_statement" and statement.named_children
            else statement
        )
        if expression.type == "macro_invocation" and macro_name(expression) in _DIVERGING:
            return True
    return False


def yields_bound(value: Node, pattern: Node, ancestry: Ancestry) -> bool:
    """Whether an arm's value is, as a whole, a name its pattern binds (``Err(e) => e``)."""
    tail = value
    if tail.type == "block":
        named = [c for c in tail.named_children if c.type not in ("line_comment", "block_comment")]
        if not named or not is_tail_expression(named[-1], ancestry):
            return False
        tail = named[-1]
    if tail.type != "identifier":
        return False
    name = text(tail)
    return any(n.type == "identifier" and text(n) == name for n in walk(pattern))


def arm_covers(pattern: Node) -> tuple[bool, bool, Node | None]:
    """Whether a match/let pattern covers Err, Ok, and the ``Ok(..)`` pattern if any."""
    covers_err = covers_ok = False
    ok_pattern: Node | None = None
    stack = [pattern]
    while stack:
        node = stack.pop()
        if node.type == "match_pattern":
            condition = node.child_by_field_name("condition")
            stack.extend(
                c for c in node.children if (c.is_named or c.type == "_") and c != condition
            )
            continue
        if node.type == "or_pattern":
            stack.extend(node.named_children)
            continue
        if node.type == "tuple_struct_pattern":
            name = text(node.child_by_field_name("type")).split("::")[-1]
            if name == "Err":
                covers_err = True
            elif name == "Ok":
                covers_ok = True
                ok_pattern = node
            continue
        if node.type in ("_", "identifier"):
            covers_err = covers_ok = True
            continue
        if node.type == "captured_pattern":
            stack.extend(node.named_children[1:])
            continue
    if covers_ok and ok_pattern is None:
        return covers_err, covers_ok, None
    return covers_err, covers_ok, ok_pattern


def classify_err_path(node: Node) -> UseClass:
    """Classify code that runs on ``Err``: a closure, a block, an arm's expression."""
    if node.type == "closure_expression":
        body = node.child_by_field_name("body")
        if body is None:
            return UseClass.DISCARDED
        node = body
    exits = panics = handles = logs = False
    for current in walk(
        node, skip=frozenset({"closure_expression", "function_item", "token_tree"})
    ):
        kind = current.type
        if kind in ("return_expression", "break_expression", "try_expression"):
            exits = True
        elif kind == "macro_invocation":
            name = macro_name(current)
            if name in PANIC_MACROS or name in ASSERT_MACROS:
                panics = True
            elif name in EARLY_RETURN_MACROS:
                exits = True
            elif name in LOG_MACROS:
                logs = True
            elif name in FORMAT_MACROS:
                pass
            else:
                handles = True
        elif kind in ("assignment_expression", "compound_assignment_expr"):
            handles = True
        elif kind == "call_expression":
            path = call_path(current)
            if path and any(path[-len(p) :] == p for p in EXIT_PATHS if len(path) >= len(p)):
                panics = True
                continue
            parts = method_call_parts(current)
            name = parts[1] if parts is not None else (path[-1] if path else "")
            if name in PANIC_METHODS:
                panics = True
            elif name in NEUTRAL_CALLS or (path and path[-1] in VALUE_CALLS):
                continue
            else:
                handles = True
    if exits:
        return UseClass.HANDLED
    if panics:
        return UseClass.PANICKING
    if handles:
        return UseClass.HANDLED
    if logs:
        return UseClass.LOGGED_ONLY
    return UseClass.DISCARDED
