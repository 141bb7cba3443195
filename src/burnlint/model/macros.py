"""Code inside macros (DESIGN.md section 2, "Macros", revision 2).

The arguments of a macro call that parse as expressions, and the transcribers of
``macro_rules!`` rules (metavariables as placeholders, each repetition once), are read as code
(``rust/expand.py``) and grafted into the file's ``Ancestry``: an argument's parent is the
macro call, a transcriber's function hangs from its ``macro_rules!``. Store operations and
constructors there are then found like any other.

Where the expansion of a macro is known, the use of an argument's value follows from it
(``macro_argument_use``); inside any other macro, and inside ``debug_assert!`` (compiled out
of release builds), an operation is seen by the store rules but its use is unknown.
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING, Protocol

from burnlint.model.result_forms import ResultUse, UseClass
from burnlint.model.scopes import OPAQUE_MACROS
from burnlint.project.prefilter import has_trigger
from burnlint.rust.expand import Reparsed, reparse_arguments, reparse_transcriber
from burnlint.rust.syntax import macro_name, walk

if TYPE_CHECKING:
    from collections.abc import Callable

    from tree_sitter import Node

    from burnlint.model.helpers import SummaryTable
    from burnlint.rust.source import SourceFile
    from burnlint.rust.syntax import Ancestry

# Macros whose expansion evaluates an argument once, eagerly, and whose use of it is known:
# which arguments are conditions (asserted or ensured), and what happens to the others.
_ASSERTS = {"assert": 1, "assert_eq": 2, "assert_ne": 2}  # macro -> how many conditions
_ENSURES = frozenset({"ensure", "anyhow_ensure"})
_PRINTS = frozenset({"print", "println", "eprint", "eprintln"})
_PANICS = frozenset({"panic", "unreachable", "todo", "unimplemented"})
_RETURNS = frozenset({"bail"})
# known, but their value goes on into something the analysis does not follow (a `String`, a
# `Vec`, a writer), or they evaluate lazily (`log`/`tracing` skip disabled levels)
_OPAQUE_VALUE = frozenset(
    {
        "vec",
        "format",
        "format_args",
        "write",
        "writeln",
        "log",
        "trace",
        "debug",
        "info",
        "warn",
        "error",
        "event",
    }
)
KNOWN_EXPANSIONS = frozenset(
    {*_ASSERTS, *_ENSURES, *_PRINTS, *_PANICS, *_RETURNS, *_OPAQUE_VALUE, "dbg"}
)
# how deep macro calls nest inside the arguments of others before the rest is left unread
_MAX_NESTING = 16


class MacroSourceReads(Protocol):
    """What reading a file's macro code reads of the file: its bytes and tree, the names of
    the crate-local helpers it sees, and whether it can hold a store operation at all."""

    @property
    def source(self) -> SourceFile: ...
    @property
    def ancestry(self) -> Ancestry: ...
    @property
    def summaries(self) -> SummaryTable: ...
    @property
    def may_hold_stores(self) -> bool: ...


class MacroReads(Protocol):
    """What an analysis that follows values into macro arguments reads: the macro code."""

    @property
    def macros(self) -> MacroCode: ...


class MacroCode:
    """The code read from a file's macro calls and ``macro_rules!`` bodies."""

    def __init__(self, model: MacroSourceReads) -> None:
        self.model = model
        self.placeholders: set[int] = set()  # start bytes of metavariable placeholders
        self._arguments: dict[int, tuple[Node, ...]] = {}  # macro call id -> its arguments
        self._trees: list[Reparsed] = []  # keeps the re-parsed trees (and their nodes) alive

    def arguments(self, invocation: Node) -> tuple[Node, ...]:
        """The arguments of ``invocation`` read as expressions (empty: not read)."""
        self.calls  # noqa: B018 (reading the file's macros records them)
        return self._arguments.get(invocation.id, ())

    def is_placeholder(self, node: Node) -> bool:
        return node.type == "identifier" and node.start_byte in self.placeholders

    @cached_property
    def calls(self) -> list[Node]:
        """The call expressions inside macros, in document order."""
        model = self.model
        if not model.may_hold_stores:
            return []
        source = model.source
        words = tuple(name.encode() for name in model.summaries.names())
        found: list[Node] = []

        def wanted(node: Node) -> bool:
            tokens = source.data[node.start_byte : node.end_byte]
            return has_trigger(tokens) or any(word in tokens for word in words)

        macros = source.nodes_of_type("macro_invocation", "macro_definition")
        pending = [(c, 0) for c in macros if c.type == "macro_invocation" and wanted(c)]
        for definition in (c for c in macros if c.type == "macro_definition"):
            for rule in definition.named_children:
                if rule.type != "macro_rule" or not wanted(rule):
                    continue
                body = reparse_transcriber(source.data, rule)
                if body is None:
                    continue
                self._graft(body, definition)
                self.placeholders |= body.placeholders
                pending.extend(self._collect(body.nodes[0], found, 0))
        while pending:
            invocation, depth = pending.pop()
            if depth > _MAX_NESTING or macro_name(invocation) in OPAQUE_MACROS:
                continue
            reparsed = reparse_arguments(source.data, invocation)
            if reparsed is None:
                continue
            self._graft(reparsed, invocation)
            self._arguments[invocation.id] = reparsed.nodes
            for argument in reparsed.nodes:
                pending.extend(self._collect(argument, found, depth + 1))
        found.sort(key=lambda n: (n.start_byte, -n.end_byte))
        return found

    def _graft(self, reparsed: Reparsed, parent: Node) -> None:
        self._trees.append(reparsed)
        for node in reparsed.nodes:
            self.model.ancestry.graft(node, parent)

    @staticmethod
    def _collect(root: Node, calls: list[Node], depth: int) -> list[tuple[Node, int]]:
        """Add the calls under ``root`` to ``calls``; the macro calls under it, to read."""
        invocations: list[tuple[Node, int]] = []
        for node in walk(root, skip=frozenset({"macro_invocation"})):
            if node.type == "call_expression":
                calls.append(node)
            elif node.type == "macro_invocation":
                invocations.append((node, depth))
        return invocations


def macro_argument_use(
    model: MacroReads,
    invocation: Node,
    argument: Node,
    *,
    boolean: bool,
    use_of: Callable[[Node], ResultUse],
    err: bool = False,
) -> ResultUse:
    """The use of a ``Result`` that is the argument ``argument`` of ``invocation`` (or, with
    ``boolean``, of a bool that says whether it succeeded: true on ``Err`` with ``err``).
    ``use_of`` classifies the value of an expression (for ``dbg!``, which hands it on)."""
    name = macro_name(invocation)
    arguments = model.macros.arguments(invocation)
    index = next((i for i, a in enumerate(arguments) if a == argument), None)
    unknown = ResultUse(UseClass.PROPAGATED, invocation, ok_escapes=True)
    if index is None or name not in KNOWN_EXPANSIONS:
        return unknown

    def read(use: UseClass, err_path: list[Node] | None = None) -> ResultUse:
        # a Result the macro reads whole is formatted or compared whole: all its Ok value
        return ResultUse(
            use, invocation, err_path=err_path or [], ok_dropped=boolean, ok_escapes=not boolean
        )

    # the asserted or ensured arguments; the message after them is evaluated only on failure
    condition = index < _ASSERTS.get(name, 1 if name in _ENSURES else 0)
    if condition and boolean and err:
        # `assert!(op.is_err())`: the failure is what is asserted (a negative test)
        return ResultUse(UseClass.HANDLED, invocation, ok_dropped=True, failure_expected=True)
    if name in _ASSERTS:
        return read(UseClass.PANICKING) if condition else unknown
    if name in _ENSURES:
        return read(UseClass.HANDLED) if condition else unknown
    if name in _PRINTS:
        return read(UseClass.LOGGED_ONLY, [invocation])
    if name in _PANICS:
        return read(UseClass.PANICKING)
    if name in _RETURNS:
        return read(UseClass.HANDLED)
    if name == "dbg" and len(arguments) == 1 and not boolean:
        # `dbg!(x)` prints `x` whole to stderr and is `x`
        handed_on = use_of(invocation)
        handed_on.ok_escapes = True
        if handed_on.use < UseClass.LOGGED_ONLY:
            handed_on.use = UseClass.LOGGED_ONLY
            handed_on.err_path = [invocation]
        return handed_on
    return unknown
