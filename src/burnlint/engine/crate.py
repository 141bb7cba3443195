"""The files of a run grouped by crate, and the state of one group while it is checked.

A group is a crate that holds a candidate, joined with the workspace crates it names through
path dependencies (and they with theirs): cross-file facts never leave a group, so groups are
checked independently, in worker processes or not.
"""

from __future__ import annotations

import os
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from burnlint.engine.cache import Stat
from burnlint.engine.finish import digest
from burnlint.engine.memo import ExternalFile, FileRecord, GroupMemo, remember
from burnlint.engine.session import parse_file
from burnlint.engine.stable import stable_digest
from burnlint.findings import Level, Notification
from burnlint.fsutil import RACY_NS, now_ns
from burnlint.options import EngineOptions
from burnlint.project.targets import (
    Target,
    crate_of_file,
    module_in_target,
    path_dependencies,
)
from burnlint.rust.source import DecodeError, decode_source

if TYPE_CHECKING:
    from burnlint.model.layout import LayoutFacts
    from burnlint.rust.source import SourceFile


@dataclass
class CrateFile:
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
    # (``engine.group_options``); None: the group's
    burn_version: str | None = None
    digest: str | None = None  # of its bytes, when the cache is on (``cache.Scan.digest``)


def crate_key(path: Path) -> Path:
    """The crate directory of ``path``, or the file itself outside any crate."""
    return crate_of_file(path) or path


def busy_crates(crates: Iterable[str], candidates: set[str]) -> set[str]:
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


def crate_groups(loaded: list[CrateFile]) -> list[list[CrateFile]]:
    """The files of each crate that holds a candidate, joined with the crates it names
    through path dependencies (and they with theirs): cross-file facts never leave such a
    group, so groups are checked independently, and one without a candidate cannot produce
    anything. burn's own crates are not joined to their dependents (``path_dependencies``):
    that keeps the burn repository's crates apart. Costliest first (the bytes of its
    candidates), so a pool finishes evenly; ties in path order, so the order never depends
    on the file system."""
    by_crate: dict[str, list[CrateFile]] = defaultdict(list)
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
    groups: dict[str, list[CrateFile]] = defaultdict(list)
    for crate in sorted(by_crate):
        groups[find(crate)].extend(by_crate[crate])
    busy = [g for g in groups.values() if any(i.candidate for i in g)]
    return sorted(busy, key=lambda g: (-sum(i.size for i in g if i.candidate), g[0].display))


class CrateState:
    """One group being checked: its files, their bytes and trees, notes.

    A tree costs about 40 times its file's bytes, so trees are held only while they are
    needed: a file's model is dropped as soon as it is built and its helpers exported, unless
    rules will run on it (a reported file that uses burn-store); should a later round need it
    again, it is parsed again. With the prefilter off that keeps a crate of 462 files at the
    memory of a few trees.
    """

    def __init__(
        self, files: list[CrateFile], options: EngineOptions, memo: GroupMemo | None = None
    ) -> None:
        self.files = files
        # what earlier runs found (``memo.py``), for files that have a digest; None: no cache
        self.memo = memo
        self.options = options
        self.by_target: dict[Target, list[CrateFile]] = defaultdict(list)
        for item in files:
            self.by_target[item.target].append(item)
        self.notes: list[Notification] = []
        self.contents: dict[Path, bytes] = {}  # b"" when unreadable
        self.text: dict[Path, bool] = {}  # decodes as UTF-8 text (checked once)
        self.sources: dict[Path, SourceFile] = {}  # the trees held now
        self.syntax_noted: set[Path] = set()  # syntax errors reported
        self.file_layouts: dict[Path, LayoutFacts] = {}  # of files whose tree was dropped
        self.layouts: dict[Target, LayoutFacts] = {}
        self.dependency_layouts: dict[str, LayoutFacts] = {}  # path dependencies, by crate
        self.dependency_files: dict[str, list[Path]] = {}  # their libs' files, by crate
        self.modelled: dict[Path, CrateFile] = {}  # the files that get a FileModel
        self.modules: dict[Path, tuple[str, ...]] = {}
        self.modules_of_target: dict[Target, frozenset[tuple[str, ...]]] = {}
        self.parsed = 0  # files parsed (``source``)
        # the burn release the crate builds against (``engine.group_options``)
        self.burn_version: str | None = options.burn_version

    def data(self, item: CrateFile) -> bytes:
        """The bytes of ``item``, read once (empty when it cannot be read any more)."""
        data = self.contents.get(item.path) if item.data is None else item.data
        if data is None:
            try:
                with open(item.path, "rb") as fh:
                    data = fh.read()
            except OSError as exc:
                data = b""
                reason = exc.strerror or str(exc)
                self.notes.append(Notification(item.path, f"cannot read: {reason}"))
                item.digest = None  # nothing to remember of it
            if item.digest is not None and digest(data) != item.digest:
                item.digest = None  # changed since it was scanned: its facts are not kept
            self.contents[item.path] = data
        return data

    def record(self, item: CrateFile) -> FileRecord | None:
        """What earlier runs found in ``item``'s bytes (``memo.py``); None without a cache,
        or for bytes that are not those scanned."""
        if self.memo is None or item.digest is None:
            return None
        return self.memo.record(item.path, item.digest)

    def learned(self) -> None:
        """Something was added to the memo: it is written back at the end."""
        if self.memo is not None:
            self.memo.changed = True

    def mentions(self, item: CrateFile, names: list[bytes]) -> bool:
        """Whether ``item``'s bytes hold one of ``names`` (a helper's name: the widened
        prefilter of ``facts.build_models``)."""
        record = self.record(item)
        key = stable_digest(names) if record is not None else ""
        if record is not None and key in record.mentions:
            return record.mentions[key]
        data = self.data(item)
        found = any(name in data for name in names)
        record = self.record(item)
        if record is not None:
            remember(record.mentions, key, found)
            self.learned()
        return found

    def type_names(self, item: CrateFile) -> dict[str, int]:
        """The type names ``item`` may define (``resolve.scan_type_names``), unparsed."""
        record = self.record(item)
        if record is not None and record.type_names is not None:
            return record.type_names
        from burnlint.model.resolve import scan_type_names

        found = dict(Counter(scan_type_names(self.data(item))))
        record = self.record(item)
        if record is not None:
            record.type_names = found
            self.learned()
        return found

    def is_text(self, item: CrateFile) -> bool:
        if item.path not in self.text:
            record = self.record(item)
            if record is not None and record.text:
                self.text[item.path] = True
                return True
            try:
                decode_source(self.data(item))
            except DecodeError as exc:
                self.notes.append(Notification(item.path, f"skipped: {exc}"))
                self.text[item.path] = False
            else:
                self.text[item.path] = True
            record = self.record(item)  # the read may have found other bytes
            if record is not None:
                record.text = self.text[item.path]
                self.learned()
        return self.text[item.path]

    def source(self, item: CrateFile) -> SourceFile | None:
        """``item`` parsed (again, if its tree was dropped); None when it is not text."""
        if item.path in self.sources:
            return self.sources[item.path]
        if not self.is_text(item):
            return None
        from burnlint.rust.source import SourceFile
        from burnlint.rust.syntax import syntax_errors

        data = self.data(item)
        source = SourceFile(item.path, data, parse_file(os.fspath(item.path), data))
        self.parsed += 1
        line = None
        if source.has_syntax_errors:
            line = next((n.start_point[0] + 1 for n in syntax_errors(source.root)), 1)
        record = self.record(item)
        if record is not None:
            record.parsed, record.syntax_line = True, line
            self.learned()
        self._note_syntax(item, line)
        self.sources[item.path] = source
        return source

    def note_syntax(self, item: CrateFile, record: FileRecord) -> None:
        """Say what parsing ``item`` would say, from ``record`` (facts used unparsed)."""
        if record.parsed:
            self._note_syntax(item, record.syntax_line)

    def _note_syntax(self, item: CrateFile, line: int | None) -> None:
        if line is None or item.path in self.syntax_noted:
            return
        self.syntax_noted.add(item.path)
        self.notes.append(
            Notification(
                item.path,
                f"syntax error near line {line}; findings in this file may be incomplete",
                level=Level.NOTE,
                line=line,
            )
        )

    def release(self, item: CrateFile) -> None:
        """Drop the tree of ``item`` (its layout facts are kept, should a rule ask)."""
        from burnlint.model.layout import collect_layout

        source = self.sources.pop(item.path, None)
        if source is not None and item.path not in self.file_layouts and derives(source.data):
            self.file_layouts[item.path] = collect_layout(source)
            record = self.record(item)
            if record is not None:
                record.derives, record.layout = True, self.file_layouts[item.path]
                self.learned()

    def module(self, item: CrateFile) -> tuple[str, ...]:
        """The module path of ``item`` inside its target (cargo's conventions)."""
        if item.path not in self.modules:
            self.modules[item.path] = module_in_target(item.path, item.target)
        return self.modules[item.path]

    def target_modules(self, target: Target) -> frozenset[tuple[str, ...]]:
        """The module paths of ``target``'s files."""
        if target not in self.modules_of_target:
            files = self.by_target.get(target, [])
            self.modules_of_target[target] = frozenset(self.module(f) for f in files)
        return self.modules_of_target[target]

    def model_file(self, item: CrateFile) -> None:
        if item.path not in self.modelled and self.is_text(item):
            self.modelled[item.path] = item

    def own_layout(self, target: Target) -> LayoutFacts:
        """The modules declared by the files of ``target`` (each file that derives `Module`)."""
        if target not in self.layouts:
            self.layouts[target] = self._merged(self.by_target.get(target, []))
        return self.layouts[target]

    def dependency_layout(self, crate: str) -> LayoutFacts:
        """The modules the lib of a path dependency declares. Its files are checked in a group
        of their own, so they are read here from disk: only the files that may derive
        `Module`, each parsed and dropped at once."""
        lib = Target(crate, "lib")
        if lib in self.by_target:
            return self.own_layout(lib)
        if crate not in self.dependency_layouts:
            self.dependency_layouts[crate] = self._merged(self._dependency_files(crate))
        return self.dependency_layouts[crate]

    def own_layout_key(self, target: Target) -> str:
        """What ``own_layout(target)`` is made of: each file's path and the digest of the
        modules it declares (equal keys, equal layouts; from the records, nothing is parsed)."""
        return self._key(self.by_target.get(target, []))

    def dependency_layout_key(self, crate: str) -> str:
        """What ``dependency_layout(crate)`` is made of (``own_layout_key``)."""
        lib = Target(crate, "lib")
        if lib in self.by_target:
            return self.own_layout_key(lib)
        return self._key(self._dependency_files(crate))

    def _key(self, sources: list[CrateFile] | list[Path]) -> str:
        return stable_digest(
            [self._layout_digest(s) for s in sources if self._layout_of(s) is not None]
        )

    def _dependency_files(self, crate: str) -> list[Path]:
        if crate not in self.dependency_files:
            self.dependency_files[crate] = _lib_files(Path(crate))
        return self.dependency_files[crate]

    def _merged(self, sources: list[CrateFile] | list[Path]) -> LayoutFacts:
        from burnlint.model.layout import LayoutFacts

        facts = LayoutFacts()
        for source in sources:
            found = self._layout_of(source)
            if found is not None:
                facts = facts.merge(found)
        return facts

    def _layout_of(self, source: CrateFile | Path) -> LayoutFacts | None:
        if isinstance(source, CrateFile):
            return self.file_layout(source)
        return self._external_layout(source)

    def _layout_digest(self, source: CrateFile | Path) -> tuple[Path, str]:
        """(path, digest of the modules it declares) of a file whose layout is known; the
        digest is kept with the file's record (or its entry, outside the group)."""
        # the layout first: reading it may find the file changed, and its record with it
        layout = self._layout_of(source)
        kept: FileRecord | ExternalFile | None
        if isinstance(source, CrateFile):
            path, kept = source.path, self.record(source)
        else:
            path, kept = source, self.memo.external.get(source) if self.memo else None
        if kept is None:
            return path, stable_digest(layout)
        if kept.layout_digest is None:
            kept.layout_digest = stable_digest(layout)
            self.learned()
        return path, kept.layout_digest

    def file_layout(self, item: CrateFile) -> LayoutFacts | None:
        """The modules ``item`` declares; None when it cannot derive `Module`."""
        if item.path in self.file_layouts:
            return self.file_layouts[item.path]
        record = self.record(item)
        if record is not None and record.derives is not None:
            if record.layout is not None:
                self.note_syntax(item, record)  # what parsing it for the layout says
            return record.layout
        from burnlint.model.layout import collect_layout

        found = None
        if derives(self.data(item)):
            held = item.path in self.sources
            source = self.source(item)
            if source is not None:
                found = collect_layout(source)
                if not held:
                    del self.sources[item.path]
        record = self.record(item)
        if record is not None and self.text.get(item.path, True):
            record.derives, record.layout = found is not None, found
            self.learned()
        return found

    def _external_layout(self, path: Path) -> LayoutFacts | None:
        """The modules a file outside the group declares (None: none, or unreadable), from
        the memo while its stat is unchanged."""
        try:
            stat = Stat.of(path.stat())
        except OSError:
            return None  # context only: the group that checks it reports the problem
        known = self.memo.external.get(path) if self.memo is not None else None
        if known is not None and known.stat == stat and stat.mtime_ns + RACY_NS < now_ns():
            return known.layout
        from burnlint.model.layout import collect_layout
        from burnlint.rust.source import SourceFile
        from burnlint.rust.syntax import parse

        found = None
        try:
            data = b"" if stat.size > self.options.max_file_bytes else path.read_bytes()
        except OSError:
            return None
        if derives(data):
            try:
                decode_source(data)
            except DecodeError:
                pass
            else:
                found = collect_layout(SourceFile(path, data, parse(data)))
        if self.memo is not None:
            self.memo.external[path] = ExternalFile(stat, found is not None, found, None)
            self.memo.changed = True
        return found


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


def derives(data: bytes) -> bool:
    """Whether a file may derive `Module` (``collect_layout`` looks for attributes that hold
    both words): the others declare no module and need not be parsed for the layout."""
    return b"derive" in data and b"Module" in data
