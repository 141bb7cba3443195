"""Crate facts (DESIGN.md section 2b): the models of a group's files, built with what their
cargo targets can see of each other.

Each modelled file yields its items (functions, types, `use`s: plain data) and the summaries
of its functions; calls resolve against the items of the targets a file can name, and the
summaries flow to the callers until they stop changing. The module layout a target sees is
computed only when a rule reads it.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable
from functools import cache
from pathlib import Path

from burnlint.engine.crate import CrateFile, CrateState
from burnlint.engine.guard import guarded
from burnlint.findings import Location
from burnlint.model.file_model import FileModel
from burnlint.model.helpers import HelperSummary, SummaryTable
from burnlint.model.items import FileItems, collect_items
from burnlint.model.layout import LayoutFacts
from burnlint.model.resolve import CrateView, FnKey, scan_type_names
from burnlint.project.targets import (
    Target,
    callable_dependencies,
    manifest_of,
    visible_dependencies,
)

HELPER_ROUNDS = 4  # helpers of helpers of helpers: deeper chains are rare and not followed
CRATE_FACTS = "this file's crate facts"  # the stage, as an internal error names it


def build_models(state: CrateState) -> dict[Path, FileModel]:
    """Models for the candidate files that rules will run on (reported, and in burn-store
    scope), with the crate facts their targets can see.

    A file that the prefilter skipped but that names a function with a summary is modelled in
    the next round, up to ``HELPER_ROUNDS``.
    """
    summaries: dict[FnKey, HelperSummary] = {}
    models: dict[Path, FileModel] = {}  # kept for the rules
    items: dict[Path, FileItems] = {}
    # what each file exports, and the facts its model was built with
    exports: dict[Path, tuple[object, dict[FnKey, HelperSummary]]] = {}
    views: dict[Target, CrateView] = {}
    layouts: dict[Target, Callable[[], LayoutFacts]] = {}

    def build(path: Path, item: CrateFile, *, export: bool = True) -> None:
        visible = visible_targets(item.target, state)
        seen = {k: v for k, v in summaries.items() if k.target in visible}
        view = views[item.target]
        signature = (frozenset(seen.items()), id(view))
        if path in exports and exports[path][0] == signature:
            return
        source = state.source(item)
        assert source is not None  # modelled files are text
        if item.target not in layouts:
            layouts[item.target] = layout_seen_by(item.target, state)
        with guarded(state.notes, item.path, CRATE_FACTS) as facts:
            model = FileModel(
                source,
                view,
                SummaryTable(seen),
                layouts[item.target],
                module=state.module(item),
                burn_version=item.burn_version or state.burn_version,
                items=items.get(path),
            )
            exports[path] = (signature, model.exported_summaries() if export else {})
            in_scope = model.in_burn_store_scope
        if facts.failed:
            exports[path] = (signature, {})
            models.pop(path, None)
            state.release(item)
        elif item.reported and in_scope:
            models[path] = model
        else:
            models.pop(path, None)
            state.release(item)

    def refresh_views() -> None:
        for path, item in state.modelled.items():
            if path not in items:
                source = state.source(item)
                assert source is not None
                module = state.module(item)
                with guarded(state.notes, item.path, CRATE_FACTS) as collected:
                    items[path] = collect_items(source.root, module)
                if collected.failed:
                    items[path] = FileItems(module)
        for target in {item.target for item in state.modelled.values()}:
            view = _view(target, state, items, bool(summaries))
            old = views.get(target)
            if old is None or old.items != view.items or old.unparsed_types != view.unparsed_types:
                views[target] = view

    for _round in range(HELPER_ROUNDS):
        refresh_views()
        for path, item in list(state.modelled.items()):
            build(path, item)
        exported: dict[FnKey, HelperSummary] = {}
        for path in sorted(exports):
            exported.update(exports[path][1])
        if exported == summaries:
            break
        summaries = exported
        # widen the prefilter: files that name a function with a summary they can see
        for target, target_items in state.by_target.items():
            visible = visible_targets(target, state)
            names = sorted({k.name.encode() for k in summaries if k.target in visible})
            if not names:
                continue
            for item in target_items:
                if item.path in state.modelled:
                    continue
                data = state.data(item)
                if any(n in data for n in names):
                    state.model_file(item)
    refresh_views()
    # files added in the last round, and models built with facts that changed since
    for path, item in list(state.modelled.items()):
        build(path, item, export=path not in exports)
    _link_foreign_loads(models, state)
    return models


def visible_targets(target: Target, state: CrateState) -> frozenset[Target]:
    """The targets whose functions ``target``'s code can call: its own, its package's lib
    (not from ``build.rs``), and the libs of its path dependencies."""
    visible = {target}
    if target.name not in ("lib", "build", "file") and target.lib() in state.by_target:
        visible.add(target.lib())
    for _name, crate in callable_dependencies(target):
        visible.add(Target(crate, "lib"))
    return frozenset(visible)


def layout_seen_by(target: Target, state: CrateState) -> Callable[[], LayoutFacts]:
    """What ``target`` sees of module layouts, computed at the first call and kept: its own
    layout, the lib's for the other targets, and the libs of its path dependencies (the
    crates that may declare the modules it loads).

    Only the key-mapping rules (BL005, BL006) read a layout, and only for a PyTorch-facing
    loader, yet computing one parses every file of the target that derives ``Module``: on the
    burn repository that is two files in three of all the files parsed. So a ``FileModel``
    gets this function, not its value. Should computing it raise, the next call tries again.
    """

    @cache
    def seen() -> LayoutFacts:
        facts = state.own_layout(target)
        if not target.is_lib:
            facts = facts.merge(state.own_layout(target.lib()))
        for _name, crate in visible_dependencies(target):
            facts = facts.merge(state.dependency_layout(crate))
        return facts

    return seen


def _view(target: Target, state: CrateState, items: dict[Path, FileItems], scan: bool) -> CrateView:
    visible = visible_targets(target, state)
    joined: dict[Target, list[FileItems]] = {}
    modules: dict[Target, set[tuple[str, ...]]] = {}
    unparsed: Counter[str] = Counter()
    for seen in sorted(visible):
        files = state.by_target.get(seen, [])
        joined[seen] = [items[f.path] for f in files if f.path in items]
        modules[seen] = {state.module(f) for f in files}
        if scan:
            # the types a file that was not parsed may define make those names ambiguous
            for item in files:
                if item.path not in items:
                    unparsed.update(scan_type_names(state.data(item)))
    names: dict[str, Target] = {}
    if target.name not in ("lib", "build", "file") and target.lib() in state.by_target:
        names[manifest_of(target.crate).lib_name] = target.lib()
    for name, crate in callable_dependencies(target):
        names[name] = Target(crate, "lib")
    return CrateView(target, joined, modules, names, dict(unparsed))


def _link_foreign_loads(models: dict[Path, FileModel], state: CrateState) -> None:
    """Tell each file where the stores its functions build are loaded elsewhere: BL005 is
    reported once, at the constructor, with those loads as related locations."""
    loads: dict[Location, list[Location]] = defaultdict(list)
    for path, model in models.items():
        with guarded(state.notes, path, CRATE_FACTS):
            for op in model.ops:
                store = op.store
                if (
                    op.is_load
                    and op.summary is None
                    and store is not None
                    and store.origin is not None
                    and store.helper is not None
                ):
                    where = Location(model.path, model.source.node_span(op.node))
                    loads[store.origin].append(where)
    for model in models.values():
        model.loads_elsewhere = {k: sorted(v, key=Location.sort_key) for k, v in loads.items()}
