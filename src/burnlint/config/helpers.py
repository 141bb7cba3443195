"""Small pieces the configuration modules share: reading TOML, naming values in messages, and
showing paths and strings."""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from burnlint.paths import shown_path
from burnlint.project import _toml


def display(path: Path, project_root: Path) -> str:
    """``path`` relative to the project root when inside it, POSIX either way, as text
    (``paths.shown_path``)."""
    return shown_path(Path(os.path.abspath(path)), project_root, resolve=True)


def _parse_toml(data: bytes) -> dict[str, Any] | str:
    """The document, or the parser's message (also for text that is not UTF-8)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return f"not UTF-8 at byte offset {exc.start}"
    try:
        return _toml.loads(text.removeprefix("\ufeff"))
    except ValueError as exc:  # TOMLDecodeError, or an integer too long to read
        return str(exc)
    except RecursionError:  # absurdly nested inline tables
        return "nested too deeply"


def _toml_error_line(message: str) -> int | None:
    match = re.search(r"\(at line (\d+)", message)
    return int(match.group(1)) if match else None


def _dig(document: Mapping[str, Any], dotted: str) -> Any:
    current: Any = document
    for part in dotted.split("."):
        if not isinstance(current, dict) or part not in current:
            return None
        current = current[part]
    return current


def _kind(value: object) -> str:
    if isinstance(value, bool):
        return f"a boolean ({str(value).lower()})"
    if isinstance(value, int):
        return f"an integer ({value})"
    if isinstance(value, float):
        return f"a number ({value})"
    if isinstance(value, str):
        return f'a string ("{value}")'
    if isinstance(value, list):
        return "an array" if all(isinstance(v, str) for v in value) else "an array of non-strings"
    if isinstance(value, dict):
        return "a table"
    return f"a {type(value).__name__}"


def _did_you_mean(word: str, choices: Sequence[str], quote: str = "`") -> str:
    normalised = word.replace("_", "-").lower()
    if normalised in choices and normalised != word:
        return f" (did you mean {quote}{normalised}{quote}?)"
    close = difflib.get_close_matches(normalised, list(choices), n=1, cutoff=0.6)
    return f" (did you mean {quote}{close[0]}{quote}?)" if close else ""


def _bad_pattern(patterns: Sequence[str]) -> str | None:
    from pathspec import GitIgnoreSpec

    for pattern in patterns:
        try:
            GitIgnoreSpec.from_lines([pattern])
        except (ValueError, TypeError) as exc:
            return f"invalid pattern {_toml_string(pattern)}: {exc}"
    return None


def _toml_string(value: str) -> str:
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'"{escaped}"'
