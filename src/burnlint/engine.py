"""The engine: discover -> prefilter -> parse -> model -> targets -> rules.

It never prints, exits or reads configuration: the CLI passes ``EngineOptions`` in and gets a
``LintResult`` back. Everything it returns is sorted, so output does not depend on the order in
which the file system lists directories.
"""

from __future__ import annotations

import hashlib
import os
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from burnlint.findings import Finding, Level, LintResult, Notification, NotificationKind
from burnlint.fix import digest
from burnlint.model.file_model import FileModel
from burnlint.model.helpers import HelperTable
from burnlint.model.layout import LayoutFacts, collect_layout
from burnlint.options import EngineOptions
from burnlint.rules import ALL_RULES
from burnlint.rules.base import Rule
from burnlint.rules.context import RuleContext
from burnlint.source import DecodeError, SourceFile, decode_source
from burnlint.syntax import parse, walk
from burnlint.targets import Target, crate_root, target_of

if TYPE_CHECKING:
    from burnlint.discover import Discovery

# A file that mentions none of these cannot hold a store operation (DESIGN.md §1). Plain
# `bytes in` checks: a regex over every file costs 2.5x more. `ModuleSnapshot` and the crate
# paths cover `model.apply(..)`, which needs the trait in scope.
TRIGGER_WORDS: tuple[bytes, ...] = (
    b"save_into",
    b"load_from",
    b"save_file",
    b"collect_from",
    b"apply_to",
    b"SafetensorsStore",
    b"BurnpackStore",
    b"PytorchStore",
    b"ModuleSnapshot",
    b"burn_store",
    b"burn::store",
)
FINGERPRINT_KEY = "burnlint/v1"
_HELPER_ROUNDS = 4  # helpers of helpers of helpers: deeper chains are rare and not followed


def has_trigger(data: bytes) -> bool:
    return any(word in data for word in TRIGGER_WORDS)


@dataclass
class _File:
    path: Path  # absolute, resolved
    display: str
    data: bytes
    target: Target
    reported: bool = True  # False for files read only for the facts of their target
    source: SourceFile | None = None


def display_path(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return path.as_posix()


def lint_paths(paths: Sequence[Path], options: EngineOptions) -> LintResult:
    """Check every Rust file under ``paths``."""
    from burnlint.discover import discover

    def find(roots: Sequence[Path]) -> Discovery:
        return discover(
            roots,
            respect_gitignore=options.respect_gitignore,
            exclude=options.exclude,
            exclude_root=options.exclude_root,
        )

    discovery = find(paths)
    files = set(discovery.files)
    # Files named one by one (pre-commit passes the staged ones) are checked with the facts of
    # their whole cargo target: the rest of the crate is read, and reported on only if given.
    crates = sorted({c for f in discovery.explicit if (c := crate_root(f.parent)) is not None})
    context = {f for f in find(crates).files if f not in files} if crates else set()
    options_used = options
    if context:
        reported = files if options.report_paths is None else files & set(options.report_paths)
        options_used = replace(options, report_paths=frozenset(reported))
    return lint_files(sorted(files | context), options_used, notifications=discovery.notifications)


def lint_source(path: Path, data: bytes, options: EngineOptions) -> LintResult:
    """Check one in-memory source as if it were ``path``."""
    return lint_files([path], options, overrides={Path(os.path.abspath(path)): data})


def lint_files(
    files: Iterable[Path],
    options: EngineOptions,
    *,
    notifications: Iterable[Notification] = (),
    overrides: dict[Path, bytes] | None = None,
) -> LintResult:
    """Check ``files``: read them here, then model and check each crate on its own (in worker
    processes when there is enough work), and merge the results in a stable order."""
    root = options.project_root.resolve()
    notes: list[Notification] = list(notifications)
    overrides = overrides or {}
    loaded: list[_File] = []
    checked = skipped = 0
    report_only = (
        {Path(os.path.abspath(p)) for p in options.report_paths}
        if options.report_paths is not None
        else None
    )
    for path in sorted({Path(os.path.abspath(p)) for p in files}):
        display = display_path(path, root)
        data = overrides.get(path)
        if data is None:
            try:
                size = path.stat().st_size
                if size > options.max_file_bytes:
                    notes.append(
                        Notification(
                            display,
                            f"skipped: {size:,} bytes is over the limit of "
                            f"{options.max_file_bytes:,}",
                            level=Level.NOTE,
                        )
                    )
                    skipped += 1
                    continue
                data = path.read_bytes()
            except OSError as exc:
                notes.append(Notification(display, f"cannot read: {exc.strerror or exc}"))
                skipped += 1
                continue
        reported = report_only is None or path in report_only
        if reported:
            checked += 1  # context files read for facts are not "checked"
        loaded.append(_File(path, display, data, target_of(path), reported))

    outcomes = _run_groups(_crate_groups(loaded), options)
    findings = [f for outcome in outcomes for f in outcome.findings]
    for outcome in outcomes:
        notes.extend(outcome.notifications)
    fixable = {f.location.path for f in findings if f.fix is not None}
    return LintResult(
        findings=tuple(sorted(_with_fingerprints(findings), key=Finding.sort_key)),
        notifications=tuple(sorted(set(notes), key=lambda n: (n.path, n.line or 0, n.message))),
        files_checked=checked,
        files_skipped=skipped,
        suppressed=sum(outcome.suppressed for outcome in outcomes),
        rules_run=tuple(sorted(r for r in options.rule_ids if r in {x.id for x in ALL_RULES})),
        # what --fix checks before writing: the bytes that were linted, for files with fixes
        extra={"digests": {i.display: digest(i.data) for i in loaded if i.display in fixable}},
    )


@dataclass(frozen=True)
class GroupOutcome:
    """What checking one crate produced: plain data, so it can cross process boundaries."""

    findings: tuple[Finding, ...]
    notifications: tuple[Notification, ...]
    suppressed: int = 0


# Below this many candidate files a process pool costs more than it saves (start-up of the
# workers and shipping the file contents to them).
PARALLEL_MIN_CANDIDATES = 48


def _crate_groups(loaded: list[_File]) -> list[list[_File]]:
    """Files grouped by crate: cross-file facts never leave a crate, so crates are checked
    independently. Largest groups first, so a pool finishes evenly."""
    groups: dict[str, list[_File]] = defaultdict(list)
    for item in loaded:
        groups[item.target.crate].append(item)
    return sorted(groups.values(), key=lambda g: (-sum(len(i.data) for i in g), g[0].display))


def _run_groups(groups: list[list[_File]], options: EngineOptions) -> list[GroupOutcome]:
    candidates = sum(1 for g in groups for i in g if not options.prefilter or has_trigger(i.data))
    jobs = options.jobs if options.jobs > 0 else (os.cpu_count() or 1)
    if jobs <= 1 or len(groups) <= 1 or candidates < PARALLEL_MIN_CANDIDATES:
        return [lint_group(group, options) for group in groups]
    # Only groups with a candidate need a worker; the others cannot produce anything.
    busy = [g for g in groups if any(not options.prefilter or has_trigger(i.data) for i in g)]
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=min(jobs, len(busy))) as pool:
        return list(pool.map(lint_group, busy, [options] * len(busy)))


def lint_group(group: list[_File], options: EngineOptions) -> GroupOutcome:
    """Parse, model and check the files of one crate."""
    notes: list[Notification] = []
    parsed: dict[Path, _File] = {}

    def parse_file(item: _File) -> None:
        try:
            decode_source(item.data)
        except DecodeError as exc:
            notes.append(Notification(item.display, f"skipped: {exc}"))
            return
        source = SourceFile(item.display, item.data, parse(item.data))
        if source.has_syntax_errors:
            line = _first_error_line(source)
            notes.append(
                Notification(
                    item.display,
                    f"syntax error near line {line}; findings in this file may be incomplete",
                    level=Level.NOTE,
                    line=line,
                )
            )
        item.source = source
        parsed[item.path] = item

    for item in group:
        if not options.prefilter or has_trigger(item.data):
            parse_file(item)

    models = _build_models(group, parsed, parse_file)

    rules = [rule() for rule in ALL_RULES if rule.id in options.rule_ids]
    findings: list[Finding] = []
    for path in sorted(models):
        model = models[path]
        if not parsed[path].reported or not model.in_burn_store_scope:
            continue
        findings.extend(_run_rules(model, rules, options, notes))
    return GroupOutcome(tuple(findings), tuple(notes))


def _build_models(
    loaded: list[_File], parsed: dict[Path, _File], parse_file: object
) -> dict[Path, FileModel]:
    """Models for every parsed file, with the crate-local helpers their targets can see.

    Helper facts flow from the files that define them to the other files of the target (and
    from the lib to every target of the crate); a file that the prefilter skipped but that
    calls a helper by name is parsed in a later round.
    """
    assert callable(parse_file)
    by_target: dict[Target, list[_File]] = defaultdict(list)
    for item in loaded:
        by_target[item.target].append(item)
    # module layouts: every file of a target with candidates that derives `Module`
    wanted = {item.target for item in parsed.values()}
    wanted |= {t.lib() for t in wanted}
    for target in sorted(wanted):
        for item in by_target.get(target, []):
            if item.path not in parsed and b"derive(" in item.data and b"Module" in item.data:
                parse_file(item)
    layouts: dict[Target, LayoutFacts] = defaultdict(LayoutFacts)
    for item in parsed.values():
        assert item.source is not None
        layouts[item.target] = layouts[item.target].merge(collect_layout(item.source.root))
    tables: dict[Target, HelperTable] = {}
    models: dict[Path, FileModel] = {}
    built_with: dict[Path, tuple[object, ...]] = {}
    for _round in range(_HELPER_ROUNDS):
        for path, item in parsed.items():
            table = _visible_table(item.target, tables)
            signature = table.signature()
            if path not in models or built_with[path] != signature:
                assert item.source is not None
                models[path] = FileModel(item.source, table, _visible_layout(item.target, layouts))
                built_with[path] = signature
        exported: dict[Target, HelperTable] = defaultdict(HelperTable)
        for path in sorted(models):
            item = parsed[path]
            exported[item.target] = exported[item.target].merged(models[path].exported_helpers())
        if {t: v.signature() for t, v in exported.items() if v.names()} == {
            t: v.signature() for t, v in tables.items() if v.names()
        }:
            break
        tables = dict(exported)
        # widen the prefilter: files that name a helper they can see
        for target, items in by_target.items():
            names = _visible_table(target, tables).names()
            if not names:
                continue
            for item in items:
                if item.path not in parsed and any(n.encode() in item.data for n in names):
                    parse_file(item)
    for path, item in parsed.items():  # files parsed in the last round
        if path not in models:
            assert item.source is not None
            table = _visible_table(item.target, tables)
            models[path] = FileModel(item.source, table, _visible_layout(item.target, layouts))
    return models


def _visible_layout(target: Target, layouts: dict[Target, LayoutFacts]) -> LayoutFacts:
    own = layouts.get(target, LayoutFacts())
    return own if target.is_lib else own.merge(layouts.get(target.lib(), LayoutFacts()))


def _visible_table(target: Target, tables: dict[Target, HelperTable]) -> HelperTable:
    own = tables.get(target, HelperTable())
    if target.is_lib:
        return own
    lib = tables.get(target.lib())
    return lib.shadowed_by(own).merged(own) if lib is not None else own


def _run_rules(
    model: FileModel, rules: list[Rule], options: EngineOptions, notes: list[Notification]
) -> list[Finding]:
    found: list[Finding] = []
    for rule in rules:
        level = options.severity.get(rule.id, rule.level)
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


def _with_fingerprints(findings: list[Finding]) -> list[Finding]:
    """Complete each finding's fingerprint: rule, enclosing item, normalised expression, and
    an ordinal among identical triples in the file, hashed. Line numbers are not part of it,
    so inserting unrelated lines above a finding keeps its fingerprint."""
    seen: dict[tuple[str, str, str], int] = defaultdict(int)
    out: list[Finding] = []
    for finding in sorted(findings, key=Finding.sort_key):
        key = (finding.location.path, finding.rule_id, finding.fingerprint)
        ordinal = seen[key]
        seen[key] += 1
        material = "\x1e".join((finding.rule_id, finding.fingerprint, str(ordinal)))
        digest = hashlib.sha256(material.encode()).hexdigest()[:32]
        out.append(replace(finding, fingerprint=digest))
    return out


def _first_error_line(source: SourceFile) -> int:
    for node in walk(source.root):
        if node.type == "ERROR" or node.is_missing:
            return node.start_point[0] + 1
    return 1
