"""A crate made of Rust snippets, for tests of one crate-facts analysis (``burnlint.model``).

``SnippetCrate({"src/lib.rs": "...", "src/a.rs": "..."})`` parses the files, puts each in the
target and module cargo's conventions give it, and builds what the engine builds for a target
(``engine._view``, ``engine._build_models``): its ``CrateView``, the ``FileModel`` of each
file, and the helper summaries, recomputed until they stop changing. Nothing touches the
file system: the crate lives at ``/crate``.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from burnlint.model.file_model import FileModel
from burnlint.model.helpers import HelperSummary, SummaryTable
from burnlint.model.items import FileItems, Module, collect_items
from burnlint.model.resolve import CrateView, FnKey, scan_type_names
from burnlint.model.summaries import summarise
from burnlint.project.targets import Target, module_in_target
from burnlint.rust.source import SourceFile
from burnlint.rust.syntax import nodes_of_type, parse

if TYPE_CHECKING:
    from tree_sitter import Node

CRATE = "/crate"
LIB = Target(CRATE, "lib")
MAX_ROUNDS = 6


def source(text: str, path: str = "src/lib.rs") -> SourceFile:
    data = text.encode()
    return SourceFile(path, data, parse(data))


def items_of(text: str, module: Module = ()) -> FileItems:
    return collect_items(source(text).root, module)


def target_of(path: str) -> Target:
    """The target of ``path`` (relative to the crate), by cargo's conventions; the lib is
    ``src/`` outside ``src/bin/`` and ``src/main.rs``."""
    parts = PurePosixPath(path).parts
    if parts[:2] == ("src", "bin"):
        return Target(CRATE, f"bin:{PurePosixPath(parts[2]).stem}")
    if parts == ("src", "main.rs"):
        return Target(CRATE, "bin:main")
    kinds = {"examples": "example", "tests": "test", "benches": "bench"}
    if parts[0] in kinds:
        return Target(CRATE, f"{kinds[parts[0]]}:{PurePosixPath(parts[1]).stem}")
    return LIB


def fn_key(name: str, module: Module = (), owner: str = "", target: Target = LIB) -> FnKey:
    return FnKey(target, module, owner, name)


class SnippetCrate:
    """``files``: parsed files by path; ``unparsed``: files the prefilter skipped (they count
    for the module tree and are scanned for type names, as the engine does)."""

    def __init__(
        self,
        files: dict[str, str],
        *,
        unparsed: dict[str, str] | None = None,
        lib_name: str = "mycrate",
        burn_version: str | None = None,
    ) -> None:
        self.texts = dict(files)
        self.unparsed = dict(unparsed or {})
        self.lib_name = lib_name
        self.burn_version = burn_version
        self.sources = {path: source(text, path) for path, text in self.texts.items()}
        self.items: dict[str, FileItems] = {
            path: collect_items(src.root, self.module(path)) for path, src in self.sources.items()
        }
        self._views: dict[Target, CrateView] = {}
        self._summaries: dict[FnKey, HelperSummary] | None = None

    def module(self, path: str) -> Module:
        return module_in_target(Path(CRATE, path), target_of(path))

    def _visible(self, target: Target) -> list[Target]:
        if target.is_lib:
            return [target]
        return sorted({target, LIB})

    def view(self, target: Target = LIB) -> CrateView:
        """The view of ``target``, built as ``engine._view`` builds it."""
        if target not in self._views:
            joined: dict[Target, list[FileItems]] = {}
            modules: dict[Target, set[Module]] = {}
            unparsed: Counter[str] = Counter()
            everything = sorted({*self.texts, *self.unparsed})
            for seen in self._visible(target):
                paths = [p for p in everything if target_of(p) == seen]
                joined[seen] = [self.items[p] for p in paths if p in self.items]
                modules[seen] = {self.module(p) for p in paths}
                for path in paths:
                    if path in self.unparsed:
                        unparsed.update(scan_type_names(self.unparsed[path].encode()))
            names = {} if target.is_lib else {self.lib_name: LIB}
            self._views[target] = CrateView(target, joined, modules, names, dict(unparsed))
        return self._views[target]

    def model(self, path: str, summaries: dict[FnKey, HelperSummary] | None = None) -> FileModel:
        """The model of file ``path``, seeing ``summaries`` (by default: the crate's)."""
        target = target_of(path)
        if summaries is None:
            summaries = self.summaries()
        visible = set(self._visible(target))
        seen = {k: v for k, v in summaries.items() if k.target in visible}
        return FileModel(
            self.sources[path],
            self.view(target),
            SummaryTable(seen),
            module=self.module(path),
            burn_version=self.burn_version,
        )

    def summaries(self) -> dict[FnKey, HelperSummary]:
        """Every file's ``summarise``, repeated until the summaries stop changing."""
        if self._summaries is None:
            found: dict[FnKey, HelperSummary] = {}
            for _round in range(MAX_ROUNDS):
                exported: dict[FnKey, HelperSummary] = {}
                for path in sorted(self.sources):
                    exported.update(summarise(self.model(path, found)))
                if exported == found:
                    break
                found = exported
            self._summaries = found
        return self._summaries

    def summary(self, name: str, module: Module = (), owner: str = "") -> HelperSummary | None:
        return self.summaries().get(fn_key(name, module, owner))

    def resolve(self, path: str, needle: str) -> FnKey | None:
        """What the call at ``needle`` (its text occurs once in the file) resolves to, with no
        summaries around."""
        model = self.model(path, {})
        return model.resolver.resolve(call_at(model, needle))


def call_at(model: FileModel, needle: str) -> Node:
    """The smallest call expression that holds the only occurrence of ``needle``."""
    data = model.source.data
    wanted = needle.encode()
    assert data.count(wanted) == 1, f"{needle!r} occurs {data.count(wanted)} times"
    start = data.index(wanted)
    end = start + len(wanted)
    calls = [
        c
        for c in nodes_of_type(model.source.root, "call_expression")
        if c.start_byte <= start and end <= c.end_byte
    ]
    assert calls, f"no call holds {needle!r}"
    return min(calls, key=lambda c: c.end_byte - c.start_byte)
