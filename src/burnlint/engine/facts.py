"""Crate facts (DESIGN.md section 2b): the models of a group's files, built with what their
cargo targets can see of each other.

Each modelled file yields its items (functions, types, `use`s: plain data) and the summaries
of its functions; calls resolve against the items of the targets a file can name, and the
summaries flow to the callers until they stop changing. The module layout a target sees is
computed only when a rule reads it.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field, fields, replace
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from burnlint.engine.crate import CrateFile, CrateState
from burnlint.engine.guard import guarded
from burnlint.engine.memo import Built, remember
from burnlint.engine.stable import stable_digest
from burnlint.findings import Location
from burnlint.project.targets import (
    Target,
    callable_dependencies,
    manifest_of,
    visible_dependencies,
)

if TYPE_CHECKING:
    from burnlint.model.file_model import FileModel
    from burnlint.model.helpers import HelperSummary
    from burnlint.model.items import FileItems
    from burnlint.model.layout import LayoutFacts
    from burnlint.model.resolve import CrateView, FnKey

HELPER_ROUNDS = 4  # helpers of helpers of helpers: deeper chains are rare and not followed
CRATE_FACTS = "this file's crate facts"  # the stage, as an internal error names it


@dataclass
class ModelHandle:
    """A file the rules will run on: its model, or what builds it again (the cache had what
    the crate stage needed from it, so it was not built)."""

    item: CrateFile
    build_key: str | None  # None without a cache
    model: FileModel | None
    # the facts it is built with: the view, the summaries it sees, the target's layout
    view: TargetView
    seen: dict[FnKey, HelperSummary]
    layout: TrackedLayout
    items: FileItems | None
    # loads in other files of stores this file's functions build (``_link_foreign_loads``)
    loads_elsewhere: dict[Location, list[Location]] = field(default_factory=dict)

    def built(self, state: CrateState) -> FileModel:
        """The model, built now if the cache stood in for it so far."""
        if self.model is None:
            from burnlint.model.file_model import FileModel
            from burnlint.model.helpers import SummaryTable

            source = state.source(self.item)
            assert source is not None  # modelled files are text
            self.model = FileModel(
                source,
                self.view.view,
                SummaryTable(self.seen),
                self.layout,
                module=state.module(self.item),
                burn_version=self.item.burn_version or state.burn_version,
                items=self.items,
            )
        self.model.loads_elsewhere = self.loads_elsewhere
        return self.model


class TrackedLayout:
    """A target's layout (``layout_seen_by``) that says whether it was read: what read it
    depends on it, and the cache keeps its key."""

    def __init__(self, seen: TargetLayout) -> None:
        self._seen = seen
        self.read = False

    def __call__(self) -> LayoutFacts:
        self.read = True
        return self._seen.facts()

    def digest(self) -> str | None:
        """The layout's key if it was read, else None."""
        return self.current() if self.read else None

    def current(self) -> str:
        """The layout's key, read or not (``TargetLayout.key``)."""
        return self._seen.key()


def build_models(state: CrateState) -> dict[Path, ModelHandle]:
    """Handles of the models of the candidate files that rules will run on (reported, and in
    burn-store scope), with the crate facts their targets can see.

    A file that the prefilter skipped but that names a function with a summary is modelled in
    the next round, up to ``HELPER_ROUNDS``. With a cache (``state.memo``), a file built
    before with the same facts is not built again: the cache holds what it exported.
    """
    summaries: dict[FnKey, HelperSummary] = {}
    summary_digests: dict[FnKey, str] = {}
    # the digest of each summary exported in this run, with the summary (kept alive: by id)
    digest_of: dict[int, tuple[HelperSummary, str]] = {}

    def remember_digests(found: dict[FnKey, HelperSummary], digests: dict[FnKey, str]) -> None:
        for k, summary in found.items():
            digest_of[id(summary)] = (summary, digests.get(k) or stable_digest(summary))

    handles: dict[Path, ModelHandle] = {}  # kept for the rules
    items: dict[Path, FileItems] = {}
    items_digests: dict[Path, str] = {}  # of what other files see of a file's items
    # what each file exports, and the facts its model was built with
    exports: dict[Path, tuple[object, dict[FnKey, HelperSummary]]] = {}
    loads: dict[Path, tuple[tuple[Location, Location], ...]] = {}
    views: dict[Target, TargetView] = {}
    view_digests: dict[Target, str] = {}
    layouts: dict[Target, TargetLayout] = {}
    remembering = state.memo is not None

    # what a target's files see of this round's summaries: the summaries, their set (what a
    # file was built with) and its digest; the same for every file of the target
    seen_by_target: dict[Target, tuple[dict[FnKey, HelperSummary], frozenset[object], str]] = {}

    def seen_by(target: Target) -> tuple[dict[FnKey, HelperSummary], frozenset[object], str]:
        if target not in seen_by_target:
            visible = visible_targets(target, state)
            seen = {k: v for k, v in summaries.items() if k.target in visible}
            digest = stable_digest(sorted(summary_digests[k] for k in seen)) if remembering else ""
            seen_by_target[target] = (seen, frozenset(seen.items()), digest)
        return seen_by_target[target]

    def build(path: Path, item: CrateFile, *, export: bool = True) -> None:
        seen, seen_set, seen_digest = seen_by(item.target)
        view = views[item.target]
        signature = (seen_set, id(view))
        if path in exports and exports[path][0] == signature:
            return
        if item.target not in layouts:
            layouts[item.target] = layout_seen_by(item.target, state)
        layout = TrackedLayout(layouts[item.target])
        record = state.record(item)
        key = None
        if record is not None:
            key = stable_digest(
                state.module(item),
                item.target,
                item.burn_version or state.burn_version,
                seen_digest,
                view_digests[item.target],
            )
            known = record.builds.get(key)
            if (
                known is not None
                and (known.exports is not None or not export)
                and (known.layout is None or known.layout == layout.current())
            ):
                state.notes.extend(known.notes)
                exports[path] = (signature, (known.exports or {}) if export else {})
                remember_digests(known.exports or {}, known.export_digests)
                loads[path] = known.loads
                if not known.failed and item.reported and known.in_scope:
                    handles[path] = ModelHandle(
                        item, key, None, view, seen, layout, items.get(path)
                    )
                else:
                    handles.pop(path, None)
                return
        handle = ModelHandle(item, key, None, view, seen, layout, items.get(path))
        before = len(state.notes)
        exported: dict[FnKey, HelperSummary] | None = None
        found: tuple[tuple[Location, Location], ...] = ()
        with guarded(state.notes, item.path, CRATE_FACTS) as facts:
            model = handle.built(state)
            exported = model.exported_summaries() if export else None
            in_scope = model.in_burn_store_scope
            if item.reported and in_scope:
                found = _foreign_loads(model)
        exports[path] = (signature, {} if facts.failed else (exported or {}))
        loads[path] = () if facts.failed else found
        kept = not facts.failed and item.reported and in_scope
        if kept:
            handles[path] = handle
        else:
            handles.pop(path, None)
            state.release(item)
        # only for the bytes the record is for: the file may have changed since it was scanned
        if record is not None and key is not None and state.record(item) is record:
            digests = {k: stable_digest(v) for k, v in (exported or {}).items()}
            remember_digests(exported or {}, digests)
            built = Built(
                None if facts.failed else exported,
                not facts.failed and in_scope,
                facts.failed,
                loads[path],
                tuple(state.notes[before:]),
                layout.digest(),
                {} if facts.failed else digests,
            )
            remember(record.builds, key, built)
            state.learned()

    def refresh_views() -> None:
        for path, item in state.modelled.items():
            if path not in items:
                module = state.module(item)
                record = state.record(item)
                if record is not None and module in record.items:
                    state.note_syntax(item, record)
                    items[path], items_digests[path] = record.items[module]
                    continue
                from burnlint.model.items import FileItems, collect_items

                source = state.source(item)
                assert source is not None
                with guarded(state.notes, item.path, CRATE_FACTS) as collected:
                    items[path] = collect_items(source.root, module, find=source.nodes_of_type)
                if collected.failed:
                    items[path] = FileItems(module)
                if remembering:
                    items_digests[path] = _seen_of_items(items[path])
                    record = state.record(item)
                    if record is not None and not collected.failed:
                        record.items[module] = (items[path], items_digests[path])
                        state.learned()
        for target in {item.target for item in state.modelled.values()}:
            view = _view(target, state, items, bool(summaries))
            old = views.get(target)
            if old is None or old.shape != view.shape:
                views[target] = view
                if remembering:
                    view_digests[target] = _view_digest(view, items_digests)

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
        seen_by_target.clear()
        if remembering:
            summary_digests = {
                k: known[1] if (known := digest_of.get(id(v))) else stable_digest(v)
                for k, v in summaries.items()
            }
        # widen the prefilter: files that name a function with a summary they can see
        for target, target_items in state.by_target.items():
            visible = visible_targets(target, state)
            names = sorted({k.name.encode() for k in summaries if k.target in visible})
            if not names:
                continue
            for item in target_items:
                if item.path not in state.modelled and state.mentions(item, names):
                    state.model_file(item)
    refresh_views()
    # files added in the last round, and models built with facts that changed since
    for path, item in list(state.modelled.items()):
        build(path, item, export=path not in exports)
    _link_foreign_loads(handles, loads)
    return handles


def visible_targets(target: Target, state: CrateState) -> frozenset[Target]:
    """The targets whose functions ``target``'s code can call: its own, its package's lib
    (not from ``build.rs``), and the libs of its path dependencies."""
    visible = {target}
    if target.name not in ("lib", "build", "file") and target.lib() in state.by_target:
        visible.add(target.lib())
    for _name, crate in callable_dependencies(target):
        visible.add(Target(crate, "lib"))
    return frozenset(visible)


def layout_seen_by(target: Target, state: CrateState) -> TargetLayout:
    """What ``target`` sees of module layouts (``TargetLayout``)."""
    return TargetLayout(target, state)


class TargetLayout:
    """What a target sees of module layouts, computed at the first call and kept: its own
    layout, the lib's for the other targets, and the libs of its path dependencies (the
    crates that may declare the modules it loads).

    Only the key-mapping rules (BL005, BL006) read a layout, and only for a PyTorch-facing
    loader, yet computing one parses every file of the target that derives ``Module``: on the
    burn repository that is two files in three of all the files parsed. So a ``FileModel``
    gets a function that computes it, not its value. Should computing it raise, the next call
    tries again. ``key`` says what it is made of, for the cache.
    """

    def __init__(self, target: Target, state: CrateState) -> None:
        self.target = target
        self.state = state
        self._facts: LayoutFacts | None = None
        self._key: str | None = None

    def facts(self) -> LayoutFacts:
        if self._facts is None:
            state, target = self.state, self.target
            facts = state.own_layout(target)
            if not target.is_lib:
                facts = facts.merge(state.own_layout(target.lib()))
            for _name, crate in visible_dependencies(target):
                facts = facts.merge(state.dependency_layout(crate))
            self._facts = facts
        return self._facts

    def key(self) -> str:
        if self._key is None:
            state, target = self.state, self.target
            parts = [state.own_layout_key(target)]
            if not target.is_lib:
                parts.append(state.own_layout_key(target.lib()))
            parts += [state.dependency_layout_key(c) for _n, c in visible_dependencies(target)]
            self._key = stable_digest(parts)
        return self._key


class TargetView:
    """What one target's calls can reach (``_view``). The ``CrateView`` itself, whose indexes
    take a while to build, is built when a model needs it: with a cache that holds what the
    models would say, none may."""

    def __init__(
        self,
        target: Target,
        joined: dict[Target, list[Path]],
        items: dict[Path, FileItems],
        modules: dict[Target, frozenset[tuple[str, ...]]],
        names: dict[str, Target],
        unparsed: dict[str, int],
    ) -> None:
        self.target = target
        self.joined = joined
        self.modules = modules
        self.names = names
        self.unparsed = unparsed
        self._items = items  # a path's items never change within a run
        # what tells two views apart (the files whose items they hold, the unparsed types)
        self.shape = (tuple((t, tuple(p)) for t, p in joined.items()), sorted(unparsed.items()))

    @cached_property
    def view(self) -> CrateView:
        from burnlint.model.resolve import CrateView

        joined = {t: [self._items[p] for p in paths] for t, paths in self.joined.items()}
        return CrateView(self.target, joined, self.modules, self.names, self.unparsed)


def _view(
    target: Target, state: CrateState, items: dict[Path, FileItems], scan: bool
) -> TargetView:
    visible = visible_targets(target, state)
    joined: dict[Target, list[Path]] = {}
    modules: dict[Target, frozenset[tuple[str, ...]]] = {}
    unparsed: Counter[str] = Counter()
    for seen in sorted(visible):
        files = state.by_target.get(seen, [])
        joined[seen] = [f.path for f in files if f.path in items]
        modules[seen] = state.target_modules(seen)
        if scan:
            # the types a file that was not parsed may define make those names ambiguous
            for item in files:
                if item.path not in items:
                    unparsed.update(state.type_names(item))
    names: dict[str, Target] = {}
    if target.name not in ("lib", "build", "file") and target.lib() in state.by_target:
        names[manifest_of(target.crate).lib_name] = target.lib()
    for name, crate in callable_dependencies(target):
        names[name] = Target(crate, "lib")
    return TargetView(target, joined, items, modules, names, dict(unparsed))


def _foreign_loads(model: FileModel) -> tuple[tuple[Location, Location], ...]:
    """(constructor, load) of each load here of a store a crate-local function builds."""
    found: list[tuple[Location, Location]] = []
    for op in model.ops:
        store = op.store
        if (
            op.is_load
            and op.summary is None
            and store is not None
            and store.origin is not None
            and store.helper is not None
        ):
            found.append((store.origin, Location(model.path, model.source.node_span(op.node))))
    return tuple(found)


def _link_foreign_loads(
    handles: dict[Path, ModelHandle], loads: dict[Path, tuple[tuple[Location, Location], ...]]
) -> None:
    """Tell each file where the stores its functions build are loaded elsewhere: BL005 is
    reported once, at the constructor, with those loads as related locations."""
    joined: dict[Location, list[Location]] = defaultdict(list)
    for path in handles:
        for origin, where in loads.get(path, ()):
            joined[origin].append(where)
    elsewhere = {k: sorted(v, key=Location.sort_key) for k, v in joined.items()}
    for handle in handles.values():
        handle.loads_elsewhere = elsewhere
        if handle.model is not None:
            handle.model.loads_elsewhere = elsewhere


def _seen_of_items(items: FileItems) -> str:
    """The digest of what other files see of ``items``: not where a function starts in its
    file, nor the `use`s scoped to a block (only the file itself reads those)."""
    values: list[object] = []
    for part in fields(items):
        value = getattr(items, part.name)
        if part.name == "functions":
            value = [replace(f, start_byte=0) for f in value]
        elif part.name == "uses":
            value = [u for u in value if u.scope is None]
        values.append(value)
    return stable_digest(values)


def _view_digest(view: TargetView, items_digests: dict[Path, str]) -> str:
    """The digest of ``view``, from the digests of its files' items (kept in the process by
    what it is made of: rounds and runs of one process ask for the same views again)."""
    made_of = (
        view.target,
        tuple((t, tuple(items_digests[p] for p in paths)) for t, paths in view.joined.items()),
        tuple(view.modules.items()),
        tuple(sorted(view.names.items())),
        tuple(sorted(view.unparsed.items())),
    )
    found = _VIEW_DIGESTS.get(made_of)
    if found is None:
        if len(_VIEW_DIGESTS) >= _VIEW_DIGESTS_KEPT:
            _VIEW_DIGESTS.clear()
        found = _VIEW_DIGESTS[made_of] = stable_digest(
            view.target,
            {t: [items_digests[p] for p in paths] for t, paths in view.joined.items()},
            {t: sorted(m) for t, m in view.modules.items()},
            view.names,
            view.unparsed,
        )
    return found


# view digests by what they are made of, in this process (``_view_digest``)
_VIEW_DIGESTS: dict[tuple[object, ...], str] = {}
_VIEW_DIGESTS_KEPT = 1024
