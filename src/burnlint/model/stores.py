"""``StoreBuild``: where a store is constructed and which options its builder chain sets."""

from __future__ import annotations

import enum
from bisect import bisect_left
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Protocol

from burnlint.findings import Edit, Location
from burnlint.model.burn_api import BurnStoreApi, StoreKind
from burnlint.model.field_values import FieldReads, field_literal
from burnlint.model.limits import MAX_ADAPTER_BINDINGS, MAX_EVALUATION_DEPTH
from burnlint.model.reads import SyntaxReads
from burnlint.model.result_forms import OK_KEEPING
from burnlint.rust.syntax import (
    arguments_of,
    call_path,
    macro_name,
    method_call_parts,
    strip_reference,
    text,
    walk,
)

if TYPE_CHECKING:
    from tree_sitter import Node

    from burnlint.model.helpers import ForeignStore, HelperSummary
    from burnlint.model.imports import ImportFacts
    from burnlint.model.scopes import Binding

_UNWRAPPING = frozenset({"unwrap", "expect"})
_COMMENTS = ("line_comment", "block_comment")
_DIVERGING_MACROS = frozenset({"panic", "bail", "unreachable", "todo", "unimplemented"})


class StoreReads(SyntaxReads, FieldReads, Protocol):
    """What evaluating expressions to stores reads of the file: its tree, its imports, the
    burn-store API assumed, and what the crate-local function a call calls does
    (``FileModel.helper_called``)."""

    @property
    def api(self) -> BurnStoreApi: ...
    @property
    def imports(self) -> ImportFacts: ...
    def helper_called(self, call: Node) -> HelperSummary | None: ...


class Backing(enum.Enum):
    FILE = "file"
    MEMORY = "memory"


@dataclass(frozen=True)
class OptionSetting:
    """An explicit builder call. ``value`` is the bool literal (None when not a literal);
    ``definite`` is False when it is set only on some paths (a conditional re-assignment)."""

    value: bool | None
    node: Node
    definite: bool = True
    # with ``definite`` False: the option is set on every path all the same, to another value
    # on some (`let s = X::new().o(true); if c { s = s.o(false) }`)
    everywhere: bool = False


@dataclass(frozen=True)
class StoreBuild:
    kind: StoreKind
    constructor: str
    backing: Backing
    constructor_node: Node  # the `X::from_file(..)` call
    path_argument: Node | None
    options: dict[str, OptionSetting] = field(default_factory=dict)
    adapters: frozenset[str] = frozenset()
    # the adapters given to `with_to_adapter` (those a save converts with)
    to_adapters: frozenset[str] = frozenset()
    remaps: bool = False
    # a path filter is set (`with_regex`, `with_full_path`, `filter(..)`, ..): the keys it
    # leaves out are neither loaded nor missing
    filters: bool = False
    # the `remap`/`with_key_remapping`/`with_remap_pattern` calls of the chain, in this file
    remap_calls: tuple[Node, ...] = ()
    # the crate-local function that builds the store in another file, as messages name it
    # (``constructor_node`` is then the call of it in this file)
    helper: str | None = None
    # where the constructor is, for a store built by a crate-local helper
    origin: Location | None = None
    # for such a store: the edit that adds `.overwrite(true)` to its constructor, there
    overwrite_edit: Edit | None = None
    # the stores the other branches build, when an `if`/`else` or a `match` chooses one
    # (``let s = if a { X::from_file(p) } else { X::from_file(q) }``): this is the first
    alternatives: tuple[StoreBuild, ...] = ()

    @property
    def variants(self) -> tuple[StoreBuild, ...]:
        """This store and its alternatives: each one is the store on some path."""
        return (self, *self.alternatives)

    def option(self, name: str) -> OptionSetting | None:
        return self.options.get(name)

    def is_set_true(self, name: str) -> bool:
        """The option is, or may be, set to `true` (an unknown value counts as maybe)."""
        setting = self.options.get(name)
        return setting is not None and setting.value is not False

    def with_option(self, name: str, setting: OptionSetting) -> StoreBuild:
        options = dict(self.options)
        options[name] = setting
        return replace(self, options=options)

    def merged_maybe(self, other: StoreBuild) -> StoreBuild:
        """This build, plus the options ``other`` sets, as "may be set"."""
        options = dict(self.options)
        for name, setting in other.options.items():
            if name not in options or options[name].value != setting.value:
                base = options.get(name)
                everywhere = base is not None and (base.definite or base.everywhere)
                options[name] = replace(setting, definite=False, everywhere=everywhere)
        return replace(
            self,
            options=options,
            adapters=self.adapters | other.adapters,
            to_adapters=self.to_adapters | other.to_adapters,
            remaps=self.remaps or other.remaps,
            filters=self.filters or other.filters,
            remap_calls=self.remap_calls
            + tuple(c for c in other.remap_calls if c not in self.remap_calls),
        )


def _bool_literal(node: Node | None) -> bool | None:
    if node is None:
        return None
    if node.type == "boolean_literal":
        return text(node) == "true"
    return None


def _adapter_names(node: Node, model: StoreReads) -> frozenset[str]:
    """Adapter types mentioned in an adapter argument, following one `let` binding
    (`let adapter = ChainAdapter::new(PyTorchToBurnAdapter, ..);`)."""
    names: set[str] = set()
    nodes = [node]
    seen = 0
    while nodes and seen < MAX_ADAPTER_BINDINGS:
        seen += 1
        current = nodes.pop()
        for descendant in walk(current):
            if descendant.type in ("identifier", "type_identifier"):
                canonical = model.imports.canonical(text(descendant))
                if canonical in BurnStoreApi.adapters:
                    names.add(canonical)
                elif text(descendant) in BurnStoreApi.adapters:
                    names.add(text(descendant))
                binding = model.resolution.binding_of(descendant)
                if binding is not None and binding.value is not None and binding.node != descendant:
                    nodes.append(binding.value)
    return frozenset(names)


class StoreEvaluator:
    """Evaluates expressions to the store they build, memoised per node."""

    def __init__(self, model: StoreReads) -> None:
        self.model = model
        self.memo: dict[int, StoreBuild | None] = {}
        self.in_progress: set[int] = set()
        self._folds: dict[Binding, _AssignmentFold] = {}

    def store_of(self, node: Node) -> StoreBuild | None:
        node = strip_reference(node)
        key = node.id
        if key in self.memo:
            return self.memo[key]
        if key in self.in_progress:  # a cycle through bindings: give up on this path
            return None
        # Rebindings (`let b = a;`) recurse once per link: past this depth the store is
        # unknown, which costs findings, never a crash (generated code nests this deep).
        if len(self.in_progress) >= MAX_EVALUATION_DEPTH:
            return None
        self.in_progress.add(key)
        try:
            result = self._evaluate(node)
        finally:
            self.in_progress.discard(key)
        self.memo[key] = result
        return result

    def constructed_by(self, call: Node) -> StoreBuild | None:
        """The store ``call`` constructs, when it is a constructor call (``X::from_file(..)``);
        else None. A cheap test of the call's path first: evaluating every call of a file
        would resolve the names in every function for nothing."""
        path = call_path(call)
        if len(path) < 2 or path[-1] not in BurnStoreApi.constructors:
            return None
        build = self.store_of(call)
        return build if build is not None and build.constructor_node == call else None

    def _evaluate(self, node: Node) -> StoreBuild | None:
        model = self.model
        if node.type == "call_expression":
            path = call_path(node)
            constructor = model.api.constructors.get(path[-1]) if len(path) >= 2 else None
            kind = model.imports.store_kind(path[:-1]) if constructor is not None else None
            if constructor is not None and kind is not None:
                if constructor.stores is not None and kind not in constructor.stores:
                    return None
                arguments = arguments_of(node)
                return StoreBuild(
                    kind=kind,
                    constructor=path[-1],
                    backing=Backing.FILE if constructor.file_backed else Backing.MEMORY,
                    constructor_node=node,
                    path_argument=arguments[0] if arguments and constructor.file_backed else None,
                )
            parts = method_call_parts(node)
            if parts is not None:
                receiver, method, _arguments = parts
                if method in model.api.builders:
                    return self._builder_chain(node)
                if method in ("clone", "to_owned"):
                    return self.store_of(receiver)
                if method in _UNWRAPPING:
                    # `make_store(p).unwrap()`: a helper returning `Result<Store, _>`
                    return self._returned_in_result(strip_reference(receiver), node)
            summary = model.helper_called(node)
            if summary is not None and summary.store is not None and not summary.store_in_result:
                return self.from_foreign(summary.store, node)
            return None
        if node.type == "try_expression":
            inner = node.named_children[0] if node.named_children else None
            return self._returned_in_result(inner, node) if inner is not None else None
        if node.type in ("identifier", "self"):
            binding = model.resolution.binding_of(node)
            if binding is None:
                return None
            if binding.value is None and binding.kind in ("match", "if_let", "let_else"):
                return self._ok_binding_store(binding.node, binding.declaration)
            return self.binding_store(binding, at=node)
        if node.type == "block":
            named = [c for c in node.named_children if c.type not in _COMMENTS]
            tail = named[-1] if named else None
            return self.store_of(tail) if tail is not None else None
        if node.type in ("match_expression", "if_expression"):
            # `match make_store(p) { Ok(s) => s, Err(e) => return Err(e) }`: the one branch
            # that does not leave gives the value
            values = [v for v in _branch_values(node) if not _diverges(v)]
            if len(values) == 1:
                return self.store_of(values[0])
            # each branch builds one: followed through all of them, when all are known
            builds = [self.store_of(v) for v in values]
            first = builds[0] if builds else None
            if first is None or any(b is None or b.kind is not first.kind for b in builds):
                return None
            others = tuple(b for b in builds[1:] if b is not None)
            return replace(first, alternatives=first.alternatives + others)
        return None

    def _ok_binding_store(self, name: Node, declaration: Node) -> StoreBuild | None:
        """The store ``name`` holds when it is bound by a whole ``Ok(name)`` pattern (a match
        arm, an `if let`, a `let .. else`) over a call of a crate-local function that returns
        ``Result<Store, _>``."""
        ancestry = self.model.ancestry
        pattern = ancestry.parent(name)
        if pattern is not None and pattern.type == "mut_pattern":
            pattern = ancestry.parent(pattern)
        if pattern is None or pattern.type != "tuple_struct_pattern":
            return None
        type_node = pattern.child_by_field_name("type")
        inner = [c for c in pattern.named_children if c != type_node]
        if text(type_node).split("::")[-1] != "Ok" or len(inner) != 1:
            return None
        owner = ancestry.parent(pattern)
        if owner is not None and owner.type == "match_pattern":
            owner = ancestry.parent(owner)
        if owner is None or owner != declaration:
            return None
        if owner.type == "match_arm":
            arms = ancestry.parent(owner)
            match = ancestry.parent(arms) if arms is not None else None
            scrutinee = match.child_by_field_name("value") if match is not None else None
        else:  # `if let` (a let_condition), `let .. else` (a let_declaration)
            scrutinee = owner.child_by_field_name("value")
        if scrutinee is None:
            return None
        scrutinee = strip_reference(scrutinee)
        return self._returned_in_result(scrutinee, scrutinee)

    def _returned_in_result(self, call: Node | None, at: Node) -> StoreBuild | None:
        """The store in the Ok value of ``call``, a crate-local function that returns
        ``Result<Store, _>`` (``make_store(p)?``, ``make_store(p).context("..")?``)."""
        while call is not None and call.type == "call_expression":
            parts = method_call_parts(call)
            if parts is None or parts[1] not in OK_KEEPING:
                break
            call = strip_reference(parts[0])
        if call is None or call.type != "call_expression":
            return None
        summary = self.model.helper_called(call)
        if summary is None or summary.store is None or not summary.store_in_result:
            return None
        return self.from_foreign(summary.store, at)

    def from_foreign(self, store: ForeignStore, at: Node) -> StoreBuild:
        """A store a crate-local function builds, anchored at ``at`` (the call in this file):
        no node of another file ever enters this file's model."""
        return StoreBuild(
            kind=store.kind,
            constructor=store.constructor,
            backing=Backing.FILE if store.file_backed else Backing.MEMORY,
            constructor_node=at,
            path_argument=None,
            options={
                name: OptionSetting(value=value, node=at, definite=definite)
                for name, value, definite in store.options
            },
            adapters=store.adapters,
            remaps=store.remaps,
            filters=store.filters,
            helper=store.helper,
            origin=store.origin,
            overwrite_edit=store.overwrite_edit,
        )

    def _builder_chain(self, call: Node) -> StoreBuild | None:
        """`X::from_file(p).a(..).b(..)`: walk down to the base iteratively (a chain can be
        hundreds of calls long), evaluate it, then apply the builders in order."""
        chain: list[tuple[Node, str]] = []
        current = call
        while True:
            if current is not call and current.id in self.memo:
                break  # an inner part of this chain was evaluated already
            parts = method_call_parts(current)
            if parts is None or parts[1] not in self.model.api.builders:
                break
            chain.append((current, parts[1]))
            current = strip_reference(parts[0])
        build = self.store_of(current)
        for node, method in reversed(chain):
            if build is None:
                return None
            build = self._apply_builder(build, node, method)
            self.memo[node.id] = build  # each inner call's store, so no call walks it again
        return build

    def _apply_builder(self, build: StoreBuild, call: Node, method: str) -> StoreBuild:
        arguments = arguments_of(call)
        api = self.model.api
        if method in api.option_aliases:
            return build.with_option(
                api.option_aliases[method], OptionSetting(value=None, node=call)
            )
        if method in api.bool_options:
            value = _bool_literal(arguments[0]) if arguments else None
            if value is None and arguments:
                # `.allow_partial(cfg.partial)`: the literal every `cfg` is built with
                value = field_literal(self.model, arguments[0])
            return build.with_option(method, OptionSetting(value=value, node=call))
        if method in api.remap_builders:
            return replace(build, remaps=True, remap_calls=(*build.remap_calls, call))
        if method in api.filter_builders:
            return replace(build, filters=True)
        if method in api.adapter_builders and arguments:
            names = _adapter_names(arguments[0], self.model)
            to_adapters = build.to_adapters | names if method == "with_to_adapter" else None
            return replace(
                build,
                adapters=build.adapters | names,
                to_adapters=build.to_adapters if to_adapters is None else to_adapters,
            )
        return build

    def binding_store(self, binding: Binding, at: Node) -> StoreBuild | None:
        """The store ``binding`` holds at ``at``: its value, then the plain re-assignments
        (``s = ..``) before ``at``. Unconditional ones (in the let's own block) replace the
        options, conditional ones make them "may be set"."""
        if binding.value is None:
            return None
        build = self.store_of(binding.value)
        if build is None:
            return None
        let_block = self.model.ancestry.parent(binding.declaration)
        fold = self._folds.get(binding)
        if fold is None and self._is_final(binding.value):
            fold = self._folds[binding] = _AssignmentFold.start(binding, build)
        if fold is None or not fold.in_file_order:
            for assignment in binding.assignments:
                if (
                    assignment.type == "assignment_expression"
                    and assignment.start_byte < at.start_byte
                ):
                    build, _final = self._assign(build, assignment, let_block)
            return build
        # Each use of `s` in `s = s.validate(true)` asks for the store before it: applying the
        # re-assignments afresh for each would be quadratic, so the applied prefix is kept.
        count = bisect_left(fold.starts, at.start_byte)
        applied = len(fold.builds) - 1
        if count <= applied:
            return fold.builds[count]
        build = fold.builds[applied]
        final = True
        for index in range(applied, count):
            build, step_final = self._assign(build, fold.assignments[index], let_block)
            final = final and step_final
            if final and len(fold.builds) == index + 1:
                fold.builds.append(build)
        return build

    def _assign(
        self, build: StoreBuild, assignment: Node, let_block: Node | None
    ) -> tuple[StoreBuild, bool]:
        """``build`` after the re-assignment ``assignment``, and whether that is final: made of
        memoised stores only, so evaluating it again gives the same (a store still being
        evaluated, or past the depth bound, counts as unknown this time only)."""
        right = assignment.child_by_field_name("right")
        if right is None:
            return build, True
        assigned = self.store_of(right)
        final = self._is_final(right)
        if assigned is None:
            return build, final
        ancestry = self.model.ancestry
        statement = ancestry.parent(assignment)
        unconditional = statement is not None and ancestry.parent(statement) == let_block
        return (assigned if unconditional else build.merged_maybe(assigned)), final

    def _is_final(self, node: Node) -> bool:
        return strip_reference(node).id in self.memo


@dataclass
class _AssignmentFold:
    """A binding's store after each of its plain re-assignments: ``builds[i]`` once the first
    ``i`` (in file order) are applied. Only final steps are kept (see ``_assign``), so a kept
    one is what applying the re-assignments again would give."""

    assignments: list[Node]
    starts: list[int]  # their start bytes
    builds: list[StoreBuild]  # builds[0]: the binding's value, final
    in_file_order: bool  # else the assignments before a use are no prefix: nothing is kept

    @classmethod
    def start(cls, binding: Binding, value: StoreBuild) -> _AssignmentFold:
        plain = [a for a in binding.assignments if a.type == "assignment_expression"]
        starts = [a.start_byte for a in plain]
        return cls(plain, starts, [value], in_file_order=starts == sorted(starts))


def _branch_values(node: Node) -> list[Node]:
    """The values of a `match`'s arms, or of an `if`'s two branches (none without `else`)."""
    if node.type == "match_expression":
        body = node.child_by_field_name("body")
        arms = [c for c in body.named_children if c.type == "match_arm"] if body else []
        return [v for arm in arms if (v := arm.child_by_field_name("value")) is not None]
    consequence = node.child_by_field_name("consequence")
    alternative = node.child_by_field_name("alternative")
    if consequence is None or alternative is None:
        return []
    branch = next((c for c in alternative.named_children if c.type != "line_comment"), None)
    return [consequence, branch] if branch is not None else []


def _diverges(value: Node) -> bool:
    """An arm or branch that leaves instead of giving a value: `return`, `break`,
    `continue`, `panic!`-like or `bail!` (also as the last statement of a block)."""
    node = value
    if node.type == "block":
        named = [c for c in node.named_children if c.type not in ("line_comment", "block_comment")]
        if not named:
            return False
        node = named[-1]
        if node.type == "expression_statement" and node.named_children:
            node = node.named_children[0]
    if node.type in ("return_expression", "break_expression", "continue_expression"):
        return True
    return node.type == "macro_invocation" and macro_name(node) in _DIVERGING_MACROS
