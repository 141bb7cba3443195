"""The regex literals a file hands to burn-store, and what the Rust `regex` crate says of each
(BL010).

A literal counts only where the call resolves to burn-store's: a store builder whose receiver
is a store of a type that has it (``BurnStoreApi.regex_builders``), a method of a
``PathFilter`` built in the same chain or a plain ``let`` (``PathFilter::new()``, ``::all()``,
``::from_regex_patterns(..)``), or ``add_pattern`` on a ``KeyRemapper`` built so. Its value is
the literal's after Rust string decoding (``rust/literals.py``).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TYPE_CHECKING

from burnlint.model.burn_api import BurnStoreApi, StoreKind
from burnlint.model.keymapping import chain_top
from burnlint.model.rust_regex import RegexError, regex_error
from burnlint.rust.literals import string_value
from burnlint.rust.syntax import (
    arguments_of,
    call_path,
    macro_name,
    method_call_parts,
    path_segments,
    strip_reference,
    text,
    unwrap_parens,
)

if TYPE_CHECKING:
    from tree_sitter import Node

    from burnlint.model.file_model import FileModel

_STRINGS = frozenset({"string_literal", "raw_string_literal"})
# what a `PathFilter`/`KeyRemapper` chain starts with: `PathFilter::new()`, `::all()`, ..
_FILTER_STARTS = frozenset({"new", "default", "none", "all", "from_regex_patterns"})
_REMAPPER_STARTS = frozenset({"new", "default"})
# between two `add_pattern` calls (it returns a `Result`)
_RESULT_STEPS = frozenset({"unwrap", "expect"})


class Outcome(enum.Enum):
    """What burn-store does with a pattern the crate rejects."""

    PANICS = "panics"  # `.expect("Invalid regex pattern")`
    RETURNS_ERR = "returns-err"  # `KeyRemapper::add_pattern`
    DROPPED = "dropped"  # `PathFilter` skips it


class Criteria(enum.Enum):
    """For a dropped pattern: what else the filter matches by."""

    NONE = "none"  # nothing else: the dropped patterns were its only criteria
    OTHERS = "others"  # other patterns, paths, predicates or `match_all`
    UNKNOWN = "unknown"  # the filter is built or changed where this chain does not show


@dataclass(frozen=True)
class RegexArgument:
    """A string literal passed as a regex to burn-store that the crate rejects."""

    literal: Node
    pattern: str  # its value
    error: RegexError
    method: str  # `with_key_remapping`, `with_regex`, `add_pattern`, ..
    owner: str  # `SafetensorsStore`, `PathFilter`, `KeyRemapper`
    outcome: Outcome
    criteria: Criteria = Criteria.UNKNOWN
    store: StoreKind | None = None  # the store whose filter drops it


def invalid_regexes(model: FileModel) -> list[RegexArgument]:
    """Every literal of the file that a burn-store method compiles and the crate rejects, in
    file order."""
    if not model.in_burn_store_scope:
        return []
    found: list[RegexArgument] = []
    for call in model.calls:
        found.extend(_at_call(call, model))
    return sorted(found, key=lambda argument: argument.literal.start_byte)


def _at_call(call: Node, model: FileModel) -> list[RegexArgument]:
    parts = method_call_parts(call)
    api = model.api
    if parts is None:
        path = call_path(call)
        if len(path) >= 2 and path[-1] == "from_regex_patterns" and _names(model, path[:-1]):
            return _dropped(call, model, None, BurnStoreApi.filter_type)
        return []
    receiver, method, _ = parts
    if method in api.regex_builders:
        store = model.stores.store_of(receiver)
        kind = store.kind if store is not None else _typed_store(receiver, model)
        if kind is not None and kind in api.regex_builders[method]:
            if method in api.panicking_regex_builders:
                return _first(call, method, kind.value, Outcome.PANICS)
            return _dropped(call, model, kind, kind.value)
    if method in api.filter_regex_methods and _chain_base(
        receiver, model, BurnStoreApi.filter_type, _FILTER_STARTS, api.filter_regex_methods
    ):
        return _dropped(call, model, None, BurnStoreApi.filter_type)
    if method in api.remapper_regex_methods and _chain_base(
        receiver, model, BurnStoreApi.remapper_type, _REMAPPER_STARTS, api.remapper_regex_methods
    ):
        return _first(call, method, BurnStoreApi.remapper_type, Outcome.RETURNS_ERR)
    return []


def _typed_store(node: Node, model: FileModel) -> StoreKind | None:
    """The store type of a builder chain that starts at a parameter whose written type is a
    store (`fn remap(store: PytorchStore) -> PytorchStore { store.with_key_remapping(..) }`)."""
    current = strip_reference(node)
    while (parts := method_call_parts(current)) is not None and parts[1] in model.api.builders:
        current = strip_reference(parts[0])
    if current.type != "identifier":
        return None
    binding = model.resolution.binding_of(current)
    if binding is None or binding.kind != "param" or binding.declaration is None:
        return None
    written = binding.declaration.child_by_field_name("type")
    return model.imports.store_kind(path_segments(written)) if written is not None else None


def _first(call: Node, method: str, owner: str, outcome: Outcome) -> list[RegexArgument]:
    arguments = arguments_of(call)
    checked = _checked(arguments[0]) if arguments else None
    if checked is None:
        return []
    literal, pattern, error = checked
    return [RegexArgument(literal, pattern, error, method, owner, outcome)]


def _dropped(
    call: Node, model: FileModel, store: StoreKind | None, owner: str
) -> list[RegexArgument]:
    """The rejected literals among the patterns ``call`` adds to a filter, each with what
    else the filter matches by."""
    arguments = arguments_of(call)
    if not arguments:
        return []
    parts = method_call_parts(call)
    method = parts[1] if parts is not None else "from_regex_patterns"
    plural = method != "with_regex"
    patterns = _elements(arguments[0]) if plural else [arguments[0]]
    if patterns is None:
        return []
    checked = [(node, _checked(node)) for node in patterns]
    bad = [c for _node, c in checked if c is not None]
    if not bad:
        return []
    others = len(bad) < len(patterns)
    criteria = Criteria.OTHERS if others else _chain_criteria(call, model, store)
    return [
        RegexArgument(literal, pattern, error, method, owner, Outcome.DROPPED, criteria, store)
        for literal, pattern, error in bad
    ]


def _checked(node: Node) -> tuple[Node, str, RegexError] | None:
    node = unwrap_parens(node)
    if node.type not in _STRINGS:
        return None
    pattern = string_value(text(node))
    if pattern is None:
        return None
    error = regex_error(pattern)
    return (node, pattern, error) if error is not None else None


def _elements(node: Node) -> list[Node] | None:
    """The elements of an array or ``vec![..]`` of patterns; None when it is something else."""
    node = strip_reference(unwrap_parens(node))
    if node.type == "array_expression":
        return [c for c in node.named_children if c.type not in ("line_comment", "block_comment")]
    if node.type == "macro_invocation" and macro_name(node) == "vec":
        tree = next((c for c in node.named_children if c.type == "token_tree"), None)
        if tree is None:
            return None
        elements: list[list[Node]] = [[]]
        for child in tree.children[1:-1]:
            if child.type == ",":
                elements.append([])
            elif child.type not in ("line_comment", "block_comment"):
                elements[-1].append(child)
        if elements and not elements[-1]:
            elements.pop()  # a trailing comma
        # an element of several tokens (`format!(..)`, `a + b`) is no literal: kept unknown
        return [e[0] if len(e) == 1 else tree for e in elements]
    return None


def _names(model: FileModel, type_path: list[str]) -> bool:
    return model.imports.names(type_path, type_path[-1]) and type_path[-1] in (
        BurnStoreApi.filter_type,
        BurnStoreApi.remapper_type,
    )


def _chain_base(
    node: Node, model: FileModel, type_name: str, starts: frozenset[str], steps: frozenset[str]
) -> bool:
    """Whether ``node`` is a ``type_name`` value built in view: a chain of ``steps`` (and of
    the filter's other criteria) down to ``type_name::start(..)``, directly or through one
    plain ``let``."""
    current = strip_reference(node)
    followed = False
    while True:
        current = unwrap_parens(current)
        if current.type == "try_expression" and current.named_children:
            current = current.named_children[0]
            continue
        if current.type == "identifier" and not followed:
            binding = model.resolution.binding_of(current)
            if binding is None or binding.kind != "let" or binding.value is None:
                return False
            current = binding.value
            followed = True
            continue
        if current.type != "call_expression":
            return False
        parts = method_call_parts(current)
        if parts is None:
            path = call_path(current)
            return (
                len(path) >= 2
                and path[-1] in starts
                and path[-2] == type_name
                and model.imports.names(path[:-1], type_name)
            )
        receiver, method, _ = parts
        if (
            method not in steps
            and method not in _RESULT_STEPS
            and (method not in BurnStoreApi.filter_criteria)
        ):
            return False
        current = strip_reference(receiver)


def _chain_criteria(call: Node, model: FileModel, store: StoreKind | None) -> Criteria:
    """What else the filter that ``call`` adds patterns to matches by, read off the whole
    builder chain around ``call``: certain only when the chain starts with the constructor
    (or ``PathFilter::new()``) and ends where the value is used, not bound for more builders."""
    api = model.api
    top = chain_top(call, model, _filter_methods())
    if _bound_for_more(top, model):
        return Criteria.UNKNOWN
    current: Node = top
    others = False
    while True:
        parts = method_call_parts(current)
        if parts is None:
            break
        receiver, method, _ = parts
        if method in api.filter_setters:
            return Criteria.UNKNOWN
        adds_patterns = current != call and method in api.filter_regex_methods
        if method in BurnStoreApi.filter_criteria or (adds_patterns and not _all_rejected(current)):
            others = True
        current = strip_reference(receiver)
    path = call_path(current)
    if store is not None:
        build = model.stores.store_of(current)
        if build is None or build.constructor_node != current:
            return Criteria.UNKNOWN
    elif not path or path[-1] not in _FILTER_STARTS:
        return Criteria.UNKNOWN
    elif path[-1] == "all":
        others = True
    elif path[-1] == "from_regex_patterns" and current != call:
        arguments = arguments_of(current)
        if not arguments or not _all_rejected(current):
            others = True
    return Criteria.OTHERS if others else Criteria.NONE


def _filter_methods() -> frozenset[str]:
    return BurnStoreApi.filter_regex_methods | BurnStoreApi.filter_criteria


def _all_rejected(call: Node) -> bool:
    """Every pattern ``call`` adds is a literal the crate rejects."""
    arguments = arguments_of(call)
    if not arguments:
        return False
    parts = method_call_parts(call)
    plural = parts is None or parts[1] != "with_regex"
    patterns = _elements(arguments[0]) if plural else [arguments[0]]
    return bool(patterns) and all(_checked(p) is not None for p in patterns or ())


def _bound_for_more(top: Node, model: FileModel) -> bool:
    """The chain's value is bound by a ``let`` whose binding is re-assigned or continued
    with more builders later (``let f = f.with_full_path(..)``)."""
    parent = model.ancestry.parent(top)
    if parent is None or parent.type != "let_declaration":
        return False
    pattern = parent.child_by_field_name("pattern")
    if pattern is None:
        return True
    if pattern.type != "identifier":
        return True
    binding = model.resolution.binding_of(pattern)
    if binding is None:
        return True
    if binding.assignments:
        return True
    api = model.api
    for use in binding.uses:
        if use.macro is not None:
            continue
        holder = model.ancestry.parent(use.node)
        call = model.ancestry.parent(holder) if holder is not None else None
        if holder is None or holder.type != "field_expression" or call is None:
            continue
        parts = method_call_parts(call)
        if parts is not None and (parts[1] in api.builders or parts[1] in _filter_methods()):
            return True
    return False
