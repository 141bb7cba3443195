"""The text of ``burnlint config``: the effective settings as TOML, each value with its origin."""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path

from burnlint.config.helpers import _toml_string, display
from burnlint.config.settings import Settings
from burnlint.paths import escape_controls


def describe(
    settings: Settings, paths: Sequence[Path], project_root: Path
) -> list[tuple[str, str, str]]:
    """(key, TOML value, origin) rows for ``burnlint config``: the effective rule set rather
    than the select/ignore layers that produced it, and the burn version the run would assume."""
    from burnlint.rules import registry

    order = [meta.id for meta in registry.ALL]

    def ids(values: Iterable[str]) -> str:
        ranked = sorted(values, key=lambda i: (order.index(i) if i in order else len(order), i))
        return "[" + ", ".join(f'"{i}"' for i in ranked) + "]"

    def strings(values: Iterable[str]) -> str:
        return "[" + ", ".join(_toml_string(v) for v in values) + "]"

    per_file = ", ".join(
        f"{_toml_string(p)} = {ids(r)}" for p, r in settings.per_file_ignores.value
    )
    severity = ", ".join(f'{r} = "{level.value}"' for r, level in settings.severity.value)
    return [
        ("rules", ids(settings.rule_ids.value), settings.rule_ids.origin),
        ("exclude", strings(settings.exclude.value), settings.exclude.origin),
        (
            "respect-gitignore",
            str(settings.respect_gitignore.value).lower(),
            settings.respect_gitignore.origin,
        ),
        ("force-exclude", str(settings.force_exclude.value).lower(), settings.force_exclude.origin),
        ("per-file-ignores", "{" + per_file + "}", settings.per_file_ignores.origin),
        ("severity", "{" + severity + "}", settings.severity.origin),
        ("burn-version", *_burn_version_row(settings, paths, project_root)),
        ("max-file-size", str(settings.max_file_size.value), settings.max_file_size.origin),
    ]


def _burn_version_row(
    settings: Settings, paths: Sequence[Path], project_root: Path
) -> tuple[str, str]:
    if settings.burn_version.value is not None:
        return _toml_string(settings.burn_version.value), settings.burn_version.origin
    from burnlint.project.versions import VersionReader

    reader = VersionReader()
    found = {}
    for path in paths:
        start = Path(os.path.abspath(path))
        answer = reader.for_directory(start if start.is_dir() else start.parent)
        if answer is not None:
            found[answer.version] = answer
    if not found:
        return "", "not set, and no burn or burn-store in Cargo.lock or Cargo.toml"
    shown = ", ".join(sorted(found))
    sources = sorted({display(a.source, project_root) for a in found.values()})
    return _toml_string(shown), ", ".join(sources)


def render_settings(settings: Settings, paths: Sequence[Path], project_root: Path) -> str:
    """The text of ``burnlint config``: TOML that can be copied into a burnlint.toml, each
    value followed by where it came from."""
    shown = ", ".join(f"`{escape_controls(p.as_posix())}`" for p in paths)
    if settings.config is not None:
        head = f"# settings for {shown} from {settings.config.label(project_root)}"
    else:
        head = f"# settings for {shown}: no configuration file found, defaults"
    lines = [head]
    for key, value, origin in describe(settings, paths, project_root):
        # an unknown value is shown as a comment, so the text stays valid TOML
        lines.append(f"{key} = {value}  # {origin}" if value else f"# {key}: {origin}")
    return "\n".join(lines) + "\n"
