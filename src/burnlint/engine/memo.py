"""What a group remembers of each of its files between runs (``cache.py`` keeps it on disk).

Every entry is keyed by everything it was computed from, so that a hit gives exactly what a
cold run would compute:

- the facts of the file alone (its items, layout, the type names it mentions, whether it holds
  a helper's name, its syntax errors) by the digest of its bytes and its module;
- what modelling it exported (helper summaries, whether it uses burn-store, where it loads
  stores built elsewhere, the notes it raised) by ``build_key``: its bytes, module, target,
  burn version, and the digests of the summaries and the items it could see;
- its findings by ``check_key``: the build key, the settings, and where the group loads the
  stores its functions build; and, when a rule read the target's module layout, that
  layout's digest.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from burnlint.findings import Finding, Location, Notification

if TYPE_CHECKING:
    from burnlint.model.helpers import HelperSummary
    from burnlint.model.items import FileItems
    from burnlint.model.layout import LayoutFacts
    from burnlint.model.resolve import FnKey

V = TypeVar("V")

# How many build and check entries a file keeps: the last run's and the one before (a user
# switching between two configurations, or a buffer between two states, hits both).
KEPT_ENTRIES = 2


@dataclass
class Built:
    """What modelling a file with some facts gave (``facts.build_models``)."""

    exports: dict[FnKey, HelperSummary] | None  # None: not computed (not needed then)
    in_scope: bool
    failed: bool
    # (constructor of a store a helper builds, a load of it here) for ``loads_elsewhere``
    loads: tuple[tuple[Location, Location], ...]
    notes: tuple[Notification, ...]
    layout: str | None  # the digest of the layout the build read; None: it read none
    export_digests: dict[FnKey, str] = field(default_factory=dict)  # of each of ``exports``


@dataclass
class Checked:
    """What the rules and the allow comments made of a file (``group.lint_group``)."""

    findings: tuple[Finding, ...]
    notes: tuple[Notification, ...]
    suppressed: tuple[tuple[str, int], ...]
    layout: str | None  # the digest of the layout the rules read; None: they read none


@dataclass
class FileRecord:
    """One file's entries, valid for the bytes whose digest is ``digest``."""

    digest: str
    text: bool | None = None  # decodes as UTF-8 text
    syntax_line: int | None = None  # the first syntax error's line, when parsed
    parsed: bool = False  # ``syntax_line`` is known
    derives: bool | None = None  # may derive `Module`
    layout: LayoutFacts | None = None  # collected when ``derives``
    layout_digest: str | None = None  # of ``layout``, once asked for
    type_names: dict[str, int] | None = None  # ``resolve.scan_type_names``
    # by module: the items and the digest of what other files see of them
    items: dict[tuple[str, ...], tuple[FileItems, str]] = field(default_factory=dict)
    mentions: dict[str, bool] = field(default_factory=dict)  # digest of names -> holds one
    builds: dict[str, Built] = field(default_factory=dict)
    checks: dict[str, Checked] = field(default_factory=dict)


def remember(entries: dict[str, V], key: str, value: V) -> None:
    """Keep ``value`` under ``key``, and only the newest ``KEPT_ENTRIES`` entries."""
    entries.pop(key, None)
    entries[key] = value
    while len(entries) > KEPT_ENTRIES:
        del entries[next(iter(entries))]


@dataclass
class ExternalFile:
    """A file read from outside the group (a path dependency's lib, for its layout), valid
    while its stat (a ``cache.Stat``: size, modification time, inode, change time) is
    ``stat``."""

    stat: tuple[int, int, int, int]
    derives: bool
    layout: LayoutFacts | None
    layout_digest: str | None  # of ``layout``, once asked for


@dataclass
class GroupMemo:
    """The records of one group's files, and of the files it read from outside."""

    files: dict[Path, FileRecord] = field(default_factory=dict)
    external: dict[Path, ExternalFile] = field(default_factory=dict)
    changed: bool = False  # something was added: worth writing back

    def record(self, path: Path, digest: str) -> FileRecord:
        """The record of ``path`` for the bytes ``digest`` (a new one when they changed)."""
        found = self.files.get(path)
        if found is None or found.digest != digest:
            found = FileRecord(digest)
            self.files[path] = found
            self.changed = True
        return found


def annotation_names() -> dict[str, object]:
    """The classes the annotations here name but import for type checking only: what
    ``conform.conforms`` needs to check a loaded memo."""
    from burnlint.model.helpers import HelperSummary
    from burnlint.model.items import FileItems
    from burnlint.model.layout import LayoutFacts
    from burnlint.model.resolve import FnKey

    return {
        "FileItems": FileItems,
        "FnKey": FnKey,
        "HelperSummary": HelperSummary,
        "LayoutFacts": LayoutFacts,
    }
