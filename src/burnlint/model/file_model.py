"""``FileModel``: everything the rules ask about one file, computed once."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from burnlint.findings import Location
from burnlint.model.apply_checks import WHOLE, ApplyChecker, Check, ok_map_call
from burnlint.model.apply_trace import ApplyTrace
from burnlint.model.burn_api import BurnStoreApi
from burnlint.model.calls import CallResolver
from burnlint.model.helpers import HelperSummary, SummaryTable
from burnlint.model.imports import ImportFacts, collect_imports
from burnlint.model.items import FileItems, Module, collect_items
from burnlint.model.key_verdicts import KeyMappingVerdicts, judge_key_mapping
from burnlint.model.keymapping import Loader, loaders
from burnlint.model.layout import LayoutFacts, collect_layout
from burnlint.model.loops import (
    InvarianceChecker,
    LoopContext,
    closure_called_in_loop,
    loop_of,
)
from burnlint.model.macros import MacroCode
from burnlint.model.ops import StoreOp, detect_op
from burnlint.model.repeats import RepeatedSave, repeated_saves
from burnlint.model.resolve import CrateView, FnKey
from burnlint.model.result_forms import ResultUse, UseClass
from burnlint.model.results import ResultClassifier
from burnlint.model.scopes import LazyResolution
from burnlint.model.stores import StoreBuild, StoreEvaluator
from burnlint.project.prefilter import has_trigger
from burnlint.project.targets import Target
from burnlint.rust.source import SourceFile
from burnlint.rust.syntax import arguments_of, in_document_order, strip_reference

if TYPE_CHECKING:
    from tree_sitter import Node

    from burnlint.rust.syntax import Ancestry


_UNSEEN = object()
_ALONE = Target("", "file")  # the target of a file checked without its crate
_MODULE_PATH = re.compile(rb"\bburn(?:_core)?\s*::\s*module\s*::\s*Module\b")
_DERIVES_MODULE = re.compile(rb"#\[\s*derive\s*\([^)\]]*\bModule\b")
_OPAQUE = frozenset({"token_tree", "macro_definition"})
_STORE_SIDE = frozenset({"collect_from", "apply_to"})


class FileModel:
    def __init__(
        self,
        source: SourceFile,
        view: CrateView | None = None,
        summaries: SummaryTable | None = None,
        layout: Callable[[], LayoutFacts] | None = None,
        *,
        module: Module = (),
        burn_version: str | None = None,
        api: BurnStoreApi | None = None,
        items: FileItems | None = None,
    ) -> None:
        if items is not None:
            # the items the crate stage already collected from this tree (``items``)
            self.__dict__["items"] = items
        self.source = source
        self.module = module
        # burn-store's API in the burn release assumed for this file's crate (``burn_version``,
        # None: unknown): every burn-store fact the analyses and rules use is read from it
        self.api = api if api is not None else BurnStoreApi.for_version(burn_version)
        # what calls can reach (the target's items) and what the functions there do; a file
        # checked on its own sees its own items
        self.view = view if view is not None else CrateView(_ALONE, {_ALONE: [self.items]})
        self.summaries = summaries or SummaryTable()
        self.calls_resolved: dict[int, object] = {}
        # (function, its name's location, what it reads) for the last ``apply_checks``
        self.partial_checkers: list[tuple[str, Location, Check]] = []
        self.resolver = CallResolver(self)
        # loads in other files of stores this file's functions build: by the constructor's
        # location (the engine fills it in before the rules run)
        self.loads_elsewhere: dict[Location, list[Location]] = {}
        # the target's layout (all its files), computed when first read (``layout``); the
        # engine passes it in, else this file's own
        self._target_layout = layout
        self.ancestry = source.ancestry
        self.resolution = LazyResolution(source.root, self.ancestry)
        self.stores = StoreEvaluator(self)
        self._classifier = ResultClassifier(self)
        self._checker = ApplyChecker(self)
        self._uses: dict[int, ResultUse] = {}
        self._in_test_items: dict[int, bool] = {}  # node id -> is or is inside a test item
        self._test_marked = MarkedTestItems(self.ancestry)
        self._loops: dict[int, LoopContext | None] = {}  # node id -> innermost loop around it
        self._closure_depth = 0  # closures followed to their calls by ``loop_of``
        self.invariance = InvarianceChecker(self.resolution)

    @cached_property
    def own_layout(self) -> LayoutFacts:
        return collect_layout(self.source)

    @cached_property
    def layout(self) -> LayoutFacts:
        """The modules the file's target declares, which the key-mapping rules read: computed
        at the first read, since it parses every file of the target that derives `Module`."""
        return self._target_layout() if self._target_layout is not None else self.own_layout

    @cached_property
    def repeated_saves(self) -> list[RepeatedSave]:
        return repeated_saves(self)

    @cached_property
    def key_loaders(self) -> list[Loader]:
        return loaders(self)

    @cached_property
    def key_verdicts(self) -> KeyMappingVerdicts:
        """Which key-mapping rule reports each option of each loader (BL012, BL006, BL005)."""
        return judge_key_mapping(self, self.key_loaders)

    @property
    def burn_version(self) -> str | None:
        """The burn release assumed for this file's crate (None: unknown)."""
        return self.api.version

    @property
    def path(self) -> Path:
        return self.source.path

    @cached_property
    def imports(self) -> ImportFacts:
        return collect_imports(self.source)

    @cached_property
    def in_burn_store_scope(self) -> bool:
        """Rules fire only in files that use burn-store: a `use` of it, a store type or trait
        name, or a call of a crate-local helper that wraps one."""
        data = self.source.data
        if any(word in data for word in self.api.scope_words):
            return True
        if any(name.encode() in data for name in self.summaries.names()):
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
        return has_trigger(data) or any(name.encode() in data for name in self.summaries.names())

    @cached_property
    def macros(self) -> MacroCode:
        return MacroCode(self)

    @cached_property
    def calls(self) -> list[Node]:
        """The file's calls, those inside macros read as code (``macros.py``) included."""
        own = self.source.nodes_of_type("call_expression")
        inside = self.macros.calls
        return in_document_order([*own, *inside]) if inside else own

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
            if self._on_placeholder(op):
                # `$model.save_into(&mut $store)` in a `macro_rules!` body: facts unknown
                self._uses[key] = ResultUse(UseClass.PROPAGATED, op.node, ok_escapes=True)
            else:
                self._uses[key] = self._classifier.classify(op.node)
        return self._uses[key]

    def _on_placeholder(self, op: StoreOp) -> bool:
        """Whether the op's store, or its receiver when the store is not known, is a
        metavariable of a ``macro_rules!`` body, itself or through one ``let``."""
        if not self.macros.placeholders:
            return False
        arguments = arguments_of(op.node)
        store_side = op.method in _STORE_SIDE
        parts: list[Node | None] = [op.receiver] if store_side else [*arguments[:1]]
        if op.store is None and not store_side:
            parts.append(op.receiver)
        for part in parts:
            node = strip_reference(part) if part is not None else None
            if node is None or node.type != "identifier":
                continue
            if self.macros.is_placeholder(node):
                return True
            binding = self.resolution.binding_of(node)
            value = binding.value if binding is not None else None
            if value is not None and self.macros.is_placeholder(strip_reference(value)):
                return True
        return False

    def apply_checks(self, op: StoreOp) -> Check:
        """Which parts of the op's ApplyResult are read (``apply`` returns it directly; a
        crate-local function hands it back at the path its summary gives). The crate-local
        functions it is passed to that read only part of it are then in ``partial_checkers``."""
        self.partial_checkers = []
        return self._apply_checks(op)

    def _apply_checks(self, op: StoreOp) -> Check:
        if op.summary is not None:
            flow = op.summary.ok
            if flow is None:
                return WHOLE
            trace = ApplyTrace(self, None, returning=False)
            use = self.result_use(op) if op.returns_result else None
            if use is not None and use.ok_escapes:
                return WHOLE
            for what, path in flow.carried:
                if use is None:
                    trace.value(op.node, path, what)
                    continue
                for value in use.ok_values:
                    trace.value(value, path, what)
                for binding in use.ok_bindings:
                    trace.binding(binding, binding.node.end_byte, path, what)
                for pattern in use.ok_patterns:
                    trace.pattern(pattern, path, what)
            return frozenset(trace.checked)
        if not op.returns_result:
            return self._checker.of_value(op.node)
        mapped = ok_map_call(op.node, self.ancestry)
        if mapped is not None:
            # `load_from(..).map(|r| ..)`: the closure is what reads the ApplyResult
            return self._checker.of_mapped(mapped)
        return self._checker.of_result_use(self.result_use(op))

    @cached_property
    def is_test_file(self) -> bool:
        """Test code by where cargo puts the file: an integration test or a benchmark target,
        or a module named `tests` (a `#[cfg(test)] mod tests;` in a file of its own). The
        directories above the crate do not matter, nor does the project root."""
        return self.view.target.is_test or "tests" in self.module

    def in_test_code(self, node: Node) -> bool:
        """In a test file, a `#[test]`-like function, or a `#[cfg(test)]` module."""
        if self.is_test_file:
            return True
        parent = self.ancestry.parent(node)
        return parent is not None and self.ancestry.fold_down(
            parent, self._in_test_items, False, self._in_test_item
        )

    def _in_test_item(self, outer: bool, node: Node) -> bool:
        """Whether ``node`` is a test-like function or module, or is inside one (``outer``)."""
        return outer or (
            node.type in ("function_item", "mod_item")
            and self._test_marked.has_test_attribute(node)
        )

    def loop_of(self, node: Node) -> LoopContext | None:
        """The innermost loop that runs ``node`` repeatedly; else a loop that calls the
        closure ``node`` is in (``loops.py``)."""
        found = loop_of(node, self.ancestry, self._loops)
        if found is None and self._closure_depth < 2:
            self._closure_depth += 1
            try:
                found = closure_called_in_loop(node, self.ancestry, self.resolution, self.loop_of)
            finally:
                self._closure_depth -= 1
        return found

    # crate-local functions ----------------------------------------------------------------------
    @cached_property
    def items(self) -> FileItems:
        return collect_items(self.source.root, self.module, find=self.source.nodes_of_type)

    def helper_called(self, call: Node) -> HelperSummary | None:
        """The summary of the crate-local function ``call`` calls, when the call resolves by
        path and type (``resolve.py``) to one that has one."""
        if not self.summaries.by_key:
            return None
        key = self.calls_resolved.get(call.id, _UNSEEN)
        if key is _UNSEEN:
            key = self.calls_resolved[call.id] = self.resolver.resolve(call)
        return self.summaries.get(key) if isinstance(key, FnKey) else None

    def argument_checks(self, argument: Node) -> Check:
        """What the function a call passes ``argument`` (an ``ApplyResult``) to reads of it:
        all of it, unless the call resolves to a crate-local function whose summary says
        which fields that parameter has read."""
        arguments = self.ancestry.parent(argument)
        call = self.ancestry.parent(arguments) if arguments is not None else None
        if call is None or call.type != "call_expression":
            return WHOLE
        summary = self.helper_called(call)
        if summary is None or not summary.param_checks:
            return WHOLE
        from burnlint.model.summaries import parameter_index

        index = parameter_index(self, call, summary.key, argument)
        checks = summary.checks_of_parameter(index) if index is not None else None
        if checks is None:
            return WHOLE
        if summary.location is not None and summary.location not in (
            seen[1] for seen in self.partial_checkers
        ):
            self.partial_checkers.append((summary.name, summary.location, checks))
        return checks

    def exported_summaries(self) -> dict[FnKey, HelperSummary]:
        """The summaries of the functions this file defines (``summaries.py``)."""
        from burnlint.model.summaries import summarise

        if not self.may_hold_stores:
            # no trigger word and no helper's name: it performs no store operation
            return {}
        return summarise(self)


_TEST_ATTRIBUTES = ("#[test]", "#[cfg(test)]", "::test]", "#[test_case", "#[rstest", "#[bench]")


class MarkedTestItems:
    """Which items carry a test attribute, found in one pass over each parent's children.

    The attributes of an item are the siblings before it, past comments: walking back with
    ``prev_named_sibling`` costs O(index) a step in tree-sitter, so an item after 40,000
    comment lines took seconds (quadratic in the lines); one pass per parent is linear.
    """

    def __init__(self, ancestry: Ancestry) -> None:
        self._ancestry = ancestry
        self._by_parent: dict[int, set[int]] = {}  # parent id -> ids of its marked children

    def has_test_attribute(self, item: Node) -> bool:
        parent = self._ancestry.parent(item)
        if parent is None:
            return False  # a root has no siblings
        marked = self._by_parent.get(parent.id)
        if marked is None:
            marked = self._by_parent[parent.id] = _marked_children(parent)
        return item.id in marked


def _marked_children(parent: Node) -> set[int]:
    """The ids of ``parent``'s named children preceded by a test attribute, with only
    attributes and comments in between."""
    marked: set[int] = set()
    pending = False  # a test attribute since the last child that is not an attribute or comment
    for child in parent.named_children:
        if child.type == "attribute_item":
            pending = pending or _is_test_attribute(child)
        elif child.type not in ("line_comment", "block_comment"):
            if pending:
                marked.add(child.id)
            pending = False
    return marked


def _is_test_attribute(attribute: Node) -> bool:
    if attribute.text is None:
        return False
    compact = attribute.text.decode(errors="replace").replace(" ", "")
    return any(marker in compact for marker in _TEST_ATTRIBUTES)
