"""What every analysis reads of a file: its tree's parents and its names' bindings.

Each analysis is typed against a small protocol that lists exactly what it reads of the file
(``stores.StoreReads``, ``ops.OpReads`` ..), most of them this one plus a few members;
``FileModel`` satisfies them all and hands itself to each analysis. So no analysis imports
``file_model``, which imports them all, and what an analysis depends on is written down
where it is defined.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from burnlint.model.resolve import CrateView
    from burnlint.model.scopes import LazyResolution
    from burnlint.rust.syntax import Ancestry


class SyntaxReads(Protocol):
    """The file's tree: each node's parent (``ancestry``) and what each name is bound to
    (``resolution``)."""

    @property
    def ancestry(self) -> Ancestry: ...
    @property
    def resolution(self) -> LazyResolution: ...


class CallSiteReads(Protocol):
    """What matching a call's arguments to the called function's parameters reads: the
    target's items (``view``), which say whether the function is a method."""

    @property
    def view(self) -> CrateView: ...
