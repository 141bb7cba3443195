"""The rule registry: complete, up to date with the rule modules, and one meaning for selectors.

``rules/registry.py`` holds a generated copy of every rule module's ``META``, so that code which
only names rules never imports rule code; these tests fail when a rule module is left out or the
copy is stale (``python scripts/update_registry.py`` refreshes it).
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

from burnlint.findings import Level
from burnlint.rules import registry
from burnlint.rules.all_rules import ALL_RULES
from burnlint.rules.base import Rule
from burnlint.rules.registry import UnknownRuleError, resolve
from burnlint.rules.violation import Violation

REPO = Path(__file__).resolve().parent.parent
RULES_DIR = REPO / "src" / "burnlint" / "rules"


def _script(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, REPO / "scripts" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


UPDATE = _script("update_registry")


# --- complete and up to date ----------------------------------------------------------------


def test_the_generated_registry_is_up_to_date() -> None:
    stale = UPDATE.update(REPO, check=True)
    assert stale == [], f"out of date: {stale}; run python scripts/update_registry.py"


def test_every_rule_module_is_registered() -> None:
    """Every module of the rules package but the infrastructure holds a rule, and that rule
    is in the registry and in the engine's list."""
    modules = _rule_modules()
    assert modules, "no rule modules found"
    registered = {meta.id for meta in registry.ALL}
    for name in modules:
        module = importlib.import_module(f"burnlint.rules.{name}")
        meta = getattr(module, "META", None)
        assert meta is not None, f"rules/{name}.py declares no META"
        assert meta.id in registered, f"rules/{name}.py ({meta.id}) is not in the registry"
        assert registry.by_id(meta.id) == meta, f"the registry's copy of {meta.id} is stale"
        assert any(rule.meta is meta for rule in ALL_RULES), f"{meta.id} is not in ALL_RULES"
    assert len(modules) == len(registry.ALL)


def _rule_modules() -> list[str]:
    return sorted(p.stem for p in RULES_DIR.glob("*.py") if p.stem not in UPDATE.INFRASTRUCTURE)


def test_no_rule_imports_another_rule() -> None:
    """What rules share lives in the shared modules (``fixes``, ``wording``) or the model."""
    rules = {f"burnlint.rules.{name}" for name in _rule_modules()}
    for name in _rule_modules():
        tree = ast.parse((RULES_DIR / f"{name}.py").read_text(encoding="utf-8"))
        imported: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                imported.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module is not None:
                imported.add(node.module)
                imported.update(f"{node.module}.{alias.name}" for alias in node.names)
        others = sorted((imported & rules) - {f"burnlint.rules.{name}"})
        assert others == [], f"rules/{name}.py imports {others}"


def test_every_rule_words_its_findings_with_a_violation() -> None:
    for name in _rule_modules():
        module = importlib.import_module(f"burnlint.rules.{name}")
        violations = [
            obj
            for obj in vars(module).values()
            if isinstance(obj, type)
            and issubclass(obj, Violation)
            and obj is not Violation
            and obj.__module__ == module.__name__
        ]
        assert violations, f"rules/{name}.py defines no Violation"


def test_infrastructure_modules_exist() -> None:
    """The list of modules that are not rules names only modules that exist."""
    present = {p.stem for p in RULES_DIR.glob("*.py")}
    assert present >= UPDATE.INFRASTRUCTURE


def test_the_engine_runs_the_registered_rules_in_order() -> None:
    assert [rule.meta for rule in ALL_RULES] == list(registry.ALL)
    for rule in ALL_RULES:
        assert issubclass(rule, Rule)
        assert isinstance(rule.__dict__["check"], staticmethod), f"{rule.meta.id}: stateless"


def test_ids_and_names() -> None:
    ids = [meta.id for meta in registry.ALL]
    assert ids == sorted(ids)
    assert len(set(ids)) == len(ids)
    names = [meta.name for meta in registry.ALL]
    assert len(set(names)) == len(names)
    for meta in registry.ALL:
        assert re.fullmatch(r"BL\d{3}", meta.id), meta.id
        assert re.fullmatch(r"[a-z]+(-[a-z]+)*", meta.name), meta.name
        # rustc style: one line, no final period
        assert "\n" not in meta.summary and not meta.summary.endswith("."), meta.id
        assert meta.precision in ("very-high", "high", "medium", "low"), meta.id
        assert re.fullmatch(r"\d+\.\d+\.\d+", meta.since), meta.id


def test_a_module_is_named_after_its_rule() -> None:
    for rule in ALL_RULES:
        module = rule.__module__.rsplit(".", 1)[1]
        assert module == rule.meta.name.replace("-", "_"), rule.meta.id


# --- lookups and selection -------------------------------------------------------------------


def test_by_selector_takes_ids_in_any_case_and_names() -> None:
    for selector in ("BL003", "bl003", " BL003 ", "store-overwrite-in-loop"):
        assert registry.by_selector(selector).id == "BL003"
    with pytest.raises(UnknownRuleError) as caught:
        registry.by_selector("BL03")
    assert caught.value.suggestion == "BL003"
    assert registry.find("BL999") is None
    with pytest.raises(KeyError):
        registry.by_id("bl003")  # ids are exact


def test_resolve() -> None:
    every = frozenset(meta.id for meta in registry.ALL)
    defaults = frozenset(meta.id for meta in registry.ALL if meta.enabled_by_default)
    assert resolve() == defaults == registry.defaults()
    assert resolve(select=["ALL"]) == every
    assert resolve(select=["all"], ignore=["BL004"]) == every - {"BL004"}
    assert resolve(extend_select=["implicit-overwrite"]) == defaults | {"BL004"}
    assert resolve(select=["BL001"], extend_select=["BL002"], ignore=["BL001"]) == {"BL002"}
    # a layer without `select` starts from the one before
    assert resolve(extend_select=["BL004"], start=["BL001"]) == {"BL001", "BL004"}
    assert resolve(select=[], start=["BL001"]) == frozenset()
    with pytest.raises(UnknownRuleError):
        resolve(ignore=["nope"])


def test_effective_level() -> None:
    meta = registry.by_id("BL004")
    assert meta.effective({}) is meta
    assert meta.effective({"BL001": Level.ERROR}) is meta
    raised = meta.effective({"BL004": Level.ERROR})
    assert raised.level is Level.ERROR
    assert raised.id == meta.id and meta.level is Level.NOTE


def test_unused_suppression_is_bl008() -> None:
    assert registry.by_selector("unused-suppression") == registry.UNUSED_SUPPRESSION


def test_a_result_carries_the_rules_that_ran_at_their_levels(tmp_path: Path) -> None:
    from burnlint.engine import lint_source
    from burnlint.options import EngineOptions

    options = EngineOptions(
        rule_ids=resolve(select=["BL001", "BL004"]),
        project_root=tmp_path,
        severity={"BL004": Level.ERROR, "BL002": Level.NOTE},
    )
    result = lint_source(tmp_path / "lib.rs", b"fn f() {}\n", options)
    assert [(meta.id, meta.level) for meta in result.rules] == [
        ("BL001", Level.ERROR),
        ("BL004", Level.ERROR),
    ]
    assert result.rules[0] == registry.by_id("BL001")
