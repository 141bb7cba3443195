"""``FileModel``: everything the rules ask about one file, computed once."""

from __future__ import annotations

import re
from dataclasses import replace
from functools import cached_property
from typing import TYPE_CHECKING

from burnlint.findings import Location
from burnlint.model.helpers import HelperTable, OpHelper
from burnlint.model.imports import STORE_NAMES, ImportFacts, collect_imports
from burnlint.model.keymapping import Loader, loaders
from burnlint.model.layout import LayoutFacts, collect_layout
from burnlint.model.loops import (
    PURE_FUNCTIONS,
    PURE_METHODS,
    InvarianceChecker,
    LoopContext,
    loop_of,
)
from burnlint.model.ops import StoreOp, detect_op
from burnlint.model.repeats import RepeatedSave, repeated_saves
from burnlint.model.results import ApplyChecker, Check, ResultClassifier, ResultUse, UseClass
from burnlint.model.scopes import LazyResolution
from burnlint.model.stores import StoreBuild, StoreEvaluator
from burnlint.prefilter import has_trigger
from burnlint.source import SourceFile
from burnlint.syntax import call_path, method_call_parts, nodes_of_type, walk
from burnlint.versions import release_series

if TYPE_CHECKING:
    from tree_sitter import Node

    from burnlint.syntax import Ancestry

_MODULE_PATH = re.compile(rb"\bburn(?:_core)?\s*::\s*module\s*::\s*Module\b")
_DERIVES_MODULE = re.compile(rb"#\[\s*derive\s*\([^)\]]*\bModule\b")
_SCOPE_WORDS = tuple(name.encode() for name in (*STORE_NAMES, "ModuleSnapshot", "ModuleStore"))
_OPAQUE = frozenset({"token_tree", "macro_definition"})


class FileModel:
    def __init__(
        self,
        source: SourceFile,
        helpers: HelperTable | None = None,
        layout: LayoutFacts | None = None,
        burn_version: str | None = None,
    ) -> None:
        self.source = source
        # the burn release assumed for this file's crate (None: unknown): ops whose signature
        # changed between releases follow it
        self.burn_series = release_series(burn_version)
        self.helpers = helpers or HelperTable()
        # the target's layout (all its files); the engine passes it in, else this file's own
        self.layout = layout if layout is not None else self.own_layout
        self.ancestry = source.ancestry
        self.resolution = LazyResolution(source.root, self.ancestry)
        self.stores = StoreEvaluator(self)
        self._classifier = ResultClassifier(self)
        self._checker = ApplyChecker(self)
        self._uses: dict[int, ResultUse] = {}
        self._in_test_items: dict[int, bool] = {}  # node id -> is or is inside a test item
        self._loops: dict[int, LoopContext | None] = {}  # node id -> innermost loop around it
        self.invariance = InvarianceChecker(self.resolution)

    @cached_property
    def own_layout(self) -> LayoutFacts:
        return collect_layout(self.source.root)

    @cached_property
    def repeated_saves(self) -> list[RepeatedSave]:
        return repeated_saves(self)

    @cached_property
    def key_loaders(self) -> list[Loader]:
        return loaders(self)

    @property
    def path(self) -> str:
        return self.source.display_path

    @cached_property
    def imports(self) -> ImportFacts:
        return collect_imports(self.source.root)

    @cached_property
    def in_burn_store_scope(self) -> bool:
        """Rules fire only in files that use burn-store: a `use` of it, a store type or trait
        name, or a call of a crate-local helper that wraps one."""
        data = self.source.data
        if any(word in data for word in _SCOPE_WORDS):
            return True
        if any(name.encode() in data for name in self.helpers.names()):
            return True
        # `use burn::{store::X}` names neither burn_store nor a store type
        return b"store" in data and self.imports.imports_burn_store

    @cached_property
    def module_trait_in_scope(self) -> bool:
        """Whether burn's `Module` trait is in scope: imported (`burn::module::Module`,
        `burn::prelude::*`, ..), named by its path (`M: burn::module::Module<B>`), or derived
        (`#[derive(Module)]` resolves the name that the trait shares)."""
        if self.imports.module_trait:
            return True
        data = self.source.data
        if b"module::Module" in data and _MODULE_PATH.search(data):
            return True
        return b"derive" in data and _DERIVES_MODULE.search(data) is not None

    @cached_property
    def may_hold_stores(self) -> bool:
        """Whether the file can build a store or perform an operation at all: without a
        trigger word or a visible helper's name it cannot."""
        data = self.source.data
        return has_trigger(data) or any(name.encode() in data for name in self.helpers.names())

    @cached_property
    def calls(self) -> list[Node]:
        return nodes_of_type(self.source.root, "call_expression")

    @cached_property
    def ops(self) -> list[StoreOp]:
        found: list[StoreOp] = []
        for call in self.calls:
            op = detect_op(call, self)
            if op is not None:
                found.append(op)
        return found

    @cached_property
    def store_builds(self) -> list[StoreBuild]:
        """Every store constructor call in the file (not the helper-made ones)."""
        builds: list[StoreBuild] = []
        for call in self.calls:
            build = self.stores.constructed_by(call)
            if build is not None and build.helper is None:
                builds.append(build)
        return builds

    def result_use(self, op: StoreOp) -> ResultUse:
        key = op.node.id
        if key not in self._uses:
            self._uses[key] = self._classifier.classify(op.node)
        return self._uses[key]

    def apply_checks(self, op: StoreOp) -> Check:
        """Which parts of the op's ApplyResult are read (``apply`` returns it directly)."""
        if not op.returns_result:
            return self._checker.of_value(op.node)
        return self._checker.of_result_use(self.result_use(op))

    @cached_property
    def is_test_file(self) -> bool:
        """Under a `tests/` or `benches/` directory of a crate (cargo's integration tests and
        benchmarks)."""
        parts = self.path.split("/")[:-1]
        return "tests" in parts or "benches" in parts

    def in_test_code(self, node: Node) -> bool:
        """In a test file, a `#[test]`-like function, or a `#[cfg(test)]` module."""
        if self.is_test_file:
            return True
        parent = self.ancestry.parent(node)
        return parent is not None and self.ancestry.fold_down(
            parent, self._in_test_items, False, _in_test_item
        )

    def loop_of(self, node: Node) -> LoopContext | None:
        return loop_of(node, self.ancestry, self._loops)

    # facts for other files of the target -------------------------------------------------------
    def exported_helpers(self) -> HelperTable:
        table = HelperTable()
        if not self.may_hold_stores:
            # no trigger word and no helper's name: it makes no helper, and cannot define a
            # function that shadows one (it would contain the name)
            return table
        result_ops: dict[int, list[StoreOp]] | None = None  # by enclosing function's node id
        for function in nodes_of_type(self.source.root, "function_item"):
            name_node = function.child_by_field_name("name")
            body = function.child_by_field_name("body")
            if name_node is None or body is None or name_node.text is None:
                continue
            name = name_node.text.decode()
            parameters = function.child_by_field_name("parameters")
            is_method = parameters is not None and any(
                c.type == "self_parameter" for c in parameters.named_children
            )
            table.defined.add((name, is_method))
            tail = body.named_children[-1] if body.named_children else None
            if tail is not None:
                build = self.stores.store_of(tail)
                if build is not None:
                    table.add_store(name, is_method, self._exported(build, name))
            return_type = function.child_by_field_name("return_type")
            if return_type is None or b"Result" not in (return_type.text or b""):
                continue
            if result_ops is None:
                result_ops = self._result_ops_by_function()
            for op in result_ops.get(function.id, ()):
                use = self.result_use(op)
                if use.use is UseClass.PROPAGATED and _escapes_function(use.decided_at, function):
                    line = self.source.line_of(function.start_byte) + 1
                    path_params = (
                        self._path_params(op.store, function) if op.store is not None else None
                    )
                    store = self._exported(op.store, name) if op.store is not None else None
                    table.add_op(
                        name,
                        is_method,
                        OpHelper(
                            name,
                            op.direction,
                            store,
                            self.path,
                            line,
                            path_params,
                            inner=op.burn_method,
                        ),
                    )
                    break
        return table

    def _result_ops_by_function(self) -> dict[int, list[StoreOp]]:
        """The ops that return a result, in file order, by the node id of the function they
        are in (not in a closure): found in one pass, not once per function."""
        found: dict[int, list[StoreOp]] = {}
        for op in self.ops:
            if not op.returns_result:
                continue
            function = _enclosing_function(op.node, self.ancestry)
            if function is not None:
                found.setdefault(function.id, []).append(op)
        return found

    def _exported(self, build: StoreBuild, helper: str) -> StoreBuild:
        """A store as callers of ``helper`` see it: marked as built elsewhere."""
        if build.helper is not None:
            return build
        origin = Location(self.path, self.source.node_span(build.constructor_node))
        return replace(build, helper=helper, helper_path=self.path, origin=origin)

    def _path_params(self, store: StoreBuild, function: Node) -> tuple[int, ...] | None:
        """Which parameters of ``function`` the store's path is made of (see ``OpHelper``)."""
        if store.helper is not None or store.path_argument is None:
            return None
        parameters = function.child_by_field_name("parameters")
        if parameters is None:
            return None
        params = [p for p in parameters.named_children if p.type == "parameter"]
        indices: set[int] = set()
        for node in walk(store.path_argument):
            if node.type == "call_expression":
                parts = method_call_parts(node)
                path = call_path(node)
                pure = (parts is not None and parts[1] in PURE_METHODS) or (
                    len(path) >= 2 and (path[-2], path[-1]) in PURE_FUNCTIONS
                )
                if not pure:
                    return None
            elif (
                node.type == "identifier"
                and (parent := self.ancestry.parent(node)) is not None
                and parent.type not in ("scoped_identifier", "macro_invocation")
            ):
                binding = self.resolution.binding_of(node)
                if binding is None:
                    if node.text is not None and node.text.decode().isupper():
                        continue
                    return None
                if binding.kind != "param" or binding.declaration not in params:
                    return None
                indices.add(params.index(binding.declaration))
        return tuple(sorted(indices))


_TEST_ATTRIBUTES = ("#[test]", "#[cfg(test)]", "::test]", "#[test_case", "#[rstest", "#[bench]")


def _in_test_item(outer: bool, node: Node) -> bool:
    """Whether ``node`` is a test-like function or module, or is inside one (``outer``)."""
    return outer or (node.type in ("function_item", "mod_item") and _has_test_attribute(node))


def _has_test_attribute(item: Node) -> bool:
    sibling = item.prev_named_sibling
    while sibling is not None and sibling.type in (
        "attribute_item",
        "line_comment",
        "block_comment",
    ):
        if sibling.type == "attribute_item" and sibling.text is not None:
            compact = sibling.text.decode(errors="replace").replace(" ", "")
            if any(marker in compact for marker in _TEST_ATTRIBUTES):
                return True
        sibling = sibling.prev_named_sibling
    return False


def _enclosing_function(node: Node, ancestry: Ancestry) -> Node | None:
    current = ancestry.parent(node)
    while current is not None:
        if current.type == "function_item":
            return current
        if current.type == "closure_expression":
            return None
        current = ancestry.parent(current)
    return None


def _escapes_function(decided_at: Node, function: Node) -> bool:
    """`?`, `return`, or the function's tail: the caller receives the error."""
    if decided_at.type in ("try_expression", "return_expression"):
        return True
    body = function.child_by_field_name("body")
    return decided_at == body
