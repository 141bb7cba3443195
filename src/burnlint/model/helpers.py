"""What a crate-local function does with a store, as its callers see it: plain data.

A ``HelperSummary`` is computed in the file that defines the function (``summaries.py``) and
read in the files that call it, once the call is resolved by path and type (``resolve.py``).
It holds no tree nodes: a store built in another file is a ``ForeignStore``, with the
location of its constructor and the edit that would add ``.overwrite(true)`` there.
"""

from __future__ import annotations

from dataclasses import dataclass

from burnlint.findings import Edit, Location
from burnlint.model.burn_api import Direction, StoreKind
from burnlint.model.resolve import FnKey


@dataclass(frozen=True)
class ForeignStore:
    """A store built by a crate-local function, as its callers see it."""

    kind: StoreKind
    constructor: str
    file_backed: bool
    # (option, literal value or None, set on every path)
    options: tuple[tuple[str, bool | None, bool], ...]
    adapters: frozenset[str]
    remaps: bool
    origin: Location  # the constructor call, in the function's file
    helper: str  # the function that builds it, as messages name it
    overwrite_edit: Edit | None = None  # inserts `.overwrite(true)` after the constructor
    filters: bool = False  # its chain sets a path filter


@dataclass(frozen=True)
class OkFlow:
    """Where the ``ApplyResult`` of a load inside the function ends up in its Ok value, or
    the lists of its ``missing``/``errors`` fields (moved into a report of the function's
    own): ``carried`` holds ("result" | "missing" | "errors", path), the path being the tuple
    index or struct field at each level, outermost first (``()``: the value itself)."""

    carried: tuple[tuple[str, tuple[int | str, ...]], ...]
    required: frozenset[str]  # what the store's leniency needs read: missing, errors
    checked: frozenset[str]  # what the function reads of it itself
    reasons: tuple[str, ...]  # the leniency, in words (`.allow_partial(true)`)
    origin: Location  # the load inside the function


@dataclass(frozen=True)
class HelperSummary:
    key: FnKey
    # the store operations whose `Err` it hands to its caller (`?`, returned), by name
    errors: tuple[str, ...] = ()
    directions: frozenset[Direction] = frozenset()
    ok: OkFlow | None = None
    store: ForeignStore | None = None  # a store it returns
    store_in_result: bool = False  # ... inside `Ok(..)`
    # indices (among the non-self parameters) of the parameters the returned store's path is
    # built from; () for a fixed path; None when it depends on something else
    store_path_params: tuple[int, ...] | None = None
    saves: ForeignStore | None = None  # the store it builds and saves into, propagating
    # indices (among the non-self parameters) of the parameters the saved store's path is
    # built from; () for a fixed path; None when it depends on something else
    path_params: tuple[int, ...] | None = None
    # the index of the parameter that is the saved store's path itself (`from_file(path)`,
    # or passed as is to a helper whose path it is), when one is
    path_param: int | None = None
    # what it reads of an `ApplyResult` passed to it, by parameter index (among the non-self
    # parameters), for parameters whose type names one and that it does not read in full
    param_checks: tuple[tuple[int, frozenset[str]], ...] = ()
    location: Location | None = None  # the function's name

    @property
    def name(self) -> str:
        return self.key.display()

    @property
    def is_op(self) -> bool:
        """A call of it is a store operation: its `Result` carries a store error, or its
        value an `ApplyResult`."""
        return bool(self.errors) or self.ok is not None

    def checks_of_parameter(self, index: int) -> frozenset[str] | None:
        """What the function reads of an ``ApplyResult`` passed as parameter ``index``;
        None when it is not known to read less than all of it."""
        return next((checks for i, checks in self.param_checks if i == index), None)

    @property
    def direction(self) -> Direction:
        """A function that both loads and saves counts as a load (its error may leave the
        model half-loaded, DESIGN.md BL002)."""
        return Direction.LOAD if Direction.LOAD in self.directions else Direction.SAVE


class SummaryTable:
    """The summaries a target can see, by function. A function defined more than once (under
    different `#[cfg(..)]`s) is in the view's index twice and never resolves."""

    def __init__(self, summaries: dict[FnKey, HelperSummary] | None = None) -> None:
        self.by_key: dict[FnKey, HelperSummary] = dict(summaries or {})

    def get(self, key: FnKey | None) -> HelperSummary | None:
        return self.by_key.get(key) if key is not None else None

    def names(self) -> frozenset[str]:
        return frozenset(key.name for key in self.by_key)

    def signature(self) -> frozenset[tuple[FnKey, HelperSummary]]:
        return frozenset(self.by_key.items())
