"""Checking one group of crates (``crate.py``): parse and model its files with their crate
facts, run the rules, apply the allow comments, finish the findings. Runs in a worker process
or not; what it returns is plain data."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from burnlint.engine.cache import Cache
from burnlint.engine.crate import CrateFile, CrateState
from burnlint.engine.facts import CRATE_FACTS, ModelHandle, build_models
from burnlint.engine.finish import digest, locate_edits, touched_files, with_fingerprints
from burnlint.engine.guard import guarded
from burnlint.engine.memo import Checked, GroupMemo, remember
from burnlint.engine.session import run_or_defer
from burnlint.engine.stable import stable_digest
from burnlint.findings import Finding, Notification
from burnlint.options import EngineOptions
from burnlint.rules import registry

if TYPE_CHECKING:
    from burnlint.model.file_model import FileModel
    from burnlint.rules.base import Rule


@dataclass(frozen=True)
class GroupOutcome:
    """What checking one group produced: plain data, so it can cross process boundaries."""

    findings: tuple[Finding, ...]
    notifications: tuple[Notification, ...]
    suppressed_by_rule: tuple[tuple[str, int], ...] = ()  # by allow comments and ignores
    # (path, digest) of the bytes checked, for the files with a finding or an edit
    digests: tuple[tuple[Path, str], ...] = ()
    undecodable: int = 0  # reported files skipped because they are not UTF-8 text
    cache_problems: tuple[str, ...] = ()  # ``cache.Cache.problems``
    parsed: int = 0  # files parsed (none when the cache stood in for every one)


def preload() -> None:
    """Import what checking a file needs (the parser, the model, the rules): called before
    worker processes are forked, so that they start with it instead of each importing it."""
    import burnlint.model.file_model
    import burnlint.rules.all_rules
    import burnlint.rust.syntax
    import burnlint.suppress  # noqa: F401


def lint_group(group: list[CrateFile], options: EngineOptions) -> GroupOutcome:
    """Parse, model and check the files of one group (in a worker process, or not); with a
    cache (``options.cache_dir``), what it holds of unchanged files with unchanged facts is
    taken from it instead (``memo.py``), and what was found now is written back."""
    cache = Cache(options.cache_dir) if options.cache_dir is not None else None
    leader = group[0].target.crate if group else ""
    memo = cache.load_group(options, leader) if cache is not None else None
    if cache is None or memo is None or not (memo.files or memo.external):
        return _lint_group(group, options, cache, leader, memo)
    try:
        return _lint_group(group, options, cache, leader, memo)
    except Exception:
        # a memo loaded from disk has the types its classes declare (``conform.py``), yet
        # checking with it failed: it is dropped, and the group checked without it, as a
        # run without the cache would (a failure of burnlint's own raises again then)
        cache.forget_group(options, leader)
        return _lint_group(group, options, cache, leader, GroupMemo())


def _lint_group(
    group: list[CrateFile],
    options: EngineOptions,
    cache: Cache | None,
    leader: str,
    memo: GroupMemo | None,
) -> GroupOutcome:
    state = CrateState(group, options, memo)
    for item in group:
        if item.candidate:
            state.model_file(item)
    handles = build_models(state)
    # the rules' code is imported only when a file is checked: with a cache, a run in
    # which nothing changed needs none of it (nor the parser)
    rule_ids = [meta.id for meta in registry.ALL if meta.id in options.rule_ids]
    findings: list[Finding] = []
    suppressed: Counter[str] = Counter()
    for path in sorted(handles):
        handle = handles[path]
        item = handle.item
        record = state.record(item)
        key = None
        if record is not None and handle.build_key is not None:
            here = {k: v for k, v in handle.loads_elsewhere.items() if k.path == path}
            key = stable_digest(handle.build_key, here)
            known = record.checks.get(key)
            # a layout the rules read must be the one this run sees (computed only then)
            if known is not None and (
                known.layout is None or known.layout == handle.layout.current()
            ):
                state.notes.extend(known.notes)
                findings.extend(known.findings)
                suppressed.update(dict(known.suppressed))
                continue
        before = len(state.notes)
        found, found_suppressed = _check_file(handle, state, rule_ids, options) or ((), ())
        findings.extend(found)
        suppressed.update(dict(found_suppressed))
        if record is not None and key is not None and state.record(item) is record:
            notes = tuple(state.notes[before:])
            checked = Checked(found, notes, found_suppressed, handle.layout.digest())
            remember(record.checks, key, checked)
            state.learned()
    # what --fix and --add-allow check before writing: the bytes that were linted
    digests = tuple(
        (path, state.modelled[path].digest or digest(state.data(state.modelled[path])))
        for path in sorted(touched_files(findings))
        if path in state.modelled
    )
    problems: tuple[str, ...] = ()
    if cache is not None and memo is not None:
        if memo.changed:
            _forget_gone(memo, group)
            run_or_defer(partial(cache.save_group, options, leader, memo))
        problems = tuple(cache.problems)
    return GroupOutcome(
        tuple(findings),
        tuple(state.notes),
        tuple(sorted(suppressed.items())),
        digests,
        undecodable=sum(
            1 for item in group if item.reported and state.text.get(item.path) is False
        ),
        cache_problems=problems,
        parsed=state.parsed,
    )


def _check_file(
    handle: ModelHandle, state: CrateState, rule_ids: list[str], options: EngineOptions
) -> tuple[tuple[Finding, ...], tuple[tuple[str, int], ...]] | None:
    """Run the rules on one file and judge its allow comments: its findings, and how many
    each rule's allow comments and ignores suppressed; None when that failed (the notes say
    so)."""
    from burnlint.rules.all_rules import ALL_RULES
    from burnlint.rules.unused_suppression import report as report_unused_allows
    from burnlint.suppress import finish_file

    rules = [rule for rule in ALL_RULES if rule.meta.id in rule_ids]
    item = handle.item
    with guarded(state.notes, item.path, CRATE_FACTS) as built:
        model = handle.built(state)
    if built.failed:
        return None
    before = len(state.notes)
    found = _run_rules(model, item, rules, options, state.notes)
    # allow comments and per-file ignores, then BL008 on the allows (``suppress/``); the
    # allows of a rule that crashed here cannot be judged
    crashed = frozenset(n.rule_id for n in state.notes[before:] if n.rule_id is not None)
    # without its allow comments judged, no finding of the file is certain
    with guarded(state.notes, item.path, "this file's allow comments") as judged:
        verdict = finish_file(
            found, model.source, item.path, options, unused=report_unused_allows, crashed=crashed
        )
        # fingerprints are completed per file (their ordinals never cross files), so that
        # the expression text they are made from is not carried to the end of the run
        finished = with_fingerprints([locate_edits(f, model.source) for f in verdict.findings])
    if judged.failed:
        return None
    return tuple(finished), tuple(sorted(dict(verdict.suppressed).items()))


def _forget_gone(memo: GroupMemo, group: list[CrateFile]) -> None:
    """Drop the records of files no longer in the group (deleted, renamed, excluded)."""
    present = {item.path for item in group}
    for path in [p for p in memo.files if p not in present]:
        del memo.files[path]


def _run_rules(
    model: FileModel,
    item: CrateFile,
    rules: list[type[Rule]],
    options: EngineOptions,
    notes: list[Notification],
) -> list[Finding]:
    from burnlint.rules.context import RuleContext

    found: list[Finding] = []
    severity = dict(options.severity)
    for rule in rules:
        meta = rule.meta
        with guarded(notes, item.path, meta):
            found.extend(rule.check(RuleContext(model, meta.effective(severity))))
    return found
