#!/usr/bin/env python3
"""Time burnlint on pathological but valid files at 1x and 10x their size (issue 26, defect 5).

    python tests/benchmarks/bench_pathological.py [--scale 10] [--runs 3] [--only NAME]

Each shape is checked in this process with ``lint_source`` (every rule selected, no cache) at
its base size and at ``--scale`` times that; the script prints the median seconds of
``--runs`` runs of each, their ratio (linear: about the scale; quadratic: its square) and the
findings and notes of the larger run. A per-file pass that is quadratic shows as a ratio near
100 at the default scale.

A script, not a test: timings depend on the machine and on what else runs on it. burnlint must
be importable (run it with the Python of the virtual environment burnlint is installed in).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

HEADER = "use burn_store::{BurnpackStore, ModuleSnapshot, PytorchStore, SafetensorsStore};\n"
SAVE = 'let _ = model.save_into(&mut SafetensorsStore::from_file("m.safetensors"));'


def comment_lines(n: int) -> str:
    """An item after ``n`` comment lines (is it a test? its attributes are looked for)."""
    return HEADER + "// a comment\n" * n + f"fn f(model: &M) {{ {SAVE} }}\n"


def stacked_allows(n: int) -> str:
    return HEADER + "fn f(model: &M) {\n" + "// burnlint: allow(BL001)\n" * n + SAVE + "\n}\n"


def unbalanced_brace_parens(n: int) -> str:
    return HEADER + "fn f(model: &M) " + "{(" * n + "\n"


def method_chain(n: int) -> str:
    """A save inside the innermost of ``n`` chained calls (2n levels deep)."""
    return HEADER + f"fn f(model: &M) {{ let x = a.b(|| {{ {SAVE} }})" + ".b()" * n + "; }\n"


def nested_blocks(n: int) -> str:
    return HEADER + "fn f(model: &M) " + "{" * n + SAVE + "}" * n + "\n"


# name -> (the file at a size, the base size)
SHAPES: dict[str, tuple[Callable[[int], str], int]] = {
    "comment-lines": (comment_lines, 4_000),
    "stacked-allows": (stacked_allows, 2_000),
    "unbalanced-brace-parens": (unbalanced_brace_parens, 10_000),
    "method-chain": (method_chain, 4_000),
    "nested-blocks": (nested_blocks, 5_120),
}


def _time(code: bytes, runs: int) -> tuple[float, int, list[str]]:
    from burnlint.engine import lint_source
    from burnlint.options import EngineOptions
    from burnlint.rules.registry import resolve

    root = Path(tempfile.gettempdir()) / "burnlint-bench-pathological"  # never written
    options = EngineOptions(rule_ids=resolve(select=["ALL"]), project_root=root)
    times: list[float] = []
    findings, notes = 0, []
    for _ in range(runs):
        start = time.perf_counter()
        result = lint_source(root / "src" / "big.rs", code, options)
        times.append(time.perf_counter() - start)
        findings, notes = len(result.findings), [n.message for n in result.notifications]
    return statistics.median(times), findings, notes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=int, default=10)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", choices=sorted(SHAPES))
    args = parser.parse_args(argv)
    _time(nested_blocks(10).encode(), 1)  # warm-up: imports, the parser, the rules
    print(f"{'shape':<26}{'1x size':>9}{'1x s':>8}{'10x s' if args.scale == 10 else 'Nx s':>8}")
    for name, (make, size) in SHAPES.items():
        if args.only and name != args.only:
            continue
        small, _, _ = _time(make(size).encode(), args.runs)
        large, findings, notes = _time(make(size * args.scale).encode(), args.runs)
        print(
            f"{name:<26}{size:>9,}{small:>8.2f}{large:>8.2f}  ratio {large / small:5.1f}"
            f"  findings {findings}  notes {notes}"
        )
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
