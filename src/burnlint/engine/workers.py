"""The process pool of one run: files are read and prefiltered, and groups checked, in worker
processes when there is enough work to pay for starting them (README, "Speed")."""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from burnlint.engine.cache import Scan
from burnlint.engine.crate import CrateFile
from burnlint.engine.group import GroupOutcome, lint_group, preload
from burnlint.engine.scan import PARALLEL_MIN_FILES, scan_file, scan_files
from burnlint.engine.session import run_or_defer
from burnlint.options import EngineOptions

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

T = TypeVar("T")

# From this many candidate files on, crates are checked in a process pool (README, "Speed").
# Starting and joining two forked workers costs 15-45 ms; parsing, modelling and checking a
# candidate 5-10 ms of CPU, and one crate cannot be split between workers, so the pool pays
# off once there are a few dozen candidates in several crates. On the burn repository 77 of
# 1,705 files are candidates, in 13 crates (tests/benchmarks/README.md).
PARALLEL_MIN_CANDIDATES = 48


class Workers:
    """The process pool of one run, started when the work first calls for it: to read and
    prefilter many files, or to check the crates when there are enough candidates. Without
    it everything runs in this process; the results are the same, in the same order.

    ``jobs`` is how many processes may work at once (``EngineOptions.jobs``); 1 or less runs
    everything here.
    """

    def __init__(self, jobs: int) -> None:
        self.jobs = jobs
        self._pool: ProcessPoolExecutor | None = None

    def __enter__(self) -> Workers:
        # What exists now (the modules, the run's settings) lives to the end of the run: out
        # of the collector's sight, a collection after each group (``check_group``) costs only
        # what that group left, and forked workers do not copy pages by touching it.
        gc.freeze()
        return self

    def __exit__(self, *exc: object) -> None:
        gc.unfreeze()  # a long-lived caller (the language server) collects it again
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None

    def pool(self, workers: int) -> ProcessPoolExecutor:
        if self._pool is None:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            # fork: the workers start with everything imported (the parser, the model, the
            # rules) instead of importing it again; elsewhere the platform's default.
            preload()
            fork = sys.platform == "linux" and "fork" in multiprocessing.get_all_start_methods()
            context = multiprocessing.get_context("fork" if fork else None)
            self._pool = ProcessPoolExecutor(max_workers=workers, mp_context=context)
        return self._pool

    def scan(
        self, paths: list[Path], options: EngineOptions, overrides: dict[Path, bytes]
    ) -> list[Scan]:
        """``scan_file`` of each path, in order."""
        if overrides or self.jobs <= 1 or len(paths) < PARALLEL_MIN_FILES:
            return [scan_file(path, options, overrides.get(path)) for path in paths]
        # interleaved shares: neighbours in a directory are alike in size
        # (strings: cheaper to send than paths); never more shares than files
        jobs = min(self.jobs, len(paths))
        shares = [[os.fspath(p) for p in paths[index::jobs]] for index in range(jobs)]
        scans: list[Scan] = [Scan()] * len(paths)
        pool = self.pool(jobs)
        for index, found in enumerate(pool.map(scan_files, shares, [options] * jobs)):
            scans[index::jobs] = found
        return scans

    def check(
        self,
        groups: list[list[CrateFile]],
        options: list[EngineOptions],
        meanwhile: Callable[[], T],
        *,
        work: int | None = None,
    ) -> tuple[list[GroupOutcome], T]:
        """``lint_group`` of each group, in worker processes when there are enough candidates;
        the outcomes come back in the order of ``groups`` either way. ``meanwhile`` runs in
        this process once the work is handed out (before it, without workers); what it
        returns comes back with the outcomes. ``work``: how many candidates must be modelled
        (default: all; with a cache, those it cannot stand in for)."""
        candidates = sum(1 for g in groups for i in g if i.candidate) if work is None else work
        if self.jobs <= 1 or len(groups) <= 1 or candidates < PARALLEL_MIN_CANDIDATES:
            gathered = meanwhile()
            return [check_group(g, o) for g, o in zip(groups, options, strict=True)], gathered
        pool = self.pool(min(self.jobs, len(groups)))
        # with fork every worker is started by the first submission: none is forked while
        # ``meanwhile`` runs
        pending = pool.map(check_group, groups, options)
        gathered = meanwhile()
        return list(pending), gathered


def check_group(group: list[CrateFile], options: EngineOptions) -> GroupOutcome:
    """``lint_group``, then the group's garbage collected: a model and its analyses refer to
    each other, so without a collection their memory (trees included) waits for the
    collector's next full pass, and a worker that checks many groups grows with each (on the
    burn repository copied 16 times: 131 MB instead of 90 MB in one process)."""
    outcome = lint_group(group, options)
    if outcome.parsed:  # no tree, no model: nothing worth a collection
        run_or_defer(_collect)
    return outcome


def _collect() -> tuple[str, ...]:
    gc.collect()
    # what survived (the outcomes so far) joins the run's long-lived objects: the next
    # collection costs only what the next group leaves
    gc.freeze()
    return ()
