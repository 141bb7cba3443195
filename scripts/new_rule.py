"""Scaffold a new rule: its module, its doc, its fixture folder, and its place in the registry.

Usage::

    python scripts/new_rule.py checkpoint-without-metadata \\
        --summary "a checkpoint is saved without metadata" [--level warning] [--id BL009]

This writes, with the next free id unless ``--id`` is given:

- ``src/burnlint/rules/<name>.py``: ``META``, a ``Violation`` to word the findings, and a
  ``Rule`` whose ``check`` reports nothing yet, with empty ``VALID`` and ``INVALID`` snippets;
- ``rules/<ID>-<name>.md``: the doc skeleton (``tests/test_rule_docs.py`` runs its examples);
- ``testdata/rules/<ID>/<name>.rs``: a first fixture, for the cases marked ``// expect: <ID>``;
- a row in the README's rule table;

then runs ``scripts/update_registry.py``, which adds the rule to ``rules/registry.py`` and
``rules/all_rules.py``. The rule starts off by default: turn it on (``enabled_by_default``)
once its fixtures hold a dozen firing cases (``tests/test_fixtures.py``). Until the doc's
examples and the snippets are written, their tests fail and say what is missing.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
LEVELS = ("error", "warning", "note")


def next_id(repo: Path) -> str:
    """One more than the highest rule id in the registry."""
    registry = (repo / "src" / "burnlint" / "rules" / "registry.py").read_text(encoding="utf-8")
    numbers = [int(n) for n in re.findall(r'id="BL(\d{3})"', registry)]
    return f"BL{max(numbers, default=0) + 1:03d}"


def version(repo: Path) -> str:
    text = (repo / "src" / "burnlint" / "__init__.py").read_text(encoding="utf-8")
    match = re.search(r'^__version__ = "([^"]+)"', text, re.MULTILINE)
    assert match is not None, "no __version__ in src/burnlint/__init__.py"
    return match.group(1)


def camel(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("-"))


def _string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def module_text(rule_id: str, name: str, level: str, summary: str, since: str) -> str:
    cls = camel(name)
    return f'''"""{rule_id} {name}."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from burnlint.findings import Finding, Level, RuleMeta
from burnlint.rules.base import Rule
from burnlint.rules.violation import Violation

if TYPE_CHECKING:
    from burnlint.rules.context import RuleContext

META = RuleMeta(
    id="{rule_id}",
    name="{name}",
    level=Level.{level.upper()},
    summary={_string(summary)},
    precision="medium",
    tags=("burn-store",),
    # on by default once testdata/rules/{rule_id}/ holds a dozen firing cases
    enabled_by_default=False,
    since="{since}",
)


@dataclass(frozen=True)
class {cls}Violation(Violation):
    """The words of a {rule_id} finding; its fields are the facts they need."""

    @property
    def message(self) -> str:
        return {_string(summary)}


class {cls}(Rule):
    meta = META
    # Rust snippets: INVALID ones mark each finding with `// expect: {rule_id}`
    VALID = ()
    INVALID = ()

    @staticmethod
    def check(ctx: RuleContext) -> Iterator[Finding]:
        # Ask ctx.model for what the rule is about and, for each case,
        # yield ctx.report(node, {cls}Violation(...)).
        yield from ()
'''


def doc_text(rule_id: str, name: str, summary: str) -> str:
    return f"""# {rule_id} {name}

## What it does

Checks for {summary}.

## Why is this bad?

What goes wrong at run time, with the burn versions it concerns.

## Example

```rust
// code that {rule_id} reports
```

## Use instead

```rust
// the same code, fixed
```

## References

Sources in [tracel-ai/burn](https://github.com/tracel-ai/burn):

- `crates/burn-store/src/`: the code that behaves so
"""


def fixture_text(rule_id: str, name: str, summary: str) -> str:
    return f"""//! {rule_id} {name}: {summary}.
//! Mark each line that must be reported with `// expect: {rule_id}`; lines without a marker
//! must not be.
// burnlint-test: select = {rule_id}

use burn_store::ModuleSnapshot;
"""


def add_readme_row(readme: Path, rule_id: str, name: str, level: str, summary: str) -> None:
    """A row after the last one of the "## Rules" table (``tests/test_docs.py`` checks it)."""
    lines = readme.read_text(encoding="utf-8").splitlines(keepends=True)
    last = max(i for i, line in enumerate(lines) if line.startswith("| [BL"))
    row = f"| [{rule_id}](rules/{rule_id}-{name}.md) | {name} | {level} | no | — | {summary} |\n"
    lines.insert(last + 1, row)
    readme.write_text("".join(lines), encoding="utf-8", newline="\n")


def create(repo: Path, name: str, summary: str, level: str, rule_id: str | None) -> list[Path]:
    """Write the new rule's files into ``repo`` and register it; the paths written."""
    if not re.fullmatch(r"[a-z]+(-[a-z]+)*", name):
        raise SystemExit(f"`{name}`: a rule name is kebab-case words, e.g. `implicit-overwrite`")
    rule_id = rule_id or next_id(repo)
    if not re.fullmatch(r"BL\d{3}", rule_id):
        raise SystemExit(f"`{rule_id}`: a rule id is BL and three digits")
    stem = name.replace("-", "_")
    module = repo / "src" / "burnlint" / "rules" / f"{stem}.py"
    doc = repo / "rules" / f"{rule_id}-{name}.md"
    fixture = repo / "testdata" / "rules" / rule_id / f"{stem}.rs"
    for path in (module, doc, fixture.parent):
        if path.exists():
            raise SystemExit(f"{path.relative_to(repo)} exists already")
    module.write_text(
        module_text(rule_id, name, level, summary, version(repo)), encoding="utf-8", newline="\n"
    )
    doc.write_text(doc_text(rule_id, name, summary), encoding="utf-8", newline="\n")
    fixture.parent.mkdir(parents=True)
    fixture.write_text(fixture_text(rule_id, name, summary), encoding="utf-8", newline="\n")
    readme = repo / "README.md"
    add_readme_row(readme, rule_id, name, level, summary)

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import update_registry

    registered = update_registry.update(repo, check=False)
    return [module, doc, fixture, readme, *registered]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("name", help="kebab-case, naming the pattern: reads as `allow(<name>)`")
    parser.add_argument("--summary", required=True, help="one line, rustc style, no period")
    parser.add_argument("--level", choices=LEVELS, default="warning")
    parser.add_argument("--id", dest="rule_id", help="default: the next free id")
    args = parser.parse_args(argv)
    for path in create(REPO, args.name, args.summary, args.level, args.rule_id):
        print(path.relative_to(REPO))
    return 0


if __name__ == "__main__":
    sys.exit(main())
