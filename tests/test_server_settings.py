"""The server's settings without a client: ``initializationOptions`` read, and the engine
options it keeps per directory, which follow the configuration files' content."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from burnlint.server.checking import EditorSettings, OptionsCache, editor_settings


def test_initialization_options_are_read_and_mistakes_named() -> None:
    settings, problems = editor_settings(
        {"select": ["BL001", "store-overwrite-in-loop"], "extendSelect": ["BL004"], "x": 1}
    )
    assert settings == EditorSettings(
        select=("BL001", "store-overwrite-in-loop"), extend_select=("BL004",)
    )
    assert problems == [
        "initializationOptions: unknown key `x` (known: select, extendSelect, ignore)"
    ]
    assert editor_settings(None) == (EditorSettings(), [])
    wrong_type, problems = editor_settings({"ignore": "BL002"})
    assert wrong_type == EditorSettings()
    assert problems == ["initializationOptions: `ignore` must be a list of rule ids"]
    unknown_rule, problems = editor_settings({"ignore": ["BL999"]})
    assert unknown_rule == EditorSettings()  # nothing half-applied
    assert len(problems) == 1 and "BL999" in problems[0]
    assert editor_settings([1]) == (EditorSettings(), ["initializationOptions: expected an object"])


def test_options_follow_the_configuration_files_content(tmp_path: Path) -> None:
    source = tmp_path / "src" / "train.rs"
    source.parent.mkdir()
    config = tmp_path / "burnlint.toml"
    config.write_text("ignore = ['BL002']\n")
    cache = OptionsCache(EditorSettings(extend_select=("BL004",)))
    first = cache.options_for(source, tmp_path)
    assert not isinstance(first, tuple)
    assert "BL004" in first.rule_ids and "BL002" not in first.rule_ids
    assert first.force_exclude  # an editor's files are checked as the configuration says
    assert cache.options_for(source, tmp_path) is first  # kept while nothing changed
    # the same size and the same modification time, another content: read again
    stat = config.stat()
    config.write_text("ignore = ['BL003']\n")
    os.utime(config, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    second = cache.options_for(source, tmp_path)
    assert not isinstance(second, tuple)
    assert "BL002" in second.rule_ids and "BL003" not in second.rule_ids
    # a configuration nearer the file takes over
    (source.parent / "burnlint.toml").write_text("select = ['BL001']\n")
    assert not isinstance(third := cache.options_for(source, tmp_path), tuple)
    assert third.rule_ids == frozenset({"BL001", "BL004"})
    # a broken one is a problem, not options
    (source.parent / "burnlint.toml").write_text("select = 'BL001'\n")
    problems = cache.options_for(source, tmp_path)
    assert isinstance(problems, tuple) and problems[0].path == source.parent / "burnlint.toml"


def test_options_follow_pyproject_tool_burnlint(tmp_path: Path) -> None:
    source = tmp_path / "src" / "train.rs"
    source.parent.mkdir()
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text("[tool.burnlint]\nignore = ['BL002']\n")
    cache = OptionsCache(EditorSettings())
    first = cache.options_for(source, tmp_path)
    assert not isinstance(first, tuple) and "BL002" not in first.rule_ids
    pyproject.write_text("[tool.burnlint]\nignore = ['BL003']\n")
    second = cache.options_for(source, tmp_path)
    assert not isinstance(second, tuple)
    assert "BL002" in second.rule_ids and "BL003" not in second.rule_ids


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"select": []}, "`select` leaves no rule to run"),
        ({"ignore": ["ALL"]}, "`ignore` leaves no rule to run"),
        ({"select": ["BL001"], "ignore": ["discarded-store-result"]}, "`select` and `ignore`"),
    ],
)
def test_a_selection_of_no_rule_is_a_warning_and_ignored(
    tmp_path: Path, options: dict[str, list[str]], message: str
) -> None:
    """As the README promises: it blanked every diagnostic with an error about the command
    line's --select, --extend-select and --ignore."""
    settings, problems = editor_settings(options)
    assert settings == EditorSettings()
    assert problems == [
        f"initializationOptions: {message}"
        + ("" if message.endswith("to run") else " leave no rule to run")
        + "; ignored, the configuration's rules run"
    ]
    source = tmp_path / "src" / "train.rs"
    source.parent.mkdir()
    (tmp_path / "burnlint.toml").write_text("select = ['BL003']\n")
    checked = OptionsCache(settings).options_for(source, tmp_path)
    assert not isinstance(checked, tuple) and checked.rule_ids == frozenset({"BL003"})


def test_a_selection_that_meets_the_configuration_in_nothing_says_so_in_editor_terms(
    tmp_path: Path,
) -> None:
    """Ignoring BL003 leaves rules to run in general, none where the configuration selects
    only BL003: an error for those files, worded for the editor, not the command line."""
    settings, problems = editor_settings({"ignore": ["BL003"]})
    assert problems == [] and settings.ignore == ("BL003",)
    source = tmp_path / "src" / "train.rs"
    source.parent.mkdir()
    (tmp_path / "burnlint.toml").write_text("select = ['BL003']\n")
    [problem] = OptionsCache(settings).options_for(source, tmp_path)  # type: ignore[misc]
    assert problem.message == (
        "no rules selected: initializationOptions `select`, `extendSelect` and `ignore` leave "
        "none of the rules the configuration (or the defaults) selects"
    )
