"""The engine: discover -> prefilter -> parse -> model -> targets -> rules.

It never prints, exits or reads configuration: the CLI passes ``EngineOptions`` in and gets a
``LintResult`` back. Everything it returns is sorted, so output does not depend on the order in
which the file system lists directories.
"""

from __future__ import annotations

import hashlib
import os
import sys
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from burnlint.findings import (
    Finding,
    Level,
    LintResult,
    Location,
    Notification,
    NotificationKind,
)
from burnlint.fix import digest
from burnlint.model.file_model import FileModel
from burnlint.model.helpers import HelperSummary, SummaryTable
from burnlint.model.items import FileItems, collect_items
from burnlint.model.layout import LayoutFacts, collect_layout
from burnlint.model.resolve import CrateView, FnKey, scan_type_names
from burnlint.options import EngineOptions
from burnlint.paths import display_path
from burnlint.prefilter import has_trigger
from burnlint.rules import ALL_RULES
from burnlint.rules.base import Rule
from burnlint.rules.context import RuleContext
from burnlint.source import DecodeError, SourceFile, decode_source
from burnlint.statistics import SUPPRESSED_KEY
from burnlint.suppress import finish_file
from burnlint.syntax import parse, syntax_errors
from burnlint.targets import (
    Target,
    callable_dependencies,
    crate_root,
    manifest_of,
    module_in_target,
    path_dependencies,
    target_of,
    visible_dependencies,
)

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

    from burnlint.discover import Discovery
    from burnlint.versions import VersionReader

FINGERPRINT_KEY = "burnlint/v1"
_HELPER_ROUNDS = 4  # helpers of helpers of helpers: deeper chains are rare and not followed


@dataclass
class _File:
    """A file to check. Its bytes are not kept between the prefilter and the check: the group
    that checks it reads it again, if it needs it at all (so the memory held does not grow
    with the tree, and a pool ships paths, not contents)."""

    path: Path  # absolute, resolved
    display: str
    target: Target
    size: int
    reported: bool = True  # False for files read only for the facts of their target
    candidate: bool = True  # passes the prefilter: parsed and modelled whatever the helpers
    data: bytes | None = None  # given in memory (``lint_source``): never read from disk
    # the burn release its crate builds against, when the group joins crates that differ
    # (``_group_options``); None: the group's
    burn_version: str | None = None


def _crate_key(path: Path) -> Path:
    """The crate directory of ``path``, or the file itself outside any crate."""
    return crate_root(path.parent) or path


def _discover(roots: Sequence[Path], options: EngineOptions) -> Discovery:
    """The Rust files under ``roots``, as ``options`` select them (``discover.py``)."""
    from burnlint.discover import discover

    return discover(
        roots,
        respect_gitignore=options.respect_gitignore,
        exclude=options.exclude,
        exclude_root=options.exclude_root,
        force_exclude=options.force_exclude,
    )


def lint_paths(
    paths: Sequence[Path],
    options: EngineOptions,
    *,
    meanwhile: Callable[[], object] | None = None,
) -> LintResult:
    """Check every Rust file under ``paths``. ``meanwhile`` runs while worker processes check
    the crates (or before the crates are checked, without workers): the CLI loads its output
    format there."""
    discovery = _discover(paths, options)
    files = set(discovery.files)
    # Files named one by one (pre-commit passes the staged ones) are checked with the facts of
    # their whole cargo target: the rest of the crate is read, and reported on only if given.
    crates = sorted({c for f in discovery.explicit if (c := crate_root(f.parent)) is not None})
    context = {f for f in _discover(crates, options).files if f not in files} if crates else set()
    options_used = options
    if context:
        reported = files if options.report_paths is None else files & set(options.report_paths)
        options_used = replace(options, report_paths=frozenset(reported))
    return lint_files(
        sorted(files | context),
        options_used,
        notifications=discovery.notifications,
        meanwhile=meanwhile,
    )


def lint_source(path: Path, data: bytes, options: EngineOptions) -> LintResult:
    """Check one in-memory source (an editor's unsaved buffer, ``--stdin-filename``) as if it
    were ``path``: like a file named alone, with the facts of its whole cargo crate read from
    disk, and only ``path`` reported. ``path`` need not exist; it is never read or written."""
    absolute = Path(os.path.abspath(path))
    may_be_excluded = options.force_exclude and os.path.isfile(absolute)
    if may_be_excluded and not _discover([absolute], options).files:
        return LintResult(findings=(), notifications=(), files_checked=0)  # excluded
    context: set[Path] = set()
    crate = crate_root(absolute.parent)
    if crate is not None:
        context = {Path(os.path.abspath(f)) for f in _discover([crate], options).files} - {absolute}
    reported = frozenset({absolute})
    if options.report_paths is not None:
        reported &= {Path(os.path.abspath(p)) for p in options.report_paths}
    return lint_files(
        sorted(context | {absolute}),
        replace(options, report_paths=reported),
        overrides={absolute: data},
    )


def lint_files(
    files: Iterable[Path],
    options: EngineOptions,
    *,
    notifications: Iterable[Notification] = (),
    overrides: dict[Path, bytes] | None = None,
    meanwhile: Callable[[], object] | None = None,
) -> LintResult:
    """Check ``files``: read them here, then model and check each crate on its own (in worker
    processes when there is enough work), and merge the results in a stable order."""
    root = options.project_root.resolve()
    notes: list[Notification] = list(notifications)
    overrides = overrides or {}
    read: list[tuple[Path, int, bool, bool]] = []  # path, size, reported, candidate
    checked = skipped = 0
    report_only = (
        {Path(os.path.abspath(p)) for p in options.report_paths}
        if options.report_paths is not None
        else None
    )
    paths = sorted({Path(os.path.abspath(p)) for p in files})
    with _Workers(options) as workers:
        for path, scan in zip(paths, workers.scan(paths, options, overrides), strict=True):
            if scan.skipped is not None:
                notes.append(Notification(display_path(path, root), scan.skipped, level=scan.level))
                skipped += 1
                continue
            reported = report_only is None or path in report_only
            if reported:
                checked += 1  # context files read for facts are not "checked"
            read.append((path, scan.size, reported, scan.candidate))
        # Only the crates that hold a candidate are kept: another crate cannot produce anything.
        busy = _busy_crates(
            (_crate_key(path).as_posix() for path, _, _, _ in read),
            {_crate_key(path).as_posix() for path, _, _, candidate in read if candidate},
        )
        found_version: list[str | None] = []
        reported_paths = [path for path, _, reported, _ in read if reported]
        # one reader for the crates' versions (the rules') and the run's (the outputs'): a
        # workspace's lock file is read once
        versions = _version_reader(root)

        def while_checking() -> None:
            # the version the outputs state is gathered while the workers check the crates
            found_version.append(
                options.burn_version or _burn_version(reported_paths, versions, notes)
            )
            if meanwhile is not None:
                meanwhile()

        loaded = [
            _File(
                path,
                display_path(path, root),
                target_of(path),
                size,
                reported,
                candidate,
                overrides.get(path),
            )
            for path, size, reported, candidate in read
            if _crate_key(path).as_posix() in busy
        ]
        del read

        groups = _crate_groups(loaded)
        outcomes = workers.check(groups, _group_options(groups, options, versions), while_checking)
    burn_version = found_version[0]
    # a file that could be read but is not UTF-8 text was skipped, not checked
    undecodable = sum(outcome.undecodable for outcome in outcomes)
    checked -= undecodable
    skipped += undecodable
    findings = [f for outcome in outcomes for f in outcome.findings]
    for outcome in outcomes:
        notes.extend(outcome.notifications)
    with_findings = {f.location.path for f in findings} | {
        e.path for f in findings if f.fix is not None for e in f.fix.edits
    }
    return LintResult(
        findings=tuple(sorted(findings, key=Finding.sort_key)),
        notifications=tuple(sorted(set(notes), key=Notification.sort_key)),
        files_checked=checked,
        files_skipped=skipped,
        suppressed=sum(outcome.suppressed for outcome in outcomes),
        rules_run=tuple(sorted(r for r in options.rule_ids if r in {x.id for x in ALL_RULES})),
        burn_version=burn_version,
        rule_levels=tuple(
            (rule.id, options.level_of(rule.id, rule.level))
            for rule in ALL_RULES
            if rule.id in options.rule_ids
        ),
        extra={
            # what --fix and --add-allow check before writing: the bytes that were linted, for
            # the files with findings
            "digests": {
                path: value
                for outcome in outcomes
                for path, value in outcome.digests
                if path in with_findings
            },
            # for --statistics
            SUPPRESSED_KEY: _sum_suppressed(outcomes),
        },
    )


def _version_reader(root: Path) -> VersionReader:
    from burnlint.versions import VersionReader

    return VersionReader(display=lambda path: display_path(path, root))


def _burn_version(
    files: list[Path], reader: VersionReader, notes: list[Notification]
) -> str | None:
    """The burn version of the crates holding ``files`` (``versions.py``); unreadable
    manifests and locks become notifications."""
    version = reader.for_directories(crate_root(f.parent) or f.parent for f in files)
    notes.extend(reader.notifications)
    return version


def _group_options(
    groups: list[list[_File]], options: EngineOptions, reader: VersionReader
) -> list[EngineOptions]:
    """The options each crate is checked with: ``burn_version`` is the configured version,
    else the one the crate builds against (None when unknown), which the rules follow."""
    if options.burn_version is not None:
        return [options] * len(groups)
    found: list[EngineOptions] = []
    for group in groups:
        versions: dict[str, str | None] = {}
        for item in group:
            if item.target.crate not in versions:
                crate = crate_root(item.path.parent)
                answer = reader.for_directory(crate) if crate is not None else None
                versions[item.target.crate] = answer.version if answer else None
            item.burn_version = versions[item.target.crate]
        first = versions[group[0].target.crate] if group else None
        found.append(replace(options, burn_version=first))
    return found


def _sum_suppressed(outcomes: Iterable[GroupOutcome]) -> dict[str, int]:
    total: dict[str, int] = defaultdict(int)
    for outcome in outcomes:
        for rule_id, count in outcome.suppressed_by_rule:
            total[rule_id] += count
    return dict(sorted(total.items()))


@dataclass(frozen=True)
class GroupOutcome:
    """What checking one crate produced: plain data, so it can cross process boundaries."""

    findings: tuple[Finding, ...]
    notifications: tuple[Notification, ...]
    suppressed: int = 0
    suppressed_by_rule: tuple[tuple[str, int], ...] = ()
    # (display path, digest) of the bytes checked, for the files with a finding
    digests: tuple[tuple[str, str], ...] = ()
    undecodable: int = 0  # reported files skipped because they are not UTF-8 text


# From this many candidate files on, crates are checked in a process pool (README, "Speed").
# Starting and joining two forked workers costs 15-45 ms; parsing, modelling and checking a
# candidate 5-10 ms of CPU, and one crate cannot be split between workers, so the pool pays
# off once there are a few dozen candidates in several crates. On the burn repository 77 of
# 1,705 files are candidates, in 13 crates (tests/benchmarks/README.md).
PARALLEL_MIN_CANDIDATES = 48


def _busy_crates(crates: Iterable[str], candidates: set[str]) -> set[str]:
    """The crates that can produce a finding: those holding a candidate, and those whose
    calls reach one through path dependencies (a helper of a workspace crate)."""
    crates = sorted(set(crates))
    busy = set(candidates)
    changed = True
    while changed:
        changed = False
        for crate in crates:
            if crate not in busy and any(d in busy for d in path_dependencies(crate)):
                busy.add(crate)
                changed = True
    return busy


def _crate_groups(loaded: list[_File]) -> list[list[_File]]:
    """The files of each crate that holds a candidate, joined with the crates it names
    through path dependencies (and they with theirs): cross-file facts never leave such a
    group, so groups are checked independently, and one without a candidate cannot produce
    anything. burn's own crates are not joined to their dependents (``path_dependencies``):
    that keeps the burn repository's crates apart. Costliest first (the bytes of its
    candidates), so a pool finishes evenly; ties in path order, so the order never depends
    on the file system."""
    by_crate: dict[str, list[_File]] = defaultdict(list)
    for item in loaded:
        by_crate[item.target.crate].append(item)
    leader = {crate: crate for crate in by_crate}

    def find(crate: str) -> str:
        while leader[crate] != crate:
            leader[crate] = leader[leader[crate]]
            crate = leader[crate]
        return crate

    for crate in sorted(by_crate):
        if by_crate[crate][0].target.name == "file":
            continue
        for dependency in path_dependencies(crate):
            if dependency in leader:
                first, second = sorted((find(crate), find(dependency)))
                leader[second] = first
    groups: dict[str, list[_File]] = defaultdict(list)
    for crate in sorted(by_crate):
        groups[find(crate)].extend(by_crate[crate])
    busy = [g for g in groups.values() if any(i.candidate for i in g)]
    return sorted(busy, key=lambda g: (-sum(i.size for i in g if i.candidate), g[0].display))


# From this many files on, they are read and prefiltered in worker processes too. Reading and
# prefiltering a file costs 50-70 us and starting two forked workers 15-45 ms, so below about a
# thousand files the split is not worth a pool (the pool is then kept to check the crates).
PARALLEL_MIN_FILES = 1000


class _Scan(NamedTuple):
    """What reading and prefiltering one file found (a tuple: thousands cross processes)."""

    size: int = 0
    candidate: bool = False
    skipped: str | None = None  # why the file is skipped: a notification's message
    level: Level = Level.WARNING


def _scan_file(path: str | Path, options: EngineOptions, data: bytes | None = None) -> _Scan:
    if data is None:
        try:
            with open(path, "rb") as fh:  # no stat: the read says whether it is too big
                data = fh.read(options.max_file_bytes + 1)
                size = len(data)
                if size > options.max_file_bytes:
                    size = os.fstat(fh.fileno()).st_size
        except OSError as exc:
            return _Scan(skipped=f"cannot read: {exc.strerror or exc}")
        if size > options.max_file_bytes:
            return _Scan(
                skipped=f"skipped: {size:,} bytes is over the limit of {options.max_file_bytes:,}",
                level=Level.NOTE,
            )
    if b"\x00" in data:
        # Binary (a NUL byte is never in Rust source): said so even when the prefilter would
        # have passed over it silently; one memchr, cheaper than the trigger words.
        return _Scan(skipped="skipped: binary file (contains NUL bytes)")
    # plain `bytes in` checks on the raw bytes: a skipped file is never decoded, and its bytes
    # are not kept (the group that checks a file reads it again, if it needs it at all)
    return _Scan(len(data), not options.prefilter or has_trigger(data))


def _scan_files(paths: list[str], options: EngineOptions) -> list[_Scan]:
    return [_scan_file(path, options) for path in paths]


class _Workers:
    """The process pool of one run, started when the work first calls for it: to read and
    prefilter many files, or to check the crates when there are enough candidates. Without
    it everything runs in this process; the results are the same, in the same order."""

    def __init__(self, options: EngineOptions) -> None:
        self.jobs = options.jobs if options.jobs > 0 else (os.cpu_count() or 1)
        self._pool: ProcessPoolExecutor | None = None

    def __enter__(self) -> _Workers:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None

    def pool(self, workers: int) -> ProcessPoolExecutor:
        if self._pool is None:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            # fork: the workers start with everything imported (the parser, the model, the
            # rules) instead of importing it again; elsewhere the platform's default.
            fork = sys.platform == "linux" and "fork" in multiprocessing.get_all_start_methods()
            context = multiprocessing.get_context("fork" if fork else None)
            self._pool = ProcessPoolExecutor(max_workers=workers, mp_context=context)
        return self._pool

    def scan(
        self, paths: list[Path], options: EngineOptions, overrides: dict[Path, bytes]
    ) -> list[_Scan]:
        """``_scan_file`` of each path, in order."""
        if overrides or self.jobs <= 1 or len(paths) < PARALLEL_MIN_FILES:
            return [_scan_file(path, options, overrides.get(path)) for path in paths]
        # interleaved shares: neighbours in a directory are alike in size
        # (strings: cheaper to send than paths)
        shares = [[os.fspath(p) for p in paths[index :: self.jobs]] for index in range(self.jobs)]
        scans: list[_Scan] = [_Scan()] * len(paths)
        pool = self.pool(self.jobs)
        for index, found in enumerate(pool.map(_scan_files, shares, [options] * self.jobs)):
            scans[index :: self.jobs] = found
        return scans

    def check(
        self,
        groups: list[list[_File]],
        options: list[EngineOptions],
        meanwhile: Callable[[], object],
    ) -> list[GroupOutcome]:
        """``lint_group`` of each group, in worker processes when there are enough candidates;
        the outcomes come back in the order of ``groups`` either way. ``meanwhile`` runs in
        this process once the work is handed out (before it, without workers)."""
        candidates = sum(1 for g in groups for i in g if i.candidate)
        if self.jobs <= 1 or len(groups) <= 1 or candidates < PARALLEL_MIN_CANDIDATES:
            meanwhile()
            return [lint_group(group, o) for group, o in zip(groups, options, strict=True)]
        pool = self.pool(min(self.jobs, len(groups)))
        # with fork every worker is started by the first submission: none is forked while
        # ``meanwhile`` runs
        pending = pool.map(lint_group, groups, options)
        meanwhile()
        return list(pending)


class _TargetLayout(LayoutFacts):
    """The ``LayoutFacts`` of a target, computed the first time a rule reads them.

    Only the key-mapping rules (BL005, BL006) read a layout, and only for a PyTorch-facing
    loader, yet computing one parses every file of the target that derives ``Module``: on the
    burn repository that is two files in three of all the files parsed. Reading any field
    computes all of them.
    """

    def __init__(self, compute: Callable[[], LayoutFacts]) -> None:
        # no dataclass __init__: the fields do not exist until the first read
        self._compute: Callable[[], LayoutFacts] | None = compute

    def __getattr__(self, name: str) -> Any:
        # called only for attributes that are not set: the fields, before the first read
        compute = self.__dict__.get("_compute")
        if compute is None or name not in _LAYOUT_FIELDS:
            raise AttributeError(name)
        facts = compute()  # should it raise, the next read tries again
        self._compute = None
        for field_name in _LAYOUT_FIELDS:
            setattr(self, field_name, getattr(facts, field_name))
        return getattr(self, name)


_LAYOUT_FIELDS = tuple(f.name for f in fields(LayoutFacts))


class _Group:
    """One crate being checked: its files, their bytes and trees, notes.

    A tree costs about 40 times its file's bytes, so trees are held only while they are
    needed: a file's model is dropped as soon as it is built and its helpers exported, unless
    rules will run on it (a reported file that uses burn-store); should a later round need it
    again, it is parsed again. With the prefilter off that keeps a crate of 462 files at the
    memory of a few trees.
    """

    def __init__(self, files: list[_File], options: EngineOptions | None = None) -> None:
        self.files = files
        self.options = options
        self.by_target: dict[Target, list[_File]] = defaultdict(list)
        for item in files:
            self.by_target[item.target].append(item)
        self.notes: list[Notification] = []
        self.contents: dict[Path, bytes] = {}  # b"" when unreadable
        self.text: dict[Path, bool] = {}  # decodes as UTF-8 text (checked once)
        self.sources: dict[Path, SourceFile] = {}  # the trees held now
        self.noted: set[Path] = set()  # syntax errors reported
        self.file_layouts: dict[Path, LayoutFacts] = {}  # of files whose tree was dropped
        self.layouts: dict[Target, LayoutFacts] = {}
        self.dependency_layouts: dict[str, LayoutFacts] = {}  # path dependencies, by crate
        self.modelled: dict[Path, _File] = {}  # the files that get a FileModel
        self.modules: dict[Path, tuple[str, ...]] = {}
        self.burn_version: str | None = None  # the burn release the crate builds against

    def data(self, item: _File) -> bytes:
        """The bytes of ``item``, read once (empty when it cannot be read any more)."""
        data = self.contents.get(item.path) if item.data is None else item.data
        if data is None:
            try:
                with open(item.path, "rb") as fh:
                    data = fh.read()
            except OSError as exc:
                data = b""
                reason = exc.strerror or str(exc)
                self.notes.append(Notification(item.display, f"cannot read: {reason}"))
            self.contents[item.path] = data
        return data

    def is_text(self, item: _File) -> bool:
        if item.path not in self.text:
            try:
                decode_source(self.data(item))
            except DecodeError as exc:
                self.notes.append(Notification(item.display, f"skipped: {exc}"))
                self.text[item.path] = False
            else:
                self.text[item.path] = True
        return self.text[item.path]

    def source(self, item: _File) -> SourceFile | None:
        """``item`` parsed (again, if its tree was dropped); None when it is not text."""
        if item.path in self.sources:
            return self.sources[item.path]
        if not self.is_text(item):
            return None
        data = self.data(item)
        source = SourceFile(item.display, data, parse(data))
        if source.has_syntax_errors and item.path not in self.noted:
            self.noted.add(item.path)
            line = next((n.start_point[0] + 1 for n in syntax_errors(source.root)), 1)
            self.notes.append(
                Notification(
                    item.display,
                    f"syntax error near line {line}; findings in this file may be incomplete",
                    level=Level.NOTE,
                    line=line,
                )
            )
        self.sources[item.path] = source
        return source

    def release(self, item: _File) -> None:
        """Drop the tree of ``item`` (its layout facts are kept, should a rule ask)."""
        source = self.sources.pop(item.path, None)
        if source is not None and item.path not in self.file_layouts and _derives(source.data):
            self.file_layouts[item.path] = collect_layout(source)

    def module(self, item: _File) -> tuple[str, ...]:
        """The module path of ``item`` inside its target (cargo's conventions)."""
        if item.path not in self.modules:
            self.modules[item.path] = module_in_target(item.path, item.target)
        return self.modules[item.path]

    def model_file(self, item: _File) -> None:
        if item.path not in self.modelled and self.is_text(item):
            self.modelled[item.path] = item

    def own_layout(self, target: Target) -> LayoutFacts:
        """The modules declared by the files of ``target`` (each file that derives `Module`)."""
        if target not in self.layouts:
            facts = LayoutFacts()
            for item in self.by_target.get(target, []):
                if item.path in self.file_layouts:
                    facts = facts.merge(self.file_layouts[item.path])
                    continue
                if not _derives(self.data(item)):
                    continue
                held = item.path in self.sources
                source = self.source(item)
                if source is not None:
                    facts = facts.merge(collect_layout(source))
                    if not held:
                        del self.sources[item.path]
            self.layouts[target] = facts
        return self.layouts[target]

    def layout(self, target: Target) -> LayoutFacts:
        """What ``target`` sees: its own layout, the lib's for the other targets, and the libs
        of its path dependencies (the crates that may declare the modules it loads)."""

        def visible() -> LayoutFacts:
            facts = self.own_layout(target)
            if not target.is_lib:
                facts = facts.merge(self.own_layout(target.lib()))
            for _name, crate in visible_dependencies(target):
                facts = facts.merge(self.dependency_layout(crate))
            return facts

        return _TargetLayout(visible)

    def dependency_layout(self, crate: str) -> LayoutFacts:
        """The modules the lib of a path dependency declares. Its files are checked in a group
        of their own, so they are read here from disk: only the files that may derive
        `Module`, each parsed and dropped at once."""
        lib = Target(crate, "lib")
        if lib in self.by_target:
            return self.own_layout(lib)
        if crate not in self.dependency_layouts:
            facts = LayoutFacts()
            limit = self.options.max_file_bytes if self.options is not None else None
            root = self.options.project_root if self.options is not None else Path(crate)
            for path in _lib_files(Path(crate)):
                try:
                    if limit is not None and path.stat().st_size > limit:
                        continue
                    data = path.read_bytes()
                except OSError:
                    continue  # context only: the group that checks it reports the problem
                if not _derives(data):
                    continue
                try:
                    decode_source(data)
                except DecodeError:
                    continue
                source = SourceFile(display_path(path, root.resolve()), data, parse(data))
                facts = facts.merge(collect_layout(source))
            self.dependency_layouts[crate] = facts
        return self.dependency_layouts[crate]


def _lib_files(crate: Path) -> list[Path]:
    """The files of ``crate``'s lib by cargo's conventions (``src/`` but ``src/bin`` and
    ``src/main.rs``), in path order; symbolic links are not followed."""
    if not (crate / "src" / "lib.rs").is_file():
        return []
    found: list[Path] = []
    source = crate / "src"
    for directory, subdirectories, names in os.walk(source):
        here = Path(directory)
        subdirectories[:] = sorted(
            d
            for d in subdirectories
            if not d.startswith(".") and not (here == source and d == "bin")
        )
        found.extend(
            here / name
            for name in sorted(names)
            if name.endswith(".rs") and not (here == source and name == "main.rs")
        )
    return found


def _derives(data: bytes) -> bool:
    """Whether a file may derive `Module` (``collect_layout`` looks for attributes that hold
    both words): the others declare no module and need not be parsed for the layout."""
    return b"derive" in data and b"Module" in data


def lint_group(group: list[_File], options: EngineOptions) -> GroupOutcome:
    """Parse, model and check the files of one crate (in a worker process, or not)."""
    state = _Group(group, options)
    state.burn_version = options.burn_version  # the crate's (``_group_options``)
    for item in group:
        if item.candidate:
            state.model_file(item)
    models = _build_models(state)
    rules = [rule() for rule in ALL_RULES if rule.id in options.rule_ids]
    findings: list[Finding] = []
    suppressed: Counter[str] = Counter()
    for path in sorted(models):
        model = models[path]
        if not state.modelled[path].reported or not model.in_burn_store_scope:
            continue
        before = len(state.notes)
        found = _run_rules(model, rules, options, state.notes)
        # allow comments and per-file ignores, then BL008 on the allows (suppress.py); the
        # allows of a rule that crashed here cannot be judged
        crashed = frozenset(n.rule_id for n in state.notes[before:] if n.rule_id is not None)
        try:
            verdict = finish_file(found, model.source, path, options, crashed=crashed)
            # fingerprints are completed per file (their ordinals never cross files), so that
            # the expression text they are made from is not carried to the end of the run
            finished = _with_fingerprints(
                [_locate_edits(f, model.source) for f in verdict.findings]
            )
        except Exception as exc:
            # without its allow comments judged, no finding of the file is certain
            state.notes.append(internal_error(model.path, "this file's allow comments", exc))
            continue
        findings.extend(finished)
        suppressed.update(dict(verdict.suppressed))
    # what --fix and --add-allow check before writing: the bytes that were linted
    # (and the files their fixes edit: a fix may add `.overwrite(true)` in a helper's file)
    with_findings = sorted(
        {f.location.path for f in findings}
        | {e.path for f in findings if f.fix is not None for e in f.fix.edits}
    )
    by_display = {item.display: item for item in state.modelled.values()}
    digests = tuple(
        (shown, digest(state.data(by_display[shown])))
        for shown in with_findings
        if shown in by_display
    )
    return GroupOutcome(
        tuple(findings),
        tuple(state.notes),
        sum(suppressed.values()),
        tuple(sorted(suppressed.items())),
        digests,
        undecodable=sum(
            1 for item in group if item.reported and state.text.get(item.path) is False
        ),
    )


def _locate_edits(finding: Finding, source: SourceFile) -> Finding:
    """Give the fix's edits in this file their line/column span."""
    fix = finding.fix
    if fix is None:
        return finding
    edits = tuple(
        replace(e, span=source.span(e.start_byte, e.end_byte))
        if e.path == source.display_path
        else e
        for e in fix.edits
    )
    return replace(finding, fix=replace(fix, edits=edits))


def _build_models(state: _Group) -> dict[Path, FileModel]:
    """Models for the candidate files that rules will run on (reported, and in burn-store
    scope), with the crate facts their targets can see (DESIGN.md section 2b).

    Each modelled file yields its items (functions, types, `use`s: plain data) and the
    summaries of its functions; calls resolve against the items of the targets a file can
    name, and the summaries flow to the callers until they stop changing. A file that the
    prefilter skipped but that names a function with a summary is modelled in the next round.
    """
    summaries: dict[FnKey, HelperSummary] = {}
    models: dict[Path, FileModel] = {}  # kept for the rules
    items: dict[Path, FileItems] = {}
    # what each file exports, and the facts its model was built with
    exports: dict[Path, tuple[object, dict[FnKey, HelperSummary]]] = {}
    views: dict[Target, CrateView] = {}
    visible_layouts: dict[Target, LayoutFacts] = {}

    def build(path: Path, item: _File, *, export: bool = True) -> None:
        visible = _visible_targets(item.target, state)
        seen = {k: v for k, v in summaries.items() if k.target in visible}
        view = views[item.target]
        signature = (frozenset(seen.items()), id(view))
        if path in exports and exports[path][0] == signature:
            return
        source = state.source(item)
        assert source is not None  # modelled files are text
        if item.target not in visible_layouts:
            visible_layouts[item.target] = state.layout(item.target)
        try:
            model = FileModel(
                source,
                view,
                SummaryTable(seen),
                visible_layouts[item.target],
                module=state.module(item),
                burn_version=item.burn_version or state.burn_version,
            )
            exports[path] = (signature, model.exported_summaries() if export else {})
            in_scope = model.in_burn_store_scope
        except Exception as exc:  # a bug in one file's facts must not stop the run
            state.notes.append(internal_error(item.display, "this file's crate facts", exc))
            exports[path] = (signature, {})
            models.pop(path, None)
            state.release(item)
            return
        if item.reported and in_scope:
            models[path] = model
        else:
            models.pop(path, None)
            state.release(item)

    def refresh_views() -> None:
        for path, item in state.modelled.items():
            if path not in items:
                source = state.source(item)
                assert source is not None
                items[path] = collect_items(source.root, state.module(item))
        for target in {item.target for item in state.modelled.values()}:
            view = _view(target, state, items, bool(summaries))
            old = views.get(target)
            if old is None or old.items != view.items or old.unparsed_types != view.unparsed_types:
                views[target] = view

    for _round in range(_HELPER_ROUNDS):
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
            visible = _visible_targets(target, state)
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
    _link_foreign_loads(models)
    return models


def _visible_targets(target: Target, state: _Group) -> frozenset[Target]:
    """The targets whose functions ``target``'s code can call: its own, its package's lib
    (not from ``build.rs``), and the libs of its path dependencies."""
    visible = {target}
    if target.name not in ("lib", "build", "file") and target.lib() in state.by_target:
        visible.add(target.lib())
    for _name, crate in callable_dependencies(target):
        visible.add(Target(crate, "lib"))
    return frozenset(visible)


def _view(target: Target, state: _Group, items: dict[Path, FileItems], scan: bool) -> CrateView:
    visible = _visible_targets(target, state)
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


def _link_foreign_loads(models: dict[Path, FileModel]) -> None:
    """Tell each file where the stores its functions build are loaded elsewhere: BL005 is
    reported once, at the constructor, with those loads as related locations."""
    loads: dict[Location, list[Location]] = defaultdict(list)
    for model in models.values():
        for op in model.ops:
            store = op.store
            if (
                op.is_load
                and op.summary is None
                and store is not None
                and store.origin is not None
                and store.helper is not None
            ):
                loads[store.origin].append(Location(model.path, model.source.node_span(op.node)))
    for model in models.values():
        model.loads_elsewhere = {k: sorted(v) for k, v in loads.items()}


def _run_rules(
    model: FileModel, rules: list[Rule], options: EngineOptions, notes: list[Notification]
) -> list[Finding]:
    found: list[Finding] = []
    for rule in rules:
        level = options.level_of(rule.id, rule.level)
        context = RuleContext(model, rule, level)
        try:
            found.extend(rule.check(context))
        except Exception as exc:  # a rule's bug must not stop the run (DESIGN.md §1)
            notes.append(
                Notification(
                    model.path,
                    f"rule {rule.id} ({rule.name}) crashed on this file: "
                    f"{type(exc).__name__}: {exc}",
                    kind=NotificationKind.INTERNAL,
                    level=Level.ERROR,
                    rule_id=rule.id,
                )
            )
    return found


def internal_error(path: str, stage: str, exc: Exception) -> Notification:
    """A per-file stage failed (DESIGN.md section 2b, "Isolation"): the file gets no findings
    from that stage, the run goes on, and exits 2."""
    return Notification(
        path,
        f"internal error in {stage}: {type(exc).__name__}: {' '.join(str(exc).split())}",
        kind=NotificationKind.INTERNAL,
        level=Level.ERROR,
    )


def _with_fingerprints(findings: list[Finding]) -> list[Finding]:
    """Complete each finding's fingerprint (the findings of one or more whole files): rule,
    enclosing item, normalised expression, and an ordinal among identical triples in the
    file, hashed. Line numbers are not part of it,
    so inserting unrelated lines above a finding keeps its fingerprint."""
    seen: dict[tuple[str, str, str], int] = defaultdict(int)
    out: list[Finding] = []
    for finding in sorted(findings, key=Finding.sort_key):
        key = (finding.location.path, finding.rule_id, finding.fingerprint)
        ordinal = seen[key]
        seen[key] += 1
        material = "\x1e".join((finding.rule_id, finding.fingerprint, str(ordinal)))
        hashed = hashlib.sha256(material.encode()).hexdigest()[:32]
        out.append(replace(finding, fingerprint=hashed))
    return out
