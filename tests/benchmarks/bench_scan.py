#!/usr/bin/env python3
"""Benchmark burnlint on a tree of Rust code, optionally against ast-grep.

    python tests/benchmarks/bench_scan.py TREE [--ast-grep] [--all-candidates] [--copies N]
                                                [--cache]

Prints for the tree: files, prefilter candidates, MB, then for each tool the median wall time
of ``--runs`` whole-process runs after one warm-up (burnlint writes SARIF to a file), files/s,
MB/s and peak RSS. With ``--ast-grep`` the runs alternate with ``ast-grep scan`` using three
rules equivalent to burnlint's triggers (``$A.save_into($$$)``, ``$A.load_from($$$)``,
``$S::from_file($$$)``), also writing SARIF to a file, and the script prints the median of the
pairwise ratios burnlint / ast-grep. ``--all-candidates`` turns burnlint's prefilter off (the
worst case: every file is parsed and modelled). ``--copies N`` copies the tree N times into a
temporary directory and measures that instead (time should grow linearly).

Without ``--cache`` burnlint runs with ``--no-cache`` (cold: every run reads, parses and checks
as the first would). ``--cache`` measures, in a copy of the tree, alternating with ast-grep:
``cold`` (``--no-cache``), ``warm`` (the cache is current, nothing changed) and ``edited`` (a
line appended to the largest candidate file before each run); each warm and edited run's SARIF
is compared byte for byte with a cold run's on the same tree, and the script fails if they
differ. With ``--copies N`` it measures the cold run on one copy too, for the N-fold ratio.

Peak RSS comes from ``wait4`` (the largest single process of the run, workers included) and,
in one extra run that is not timed, from sampling ``/proc`` every few milliseconds: the sum of
the proportional set sizes over the whole process tree (with ``--jobs 2`` the main process and
its workers at once; pages the forked workers share with it are counted once).

A script, not a test: timings depend on the machine and on what else runs on it. Only the
standard library is used; burnlint must be importable (to count candidates) and its console
script installed (``--burnlint``, default: next to this Python, else on PATH).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

AST_GREP_RULES = {
    "save-into": "$A.save_into($$$)",
    "load-from": "$A.load_from($$$)",
    "from-file": "$S::from_file($$$)",
}
# Directories neither tool reads; not copied by --copies.
_NOT_COPIED = shutil.ignore_patterns(".git", "target", "node_modules")


@dataclass(frozen=True)
class Run:
    wall: float  # seconds
    cpu: float  # user + system seconds, worker processes included
    max_rss_kb: int  # largest single process (wait4: the process and its waited-for children)
    status: int


@dataclass(frozen=True)
class TreeStats:
    files: int
    candidates: int
    megabytes: float


def tree_stats(tree: Path) -> TreeStats:
    """What burnlint sees: the discovered files and how many pass the prefilter."""
    from burnlint.project.discover import discover
    from burnlint.project.prefilter import has_trigger

    files = discover([tree]).files
    size = candidates = 0
    for path in files:
        data = path.read_bytes()
        size += len(data)
        candidates += has_trigger(data)
    return TreeStats(len(files), candidates, size / 1e6)


def run_once(command: Sequence[str], cwd: Path, stdout_path: Path | None = None) -> Run:
    """One whole-process run: wall time from fork to exit, and the child's rusage."""
    out = open(stdout_path, "wb") if stdout_path is not None else subprocess.DEVNULL  # noqa: SIM115
    try:
        start = time.perf_counter()
        proc = subprocess.Popen(command, cwd=cwd, stdout=out, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
    finally:
        if stdout_path is not None:
            out.close()  # type: ignore[union-attr]
    # Linux reports ru_maxrss in KiB (macOS in bytes).
    rss = usage.ru_maxrss // 1024 if sys.platform == "darwin" else usage.ru_maxrss
    return Run(wall, usage.ru_utime + usage.ru_stime, rss, proc.returncode)


def _tree_pids(root: int) -> set[int]:
    """``root`` and all its descendants (Linux /proc)."""
    parent_of: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as fh:
                stat = fh.read()
            # the command name is in parentheses and may hold spaces: split after the last ')'
            parent_of[int(entry)] = int(stat[stat.rindex(b")") + 2 :].split()[1])
        except (OSError, ValueError, IndexError):
            continue
    tree = {root}
    grew = True
    while grew:
        grew = False
        for pid, parent in parent_of.items():
            if parent in tree and pid not in tree:
                tree.add(pid)
                grew = True
    return tree


def _memory_kb(pid: int) -> int:
    """The proportional set size of ``pid`` (pages shared with forked workers are counted
    once over the tree), else its resident set size."""
    for name, key in (("smaps_rollup", b"Pss:"), ("status", b"VmRSS:")):
        try:
            with open(f"/proc/{pid}/{name}", "rb") as fh:
                for line in fh:
                    if line.startswith(key):
                        return int(line.split()[1])
        except (OSError, ValueError, IndexError):
            continue
    return 0


def _descendants_memory_kb(root: int) -> int:
    return sum(_memory_kb(pid) for pid in _tree_pids(root))


def tree_peak_memory_kb(command: Sequence[str], cwd: Path, interval: float = 0.005) -> int | None:
    """Peak of the summed PSS of the process tree, sampled (None where /proc is missing)."""
    if not os.path.isdir("/proc/self"):
        return None
    proc = subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peak = 0
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, _descendants_memory_kb(proc.pid))
            time.sleep(interval)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    proc.wait()
    done.set()
    sampler.join()
    return peak


def default_burnlint() -> str:
    beside = Path(sys.executable).parent / "burnlint"
    if beside.exists():
        return str(beside)
    found = shutil.which("burnlint")
    if found is None:
        sys.exit("bench_scan: no `burnlint` console script found; pass --burnlint PATH")
    return found


def write_ast_grep_config(directory: Path) -> Path:
    rules = directory / "rules"
    rules.mkdir(parents=True)
    for rule_id, pattern in AST_GREP_RULES.items():
        (rules / f"{rule_id}.yml").write_text(
            f"id: {rule_id}\nlanguage: rust\nseverity: warning\nmessage: {rule_id}\n"
            f"rule:\n  pattern: {pattern}\n",
            encoding="utf-8",
        )
    config = directory / "sgconfig.yml"
    config.write_text("ruleDirs:\n  - rules\n", encoding="utf-8")
    return config


def copy_tree(tree: Path, copies: int, into: Path) -> Path:
    target = into / f"tree-x{copies}"
    for index in range(copies):
        shutil.copytree(tree, target / f"copy{index}", symlinks=True, ignore=_NOT_COPIED)
    return target


def _kb_to_mb(kb: int) -> float:
    return kb / 1024


def _row(name: str, runs: list[Run], stats: TreeStats) -> str:
    wall = statistics.median(r.wall for r in runs)
    cpu = statistics.median(r.cpu for r in runs)
    rss = max(r.max_rss_kb for r in runs)
    return (
        f"{name:<10} {wall:7.3f} s  cpu {cpu:6.3f} s  {stats.files / wall:8,.0f} files/s  "
        f"{stats.megabytes / wall:6.1f} MB/s  peak RSS {_kb_to_mb(rss):5.1f} MB  "
        f"(runs: {', '.join(f'{r.wall:.3f}' for r in runs)})"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tree", type=Path, help="a directory of Rust code (e.g. the burn repo)")
    parser.add_argument("--ast-grep", action="store_true", help="compare with ast-grep scan")
    parser.add_argument(
        "--ast-grep-bin",
        default="ast-grep",
        help="the ast-grep executable (PyPI ast-grep-cli; not /usr/bin/sg) [%(default)s]",
    )
    parser.add_argument(
        "--all-candidates", action="store_true", help="turn the prefilter off (worst case)"
    )
    parser.add_argument("--copies", type=int, default=1, help="copy the tree N times [1]")
    parser.add_argument("--runs", type=int, default=5, help="timed runs per tool [5]")
    parser.add_argument("--burnlint", default=None, help="the burnlint executable")
    parser.add_argument(
        "--jobs", default=None, help="pass --jobs to burnlint [burnlint's default: CPU count]"
    )
    parser.add_argument("--select", default="ALL", help="burnlint --select [%(default)s]")
    parser.add_argument(
        "--cache", action="store_true", help="measure cold, warm and edited runs with the cache"
    )
    args = parser.parse_args(argv)
    if args.cache:
        return cache_modes(args)

    tree = args.tree.resolve()
    if not tree.is_dir():
        parser.error(f"{tree} is not a directory")
    burnlint = args.burnlint or default_burnlint()
    # An installed burnlint runs from the byte-code pip compiled at install time. Where this
    # variable is set (some sandboxes and containers), an editable install would compile
    # every module again at each start (0.1-0.15 s here): the warm-up writes the .pyc files.
    if os.environ.pop("PYTHONDONTWRITEBYTECODE", None) is not None:
        print("note: PYTHONDONTWRITEBYTECODE unset for the runs (.pyc files are written)")
    ast_grep = shutil.which(args.ast_grep_bin) if args.ast_grep else None
    if args.ast_grep and ast_grep is None:
        parser.error(f"ast-grep not found: {args.ast_grep_bin} (pip install ast-grep-cli)")

    with tempfile.TemporaryDirectory(prefix="bench_scan-") as tmp_name:
        tmp = Path(tmp_name)
        scanned = copy_tree(tree, args.copies, tmp) if args.copies > 1 else tree
        stats = tree_stats(scanned)
        sarif = tmp / "burnlint.sarif"
        lint = [burnlint, "check", ".", "--format", "sarif", "-o", str(sarif)]
        lint += ["--select", args.select, "--exit-zero", "--no-cache"]
        if args.jobs is not None:
            lint += ["--jobs", str(args.jobs)]
        if args.all_candidates:
            lint.append("--no-prefilter")
        commands: dict[str, list[str]] = {"burnlint": lint}
        outputs: dict[str, Path | None] = {"burnlint": None}
        if ast_grep is not None:
            config = write_ast_grep_config(tmp / "ast-grep")
            commands["ast-grep"] = [ast_grep, "scan", "-c", str(config), "--format", "sarif", "."]
            outputs["ast-grep"] = tmp / "ast-grep.sarif"

        print(f"tree       {tree}" + (f" copied {args.copies} times" if args.copies > 1 else ""))
        print(
            f"files      {stats.files:,}   candidates {stats.candidates:,} "
            f"({100 * stats.candidates / max(stats.files, 1):.1f}%)   {stats.megabytes:.1f} MB"
        )
        print(f"burnlint   {' '.join(lint[1:])}" + ("" if args.jobs else "   (default --jobs)"))
        for name, command in commands.items():  # warm-up: page cache, .pyc files
            run_once(command, scanned, outputs[name])
        runs: dict[str, list[Run]] = {name: [] for name in commands}
        for _ in range(args.runs):  # alternate, so that load on the machine hits both alike
            for name, command in commands.items():
                result = run_once(command, scanned, outputs[name])
                if result.status not in (0, 1):
                    print(f"{name} exited with {result.status}: {' '.join(command)}")
                    return 2
                runs[name].append(result)
        tree_memory = tree_peak_memory_kb(lint, scanned)
        version = [run_once([burnlint, "--version"], tmp).wall for _ in range(2 * args.runs + 1)]

        print(f"median of {args.runs} runs after a warm-up:")
        for name in commands:
            print(_row(name, runs[name], stats))
        if tree_memory is not None:
            shown = f"{tree_memory / 1024:.1f} MB"
            print(f"burnlint peak memory of the whole process tree (PSS, sampled): {shown}")
        print(f"burnlint --version: {statistics.median(version):.3f} s (median of {len(version)})")
        if ast_grep is not None:
            ratios = [
                b.wall / a.wall for b, a in zip(runs["burnlint"], runs["ast-grep"], strict=True)
            ]
            print(
                f"burnlint / ast-grep: {statistics.median(ratios):.2f} "
                f"(pairwise: {', '.join(f'{r:.2f}' for r in ratios)})"
            )
    return 0


def largest_candidate(tree: Path) -> Path:
    """The largest file that passes the prefilter (one that saves or loads, or may)."""
    from burnlint.project.discover import discover
    from burnlint.project.prefilter import has_trigger

    found = [p for p in discover([tree]).files if has_trigger(p.read_bytes())]
    return max(found, key=lambda p: (p.stat().st_size, str(p)))


def cache_modes(args: argparse.Namespace) -> int:
    """``--cache``: cold, warm and edited runs, each against ast-grep (module docstring)."""
    burnlint = args.burnlint or default_burnlint()
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    ast_grep = shutil.which(args.ast_grep_bin) if args.ast_grep else None
    with tempfile.TemporaryDirectory(prefix="bench_scan-") as tmp_name:
        tmp = Path(tmp_name)
        scanned = copy_tree(args.tree.resolve(), args.copies, tmp)
        stats = tree_stats(scanned)
        edited = largest_candidate(scanned)
        cache = tmp / "cache"
        sarif = {name: tmp / f"{name}.sarif" for name in ("cold", "warm", "edited", "check")}

        def lint(name: str, *extra: str) -> list[str]:
            command = [burnlint, "check", ".", "--format", "sarif", "-o", str(sarif[name])]
            command += ["--select", args.select, "--exit-zero", "--cache-dir", str(cache)]
            if args.jobs is not None:
                command += ["--jobs", str(args.jobs)]
            return [*command, *extra]

        print(
            f"tree       {args.tree}" + (f" copied {args.copies} times" if args.copies > 1 else "")
        )
        print(
            f"files      {stats.files:,}   candidates {stats.candidates:,}   "
            f"{stats.megabytes:.1f} MB"
        )
        print(f"edited     {edited.relative_to(scanned)} ({edited.stat().st_size:,} bytes)")
        ast_command = None
        if ast_grep is not None:
            config = write_ast_grep_config(tmp / "ast-grep")
            ast_command = [ast_grep, "scan", "-c", str(config), "--format", "sarif", "."]
        one_copy = None
        if args.copies > 1:
            one_copy = copy_tree(args.tree.resolve(), 1, tmp / "one")
        # warm-up: page cache, .pyc files, and the cache itself
        run_once(lint("cold", "--no-cache"), scanned)
        run_once(lint("warm"), scanned)
        runs: dict[str, list[Run]] = {m: [] for m in ("cold", "warm", "edited", "ast-grep", "1x")}
        mismatches = 0

        def same_as_cold(name: str) -> None:
            nonlocal mismatches
            run_once(lint("check", "--no-cache"), scanned)
            if sarif[name].read_bytes() != sarif["check"].read_bytes():
                mismatches += 1
                print(f"MISMATCH: the {name} run's SARIF differs from a cold run's")

        for index in range(args.runs):
            if ast_command is not None:
                runs["ast-grep"].append(run_once(ast_command, scanned, tmp / "ast-grep.sarif"))
            runs["cold"].append(run_once(lint("cold", "--no-cache"), scanned))
            if one_copy is not None:
                runs["1x"].append(run_once(lint("cold", "--no-cache"), one_copy))
            runs["warm"].append(run_once(lint("warm"), scanned))
            same_as_cold("warm")
            with open(edited, "a", encoding="utf-8") as fh:
                fh.write(f"// edited {index}\n")
            runs["edited"].append(run_once(lint("edited"), scanned))
            same_as_cold("edited")
            run_once(lint("warm"), scanned)  # the next warm run starts from a current cache
        memory = tree_peak_memory_kb(lint("cold", "--no-cache"), scanned)

        print(f"median of {args.runs} runs after a warm-up:")
        for name in ("ast-grep", "cold", "warm", "edited", "1x"):
            if runs[name]:
                print(_row(name, runs[name], stats))
        if memory is not None:
            print(
                "burnlint cold: peak memory of the whole process tree (PSS): "
                f"{memory / 1024:.1f} MB"
            )
        wall = {name: statistics.median(r.wall for r in got) for name, got in runs.items() if got}
        if "ast-grep" in wall:
            for name in ("cold", "warm", "edited"):
                ratios = [
                    b.wall / a.wall for b, a in zip(runs[name], runs["ast-grep"], strict=True)
                ]
                print(
                    f"{name:<6} / ast-grep: {statistics.median(ratios):.2f} "
                    f"(pairwise: {', '.join(f'{r:.2f}' for r in ratios)})"
                )
        print(f"warm / cold: {wall['warm'] / wall['cold']:.2f}")
        if "1x" in wall:
            print(f"cold x{args.copies} / cold x1: {wall['cold'] / wall['1x']:.2f}")
        print(f"SARIF of warm and edited runs identical to a cold run's: {mismatches == 0}")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
