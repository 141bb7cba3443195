"""``ResultUse``: how the ``Result`` of a store operation is consumed, one class per op; and
``ApplyCheck``: which parts of a load's ``ApplyResult`` the code reads."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from burnlint.model.limits import MAX_FOLLOW_DEPTH
from burnlint.model.scopes import Binding, Use
from burnlint.syntax import (
    arguments_of,
    call_path,
    field_of,
    holds_block_value,
    is_tail_expression,
    macro_name,
    method_call_parts,
    outer_parens,
    strip_reference,
    text,
    walk,
)

if TYPE_CHECKING:
    from tree_sitter import Node

    from burnlint.model.file_model import FileModel
    from burnlint.syntax import Ancestry


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


def _strongest(uses: list[ResultUse], fallback: Node) -> ResultUse:
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


class ResultClassifier:
    def __init__(self, model: FileModel) -> None:
        self.model = model
        self.ancestry = model.ancestry
        self.visiting: set[int] = set()

    # entry -------------------------------------------------------------------------------
    def classify(self, op_node: Node) -> ResultUse:
        return self.use_of(op_node)

    # the Result value at `node` ----------------------------------------------------------------
    def use_of(self, node: Node) -> ResultUse:
        key = node.id
        # a cycle, or a chain of re-bindings deeper than any real code: assume the value is
        # used (no finding) rather than exhaust the stack
        if key in self.visiting or len(self.visiting) >= MAX_FOLLOW_DEPTH:
            return ResultUse(UseClass.PROPAGATED, node, ok_escapes=True)
        self.visiting.add(key)
        try:
            return self._use_of(node)
        finally:
            self.visiting.discard(key)

    def _use_of(self, node: Node) -> ResultUse:
        node = outer_parens(node, self.ancestry)
        parent = self.ancestry.parent(node)
        if parent is None:
            return ResultUse(UseClass.DISCARDED, node, ok_dropped=True)
        kind = parent.type
        if kind == "field_expression" and field_of(node, self.ancestry) == "value":
            call = self.ancestry.parent(parent)
            if (
                call is None
                or call.type != "call_expression"
                or field_of(parent, self.ancestry) != "function"
            ):
                return ResultUse(UseClass.PROPAGATED, parent, ok_escapes=True)
            return self._method_on_result(call, text(parent.child_by_field_name("field")))
        if kind == "try_expression":
            return ResultUse(UseClass.PROPAGATED, parent, ok_values=[parent])
        if kind == "let_declaration" and field_of(node, self.ancestry) == "value":
            return self._let(parent, node)
        if kind == "expression_statement":
            block = self.ancestry.parent(parent)
            if holds_block_value(parent, self.ancestry) and block is not None:
                # the tail, or a block-like statement that compiles only as the tail
                return self._block_value(block)
            return ResultUse(UseClass.DISCARDED, node, ok_dropped=True)
        if kind == "block" and is_tail_expression(node, self.ancestry):
            return self._block_value(parent)
        if kind == "return_expression":
            return ResultUse(UseClass.PROPAGATED, parent, ok_escapes=True)
        if kind == "arguments":
            call = self.ancestry.parent(parent)
            if call is not None and call.type == "call_expression":
                path = call_path(call)
                if path and path[-1] == "drop":
                    return ResultUse(UseClass.DISCARDED, call, ok_dropped=True)
                if path and path[-1] in ("Ok", "Some"):
                    inner = self.use_of(call)
                    return inner
            return ResultUse(UseClass.PROPAGATED, parent, ok_escapes=True)
        if kind == "match_expression" and field_of(node, self.ancestry) == "value":
            return self._match(parent)
        if kind == "let_condition" and field_of(node, self.ancestry) == "value":
            return self._let_condition(parent)
        if kind == "assignment_expression" and field_of(node, self.ancestry) == "right":
            left = parent.child_by_field_name("left")
            if left is not None and left.type == "identifier":
                binding = self.model.resolution.binding_of(left)
                if binding is not None:
                    return self._binding_uses(binding, after=parent.end_byte, fallback=parent)
            return ResultUse(UseClass.PROPAGATED, parent, ok_escapes=True)
        if kind == "match_arm" and field_of(node, self.ancestry) == "value":
            arms = self.ancestry.parent(parent)
            match = self.ancestry.parent(arms) if arms is not None else None
            if match is not None and match.type == "match_expression":
                return self.use_of(match)
        if kind == "closure_expression" and field_of(node, self.ancestry) == "body":
            return ResultUse(UseClass.PROPAGATED, parent, ok_escapes=True)
        if kind in ("else_clause",):
            if_expr = self.ancestry.parent(parent)
            if if_expr is not None:
                return self.use_of(if_expr)
        return ResultUse(UseClass.PROPAGATED, parent, ok_escapes=True)

    def _block_value(self, block: Node) -> ResultUse:
        owner = self.ancestry.parent(block)
        if owner is None:
            return ResultUse(UseClass.PROPAGATED, block, ok_escapes=True)
        if owner.type in ("function_item", "closure_expression"):
            return ResultUse(UseClass.PROPAGATED, block, ok_escapes=True)
        if owner.type in ("match_arm", "else_clause"):
            # an arm's or a branch's value is the value of its `match` / `if`
            return self.use_of(block)
        if owner.type in (
            "if_expression",
            "unsafe_block",
            "async_block",
            "block",
            "loop_expression",
        ):
            return self.use_of(owner)
        # a block statement (`expression_statement`): `_use_of` asks whether it is the tail
        return self.use_of(block)

    def _let(self, declaration: Node, value: Node) -> ResultUse:
        pattern = declaration.child_by_field_name("pattern")
        alternative = declaration.child_by_field_name("alternative")
        if pattern is None:
            return ResultUse(UseClass.PROPAGATED, declaration, ok_escapes=True)
        if pattern.type == "_":
            return ResultUse(UseClass.DISCARDED, declaration, ok_dropped=True)
        if alternative is not None:
            # let Ok(r) = op else { .. };
            err = self.err_path(alternative)
            result = ResultUse(err, declaration, err_path=[alternative])
            self._ok_pattern(pattern, result)
            return result
        identifiers = [pattern] if pattern.type == "identifier" else []
        if pattern.type == "mut_pattern":
            identifiers = [c for c in pattern.named_children if c.type == "identifier"]
        if identifiers:
            binding = self.model.resolution.binding_of(identifiers[0])
            if binding is not None:
                return self._binding_uses(binding, after=declaration.end_byte, fallback=declaration)
        return ResultUse(UseClass.PROPAGATED, declaration, ok_escapes=True)

    def _binding_uses(self, binding: Binding, after: int, fallback: Node) -> ResultUse:
        uses: list[ResultUse] = []
        for use in binding.uses:
            if use.node.start_byte < after:
                continue
            uses.append(self._use_of_reference(use))
        return _strongest(uses, fallback)

    def _use_of_reference(self, use: Use) -> ResultUse:
        if use.macro is None:
            return self.use_of(use.node)
        return self._macro_use(use)

    def _macro_use(self, use: Use) -> ResultUse:
        """A Result binding mentioned in a macro call's tokens."""
        assert use.macro is not None
        name = macro_name(use.macro)
        trail = use.trail
        if name in ASSERT_MACROS:
            return ResultUse(UseClass.PANICKING, use.macro, ok_dropped=True)
        if name in EARLY_RETURN_MACROS:
            return ResultUse(UseClass.HANDLED, use.macro, ok_dropped=True)
        if trail and trail[0] in PANIC_METHODS:
            return ResultUse(UseClass.PANICKING, use.macro, ok_escapes=True)
        if name in LOG_MACROS or name in FORMAT_MACROS:
            return ResultUse(UseClass.LOGGED_ONLY, use.macro, err_path=[use.macro], ok_escapes=True)
        return ResultUse(UseClass.PROPAGATED, use.macro, ok_escapes=True)

    def _method_on_result(self, call: Node, method: str) -> ResultUse:
        arguments = arguments_of(call)
        if method in CHAIN_METHODS:
            end = self.use_of(call)
            # `.inspect_err(|e| eprintln!(..)).ok()`: logged, then dropped, is logged only;
            # a closure that panics makes the whole chain panicking.
            if (
                method in ("inspect_err", "map_err")
                and arguments
                and end.use <= UseClass.LOGGED_ONLY
            ):
                closure_class = self.err_path(arguments[0])
                if closure_class is UseClass.PANICKING:
                    return ResultUse(
                        UseClass.PANICKING, call, ok_values=end.ok_values, ok_dropped=end.ok_dropped
                    )
                if closure_class is UseClass.LOGGED_ONLY and end.use is UseClass.DISCARDED:
                    end.use = UseClass.LOGGED_ONLY
                    end.err_path = [arguments[0]]
            return end
        if method in PANIC_METHODS:
            return ResultUse(UseClass.PANICKING, call, ok_values=[call])
        if method == "unwrap_or_else":
            err = self.err_path(arguments[0]) if arguments else UseClass.DISCARDED
            return ResultUse(err, call, err_path=arguments[:1], ok_values=[call])
        if method in DISCARD_METHODS:
            return ResultUse(UseClass.DISCARDED, call, ok_values=[call])
        if method == "ok":
            return self._option_use(call, ok_side=True)
        if method == "err":
            return self._option_use(call, ok_side=False)
        if method in ("is_ok", "is_err"):
            return self._bool_use(call, true_means_err=(method == "is_err"))
        return ResultUse(UseClass.PROPAGATED, call, ok_escapes=True)

    def _option_use(self, call: Node, ok_side: bool) -> ResultUse:
        node = outer_parens(call, self.ancestry)
        parent = self.ancestry.parent(node)
        if parent is None:
            return ResultUse(UseClass.DISCARDED, call, ok_dropped=True)
        if parent.type == "expression_statement" or (
            parent.type == "let_declaration"
            and (p := parent.child_by_field_name("pattern")) is not None
            and p.type == "_"
        ):
            return ResultUse(UseClass.DISCARDED, call, ok_dropped=True)
        if parent.type == "try_expression":
            return ResultUse(UseClass.PROPAGATED, parent, ok_values=[parent] if ok_side else [])
        if parent.type == "field_expression":
            outer = self.ancestry.parent(parent)
            method = text(parent.child_by_field_name("field"))
            if outer is not None and method in PANIC_METHODS:
                return ResultUse(UseClass.PANICKING, outer, ok_values=[outer] if ok_side else [])
            if outer is not None and method in ("is_some", "is_none"):
                # `.ok().is_none()` is `.is_err()`; `.err().is_some()` likewise
                true_means_err = (method == "is_none") == ok_side
                return self._bool_use(outer, true_means_err=true_means_err)
        if parent.type == "let_condition":
            pattern = parent.child_by_field_name("pattern")
            if_node = self.ancestry.parent(parent)
            while if_node is not None and if_node.type == "let_chain":
                if_node = self.ancestry.parent(if_node)
            if pattern is not None and if_node is not None:
                consequence = if_node.child_by_field_name(
                    "consequence"
                ) or if_node.child_by_field_name("body")
                alternative = if_node.child_by_field_name("alternative")
                if ok_side:  # if let Some(v) = op.ok() { .. } else { err path }
                    result = self._err_in(alternative, if_node)
                    if pattern.type == "tuple_struct_pattern":
                        self._bind_ok(pattern, result)
                    return result
                return self._err_in(consequence, if_node)
        if parent.type == "let_declaration":
            pattern = parent.child_by_field_name("pattern")
            if pattern is not None and pattern.type == "identifier":
                binding = self.model.resolution.binding_of(pattern)
                if binding is not None and not binding.uses:
                    return ResultUse(UseClass.DISCARDED, parent, ok_dropped=True)
        return ResultUse(UseClass.PROPAGATED, parent, ok_escapes=True)

    def _err_in(self, node: Node | None, decided_at: Node) -> ResultUse:
        if node is None:
            return ResultUse(UseClass.DISCARDED, decided_at, ok_dropped=True)
        return ResultUse(self.err_path(node), decided_at, err_path=[node])

    def _bool_use(self, node: Node, true_means_err: bool) -> ResultUse:
        """A bool that says whether the op failed (``true_means_err``) or succeeded."""
        current = outer_parens(node, self.ancestry)
        while True:
            parent = self.ancestry.parent(current)
            if parent is None:
                return ResultUse(UseClass.DISCARDED, node, ok_dropped=True)
            if parent.type == "unary_expression" and text(parent.children[0]) == "!":
                true_means_err = not true_means_err
                current = outer_parens(parent, self.ancestry)
                continue
            if parent.type == "binary_expression" and text(
                parent.child_by_field_name("operator")
            ) in ("&&", "||"):
                current = outer_parens(parent, self.ancestry)
                continue
            break
        parent = self.ancestry.parent(current)
        assert parent is not None
        if parent.type == "expression_statement":
            return ResultUse(UseClass.DISCARDED, node, ok_dropped=True)
        if (
            parent.type in ("if_expression", "while_expression")
            and field_of(current, self.ancestry) == "condition"
        ):
            consequence = parent.child_by_field_name("consequence") or parent.child_by_field_name(
                "body"
            )
            alternative = parent.child_by_field_name("alternative")
            branch = consequence if true_means_err else alternative
            result = self._err_in(branch, parent)
            result.ok_dropped = True
            return result
        if parent.type == "let_declaration" and field_of(current, self.ancestry) == "value":
            pattern = parent.child_by_field_name("pattern")
            if pattern is None or pattern.type == "_":
                return ResultUse(UseClass.DISCARDED, parent, ok_dropped=True)
            if pattern.type == "identifier":
                binding = self.model.resolution.binding_of(pattern)
                if binding is not None:
                    uses = [
                        self._bool_use(u.node, true_means_err)
                        if u.macro is None
                        else self._macro_use(u)
                        for u in binding.uses
                    ]
                    return _strongest(uses, parent)
        return ResultUse(UseClass.PROPAGATED, parent, ok_escapes=True)

    def _match(self, match: Node) -> ResultUse:
        body = match.child_by_field_name("body")
        arms = [c for c in body.named_children if c.type == "match_arm"] if body is not None else []
        err_arms: list[Node] = []
        handled: list[Node] = []  # Err arms that hand the error out as the match's value
        asserted_failure = False
        result = ResultUse(UseClass.DISCARDED, match)
        for arm in arms:
            pattern = arm.child_by_field_name("pattern")
            value = arm.child_by_field_name("value")
            if pattern is None or value is None:
                continue
            covers_err, covers_ok, ok_pattern = _arm_covers(pattern)
            if covers_ok and not covers_err and self.err_path(value) is UseClass.PANICKING:
                # `Ok(_) => panic!(..)`: the code asserts the failure (a negative test)
                asserted_failure = True
            if covers_err:
                err_arms.append(value)
                if _yields_bound(value, pattern, self.ancestry) and self._value_used(match):
                    # `let e = match op() { Ok(_) => .., Err(e) => e }; report(e)`
                    handled.append(value)
            if covers_ok and ok_pattern is not None:
                self._bind_ok(ok_pattern, result)
            elif covers_ok:
                result.ok_dropped = True
        if not err_arms:
            result.use = UseClass.PROPAGATED
            return result
        result.use = max(
            UseClass.HANDLED if v in handled or asserted_failure else self._err_arm(v, match)
            for v in err_arms
        )
        result.err_path = err_arms
        return result

    def _value_used(self, expression: Node) -> bool:
        """Whether the value of ``expression`` is bound by a `let` to a name that is used."""
        parent = self.ancestry.parent(expression)
        if parent is None or parent.type != "let_declaration":
            return False
        pattern = parent.child_by_field_name("pattern")
        if pattern is None or pattern.type != "identifier":
            return False
        binding = self.model.resolution.binding_of(pattern)
        return binding is not None and bool(binding.uses)

    def _err_arm(self, value: Node, match: Node) -> UseClass:
        """An Err arm whose value is an `Err(..)` hands the error on to whoever uses the
        match (`Err(e) => Err(e.into())` as a function's tail is propagation)."""
        tail = value
        if tail.type == "block":
            named = [
                c for c in tail.named_children if c.type not in ("line_comment", "block_comment")
            ]
            tail = named[-1] if named and is_tail_expression(named[-1], self.ancestry) else tail
        if tail.type == "call_expression" and call_path(tail)[-1:] == ["Err"]:
            return max(self.err_path(value), self.use_of(match).use)
        return self.err_path(value)

    def _let_condition(self, condition: Node) -> ResultUse:
        pattern = condition.child_by_field_name("pattern")
        owner = self.ancestry.parent(condition)
        while owner is not None and owner.type == "let_chain":
            owner = self.ancestry.parent(owner)
        if pattern is None or owner is None:
            return ResultUse(UseClass.PROPAGATED, condition, ok_escapes=True)
        consequence = owner.child_by_field_name("consequence") or owner.child_by_field_name("body")
        alternative = owner.child_by_field_name("alternative")
        covers_err, covers_ok, ok_pattern = _arm_covers(pattern)
        if covers_err and not covers_ok:
            result = self._err_in(consequence, owner)
            result.ok_dropped = True
            return result
        if covers_ok:
            result = self._err_in(alternative, owner)
            if alternative is None and consequence is not None and _always_panics(consequence):
                result.use = UseClass.HANDLED  # `if let Ok(_) = op { panic!(..) }`: a negative test
            if ok_pattern is not None:
                self._bind_ok(ok_pattern, result)
            else:
                result.ok_dropped = True
            return result
        return ResultUse(UseClass.PROPAGATED, owner, ok_escapes=True)

    def _ok_pattern(self, pattern: Node, result: ResultUse) -> None:
        ok_pattern = _arm_covers(pattern)[2]
        if ok_pattern is not None:
            self._bind_ok(ok_pattern, result)
        else:
            result.ok_dropped = True

    def _bind_ok(self, ok_pattern: Node, result: ResultUse) -> None:
        """``Ok(r)``: r holds the Ok value; ``Ok(_)``/``Ok(())`` drop it; ``Ok((a, b))`` and
        ``Ok(S { .. })`` take it apart."""
        type_node = ok_pattern.child_by_field_name("type")
        inner = [c for c in ok_pattern.named_children if c != type_node]
        bound = False
        for child in inner:
            target = child
            if target.type == "mut_pattern":
                target = next((c for c in target.named_children if c.type == "identifier"), target)
            if target.type == "identifier":
                binding = self.model.resolution.binding_of(target)
                if binding is not None:
                    result.ok_bindings.append(binding)
                    bound = True
            elif target.type in ("tuple_pattern", "struct_pattern"):
                result.ok_patterns.append(target)
                bound = True
        if not bound:
            result.ok_dropped = True

    # the Err path -----------------------------------------------------------------------------
    def err_path(self, node: Node) -> UseClass:
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


_DIVERGING = frozenset({"panic", "unreachable", "todo", "unimplemented"})


def _always_panics(block: Node) -> bool:
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


def _yields_bound(value: Node, pattern: Node, ancestry: Ancestry) -> bool:
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


def _arm_covers(pattern: Node) -> tuple[bool, bool, Node | None]:
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


# ApplyResult -------------------------------------------------------------------------------------


# What reading an ``ApplyResult`` verifies: a set of these names. Formatting, returning or
# passing on the whole result verifies both (its Display lists missing paths and errors).
MISSING = "missing"  # `.missing` read
ERRORS = "errors"  # `.errors` read or `.is_success()` called
Check = frozenset[str]
NOTHING: Check = frozenset()
WHOLE: Check = frozenset({MISSING, ERRORS})


FIELD_CHECKS: dict[str, Check] = {
    "missing": frozenset({MISSING}),
    "errors": frozenset({ERRORS}),
    "is_success": frozenset({ERRORS}),
}


# The methods of `CHAIN_METHODS` that hand a `Result`'s Ok value on unchanged; `map` replaces
# it with what a closure makes of it.
_OK_KEEPING = CHAIN_METHODS - {"map", "into"}


def ok_map_call(op_node: Node, ancestry: Ancestry) -> Node | None:
    """The ``.map(..)`` call in the chain of ``Result`` methods after the op, if any: the
    Ok value after it is no longer the op's but what the mapping makes of it."""
    node = op_node
    while True:
        node = outer_parens(node, ancestry)
        access = ancestry.parent(node)
        call = ancestry.parent(access) if access is not None else None
        if (
            access is None
            or access.type != "field_expression"
            or call is None
            or call.type != "call_expression"
            or field_of(access, ancestry) != "function"
        ):
            return None
        method = text(access.child_by_field_name("field"))
        if method == "map":
            return call
        if method not in _OK_KEEPING:
            return None
        node = call


APPLIED = "applied"
_EQUALITY = ("==", "!=")
_EQUALITY_MACROS = frozenset({"assert_eq", "assert_ne", "debug_assert_eq", "debug_assert_ne"})
# what keeps a list of applied paths the same list (or its set of paths)
_SAME_PATHS = frozenset({"iter", "into_iter", "cloned", "collect", "clone", "to_vec", "into"})
_GATHERING = frozenset({"extend", "append"})


def applied_compared(access: Node, model: FileModel) -> bool:
    """Whether ``r.applied`` is compared as a whole (``==``/``!=``, ``assert_eq!``), itself or
    its length, directly or after being gathered into a list or set (``all.extend(r.applied)``
    then ``all.len() != expected``): a completeness check, which says what `missing` would."""
    ancestry = model.ancestry
    pending = [access]
    seen: set[int] = set()
    while pending:
        node = outer_parens(pending.pop(), ancestry)
        if node.id in seen or len(seen) > MAX_FOLLOW_DEPTH:
            continue
        seen.add(node.id)
        parent = ancestry.parent(node)
        if parent is None:
            continue
        if parent.type == "binary_expression":
            if text(parent.child_by_field_name("operator")) in _EQUALITY:
                return True
            continue
        if parent.type == "reference_expression":
            pending.append(parent)
        elif parent.type == "field_expression" and field_of(node, ancestry) == "value":
            call = ancestry.parent(parent)
            method = text(parent.child_by_field_name("field"))
            if (
                call is not None
                and call.type == "call_expression"
                and (method in _SAME_PATHS or method == "len")
            ):
                pending.append(call)
        elif parent.type == "let_declaration" and field_of(node, ancestry) == "value":
            pattern = parent.child_by_field_name("pattern")
            if pattern is not None and pattern.type == "mut_pattern":
                pattern = next((c for c in pattern.named_children if c.type == "identifier"), None)
            binding = model.resolution.binding_of(pattern) if pattern is not None else None
            if binding is not None and _uses(binding, parent.end_byte, pending):
                return True
        elif parent.type == "arguments":
            call = ancestry.parent(parent)
            parts = method_call_parts(call) if call is not None else None
            if parts is not None and parts[1] in _GATHERING:
                binding = model.resolution.binding_of(strip_reference(parts[0]))
                if binding is not None and _uses(binding, parts[0].end_byte, pending):
                    return True
    return False


def _uses(binding: Binding, after: int, pending: list[Node]) -> bool:
    """Queue the uses of ``binding`` after ``after``; True when one is an argument of an
    equality assertion (``assert_eq!(all.len(), n)``)."""
    for use in binding.uses:
        if use.node.start_byte < after:
            continue
        if use.macro is None:
            pending.append(use.node)
        elif not use.capture and (
            macro_name(use.macro) in _EQUALITY_MACROS or _compared_in_tokens(use.node)
        ):
            return True
    return False


def _compared_in_tokens(node: Node) -> bool:
    """In a macro's tokens (``ensure!(all.len() == n, ..)``): whether the expression that
    starts at ``node`` (``all``, ``.len``, ``()``) stands next to ``==`` or ``!=``."""
    before = node.prev_sibling
    if before is not None and before.type in _EQUALITY:
        return True
    after = node.next_sibling
    while after is not None and (
        after.type in (".", "identifier")
        or (after.type == "token_tree" and text(after).startswith("("))
    ):
        after = after.next_sibling
    return after is not None and after.type in _EQUALITY


def macro_use_checks(use: Use, what: str = "result", path: tuple[int | str, ...] = ()) -> Check:
    """What a use in a macro's arguments reads of what is followed (an ``ApplyResult``:
    ``what`` "result"; or its ``missing``/``errors`` list), held at ``path`` in the used
    binding's value (tuple indices, struct fields). Formatting a value whole prints the
    result's missing paths and errors (``{r:?}``, ``"{}", r``); reading another field of a
    value that holds it reads nothing of it; a method of that value may read it."""
    followed = WHOLE if what == "result" else frozenset({what})
    if use.capture:
        return followed
    trail = use.trail
    for depth, step in enumerate(path):
        if depth >= len(trail) or depth >= use.fields:
            return followed  # printed whole, or a method of the value holding it
        if trail[depth] != str(step):
            return NOTHING  # another field
    rest = trail[len(path) :]
    if what != "result" or not rest:
        return followed
    if rest[0] == APPLIED and (
        (use.macro is not None and macro_name(use.macro) in _EQUALITY_MACROS)
        or _compared_in_tokens(use.node)
    ):
        return frozenset({MISSING})  # `assert_eq!(r.applied, expected)`: nothing missing
    return FIELD_CHECKS.get(rest[0], NOTHING)


class ApplyChecker:
    """Which parts of an ``ApplyResult`` value some code reads."""

    def __init__(self, model: FileModel) -> None:
        self.model = model
        self.ancestry = model.ancestry
        self.visiting: set[int] = set()

    def of_mapped(self, map_call: Node) -> Check:
        """What ``.map(|r| ..)`` reads of the ``ApplyResult`` it is given: the closure's
        reads of its parameter; a function passed by name may read anything."""
        arguments = arguments_of(map_call)
        closure = arguments[0] if len(arguments) == 1 else None
        if closure is None or closure.type != "closure_expression":
            return WHOLE
        parameters = closure.child_by_field_name("parameters")
        names = (
            [c for c in parameters.children if c.type not in ("|", ",")]
            if parameters is not None
            else []
        )
        if len(names) != 1:
            return WHOLE
        pattern = names[0]
        if pattern.type == "_":
            return NOTHING  # `|_| ()`: dropped
        if pattern.type == "parameter":
            pattern = pattern.child_by_field_name("pattern") or pattern
        if pattern.type == "mut_pattern":
            pattern = next((c for c in pattern.named_children if c.type == "identifier"), pattern)
        binding = (
            self.model.resolution.binding_of(pattern) if pattern.type == "identifier" else None
        )
        if binding is None:
            return WHOLE
        return self.of_binding(binding, after=pattern.end_byte)

    def of_result_use(self, use: ResultUse) -> Check:
        if use.ok_escapes:
            return WHOLE
        checks = NOTHING
        for value in use.ok_values:
            checks |= self.of_value(value)
        for binding in use.ok_bindings:
            checks |= self.of_binding(binding, after=binding.node.end_byte)
        for pattern in use.ok_patterns:
            checks |= _struct_pattern_checks(pattern)
        return checks

    def of_binding(self, binding: Binding, after: int) -> Check:
        checks = NOTHING
        for use in binding.uses:
            if use.node.start_byte < after:
                continue
            if use.macro is not None:
                checks |= self._macro(use)
            else:
                checks |= self.of_value(use.node)
        return checks

    def _block_value(self, block: Node) -> Check:
        """A value that becomes the value of ``block``."""
        owner = self.ancestry.parent(block)
        if owner is None:
            return NOTHING
        if owner.type in ("function_item", "closure_expression"):
            return WHOLE  # returned: the caller checks it
        return self.of_value(block)

    def _macro(self, use: Use) -> Check:
        return macro_use_checks(use)

    def of_value(self, node: Node) -> Check:
        key = node.id
        if key in self.visiting:
            return NOTHING
        if len(self.visiting) >= MAX_FOLLOW_DEPTH:
            return WHOLE  # too deep to follow: count it as checked, a finding must be certain
        self.visiting.add(key)
        try:
            return self._of_value(node)
        finally:
            self.visiting.discard(key)

    def _of_value(self, node: Node) -> Check:
        node = outer_parens(node, self.ancestry)
        parent = self.ancestry.parent(node)
        if parent is None:
            return NOTHING
        kind = parent.type
        if kind == "field_expression" and field_of(node, self.ancestry) == "value":
            name = text(parent.child_by_field_name("field"))
            if name == APPLIED and applied_compared(parent, self.model):
                return frozenset({MISSING})
            return FIELD_CHECKS.get(name, NOTHING)
        if kind == "let_declaration" and field_of(node, self.ancestry) == "value":
            pattern = parent.child_by_field_name("pattern")
            if pattern is not None and pattern.type == "mut_pattern":
                pattern = next(
                    (c for c in pattern.named_children if c.type == "identifier"), pattern
                )
            if pattern is not None and pattern.type == "identifier":
                binding = self.model.resolution.binding_of(pattern)
                if binding is not None:
                    return self.of_binding(binding, after=parent.end_byte)
            if pattern is not None:
                return _struct_pattern_checks(pattern)
            return NOTHING
        if kind == "expression_statement":
            block = self.ancestry.parent(parent)
            if holds_block_value(parent, self.ancestry) and block is not None:
                # the tail, or a block-like statement that compiles only as the tail
                return self._block_value(block)
            return NOTHING
        if kind == "block" and is_tail_expression(node, self.ancestry):
            return self._block_value(parent)
        if kind == "match_arm" and field_of(node, self.ancestry) == "value":
            # an arm's value is the value of its `match`
            arms = self.ancestry.parent(parent)
            match = self.ancestry.parent(arms) if arms is not None else None
            if match is not None and match.type == "match_expression":
                return self.of_value(match)
            return NOTHING
        if kind == "else_clause" or (
            kind == "if_expression"
            and field_of(node, self.ancestry) in ("consequence", "alternative")
        ):
            # a branch's value is the value of its `if`
            return self.of_value(parent)
        if kind in ("unsafe_block", "const_block"):
            return self.of_value(parent)
        if kind in (
            "arguments",
            "return_expression",
            "field_initializer",
            "shorthand_field_initializer",
            "array_expression",
            "tuple_expression",
        ):
            if kind == "arguments":
                call = self.ancestry.parent(parent)
                if call is not None and call_path(call)[-1:] == ["drop"]:
                    return NOTHING
                return self.model.argument_checks(node)
            return WHOLE
        if kind == "reference_expression":
            return self.of_value(parent)
        if kind == "try_expression":
            return self.of_value(parent)
        if kind == "assignment_expression" and field_of(node, self.ancestry) == "right":
            left = parent.child_by_field_name("left")
            if left is not None and left.type == "identifier":
                binding = self.model.resolution.binding_of(left)
                if binding is not None:
                    return self.of_binding(binding, after=parent.end_byte)
            return WHOLE
        if kind == "match_expression":
            return WHOLE
        return NOTHING


def _struct_pattern_checks(pattern: Node) -> Check:
    """What ``ApplyResult { missing, .. }`` reads: the fields it names (any other pattern of
    an `ApplyResult` reads nothing)."""
    if pattern.type != "struct_pattern":
        return NOTHING
    checks = NOTHING
    for child in walk(pattern):
        if child.type in ("shorthand_field_identifier", "field_identifier"):
            checks |= FIELD_CHECKS.get(text(child), NOTHING)
    return checks
