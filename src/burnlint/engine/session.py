"""What a long-lived caller keeps between the checks it runs: the language server's session.

The server checks one file again and again, and waits for each result. Checks run inside
``in_session(session)`` (in the thread that checks) differ from a command-line run in two ways,
neither of which changes a result:

- The work a check does on the way that its result does not need (writing the cache,
  collecting garbage) is left in ``Session.later``, which the caller runs once it has published
  (in the same thread, before the next check: what is written is what the next check reads).
- A file parsed before is parsed again from its last tree (``RecentTrees``): tree-sitter
  re-reads only what changed, and gives the tree a full parse would.

Elsewhere (the command line, worker processes) ``run_or_defer`` runs the work at once and
``parse_file`` parses from scratch.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from burnlint.fsutil import Stamps

if TYPE_CHECKING:
    from tree_sitter import Tree

# the trees a session keeps: a tree costs about 40 times its file's bytes
KEPT_TREES = 8
# the inputs of this many sources (``SourceInputs``): an editor's open files
KEPT_INPUTS = 64


class Later:
    """The work left by the checks of a session, in the order it was left."""

    def __init__(self) -> None:
        self._actions: list[Callable[[], Iterable[str]]] = []

    def __len__(self) -> int:
        return len(self._actions)

    def add(self, action: Callable[[], Iterable[str]]) -> None:
        self._actions.append(action)

    def run(self) -> list[str]:
        """Run what was left, each once: the problems it met (``cache.Cache.problems``). An
        exception stops the rest and is raised."""
        actions, self._actions = self._actions, []
        problems: list[str] = []
        for action in actions:
            problems.extend(p for p in action() if p not in problems)
        return problems


class RecentTrees:
    """The last tree of each of the files parsed last (``KEPT_TREES``), with the bytes it was
    parsed from."""

    def __init__(self, kept: int = KEPT_TREES) -> None:
        self.kept = kept
        self._trees: OrderedDict[str, tuple[bytes, Tree]] = OrderedDict()

    def parse(self, path: str, data: bytes) -> Tree:
        """``data`` (the bytes of ``path``) parsed: from the last tree of ``path`` when there is
        one, edited where the bytes changed."""
        from burnlint.rust.syntax import parse, reparse

        known = self._trees.pop(path, None)
        if known is None:
            tree = parse(data)
        elif known[0] == data:
            tree = known[1]  # never edited in place (``reparse`` edits a copy): shared
        else:
            tree = reparse(known[1], known[0], data)
        self._trees[path] = (data, tree)
        while len(self._trees) > self.kept:
            self._trees.popitem(last=False)
        return tree


@dataclass(frozen=True)
class SourceInputs:
    """What checking one in-memory source found on the file system before reading any file
    (``engine.lint_source``): whether the file is excluded, and the other files of its crate
    and of the crates it names as path dependencies; with the stamps of everything that was
    consulted to find them (None: not to be kept)."""

    excluded: bool
    context: frozenset[Path]
    stamps: Stamps | None


class Session:
    """What the checks of one long-lived caller share (see the module's docstring)."""

    def __init__(self) -> None:
        self.later = Later()
        self.trees = RecentTrees()
        # the inputs of the last sources checked, by file and the settings that find them
        self.inputs: OrderedDict[Hashable, SourceInputs] = OrderedDict()

    def keep_inputs(self, key: Hashable, inputs: SourceInputs) -> None:
        self.inputs[key] = inputs
        self.inputs.move_to_end(key)
        while len(self.inputs) > KEPT_INPUTS:
            self.inputs.popitem(last=False)


_local = threading.local()


@contextmanager
def in_session(session: Session) -> Iterator[Session]:
    """Run the checks inside, in this thread, as part of ``session``."""
    outer = getattr(_local, "session", None)
    _local.session = session
    try:
        yield session
    finally:
        _local.session = outer


def current_session() -> Session | None:
    """The session the checks of this thread run in, if any."""
    session: Session | None = getattr(_local, "session", None)
    return session


def run_or_defer(action: Callable[[], Iterable[str]]) -> None:
    """``action`` now, or in this thread's session's ``later``; it returns the problems it
    met, which ``Later.run`` passes on (run now, the caller reads them where the action left
    them)."""
    session = current_session()
    if session is None:
        action()
    else:
        session.later.add(action)


def parse_file(path: str, data: bytes) -> Tree:
    """``data``, the bytes of ``path``, parsed (from its last tree, in a session)."""
    session = current_session()
    if session is None:
        from burnlint.rust.syntax import parse

        return parse(data)
    return session.trees.parse(path, data)
