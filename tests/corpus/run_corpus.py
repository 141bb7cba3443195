#!/usr/bin/env python3
"""Run burnlint over a whole tree of Rust code and say whether it survived.

Usage::

    python tests/corpus/run_corpus.py PATH [--all-candidates] [--force-scope] [--per-file]
                                           [--rules ALL] [--jobs N] [--json]

Prints the number of files (discovered, checked, skipped, prefilter candidates), findings by
rule, notifications by kind and level (the syntax-error notes counted, the others listed),
wall time, and every crash with the file that caused it:

- a rule crash: the engine turns it into an ``error`` notification with ``rule_id`` set; the
  traceback is captured here by wrapping every rule's ``check`` (in-process runs only, that is
  ``--jobs 1``, the default);
- an exception that escapes the engine (the model, the parser glue, the reporter): the run is
  repeated file by file to find the file(s) that raise, each with its traceback;
- invalid SARIF: the SARIF report of the run is rendered and, when ``jsonschema`` is
  installed, validated against ``testdata/sarif-schema-2.1.0.json``.

``--all-candidates`` turns the prefilter off (every file is parsed and modelled).
``--force-scope`` also runs the rules on every file, not only on files that use burn-store:
code without burn-store then exercises the rules' code paths too (the findings of such a run
mean nothing; only crashes count). ``--per-file`` lints each file on its own as well (without
the rest of its crate, ``--file-timeout`` seconds each) and prints the slowest files: a hang
or a pathological file shows up there. ``--rules`` selects the rules (default ``ALL``: the
off-by-default ones too).

``--fix-check`` also applies every fix (unsafe ones included) to a copy of the tree, pass by
pass as ``burnlint --fix`` does, and counts as a crash: a fixed file with more syntax errors
than before, bytes changed outside the edited spans, a refused or failed write, and fixes that
do not settle (a further pass still changing files).

Exit status: 0 without crashes, 1 with at least one, 2 on a usage error.
"""

from __future__ import annotations

import argparse
import json
import shutil
import signal
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from burnlint import engine
from burnlint.app.fix import applicable_fixes, fix_files
from burnlint.findings import Edit, Level, LintResult, NotificationKind
from burnlint.model.file_model import FileModel
from burnlint.options import EngineOptions
from burnlint.paths import display_path
from burnlint.project.discover import discover
from burnlint.project.prefilter import has_trigger
from burnlint.report import ReportContext, sarif
from burnlint.rules.all_rules import ALL_RULES
from burnlint.rules.base import Rule
from burnlint.rules.registry import resolve

SCHEMA_PATH = Path(__file__).resolve().parents[2] / "testdata" / "sarif-schema-2.1.0.json"
SYNTAX_NOTE = "syntax error near line"


@dataclass
class Crash:
    """One crash: where, what, and the traceback when it could be captured."""

    path: str
    kind: str  # "rule BL003", "exception", "timeout", "invalid SARIF"
    message: str
    traceback: str = ""


@dataclass
class Report:
    tree: str
    files: int = 0  # discovered
    checked: int = 0
    skipped: int = 0
    candidates: int = 0
    bytes: int = 0
    findings: Counter[str] = field(default_factory=Counter)
    notifications: Counter[str] = field(default_factory=Counter)
    notes_listed: list[str] = field(default_factory=list)
    wall: float = 0.0
    crashes: list[Crash] = field(default_factory=list)
    slowest: list[tuple[float, str]] = field(default_factory=list)
    fixes: list[int] = field(default_factory=list)  # edits applied per --fix-check pass

    def as_json(self) -> dict[str, Any]:
        return {
            "tree": self.tree,
            "files": self.files,
            "checked": self.checked,
            "skipped": self.skipped,
            "candidates": self.candidates,
            "bytes": self.bytes,
            "findings": dict(sorted(self.findings.items())),
            "notifications": dict(sorted(self.notifications.items())),
            "wall_seconds": round(self.wall, 3),
            "crashes": [c.__dict__ for c in self.crashes],
            "slowest": [{"seconds": round(s, 3), "path": p} for s, p in self.slowest],
            "fix_passes": self.fixes,
        }


# --- capturing rule tracebacks ------------------------------------------------------------------


@contextmanager
def capture_rule_tracebacks(store: dict[tuple[Path, str], str]) -> Iterator[None]:
    """Wrap every rule's ``check`` so that a crash leaves its traceback in ``store`` (keyed by
    the file's absolute path and rule id); the engine still sees the exception and reports it
    as usual."""
    originals: dict[type[Rule], Callable[..., Any]] = {}
    for rule in ALL_RULES:
        originals[rule] = rule.__dict__["check"]  # the staticmethod itself

        def wrapped(
            ctx: Any, _check: Callable[..., Any] = rule.check, _id: str = rule.meta.id
        ) -> Any:
            try:
                return list(_check(ctx))
            except Exception:
                store[(ctx.model.path, _id)] = traceback.format_exc()
                raise

        rule.check = staticmethod(wrapped)  # type: ignore[method-assign,assignment]
    try:
        yield
    finally:
        for rule, original in originals.items():
            rule.check = original  # type: ignore[method-assign]


@contextmanager
def forced_scope(enabled: bool) -> Iterator[None]:
    """Make every file count as a burn-store file, so that the rules run on all of them."""
    if not enabled:
        yield
        return
    original = FileModel.__dict__["in_burn_store_scope"]
    FileModel.in_burn_store_scope = property(lambda self: True)  # type: ignore[assignment]
    try:
        yield
    finally:
        FileModel.in_burn_store_scope = original  # type: ignore[method-assign]


class _Timeout(Exception):
    pass


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise ``_Timeout`` in the main thread after ``seconds`` (Unix; no limit elsewhere)."""
    if seconds <= 0 or not hasattr(signal, "setitimer"):
        yield
        return

    def expire(signum: int, frame: object) -> None:
        raise _Timeout(f"no result after {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


# --- the run ------------------------------------------------------------------------------------


def _options(root: Path, args: argparse.Namespace, rule_ids: frozenset[str]) -> EngineOptions:
    return EngineOptions(
        rule_ids=rule_ids,
        project_root=root,
        prefilter=not args.all_candidates,
        jobs=args.jobs,
    )


def _validate_sarif(result: LintResult, root: Path) -> list[str]:
    text = sarif.render(result, ReportContext(color=False, project_root=root, tool_version="0.0.0"))
    log = json.loads(text)
    try:
        from jsonschema import Draft4Validator
    except ImportError:  # pragma: no cover - the dev environment has it
        return []
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    return [
        f"{list(e.path)}: {e.message}"
        for e in sorted(Draft4Validator(schema).iter_errors(log), key=lambda e: list(e.path))
    ]


def run(tree: Path, args: argparse.Namespace) -> Report:
    root = tree.resolve()
    rule_ids = resolve(select=[r.strip() for r in args.rules.split(",") if r.strip()])
    options = _options(root, args, rule_ids)
    report = Report(tree=str(tree))

    discovery = discover([root])
    report.files = len(discovery.files)
    for path in discovery.files:
        try:
            data = path.read_bytes()
        except OSError:
            continue
        report.bytes += len(data)
        if args.all_candidates or has_trigger(data):
            report.candidates += 1

    tracebacks: dict[tuple[Path, str], str] = {}
    result: LintResult | None = None
    start = time.perf_counter()
    try:
        with (
            forced_scope(args.force_scope),
            capture_rule_tracebacks(tracebacks),
            time_limit(args.timeout),
        ):
            result = engine.lint_paths([root], options)
    except Exception as exc:
        report.crashes.append(
            Crash("<whole tree>", "exception", f"{type(exc).__name__}: {exc}", _tb(exc))
        )
    report.wall = time.perf_counter() - start

    if result is not None:
        report.checked = result.stats.files_checked
        report.skipped = result.stats.files_skipped
        report.findings.update(f.rule_id for f in result.findings)
        for note in result.notifications:
            shown = display_path(note.path, root) if note.path is not None else ""
            key = f"{note.kind.value}/{note.level.value}"
            report.notifications[key] += 1
            if note.rule_id is not None or (
                note.level is Level.ERROR and note.kind is NotificationKind.INTERNAL
            ):
                report.crashes.append(
                    Crash(
                        shown,
                        f"rule {note.rule_id}" if note.rule_id else "internal error",
                        note.message,
                        tracebacks.get((note.path, note.rule_id or ""), "") if note.path else "",
                    )
                )
            elif not note.message.startswith(SYNTAX_NOTE):
                report.notes_listed.append(f"{shown}: {note.level.value}: {note.message}")
        try:
            errors = _validate_sarif(result, root)
        except Exception as exc:
            errors = [f"rendering failed: {type(exc).__name__}: {exc}"]
        for error in errors[:20]:
            report.crashes.append(Crash("<sarif>", "invalid SARIF", error))

    if result is None or args.per_file:
        _per_file(discovery.files, root, options, args, report, localise=result is None)
    if args.fix_check and result is not None:
        with forced_scope(args.force_scope):
            _fix_check(root, options, report)
    return report


# --- --fix-check --------------------------------------------------------------------------------

_FIX_PASSES = 6


def _syntax_errors(data: bytes) -> int:
    from burnlint.rust.syntax import parse, walk

    return sum(1 for n in walk(parse(data).root_node) if n.type == "ERROR" or n.is_missing)


def _expected_after(data: bytes, edits: Sequence[Edit]) -> bytes:
    """The edits applied left to right, an edit that starts inside an applied one left out
    (written apart from ``burnlint.app.fix``, to check it)."""
    out: list[bytes] = []
    position = 0
    for edit in sorted(edits, key=lambda e: (e.start_byte, e.end_byte, e.content)):
        if edit.start_byte < position:
            continue
        out += [data[position : edit.start_byte], edit.content.encode("utf-8")]
        position = edit.end_byte
    out.append(data[position:])
    return b"".join(out)


def _fix_check(root: Path, options: EngineOptions, report: Report) -> None:
    with tempfile.TemporaryDirectory(prefix="burnlint-fix-check-") as tmp:
        copy = Path(tmp) / "tree"
        shutil.copytree(root, copy, symlinks=True, ignore=shutil.ignore_patterns(".git"))
        options = replace(options, project_root=copy, jobs=1)
        for _ in range(_FIX_PASSES):
            result = engine.lint_paths([copy], options)
            edits = applicable_fixes(result.findings, unsafe=True)
            if not edits:
                return
            before = {path: path.read_bytes() for path in edits}
            digests = result.digests
            outcome = fix_files(
                result.findings, root=copy, digests=digests, unsafe=True, write=True
            )
            report.fixes.append(outcome.total)
            for note in outcome.notifications:
                shown = display_path(note.path, copy) if note.path is not None else ""
                report.crashes.append(Crash(shown, "fix refused", note.message))
            for path, old in before.items():
                name = display_path(path, copy)
                new = path.read_bytes()
                if path in outcome.fixed and new != _expected_after(old, edits[path]):
                    report.crashes.append(
                        Crash(name, "fix damage", "bytes outside the edits changed")
                    )
                if _syntax_errors(new) > _syntax_errors(old):
                    report.crashes.append(Crash(name, "fix damage", "new syntax errors"))
            if outcome.total == 0:
                return
        report.crashes.append(
            Crash("<fix>", "fix does not settle", f"still fixing after {_FIX_PASSES} passes")
        )


def _per_file(
    files: Sequence[Path],
    root: Path,
    options: EngineOptions,
    args: argparse.Namespace,
    report: Report,
    *,
    localise: bool,
) -> None:
    """Lint each file alone (without the rest of its crate, so the cost stays linear): the
    timings, and the files that raise."""
    timings: list[tuple[float, str]] = []
    single = EngineOptions(
        rule_ids=options.rule_ids,
        project_root=options.project_root,
        prefilter=options.prefilter,
        jobs=1,
    )
    with forced_scope(args.force_scope):
        for path in files:
            shown = display_path(path, root)
            start = time.perf_counter()
            try:
                with time_limit(args.file_timeout):
                    engine.lint_files([path], single)
            except _Timeout as exc:
                report.crashes.append(Crash(shown, "timeout", str(exc)))
            except Exception as exc:
                if localise or args.per_file:
                    report.crashes.append(
                        Crash(shown, "exception", f"{type(exc).__name__}: {exc}", _tb(exc))
                    )
            timings.append((time.perf_counter() - start, shown))
    report.slowest = sorted(timings, reverse=True)[: args.slowest]


def _tb(exc: BaseException) -> str:
    return "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))


# --- output -------------------------------------------------------------------------------------


def print_report(report: Report, out: Any = sys.stdout) -> None:
    def say(text: str = "") -> None:
        print(text, file=out)

    say(f"tree: {report.tree}")
    say(
        f"files: {report.files} discovered, {report.checked} checked, {report.skipped} skipped, "
        f"{report.candidates} candidates, {report.bytes / 1e6:.1f} MB"
    )
    total = sum(report.findings.values())
    say(f"findings: {total}")
    for rule_id, count in sorted(report.findings.items()):
        say(f"  {rule_id}: {count}")
    say(f"notifications: {sum(report.notifications.values())}")
    for key, count in sorted(report.notifications.items()):
        say(f"  {key}: {count}")
    for line in report.notes_listed[:50]:
        say(f"    {line}")
    if len(report.notes_listed) > 50:
        say(f"    ... {len(report.notes_listed) - 50} more")
    say(f"wall time: {report.wall:.2f} s")
    if report.fixes:
        passes = ", ".join(str(n) for n in report.fixes)
        say(f"--fix-check: {sum(report.fixes)} edits applied, per pass: {passes}")
    if report.slowest:
        say("slowest files (alone):")
        for seconds, path in report.slowest:
            say(f"  {seconds:7.3f} s  {path}")
    say(f"crashes: {len(report.crashes)}")
    for crash in report.crashes:
        say(f"  {crash.path}: {crash.kind}: {crash.message}")
        if crash.traceback:
            for line in crash.traceback.rstrip().splitlines():
                say(f"      {line}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("path", type=Path, help="a tree of Rust code")
    parser.add_argument(
        "--all-candidates", action="store_true", help="turn the prefilter off: model every file"
    )
    parser.add_argument(
        "--force-scope",
        action="store_true",
        help="run the rules on every file, not only on files that use burn-store",
    )
    parser.add_argument("--rules", default="ALL", help="rule selectors (default: ALL)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default: 1)")
    parser.add_argument(
        "--per-file", action="store_true", help="also lint each file alone and time it"
    )
    parser.add_argument("--slowest", type=int, default=10, help="slowest files to show")
    parser.add_argument(
        "--timeout", type=float, default=0, help="seconds for the whole tree (0: none)"
    )
    parser.add_argument(
        "--file-timeout", type=float, default=60, help="seconds per file with --per-file"
    )
    parser.add_argument(
        "--fix-check",
        action="store_true",
        help="apply every fix to a copy of the tree and check the result",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if not args.path.is_dir():
        parser.error(f"not a directory: {args.path}")
    report = run(args.path, args)
    if args.json:
        json.dump(report.as_json(), sys.stdout, indent=2)
        print()
    else:
        print_report(report)
    return 1 if report.crashes else 0


if __name__ == "__main__":
    sys.exit(main())
