"""The rule registry: an explicit, ordered tuple (grep-able, deterministic)."""

from __future__ import annotations

from collections.abc import Iterable

from burnlint.rules.base import Rule
from burnlint.rules.discarded_store_result import DiscardedStoreResult
from burnlint.rules.implicit_key_mapping import ImplicitKeyMapping
from burnlint.rules.implicit_overwrite import ImplicitOverwrite
from burnlint.rules.inconsistent_key_mapping import InconsistentKeyMapping
from burnlint.rules.store_error_only_logged import StoreErrorOnlyLogged
from burnlint.rules.store_overwrite_in_loop import StoreOverwriteInLoop
from burnlint.rules.unchecked_lenient_load import UncheckedLenientLoad
from burnlint.rules.unused_suppression import UnusedSuppression

ALL_RULES: tuple[type[Rule], ...] = (
    DiscardedStoreResult,
    StoreErrorOnlyLogged,
    StoreOverwriteInLoop,
    ImplicitOverwrite,
    ImplicitKeyMapping,
    InconsistentKeyMapping,
    UncheckedLenientLoad,
    UnusedSuppression,
)


class UnknownRuleError(ValueError):
    """A rule selector names no rule; ``suggestion`` is the closest known id or name."""

    def __init__(self, selector: str, suggestion: str | None) -> None:
        hint = (
            f" (did you mean `{suggestion}`?)"
            if suggestion
            else " (`burnlint rules` lists the rule ids and names)"
        )
        super().__init__(f"unknown rule `{selector}`{hint}")
        self.selector = selector
        self.suggestion = suggestion


def rule_by_selector(selector: str) -> type[Rule]:
    """Find a rule by id (``BL001``, any case) or name (``discarded-store-result``)."""
    wanted = selector.strip()
    for rule in ALL_RULES:
        if wanted.upper() == rule.id or wanted.lower() == rule.name:
            return rule
    import difflib

    names = [r.id for r in ALL_RULES] + [r.name for r in ALL_RULES]
    close = difflib.get_close_matches(wanted, names, n=1, cutoff=0.6)
    raise UnknownRuleError(selector, close[0] if close else None)


def resolve_rules(
    select: Iterable[str] | None = None,
    ignore: Iterable[str] = (),
    extend_select: Iterable[str] = (),
) -> frozenset[str]:
    """The ids to run: ``select`` (default: rules on by default) plus ``extend_select``,
    minus ``ignore``. ``ALL`` selects every rule. Raises ``UnknownRuleError``."""

    def ids(selectors: Iterable[str]) -> set[str]:
        out: set[str] = set()
        for s in selectors:
            if s.strip().upper() == "ALL":
                out.update(r.id for r in ALL_RULES)
            else:
                out.add(rule_by_selector(s).id)
        return out

    chosen = (
        ids(select) if select is not None else {r.id for r in ALL_RULES if r.enabled_by_default}
    )
    chosen |= ids(extend_select)
    chosen -= ids(ignore)
    return frozenset(chosen)
