"""The package's shape (DESIGN.md section 1, the rooms of the pipeline): few modules at the
root, no module above 500 lines, and no import cycle.

Every import counts, wherever it is written: at module level, under ``if TYPE_CHECKING:``
(a cycle that only the type checker sees is still two modules that each need the other to be
understood) and inside functions. Imports are read with ``ast``: absolute and relative ones,
and ``from package import module`` as an import of that module. A package's ``__init__``
counts as the package; loading a submodule also loads its package, but only what is written
is an edge.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "burnlint"
MAX_LINES = 500
MAX_ROOT_MODULES = 6


def _modules(package: Path) -> dict[str, Path]:
    found: dict[str, Path] = {}
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def _imports(path: Path, name: str, known: set[str]) -> set[str]:
    """The modules of ``known`` that ``path`` (the module ``name``) imports, anywhere in it."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    targets: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                full = f"{base}.{alias.name}"
                targets.add(full if full in known else base)
    return {t for t in targets if t in known and t != name}


def import_graph(package: Path) -> dict[str, set[str]]:
    modules = _modules(package)
    known = set(modules)
    return {name: _imports(path, name, known) for name, path in modules.items()}


def first_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A cycle of ``graph`` as the modules along it, the first one repeated at the end; None
    when there is none. Depth-first, in name order, so the answer does not change between
    runs."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for target in sorted(graph[node]):
            if state.get(target) == 1:
                return [*stack[stack.index(target) :], target]
            if target not in state and (cycle := visit(target)) is not None:
                return cycle
        stack.pop()
        state[node] = 2
        return None

    for name in sorted(graph):
        if name not in state and (cycle := visit(name)) is not None:
            return cycle
    return None


def test_few_modules_at_the_package_root() -> None:
    root = [p.name for p in PACKAGE.glob("*.py") if p.name not in ("__init__.py", "__main__.py")]
    assert len(root) <= MAX_ROOT_MODULES, sorted(root)


def test_no_module_above_the_line_limit() -> None:
    long = {
        name: n
        for name, path in _modules(PACKAGE).items()
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert not long


def test_no_import_cycle() -> None:
    cycle = first_cycle(import_graph(PACKAGE))
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root / "pkg"


def test_a_cycle_through_typing_only_imports_is_found(tmp_path: Path) -> None:
    package = _write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/a.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
            "    from pkg.sub.b import B\n",
            "pkg/sub/__init__.py": "",
            "pkg/sub/b.py": "def f():\n    from .. import c\n",
            "pkg/c.py": "from pkg import a\n",
        },
    )
    graph = import_graph(package)
    assert graph["pkg.a"] == {"pkg.sub.b"}  # absolute, under TYPE_CHECKING
    assert graph["pkg.sub.b"] == {"pkg.c"}  # relative, inside a function
    assert graph["pkg.c"] == {"pkg.a"}  # `from package import module`
    assert first_cycle(graph) == ["pkg.a", "pkg.sub.b", "pkg.c", "pkg.a"]


def test_names_imported_from_a_package_are_an_edge_to_the_package(tmp_path: Path) -> None:
    package = _write(
        tmp_path,
        {
            "pkg/__init__.py": "from pkg.a import A\n",
            "pkg/a.py": "from pkg import helper\nA = 1\n",
        },
    )
    graph = import_graph(package)
    assert graph["pkg.a"] == {"pkg"}  # `helper` is a name, not a module: the package
    assert first_cycle(graph) == ["pkg", "pkg.a", "pkg"]
    graph["pkg.a"] = set()
    assert first_cycle(graph) is None


def test_the_readme_names_every_room_and_root_module() -> None:
    """README's Layout section lists the folders of the package and the modules beside them,
    no more and no fewer."""
    readme = (PACKAGE.parent.parent / "README.md").read_text(encoding="utf-8")
    section = readme.split("### Layout", 1)[1].split("\n### ", 1)[0]
    folders = {p.parent.name for p in PACKAGE.glob("*/__init__.py")}
    named = set(re.findall(r"^\| `([a-z_]+)/` \|", section, re.MULTILINE))
    assert named == folders
    root = {p.name for p in PACKAGE.glob("*.py")} - {"__init__.py", "__main__.py"}
    assert set(re.findall(r"`([a-z_]+\.py)`", section.split("Beside them:", 1)[1])) == root
