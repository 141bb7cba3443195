"""Rewrite ``burn_expected.txt`` from a fresh burnlint run over a tree of tracel-ai/burn.

Usage::

    BURN_TREE=/path/to/burn python tests/corpus/update_expected.py
    python tests/corpus/update_expected.py /path/to/burn [--commit SHA]

burnlint runs with the default rule set (``burnlint.engine.lint_paths``, ``project_root`` = the
tree). Every finding becomes one ``path:line:rule  verdict`` line. A location that is already in
the file keeps its verdict; a new location gets the verdict ``UNREVIEWED`` (which
``tests/test_corpus.py`` rejects, so each one must be reviewed by hand); a location that is no
longer found is dropped. The ``#`` header is kept; ``--commit`` rewrites its ``burn commit:``
line. What changed is printed.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path

from burnlint.engine import lint_paths
from burnlint.options import EngineOptions
from burnlint.paths import display_path
from burnlint.rules.registry import resolve

EXPECTED = Path(__file__).resolve().parent / "burn_expected.txt"
UNREVIEWED = "UNREVIEWED"
DEFAULT_HEADER = (
    "# burnlint findings on tracel-ai/burn, one line per finding of the default rule set:",
    "# `path:line:rule  verdict`, path relative to the burn tree root.",
    "# burn commit: UNKNOWN",
    "# produced by: burnlint.engine.lint_paths([tree], EngineOptions(rule_ids=registry.resolve(),",
    "#   project_root=tree)), the same set as",
    "#   `burnlint TREE --project-root TREE --format concise`",
    "# regenerate: BURN_TREE=TREE python tests/corpus/update_expected.py",
    "#   (keeps verdicts of unchanged locations, marks new ones UNREVIEWED, drops gone ones)",
)


def read_file(path: Path) -> tuple[list[str], dict[str, str]]:
    """The ``#`` header lines and the {location: verdict} entries of an expected file."""
    if not path.exists():
        return list(DEFAULT_HEADER), {}
    header: list[str] = []
    entries: dict[str, str] = {}
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            if not entries:  # comments after the first entry are not kept
                header.append(line)
            continue
        location, _, verdict = line.partition(" ")
        entries[location] = verdict.strip()
    return header or list(DEFAULT_HEADER), entries


def sort_key(location: str) -> tuple[str, int, str]:
    path, line, rule = location.rsplit(":", 2)
    return path, int(line), rule


def lint_tree(tree: Path) -> set[str]:
    result = lint_paths([tree], EngineOptions(rule_ids=resolve(), project_root=tree))
    crashes = [n for n in result.notifications if n.rule_id is not None]
    for crash in crashes:
        print(f"rule crash: {crash}", file=sys.stderr)
    if crashes:
        raise SystemExit(2)
    return {
        f"{display_path(f.location.path, tree)}:{f.location.span.start_line}:{f.rule_id}"
        for f in result.findings
    }


def render(header: list[str], entries: dict[str, str]) -> str:
    lines = list(header)
    lines += [f"{loc}  {entries[loc]}" for loc in sorted(entries, key=sort_key)]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tree", nargs="?", default=os.environ.get("BURN_TREE"))
    parser.add_argument("--commit", help="the burn commit the tree was exported from")
    parser.add_argument("--expected", type=Path, default=EXPECTED)
    args = parser.parse_args(argv)
    if not args.tree:
        parser.error("give the burn tree as an argument or in BURN_TREE")
    tree = Path(args.tree).resolve()
    if not tree.is_dir():
        parser.error(f"{tree} is not a directory")

    header, old = read_file(args.expected)
    if args.commit:
        header = [re.sub(r"(burn commit:\s*)\S+", rf"\g<1>{args.commit}", h) for h in header]
    found = lint_tree(tree)
    new = {loc: old.get(loc, UNREVIEWED) for loc in found}

    added = sorted(found - old.keys(), key=sort_key)
    gone = sorted(old.keys() - found, key=sort_key)
    for loc in added:
        print(f"+ {loc}  {UNREVIEWED}")
    for loc in gone:
        print(f"- {loc}  {old[loc]}")
    args.expected.write_text(render(header, new), encoding="utf-8")
    unreviewed = sum(1 for verdict in new.values() if verdict == UNREVIEWED)
    print(
        f"{len(new)} findings: {len(added)} new, {len(gone)} gone, "
        f"{len(new) - len(added)} kept; {unreviewed} UNREVIEWED in {args.expected}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
