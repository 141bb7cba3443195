"""``ResultUse``: how the ``Result`` of a store operation is consumed, one class per op
(what its ``ApplyResult`` is checked for is ``apply_checks.py``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from burnlint.model.limits import MAX_FOLLOW_DEPTH
from burnlint.model.result_forms import (
    ASSERT_MACROS,
    CHAIN_METHODS,
    DISCARD_METHODS,
    EARLY_RETURN_MACROS,
    FORMAT_MACROS,
    LOG_MACROS,
    PANIC_METHODS,
    ResultUse,
    UseClass,
    always_panics,
    arm_covers,
    classify_err_path,
    strongest,
    yields_bound,
)
from burnlint.model.scopes import Binding, Use
from burnlint.rust.syntax import (
    arguments_of,
    call_path,
    field_of,
    holds_block_value,
    is_tail_expression,
    macro_name,
    outer_parens,
    text,
    unmut,
)

if TYPE_CHECKING:
    from tree_sitter import Node

    from burnlint.model.reads import SyntaxReads


class ResultClassifier:
    def __init__(self, model: SyntaxReads) -> None:
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
                    return self.use_of(call)
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
        if kind == "else_clause":
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
        identifier = unmut(pattern)
        if identifier.type == "identifier":
            binding = self.model.resolution.binding_of(identifier)
            if binding is not None:
                return self._binding_uses(binding, after=declaration.end_byte, fallback=declaration)
        return ResultUse(UseClass.PROPAGATED, declaration, ok_escapes=True)

    def _binding_uses(self, binding: Binding, after: int, fallback: Node) -> ResultUse:
        uses: list[ResultUse] = []
        for use in binding.uses:
            if use.node.start_byte < after:
                continue
            uses.append(self._use_of_reference(use))
        return strongest(uses, fallback)

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
                    return strongest(uses, parent)
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
            covers_err, covers_ok, ok_pattern = arm_covers(pattern)
            if covers_ok and not covers_err and self.err_path(value) is UseClass.PANICKING:
                # `Ok(_) => panic!(..)`: the code asserts the failure (a negative test)
                asserted_failure = True
            if covers_err:
                err_arms.append(value)
                if yields_bound(value, pattern, self.ancestry) and self._value_used(match):
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
        covers_err, covers_ok, ok_pattern = arm_covers(pattern)
        if covers_err and not covers_ok:
            result = self._err_in(consequence, owner)
            result.ok_dropped = True
            return result
        if covers_ok:
            result = self._err_in(alternative, owner)
            if alternative is None and consequence is not None and always_panics(consequence):
                result.use = UseClass.HANDLED  # `if let Ok(_) = op { panic!(..) }`: a negative test
            if ok_pattern is not None:
                self._bind_ok(ok_pattern, result)
            else:
                result.ok_dropped = True
            return result
        return ResultUse(UseClass.PROPAGATED, owner, ok_escapes=True)

    def _ok_pattern(self, pattern: Node, result: ResultUse) -> None:
        ok_pattern = arm_covers(pattern)[2]
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
            target = unmut(child)
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
        return classify_err_path(node)
