"""A finding's words, kept apart from the decision to report it."""

from __future__ import annotations


class Violation:
    """The words of one finding, kept apart from the decision to report it (ruff's
    ``Violation``).

    Each rule words its findings with a small frozen dataclass subclassing this: its fields are
    the facts the words need, its properties the words. ``message`` is the headline (rustc
    style: lowercase, code in backticks, no final period), ``label`` the short text under the
    carets, ``note`` the longer explanation, ``help`` the remedy (it names the fix, when there
    is one) and ``fix_title`` the title of the finding's fix. ``RuleContext.report`` makes the
    finding.
    """

    @property
    def message(self) -> str:
        raise NotImplementedError

    @property
    def label(self) -> str | None:
        return None

    @property
    def note(self) -> str | None:
        return None

    @property
    def help(self) -> str | None:
        return None

    @property
    def fix_title(self) -> str | None:
        return None
