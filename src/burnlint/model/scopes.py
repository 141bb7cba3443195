"""Lexical name resolution: which binding each identifier refers to.

One iterative pass over a file. ``let`` bindings become visible after their statement and
shadow earlier ones; function items are barriers (they cannot capture); closures, match arms,
``if let``/``while let`` and ``for`` patterns open scopes. Identifiers in macro token trees and
``{name}`` captures count as uses (and, by position, resolve those names in macro code read by
``macros.py``); ``quote!``-like templates are opaque; a ``macro_rules!`` body stands alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from burnlint.rust.syntax import macro_name, text, unwrap_parens

if TYPE_CHECKING:
    from tree_sitter import Node

    from burnlint.rust.syntax import Ancestry

# Templates whose tokens are code for another program, not uses in this one.
OPAQUE_MACROS = frozenset({"quote", "quote_spanned", "parse_quote", "parse_quote_spanned"})

CAPTURE = re.compile(r"(?<!\{)\{([A-Za-z_][A-Za-z0-9_]*)(?=[:}])")


@dataclass(eq=False)
class Use:
    """One reference to a binding.

    ``node`` is the identifier (or, for a format capture, the string literal). For references
    inside a macro's token tree, ``macro`` is the innermost macro invocation and ``trail`` the
    ``.name`` tokens that follow the identifier (``r.missing.is_empty()`` -> missing, is_empty;
    ``fields`` 1: ``is_empty`` is called).
    """

    node: Node
    macro: Node | None = None
    trail: tuple[str, ...] = ()
    capture: bool = False
    fields: int = 0  # how many names of ``trail`` come before the first method call


@dataclass(eq=False)
class Binding:
    name: str
    node: Node  # the identifier in the pattern
    kind: str  # let, param, for, closure, match, if_let, let_else, self
    declaration: Node  # let_declaration, parameter, for_expression, match_arm, ...
    value: Node | None = None  # for `let x = value` with a plain identifier pattern
    uses: list[Use] = field(default_factory=list)
    assignments: list[Node] = field(default_factory=list)  # `x = ..` / `x += ..`
    mutable_borrows: list[Node] = field(default_factory=list)  # `&mut x`, `x.method()` unknown


@dataclass
class Resolution:
    bindings: list[Binding] = field(default_factory=list)
    by_reference: dict[int, Binding] = field(default_factory=dict)  # identifier node id -> binding
    by_declaration: dict[int, Binding] = field(default_factory=dict)  # pattern identifier id
    captures: dict[tuple[int, str], Binding] = field(default_factory=dict)  # (literal id, name)
    # a reference in a macro's tokens by its start byte, where macro code starts it too
    by_position: dict[int, Binding] = field(default_factory=dict)

    def binding_of(self, identifier: Node) -> Binding | None:
        found = self.by_reference.get(identifier.id) or self.by_declaration.get(identifier.id)
        if found is None and identifier.type in ("identifier", "self"):
            return self.by_position.get(identifier.start_byte)
        return found


_BARRIER = None  # marks a function item's scope boundary in the scope stack

# Identifiers under these node types are paths, types, labels or names, never variables.
_NOT_VARIABLE_PARENTS = frozenset(
    {
        "scoped_identifier",
        "scoped_type_identifier",
        "label",
        "macro_invocation",
        "use_declaration",
        "attribute_item",
        "inner_attribute_item",
        "lifetime",
        "function_item",
        "function_signature_item",
        "struct_item",
        "enum_item",
        "enum_variant",
        "mod_item",
        "trait_item",
        "type_item",
        "const_item",
        "static_item",
        "generic_function",
        "meta_item",
        "extern_crate_declaration",
        "field_declaration",
        "macro_definition",
    }
)

_ITEM_BARRIERS = frozenset({"function_item", "const_item", "static_item"})
_SKIP = frozenset(
    {
        "macro_definition",
        "use_declaration",
        "attribute_item",
        "inner_attribute_item",
        "line_comment",
        "block_comment",
        "type_identifier",
        "primitive_type",
        "generic_type",
        "reference_type",
        "struct_item",
        "enum_item",
        "trait_item",
        "type_item",
        "extern_crate_declaration",
    }
)


def pattern_identifiers(pattern: Node) -> list[Node]:
    """The identifiers a pattern binds (``Ok(r)`` -> r; ``Foo { a, b: c }`` -> a, c)."""
    found: list[Node] = []
    stack = [pattern]
    while stack:
        node = stack.pop()
        kind = node.type
        if kind == "identifier":
            name = text(node)
            # `None`, `Ordering::Less`, constants: uppercase-initial identifiers are not bindings
            if name and not name[0].isupper():
                found.append(node)
            continue
        if kind == "shorthand_field_identifier":
            found.append(node)
            continue
        if kind in ("scoped_identifier", "type_identifier", "field_identifier"):
            continue
        for index in range(node.child_count - 1, -1, -1):
            child = node.children[index]
            if (
                node.type in ("tuple_struct_pattern", "struct_pattern")
                and node.field_name_for_child(index) == "type"
            ):
                continue
            if (
                node.type == "field_pattern"
                and node.field_name_for_child(index) == "name"
                and any(node.field_name_for_child(i) == "pattern" for i in range(node.child_count))
            ):
                continue
            if node.type == "match_pattern" and node.field_name_for_child(index) == "condition":
                continue
            stack.append(child)
    return found


class _Resolver:
    def __init__(self) -> None:
        self.result = Resolution()
        self.scopes: list[dict[str, Binding] | None] = [{}]

    # scope handling ----------------------------------------------------------------------
    def lookup(self, name: str) -> Binding | None:
        for scope in reversed(self.scopes):
            if scope is _BARRIER:
                return None
            if name in scope:
                return scope[name]
        return None

    def declare(self, pattern: Node, kind: str, declaration: Node, value: Node | None) -> None:
        simple = pattern.type == "identifier" or (
            pattern.type == "mut_pattern" and pattern.named_child_count == 2
        )
        for identifier in pattern_identifiers(pattern):
            binding = Binding(
                name=text(identifier),
                node=identifier,
                kind=kind,
                declaration=declaration,
                value=value if simple else None,
            )
            self.result.bindings.append(binding)
            self.result.by_declaration[identifier.id] = binding
            scope = self.scopes[-1]
            if scope is not None:
                scope[binding.name] = binding

    def reference(self, identifier: Node, use: Use) -> Binding | None:
        binding = self.lookup(text(identifier))
        if binding is None:
            return None
        binding.uses.append(use)
        self.result.by_reference[identifier.id] = binding
        return binding

    # the walk --------------------------------------------------------------------------------
    def run(self, root: Node) -> Resolution:
        # tasks: ("visit", node, its parent), ("push",), ("barrier",), ("pop",), ("pop_barrier",),
        # ("declare", pattern, kind, declaration, value), ("declare_self", node, parameter),
        # ("assign", target, expression), ("mut_borrow", target, expression)
        # a scope's root is an item or the file, never an identifier: its parent is not needed
        # (the tasks' members are typed by their kind; read without ``cast``, a call per task)
        tasks: list[tuple[Any, ...]] = [("visit", root, None)]
        while tasks:
            task = tasks.pop()
            op = task[0]
            if op == "visit":
                self.visit(task[1], task[2], tasks)
            elif op == "push":
                self.scopes.append({})
            elif op == "barrier":
                self.scopes.append(_BARRIER)
                self.scopes.append({})
            elif op == "pop":
                self.scopes.pop()
            elif op == "pop_barrier":
                self.scopes.pop()
                self.scopes.pop()
            elif op == "declare":
                self.declare(task[1], task[2], task[3], task[4])
            elif op == "declare_self":
                binding = Binding("self", task[1], "self", task[2])
                self.result.bindings.append(binding)
                scope = self.scopes[-1]
                if scope is not None:
                    scope["self"] = binding
            elif op in ("assign", "mut_borrow"):
                target: Node = unwrap_parens(task[1])
                expression: Node = task[2]
                if target.type == "identifier":
                    found = self.lookup(text(target))
                    if found is not None:
                        if op == "assign":
                            found.assignments.append(expression)
                        else:
                            found.mutable_borrows.append(expression)
        return self.result

    def visit(self, node: Node, parent: Node | None, tasks: list[tuple[Any, ...]]) -> None:
        """Handle ``node``; ``parent`` comes with it because ``Node.parent`` descends from the
        root (O(depth)) on every call."""
        kind = node.type
        if kind in _SKIP:
            return
        if kind == "identifier":
            if parent is not None and parent.type not in _NOT_VARIABLE_PARENTS:
                self.reference(node, Use(node))
            return
        if kind == "self":
            binding = self.lookup("self")
            if binding is not None:
                binding.uses.append(Use(node))
                self.result.by_reference[node.id] = binding
            return
        if kind == "macro_invocation":
            self.visit_macro(node)
            return
        # Later tasks are pushed first (LIFO): each handler lists its steps in reverse.
        later: list[tuple[Any, ...]] = []
        # anonymous nodes (`{`, `;`, `mut`) neither bind nor refer: only named ones are visited
        if kind == "block":
            later.append(("push",))
            later.extend([("visit", c, node) for c in node.named_children])
            later.append(("pop",))
        elif kind in _ITEM_BARRIERS:
            later.append(("barrier",))
            parameters = node.child_by_field_name("parameters")
            if parameters is not None:
                for parameter in parameters.named_children:
                    if parameter.type == "self_parameter":
                        self_node = next((c for c in parameter.children if c.type == "self"), None)
                        if self_node is not None:
                            later.append(("declare_self", self_node, parameter))
                    elif parameter.type == "parameter":
                        pattern = parameter.child_by_field_name("pattern")
                        if pattern is not None:
                            later.append(("declare", pattern, "param", parameter, None))
            for name in ("value", "body"):
                child = node.child_by_field_name(name)
                if child is not None:
                    later.append(("visit", child, node))
            later.append(("pop_barrier",))
        elif kind == "let_declaration":
            pattern = node.child_by_field_name("pattern")
            value = node.child_by_field_name("value")
            alternative = node.child_by_field_name("alternative")
            if value is not None:
                later.append(("visit", value, node))
            if alternative is not None:
                later.append(("visit", alternative, node))
            if pattern is not None:
                binding_kind = "let_else" if alternative is not None else "let"
                later.append(("declare", pattern, binding_kind, node, value))
        elif kind == "closure_expression":
            later.append(("push",))
            parameters = node.child_by_field_name("parameters")
            if parameters is not None:
                for parameter in parameters.named_children:
                    pattern = parameter
                    if parameter.type == "parameter":
                        pattern = parameter.child_by_field_name("pattern") or parameter
                    if pattern.type in ("type_identifier", "primitive_type", "reference_type"):
                        continue
                    later.append(("declare", pattern, "closure", parameter, None))
            body = node.child_by_field_name("body")
            if body is not None:
                later.append(("visit", body, node))
            later.append(("pop",))
        elif kind == "for_expression":
            value = node.child_by_field_name("value")
            pattern = node.child_by_field_name("pattern")
            body = node.child_by_field_name("body")
            if value is not None:
                later.append(("visit", value, node))
            later.append(("push",))
            if pattern is not None:
                later.append(("declare", pattern, "for", node, None))
            if body is not None:
                later.append(("visit", body, node))
            later.append(("pop",))
        elif kind in ("if_expression", "while_expression"):
            condition = node.child_by_field_name("condition")
            consequence = node.child_by_field_name("consequence") or node.child_by_field_name(
                "body"
            )
            alternative = node.child_by_field_name("alternative")
            later.append(("push",))
            if condition is not None:
                later.append(("visit", condition, node))
            if consequence is not None:
                later.append(("visit", consequence, node))
            later.append(("pop",))
            if alternative is not None:
                later.append(("visit", alternative, node))
        elif kind == "let_condition":
            value = node.child_by_field_name("value")
            pattern = node.child_by_field_name("pattern")
            if value is not None:
                later.append(("visit", value, node))
            if pattern is not None:
                later.append(("declare", pattern, "if_let", node, None))
        elif kind == "match_arm":
            later.append(("push",))
            pattern = node.child_by_field_name("pattern")
            if pattern is not None:
                later.append(("declare", pattern, "match", node, None))
                condition = pattern.child_by_field_name("condition")
                if condition is not None:
                    later.append(("visit", condition, pattern))
            value = node.child_by_field_name("value")
            if value is not None:
                later.append(("visit", value, node))
            later.append(("pop",))
        elif kind in ("assignment_expression", "compound_assignment_expr"):
            left = node.child_by_field_name("left")
            right = node.child_by_field_name("right")
            if right is not None:
                later.append(("visit", right, node))
            if left is not None:
                if left.type == "identifier":
                    later.append(("assign", left, node))
                    if kind == "compound_assignment_expr":
                        later.append(("visit", left, node))
                else:
                    later.append(("visit", left, node))
        elif kind == "reference_expression":
            value = node.child_by_field_name("value")
            if value is not None and any(c.type == "mutable_specifier" for c in node.children):
                later.append(("mut_borrow", value, node))
            if value is not None:
                later.append(("visit", value, node))
        elif kind in (
            "field_identifier",
            "shorthand_field_identifier",
            "string_literal",
            "raw_string_literal",
        ):
            return
        else:
            later.extend([("visit", c, node) for c in node.named_children])
        tasks.extend(reversed(later))

    def visit_macro(self, invocation: Node) -> None:
        name = macro_name(invocation)
        if name in OPAQUE_MACROS:
            return
        # token trees: every identifier not preceded by `.` or `::` is a possible use
        stack = [c for c in invocation.children if c.type == "token_tree"]
        while stack:
            tree = stack.pop()
            children = tree.children
            for index, child in enumerate(children):
                if child.type == "token_tree":
                    stack.append(child)
                elif child.type == "identifier":
                    previous = children[index - 1].type if index > 0 else ""
                    if previous in (".", "::"):
                        continue
                    found = self.reference(child, _macro_use(child, invocation, children, index))
                    if found is not None:
                        self.result.by_position[child.start_byte] = found
                elif child.type == "self":
                    binding = self.lookup("self")
                    if binding is not None:
                        binding.uses.append(_macro_use(child, invocation, children, index))
                        self.result.by_position[child.start_byte] = binding
                elif child.type in ("string_literal", "raw_string_literal"):
                    for match in CAPTURE.finditer(text(child)):
                        binding = self.lookup(match.group(1))
                        if binding is not None:
                            binding.uses.append(Use(child, macro=invocation, capture=True))
                            self.result.captures[(child.id, match.group(1))] = binding


def _macro_use(node: Node, invocation: Node, tokens: list[Node], index: int) -> Use:
    """A reference in a macro's tokens, with the names after it: ``.missing.is_empty()`` ->
    ("missing", "is_empty"), of which the first one is a field (``is_empty`` is called)."""
    names: list[str] = []
    fields: int | None = None
    i = index + 1
    while (
        i + 1 < len(tokens)
        and tokens[i].type == "."
        and tokens[i + 1].type in ("identifier", "integer_literal")
    ):
        names.append(text(tokens[i + 1]))
        following = tokens[i + 2] if i + 2 < len(tokens) else None
        if fields is None and (
            following is not None
            and (
                following.type == "::"  # `r.missing.iter::<..>()`
                or (following.type == "token_tree" and text(following).startswith("("))
            )
        ):
            fields = len(names) - 1
        i += 2
    return Use(
        node,
        macro=invocation,
        trail=tuple(names),
        fields=len(names) if fields is None else fields,
    )


def resolve(root: Node) -> Resolution:
    return _Resolver().run(root)


def _outermost_barrier(outer: Node | None, node: Node) -> Node | None:
    """The outermost item barrier among ``node`` and its ancestors (``outer``: among its
    ancestors); a ``macro_rules!`` body (``macros.py``) is not inside what encloses it."""
    if node.type == "macro_definition":
        return None
    if outer is not None:
        return outer
    return node if node.type in _ITEM_BARRIERS else None


class LazyResolution:
    """Name resolution computed per top-level function on first demand.

    Local bindings never cross a function item, so a file's functions resolve independently;
    most functions of a candidate file hold no store operation and are never resolved.
    """

    def __init__(self, root: Node, ancestry: Ancestry) -> None:
        self.root = root
        self.ancestry = ancestry
        self._done: dict[int, Resolution] = {}
        self._barriers: dict[int, Node | None] = {}  # node id -> outermost barrier around it

    def _scope_root(self, node: Node) -> Node:
        outermost = self.ancestry.fold_down(node, self._barriers, None, _outermost_barrier)
        return outermost if outermost is not None else self.root

    def resolution_for(self, node: Node) -> Resolution:
        scope = self._scope_root(node)
        resolution = self._done.get(scope.id)
        if resolution is None:
            resolution = self._done[scope.id] = _Resolver().run(scope)
        return resolution

    def binding_of(self, identifier: Node) -> Binding | None:
        return self.resolution_for(identifier).binding_of(identifier)

    def captures_of(self, literal: Node, name: str) -> Binding | None:
        return self.resolution_for(literal).captures.get((literal.id, name))
