"""Checking one group of crates (``crate.py``): parse and model its files with their crate
facts, run the rules, apply the allow comments, finish the findings. Runs in a worker process
or not; what it returns is plain data."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from burnlint.engine.crate import CrateFile, CrateState
from burnlint.engine.facts import build_models
from burnlint.engine.finish import digest, locate_edits, touched_files, with_fingerprints
from burnlint.engine.guard import guarded
from burnlint.findings import Finding, Notification
from burnlint.model.file_model import FileModel
from burnlint.options import EngineOptions
from burnlint.rules.all_rules import ALL_RULES
from burnlint.rules.base import Rule
from burnlint.rules.context import RuleContext
from burnlint.rules.unused_suppression import report as report_unused_allows
from burnlint.suppress import finish_file


@dataclass(frozen=True)
class GroupOutcome:
    """What checking one group produced: plain data, so it can cross process boundaries."""

    findings: tuple[Finding, ...]
    notifications: tuple[Notification, ...]
    suppressed_by_rule: tuple[tuple[str, int], ...] = ()  # by allow comments and ignores
    # (path, digest) of the bytes checked, for the files with a finding or an edit
    digests: tuple[tuple[Path, str], ...] = ()
    undecodable: int = 0  # reported files skipped because they are not UTF-8 text


def lint_group(group: list[CrateFile], options: EngineOptions) -> GroupOutcome:
    """Parse, model and check the files of one group (in a worker process, or not)."""
    state = CrateState(group, options)
    for item in group:
        if item.candidate:
            state.model_file(item)
    models = build_models(state)
    rules = [rule for rule in ALL_RULES if rule.meta.id in options.rule_ids]
    findings: list[Finding] = []
    suppressed: Counter[str] = Counter()
    for path in sorted(models):
        model = models[path]
        item = state.modelled[path]
        if not item.reported or not model.in_burn_store_scope:
            continue
        before = len(state.notes)
        found = _run_rules(model, item, rules, options, state.notes)
        # allow comments and per-file ignores, then BL008 on the allows (``suppress/``); the
        # allows of a rule that crashed here cannot be judged
        crashed = frozenset(n.rule_id for n in state.notes[before:] if n.rule_id is not None)
        # without its allow comments judged, no finding of the file is certain
        with guarded(state.notes, item.path, "this file's allow comments") as judged:
            verdict = finish_file(
                found, model.source, path, options, unused=report_unused_allows, crashed=crashed
            )
            # fingerprints are completed per file (their ordinals never cross files), so that
            # the expression text they are made from is not carried to the end of the run
            finished = with_fingerprints([locate_edits(f, model.source) for f in verdict.findings])
        if judged.failed:
            continue
        findings.extend(finished)
        suppressed.update(dict(verdict.suppressed))
    # what --fix and --add-allow check before writing: the bytes that were linted
    digests = tuple(
        (path, digest(state.data(state.modelled[path])))
        for path in sorted(touched_files(findings))
        if path in state.modelled
    )
    return GroupOutcome(
        tuple(findings),
        tuple(state.notes),
        tuple(sorted(suppressed.items())),
        digests,
        undecodable=sum(
            1 for item in group if item.reported and state.text.get(item.path) is False
        ),
    )


def _run_rules(
    model: FileModel,
    item: CrateFile,
    rules: list[type[Rule]],
    options: EngineOptions,
    notes: list[Notification],
) -> list[Finding]:
    found: list[Finding] = []
    severity = dict(options.severity)
    for rule in rules:
        meta = rule.meta
        with guarded(notes, item.path, meta):
            found.extend(rule.check(RuleContext(model, meta.effective(severity))))
    return found
