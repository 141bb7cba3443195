"""What a path expression names, as far as it can be read without running it: the path's last
component when it is a literal, and a canonical text for the rest.

``dir.join("latest")`` is (``dir``, ``latest``); ``dir.join("latest").with_extension("bpk")`` and
``dir.join("latest.bpk")`` are both (``dir``, ``latest.bpk``); ``"runs/latest"`` is (``"runs``,
``latest``); a binding never re-assigned stands for its value. Whatever is not understood keeps
its own text (or its binding), with the last component unknown. Two expressions with equal
``PathValue``s name the same path; unequal ones may still do so.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from burnlint.model.limits import MAX_PATH_DEPTH
from burnlint.rust.syntax import (
    arguments_of,
    call_path,
    macro_name,
    method_call_parts,
    strip_reference,
    text,
    unwrap_parens,
)

if TYPE_CHECKING:
    from tree_sitter import Node

    from burnlint.model.scopes import LazyResolution

_SPACE = re.compile(r"\s+")
# the base of a path written as a literal, relative (`"runs/latest"`) or absolute
_RELATIVE = "."
_ABSOLUTE = "/"

# calls that hand a path on unchanged
_SAME_METHODS = frozenset(
    {"to_path_buf", "clone", "as_path", "as_ref", "into", "to_owned", "to_string", "as_str"}
)
_SAME_FUNCTIONS = frozenset(
    {("PathBuf", "from"), ("Path", "new"), ("String", "from"), ("OsString", "from")}
)


class Extension(enum.Enum):
    NONE = "none"  # known to have none (`latest`)
    SOME = "some"  # known to have one (`latest.bpk`, even `latest.`)
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class PathValue:
    base: str  # canonical text of everything before the last component
    last: str | None  # the last component, when it is a literal

    @property
    def extension(self) -> Extension:
        if self.last is None:
            return Extension.UNKNOWN
        return literal_extension(self.last)

    def with_extension(self, extension: str) -> PathValue | None:
        """``Path::with_extension``: None when the last component is unknown."""
        if self.last is None or self.last in ("", ".", ".."):
            return None
        stem = self.last
        if literal_extension(stem) is Extension.SOME:
            stem = stem[: stem.rindex(".")]
        return PathValue(self.base, f"{stem}.{extension}" if extension else stem)


def literal_extension(name: str) -> Extension:
    """``Path::extension`` of a last component: none for `latest` and `.hidden`; some for
    `latest.bpk` and `latest.`; unknown for the components that have no file name."""
    if name in ("", ".", ".."):
        return Extension.UNKNOWN
    return Extension.SOME if "." in name[1:] else Extension.NONE


def path_value(node: Node, resolution: LazyResolution, depth: int = 0) -> PathValue:
    """The ``PathValue`` of a path expression (``&`` and parentheses do not matter)."""
    node = unwrap_parens(strip_reference(node))
    kind = node.type
    if kind in ("string_literal", "raw_string_literal"):
        value = _literal_value(node)
        if value is not None:
            return _split(_ABSOLUTE if value.startswith("/") else _RELATIVE, value)
    elif kind == "identifier" and depth < MAX_PATH_DEPTH:
        binding = resolution.binding_of(node)
        if binding is not None:
            if binding.value is not None and not binding.assignments:
                return path_value(binding.value, resolution, depth + 1)
            return PathValue(f"@{binding.name}:{binding.node.start_byte}", None)
    elif kind == "call_expression" and depth < MAX_PATH_DEPTH:
        found = _call_value(node, resolution, depth)
        if found is not None:
            return found
    elif kind == "macro_invocation" and macro_name(node) == "format":
        found = _format_value(node)
        if found is not None:
            return found
    return PathValue(_normalise(node), None)


def _call_value(call: Node, resolution: LazyResolution, depth: int) -> PathValue | None:
    arguments = arguments_of(call)
    parts = method_call_parts(call)
    if parts is not None:
        receiver, method, _ = parts
        if method in _SAME_METHODS and not arguments:
            return path_value(receiver, resolution, depth + 1)
        if len(arguments) != 1:
            return None
        argument = unwrap_parens(strip_reference(arguments[0]))
        literal = (
            _literal_value(argument)
            if argument.type in ("string_literal", "raw_string_literal")
            else None
        )
        if method == "join":
            outer = path_value(receiver, resolution, depth + 1)
            if literal is None:
                inner = path_value(argument, resolution, depth + 1)
                if inner.base.startswith(_RELATIVE):  # built from a relative literal
                    return PathValue(_full(outer) + inner.base[len(_RELATIVE) :], inner.last)
                return PathValue(f"{_full(outer)}/({_full(inner)})", None)
            if literal.startswith("/"):
                return _split(_ABSOLUTE, literal)  # an absolute path replaces the base
            return _split(_full(outer), literal)
        if method == "with_extension" and literal is not None:
            return path_value(receiver, resolution, depth + 1).with_extension(literal)
        if method == "with_file_name" and literal is not None and "/" not in literal:
            outer = path_value(receiver, resolution, depth + 1)
            return PathValue(outer.base, literal) if outer.last is not None else None
        return None
    path = call_path(call)
    if len(path) >= 2 and (path[-2], path[-1]) in _SAME_FUNCTIONS and len(arguments) == 1:
        return path_value(arguments[0], resolution, depth + 1)
    return None


def _format_value(macro: Node) -> PathValue | None:
    """``format!("{dir}/latest")``: the literal text after the last placeholder and the last
    `/` is the last component."""
    tokens = next((c for c in macro.named_children if c.type == "token_tree"), None)
    if tokens is None:
        return None
    named = tokens.named_children
    if not named or named[0].type not in ("string_literal", "raw_string_literal"):
        return None
    template = named[0]
    value = _literal_value(template)
    if value is None:
        return None
    tail = value[value.rfind("}") + 1 :]
    if "/" not in tail:
        return None
    cut = len(value) - len(tail) + tail.rindex("/")
    rest = _normalise(tokens)[len(_normalise(template)) + 1 :]
    return PathValue(f"format!({value[:cut]!r}{rest}", value[cut + 1 :])


def _split(root: str, literal: str) -> PathValue:
    """A literal path text below ``root``: its last component, and the rest."""
    if "\\" in literal:  # a separator on Windows only: the last component depends on the OS
        return PathValue(f"{root}/{literal}", None)
    trimmed = literal.rstrip("/") or literal
    head, _, last = trimmed.rpartition("/")
    return PathValue(f"{root}/{head}" if head else root, last)


def _full(value: PathValue) -> str:
    return value.base if value.last is None else f"{value.base}/{value.last}"


def _literal_value(node: Node) -> str | None:
    """A string literal's value, when it has no escape sequences (None otherwise)."""
    if any(c.type == "escape_sequence" for c in node.named_children):
        return None
    return "".join(text(c) for c in node.named_children if c.type == "string_content")


def _normalise(node: Node) -> str:
    return _SPACE.sub("", text(node))
