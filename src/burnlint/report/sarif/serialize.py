"""sarif-om objects to JSON text, keys in the official schema's order.

A value is never dropped because it equals a schema default: ``level: "warning"`` is written.
Objects are made with ``_om``, which sets every field we do not give to ``None``, so only what
burnlint says is written (sarif-om's own defaults such as ``kind: "fail"``, ``rank: -1`` or
``byteOffset: -1`` are never written as if burnlint had said them). ``to_json`` then skips only
``None`` and empty optional arrays and objects, and writes keys in the order of
``_SCHEMA_ORDER``; the output is byte-identical across runs.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from typing import Any

import attr

# The properties burnlint writes, per sarif-om class, in the order of the official schema
# (a test checks every object of the output against the schema's order). Fields not listed
# here are written after these, in sarif-om's order.
_SCHEMA_ORDER: dict[str, tuple[str, ...]] = {
    "SarifLog": ("$schema", "version", "runs"),
    "Run": (
        "tool",
        "invocations",
        "originalUriBaseIds",
        "results",
        "automationDetails",
        "columnKind",
    ),
    "Tool": ("driver",),
    "ToolComponent": ("name", "version", "semanticVersion", "informationUri", "rules"),
    "ReportingDescriptor": (
        "id",
        "name",
        "shortDescription",
        "fullDescription",
        "defaultConfiguration",
        "helpUri",
        "help",
        "properties",
    ),
    "MultiformatMessageString": ("text", "markdown"),
    "ReportingConfiguration": ("level",),
    "Result": (
        "ruleId",
        "ruleIndex",
        "level",
        "message",
        "locations",
        "partialFingerprints",
        "relatedLocations",
        "suppressions",
        "baselineState",
        "fixes",
    ),
    "Message": ("text",),
    "Location": ("id", "physicalLocation", "message"),
    "PhysicalLocation": ("artifactLocation", "region", "contextRegion"),
    "ArtifactLocation": ("uri", "uriBaseId"),
    "Region": (
        "startLine",
        "startColumn",
        "endLine",
        "endColumn",
        "byteOffset",
        "byteLength",
        "snippet",
    ),
    "ArtifactContent": ("text",),
    "Fix": ("description", "artifactChanges"),
    "ArtifactChange": ("artifactLocation", "replacements"),
    "Replacement": ("deletedRegion", "insertedContent"),
    "Invocation": (
        "toolExecutionNotifications",
        "toolConfigurationNotifications",
        "executionSuccessful",
        "properties",
    ),
    "Notification": ("locations", "message", "level", "associatedRule"),
    "ReportingDescriptorReference": ("id", "index"),
    "RunAutomationDetails": ("id",),
}
# Empty but meaningful: `results: []` says "ran and found nothing", absent would say "did not run".
_KEEP_EMPTY = frozenset({"results"})


def dumps(log: Any) -> str:
    return json.dumps(to_json(log), indent=2, ensure_ascii=False) + "\n"


@cache
def _field_names(cls: type) -> tuple[str, ...]:
    return tuple(field.name for field in attr.fields(cls))


def _om(cls: Any, **given: Any) -> Any:
    """A sarif-om object with exactly the ``given`` fields set; every other field is None."""
    unset = {name: None for name in _field_names(cls) if name not in given}
    return cls(**unset, **given)


def _is_empty_container(value: object) -> bool:
    return isinstance(value, (list, tuple, dict)) and not value


@cache
def _properties(cls: type) -> tuple[tuple[str, str], ...] | None:
    """(schema property, attribute) of a sarif-om class in the order they are written (the
    schema's, see ``_SCHEMA_ORDER``), or None for a class that is not a sarif-om one. Worked
    out once per class: a log can hold tens of thousands of results."""
    if not attr.has(cls):
        return None
    fields = {f.metadata["schema_property_name"]: f.name for f in attr.fields(cls)}
    preferred = _SCHEMA_ORDER.get(cls.__name__, ())
    order = [name for name in preferred if name in fields]
    order += [name for name in fields if name not in preferred]
    return tuple((name, fields[name]) for name in order)


def to_json(value: Any) -> Any:
    """Plain JSON data from sarif-om objects, dicts, lists and scalars.

    Properties are named by each attrs field's ``schema_property_name``. Only ``None`` and empty
    optional arrays/objects are left out; every other value is written, defaults included.
    """
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if isinstance(value, (list, tuple)):
        return [to_json(item) for item in value]
    cls: type = type(value)
    properties = _properties(cls)
    if properties is not None:
        out: dict[str, Any] = {}
        for name, attribute in properties:
            item = getattr(value, attribute)
            if item is None or (_is_empty_container(item) and name not in _KEEP_EMPTY):
                continue
            out[name] = to_json(item)
        return out
    if isinstance(value, Mapping):
        return {
            str(key): to_json(item)
            for key, item in value.items()
            if item is not None and not _is_empty_container(item)
        }
    raise TypeError(f"cannot write {type(value).__name__} to SARIF")
