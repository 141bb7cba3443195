"""``ModuleLayout``: how a target's burn modules lay out repeated layers (best effort).

The key-mapping options matter only for some layouts (burn-store-api.md §1, the seed's table):

- a **mirror**: a ``Vec`` of a module enum with a parameter-free variant, copied layer by
  layer from a PyTorch ``nn.Sequential`` (``[Linear, Relu, Linear]``): burn's paths keep
  PyTorch's indices (``net.0``, ``net.2``) and add the variant name (``net.0.Linear.weight``);
- **Sequential-like**: a ``Vec`` of burn's parametric layer primitives (``Vec<Linear>``) standing
  for an ``nn.Sequential`` whose parameter-free layers are left out: burn has ``net.0, net.1``
  where PyTorch has ``net.0, net.2``;
- **module enums** reachable as a field: burn's paths name their variants, PyTorch's never do.

A ``Vec`` of the user's own block structs is a PyTorch ``ModuleList`` (``layers.0, layers.1``,
no gaps), and a flat struct has no indices at all: for them both options are no-ops.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

from burnlint.findings import Location
from burnlint.model.burn_layers import (
    OTHER_KNOWN_TYPES,
    PARAMETER_FREE_LAYERS,
    PARAMETRIC_LAYERS,
    SEQUENTIAL_LAYERS,
)
from burnlint.model.field_facts import derives_of
from burnlint.rust.syntax import text

if TYPE_CHECKING:
    from tree_sitter import Node

    from burnlint.rust.source import SourceFile

# Types a parameter-free struct may hold besides primitives (`usize`, `f64`, ...).
_PLAIN_TYPES = frozenset({"String", "PhantomData", "Ignored", "Option", "Vec", "Box"})
# Types whose layout burnlint knows without a declaration in the target.
_KNOWN_TYPES = PARAMETRIC_LAYERS | PARAMETER_FREE_LAYERS | OTHER_KNOWN_TYPES


class LayoutKind(enum.Enum):
    """Which row of the seed's table the target's layout is (``BurnStoreApi.prescribed``)."""

    SEQUENTIAL_LIKE = "Sequential-like"
    MIRROR = "mirror"
    FLAT = "flat"  # no indices that either option changes (and no enum, or enums only)
    MIXED = "mixed"  # mirror and Sequential-like: no single index option is right
    UNKNOWN = "unknown"  # no module declared: burnlint cannot tell


@dataclass(frozen=True, order=True)
class FieldFact:
    """A field of a ``#[derive(Module)]`` struct: ``owner.name: shape``."""

    owner: str
    name: str
    shape: str  # the type without generic arguments: `Vec<NormLayer>`, `Option<Block>`
    names: tuple[str, ...]  # every type named in it (`Vec`, `NormLayer`, `B`)
    element: str | None  # `T` of `Vec<T>`
    location: Location | None = None
    # the types it names that are neither generic parameters nor known to burnlint (burn's
    # own, the standard wrappers): the target may declare them, else their layout is unknown
    outside: tuple[str, ...] = ()

    @property
    def shown(self) -> str:
        return f"{self.name}: {self.shape}"


@dataclass(frozen=True, order=True)
class VariantFact:
    name: str
    payload: tuple[str, ...] | None  # the types its fields name; None for a unit variant


@dataclass(frozen=True, order=True)
class EnumFact:
    name: str
    variants: tuple[VariantFact, ...]
    location: Location | None = None  # two declarations of one name stay two facts


@dataclass(frozen=True, order=True)
class StructFact:
    name: str
    parameter_free: bool  # no field that can hold a parameter (unit, empty, scalars only)
    location: Location | None = None  # two declarations of one name stay two facts


@dataclass(frozen=True)
class Mirror:
    """A mirror field, with a parameter-free variant that leaves a gap in PyTorch's indices."""

    field: FieldFact
    gap: VariantFact


@dataclass
class LayoutFacts:
    """What the files of a target declare; merged per target, judged after the merge."""

    # factories, not class-level defaults: the engine's lazy proxy computes the fields on the
    # first read of one that is not set (a class attribute would answer first)
    enums: frozenset[EnumFact] = field(default_factory=frozenset)
    structs: frozenset[StructFact] = field(default_factory=frozenset)
    fields: frozenset[FieldFact] = field(default_factory=frozenset)

    def merge(self, other: LayoutFacts) -> LayoutFacts:
        return LayoutFacts(
            self.enums | other.enums, self.structs | other.structs, self.fields | other.fields
        )

    def reachable(self, *roots: str) -> LayoutFacts:
        """The part of the layout modules of the types ``roots`` hold: those types and the
        module types their fields and variants name, transitively (by name). Empty for a type
        not declared here: nothing is known about it. Computed once per set of roots."""
        key = frozenset(roots)
        if key not in self._reached:
            owners, declared = self._holdings
            reached: set[str] = set()
            pending = sorted(n for n in key if n in declared)
            while pending:
                name = pending.pop()
                if name not in reached:
                    reached.add(name)
                    pending.extend(sorted(owners.get(name, set()) - reached))
            self._reached[key] = LayoutFacts(
                frozenset(e for e in self.enums if e.name in reached),
                frozenset(s for s in self.structs if s.name in reached),
                frozenset(f for f in self.fields if f.owner.split("::")[0] in reached),
            )
        return self._reached[key]

    @cached_property
    def _reached(self) -> dict[frozenset[str], LayoutFacts]:
        return {}

    @cached_property
    def _holdings(self) -> tuple[dict[str, set[str]], set[str]]:
        """The declared module types each declared type names in its fields and variants."""
        declared = {s.name for s in self.structs} | {e.name for e in self.enums}
        named: dict[str, set[str]] = {}
        for fact in self.fields:
            named.setdefault(fact.owner.split("::")[0], set()).update(fact.names)
        for item in self.enums:
            for variant in item.variants:
                named.setdefault(item.name, set()).update(variant.payload or ())
        return {k: v & declared for k, v in named.items()}, declared

    @cached_property
    def judged(self) -> LayoutJudgement:
        return LayoutJudgement(self.enums, self.structs, self.fields)

    @property
    def kind(self) -> LayoutKind:
        return self.judged.kind


@dataclass(frozen=True)
class LayoutJudgement:
    """Which fields make a key-mapping option matter."""

    enums: frozenset[EnumFact]
    structs: frozenset[StructFact]
    fields: frozenset[FieldFact]

    @cached_property
    def _structs_by_name(self) -> dict[str, list[StructFact]]:
        by_name: dict[str, list[StructFact]] = {}
        for struct in self.structs:
            by_name.setdefault(struct.name, []).append(struct)
        return by_name

    @cached_property
    def _enums_by_name(self) -> dict[str, list[EnumFact]]:
        by_name: dict[str, list[EnumFact]] = {}
        for item in self.enums:
            by_name.setdefault(item.name, []).append(item)
        return by_name

    def enum_named(self, name: str) -> EnumFact | None:
        """The module enum declared as ``name`` (the first, should two share the name)."""
        found = self._enums_by_name.get(name)
        return min(found) if found else None

    def parameter_free(self, variant: VariantFact) -> bool:
        """A unit variant, or one whose fields hold no parameters (`Relu(Relu)`)."""
        if variant.payload is None:
            return True
        return all(self._type_parameter_free(name) for name in variant.payload)

    def _type_parameter_free(self, name: str) -> bool:
        declared = self._structs_by_name.get(name)
        if declared:
            return all(s.parameter_free for s in declared)
        if name in self._enums_by_name:
            return False
        return name in PARAMETER_FREE_LAYERS or name in _PLAIN_TYPES

    def _gap(self, enum_name: str) -> VariantFact | None:
        """The first parameter-free variant of a module enum that also has a variant that may
        hold parameters (every definition of that name must agree)."""
        definitions = self._enums_by_name.get(enum_name, [])
        gaps: list[VariantFact] = []
        for item in definitions:
            free = [v for v in item.variants if self.parameter_free(v)]
            if not free or len(free) == len(item.variants):
                return None
            gaps.append(free[0])
        return gaps[0] if gaps else None

    @cached_property
    def mirrors(self) -> tuple[Mirror, ...]:
        found: list[Mirror] = []
        for fact in sorted(self.fields, key=_field_order):
            if fact.element is None:
                continue
            gap = self._gap(fact.element)
            if gap is not None:
                found.append(Mirror(fact, gap))
        return tuple(found)

    @cached_property
    def sequential_like(self) -> tuple[FieldFact, ...]:
        """``Vec`` fields of burn's stackable layers (not of a user type of the same name)."""
        user = set(self._structs_by_name) | set(self._enums_by_name)
        return tuple(
            f
            for f in sorted(self.fields, key=_field_order)
            if f.element in SEQUENTIAL_LAYERS and f.element not in user
        )

    @cached_property
    def enum_fields(self) -> tuple[FieldFact, ...]:
        """Fields whose type names a module enum (its variant names are in burn's paths)."""
        return tuple(
            f
            for f in sorted(self.fields, key=_field_order)
            if any(name in self._enums_by_name for name in f.names)
        )

    @cached_property
    def ambiguous(self) -> bool:
        """A type name is declared more than once (two modules, `#[cfg]`-exclusive
        definitions): which declaration a field means is not known by name."""
        names = [s.name for s in self.structs] + [e.name for e in self.enums]
        return len(names) != len(set(names))

    @cached_property
    def open(self) -> bool:
        """Some field names a type declared neither here nor by burn (another crate's
        module): what indices it holds is unknown."""
        declared = set(self._structs_by_name) | set(self._enums_by_name)
        return any(name not in declared for f in self.fields for name in f.outside)

    @cached_property
    def kind(self) -> LayoutKind:
        if not (self.enums or self.structs):
            return LayoutKind.UNKNOWN
        if self.mirrors and self.sequential_like:
            return LayoutKind.MIXED
        if self.mirrors:
            return LayoutKind.MIRROR
        if self.sequential_like:
            return LayoutKind.SEQUENTIAL_LIKE
        return LayoutKind.FLAT


def _field_order(fact: FieldFact) -> tuple[str, int, str, str]:
    where = fact.location
    return (
        where.path.as_posix() if where else "",
        where.span.start_byte if where else 0,
        fact.owner,
        fact.name,
    )


def _derives_module(item: Node) -> bool:
    return "Module" in derives_of(item)


def _last_segment(node: Node) -> str:
    return text(node).split("::")[-1].strip()


def _vec_element(type_node: Node) -> str | None:
    """``Vec<Linear<B>>`` -> "Linear"."""
    if type_node.type != "generic_type":
        return None
    base = type_node.child_by_field_name("type")
    if base is None or _last_segment(base) != "Vec":
        return None
    arguments = type_node.child_by_field_name("type_arguments")
    if arguments is None or not arguments.named_children:
        return None
    element = arguments.named_children[0]
    if element.type == "generic_type":
        element = element.child_by_field_name("type") or element
    name = _last_segment(element)
    return name or None


_WRAPPERS = frozenset({"Vec", "Option", "Box"})


def _shape(type_node: Node) -> str:
    """A type as messages show it: generic arguments dropped but for the wrappers' element
    (``Vec<NormLayer<B>>`` -> ``Vec<NormLayer>``)."""
    node = type_node
    wrappers: list[str] = []
    while node.type == "generic_type":
        base = node.child_by_field_name("type")
        arguments = node.child_by_field_name("type_arguments")
        name = _last_segment(base) if base is not None else ""
        if name not in _WRAPPERS or arguments is None or not arguments.named_children:
            return "".join(f"{w}<" for w in wrappers) + name + ">" * len(wrappers)
        wrappers.append(name)
        node = arguments.named_children[0]
    if node.type in ("type_identifier", "scoped_type_identifier", "primitive_type"):
        inner = _last_segment(node)
    else:
        inner = " ".join(text(node).split())
    return "".join(f"{w}<" for w in wrappers) + inner + ">" * len(wrappers)


def _type_names(type_node: Node) -> tuple[str, ...]:
    found = [text(type_node)] if type_node.type == "type_identifier" else []
    found.extend(text(n) for n in _descendants(type_node, "type_identifier"))
    return tuple(dict.fromkeys(found))


def _descendants(node: Node, node_type: str) -> list[Node]:
    found: list[Node] = []
    stack = list(reversed(node.named_children))
    while stack:
        current = stack.pop()
        if current.type == node_type:
            found.append(current)
        stack.extend(reversed(current.named_children))
    return found


def _generic_parameters(item: Node) -> set[str]:
    parameters = item.child_by_field_name("type_parameters")
    if parameters is None:
        return set()
    names: set[str] = set()
    for child in parameters.named_children:
        name = child.child_by_field_name("name") if child.type != "type_identifier" else child
        if name is None and child.named_children:
            name = child.named_children[0]
        if name is not None and name.type == "type_identifier":
            names.add(text(name))
    return names


def _field_types(body: Node | None) -> list[tuple[str, Node]]:
    """``(name, type)`` of the fields of a struct or variant body (tuple fields by index)."""
    if body is None:
        return []
    found: list[tuple[str, Node]] = []
    if body.type == "field_declaration_list":
        for declaration in body.named_children:
            if declaration.type != "field_declaration":
                continue
            name = declaration.child_by_field_name("name")
            type_node = declaration.child_by_field_name("type")
            if name is not None and type_node is not None:
                found.append((text(name), type_node))
    elif body.type == "ordered_field_declaration_list":
        types = [
            c
            for c in body.named_children
            if c.type not in ("attribute_item", "visibility_modifier", "line_comment")
            and c.type != "block_comment"
        ]
        found.extend((str(i), t) for i, t in enumerate(types))
    return found


def collect_layout(source: SourceFile) -> LayoutFacts:
    enums: set[EnumFact] = set()
    structs: set[StructFact] = set()
    fields: set[FieldFact] = set()
    for node in source.nodes_of_type("struct_item", "enum_item"):
        if not _derives_module(node):
            continue
        name = text(node.child_by_field_name("name"))
        generics = _generic_parameters(node)
        body = node.child_by_field_name("body")
        if node.type == "enum_item":
            variants: list[VariantFact] = []
            for variant in body.named_children if body is not None else []:
                if variant.type != "enum_variant":
                    continue
                variant_body = variant.child_by_field_name("body")
                payload = (
                    None
                    if variant_body is None
                    else tuple(
                        n
                        for _, t in _field_types(variant_body)
                        for n in _type_names(t)
                        if n not in generics
                    )
                )
                variants.append(VariantFact(text(variant.child_by_field_name("name")), payload))
                for field_name, type_node in _field_types(variant_body):
                    # a variant's fields are paths too (`Variant.0.weight`)
                    fields.add(
                        _field_fact(
                            source,
                            f"{name}::{variants[-1].name}",
                            field_name,
                            type_node,
                            variant,
                            generics,
                        )
                    )
            enums.add(
                EnumFact(name, tuple(variants), Location(source.path, source.node_span(node)))
            )
            continue
        members = _field_types(body)
        free = all(
            all(
                n in generics or n in _PLAIN_TYPES or n in PARAMETER_FREE_LAYERS
                for n in _type_names(t)
            )
            for _, t in members
        )
        structs.add(StructFact(name, free, Location(source.path, source.node_span(node))))
        for field_name, type_node in members:
            fields.add(_field_fact(source, name, field_name, type_node, type_node.parent, generics))
    return LayoutFacts(frozenset(enums), frozenset(structs), frozenset(fields))


def _field_fact(
    source: SourceFile,
    owner: str,
    name: str,
    type_node: Node,
    declaration: Node | None,
    generics: set[str],
) -> FieldFact:
    where = declaration if declaration is not None else type_node
    names = _type_names(type_node)
    return FieldFact(
        owner,
        name,
        _shape(type_node),
        names,
        _vec_element(type_node),
        Location(source.path, source.node_span(where)),
        tuple(n for n in names if n not in generics and n not in _KNOWN_TYPES),
    )
