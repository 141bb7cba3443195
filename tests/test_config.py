"""Configuration: discovery, validation, precedence, `burnlint config`, the burn version, and the
options that come with them (excludes, per-file ignores, severities, --statistics)."""

from __future__ import annotations

import io
import json
import os
import shutil
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from jsonschema import Draft4Validator

from burnlint import cli
from burnlint.config.discovery import find_config
from burnlint.config.helpers import display
from burnlint.config.schema import FileConfig, Problem, load_config
from burnlint.config.settings import CliSettings, Settings, Sourced, effective
from burnlint.config.sizes import parse_size
from burnlint.findings import Level
from burnlint.project.versions import VersionReader, lowest_version, release_key, version_key
from burnlint.rules import registry

TESTDATA = Path(__file__).resolve().parent.parent / "testdata"

DISCARDED = """\
use burn_store::{ModuleSnapshot, SafetensorsStore};

fn save<M: ModuleSnapshot>(model: &M) {
    let mut store = SafetensorsStore::from_file("model.safetensors").overwrite(true);
    let _ = model.save_into(&mut store);
}
"""


def run(runner: CliRunner, *args: str) -> Result:
    return runner.invoke(cli.cli, list(args), catch_exceptions=False)


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return root


@pytest.fixture
def crate(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A crate with one BL001 finding, as the current directory."""
    write(
        tmp_path,
        {
            "Cargo.toml": '[package]\nname = "demo"\nversion = "0.1.0"\n',
            "src/main.rs": DISCARDED,
        },
    )
    monkeypatch.chdir(tmp_path)
    return tmp_path


def load(path: Path, text: str, table: str | None = None) -> FileConfig | list[Problem]:
    path.write_text(textwrap.dedent(text))
    return load_config(path, table)


def messages(result: FileConfig | list[Problem]) -> list[str]:
    assert isinstance(result, list), result
    return [p.text() for p in result]


# --- discovery ---


def test_nearest_configuration_wins(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "burnlint.toml": "",
            "a/.burnlint.toml": "",
            "a/b/Cargo.toml": '[package]\nname = "b"\n[package.metadata.burnlint]\nignore = []\n',
            "a/c/Cargo.toml": '[package]\nname = "c"\n',  # no burnlint table: keep looking
            "a/b/src/lib.rs": "",
        },
    )
    find = find_config
    assert find(tmp_path / "x.rs") == (tmp_path / "burnlint.toml", None)
    assert find(tmp_path / "a") == (tmp_path / "a/.burnlint.toml", None)
    assert find(tmp_path / "a/b/src/lib.rs") == (
        tmp_path / "a/b/Cargo.toml",
        "package.metadata.burnlint",
    )
    assert find(tmp_path / "a/c") == (tmp_path / "a/.burnlint.toml", None)


def test_burnlint_toml_is_preferred_in_one_directory(tmp_path: Path) -> None:
    write(tmp_path, {"burnlint.toml": "", ".burnlint.toml": "", "Cargo.toml": ""})
    assert find_config(tmp_path) == (tmp_path / "burnlint.toml", None)


def test_workspace_metadata(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "Cargo.toml": """\
                [workspace]
                members = ["crates/*"]

                [workspace.metadata.burnlint]
                extend-select = ["implicit-overwrite"]
                """,
            "crates/a/Cargo.toml": '[package]\nname = "a"\n',
        },
    )
    found = find_config(tmp_path / "crates/a/src")
    assert found == (tmp_path / "Cargo.toml", "workspace.metadata.burnlint")
    loaded = load_config(*found)
    assert isinstance(loaded, FileConfig)
    assert loaded.extend_select == ("BL004",)


def test_both_cargo_tables_is_an_error(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "Cargo.toml": """\
                [package.metadata.burnlint]
                ignore = []
                [workspace.metadata.burnlint]
                ignore = []
                """
        },
    )
    found = find_config(tmp_path)
    assert isinstance(found, tuple)
    assert messages(load_config(*found)) == [
        f"{(tmp_path / 'Cargo.toml').as_posix()}: both [package.metadata.burnlint] and "
        "[workspace.metadata.burnlint] are set; keep one"
    ]


def test_pyproject_tool_burnlint_is_read_like_ruffs_tool_ruff(tmp_path: Path) -> None:
    """It was ignored without a word; now it is a configuration like the others, after
    burnlint.toml, .burnlint.toml and the Cargo.toml tables of its directory, and a
    pyproject.toml without the table is passed over."""
    write(
        tmp_path,
        {
            "pyproject.toml": """\
                [project]
                name = "pyo3-model"

                [tool.burnlint]
                ignore = ["discarded-store-result"]
                max-file-size = "1MB"

                [tool.burnlint.severity]
                BL002 = "error"
                """,
            "crate/Cargo.toml": '[package]\nname = "crate"\n',
            "other/pyproject.toml": "[tool.ruff]\nline-length = 100\n",  # keep looking
            "both/Cargo.toml": "[package.metadata.burnlint]\nignore = []\n",
            "both/pyproject.toml": "[tool.burnlint]\nignore = []\n",
            "both/burnlint.toml": "",
        },
    )
    found = find_config(tmp_path / "crate" / "src" / "lib.rs")
    assert found == (tmp_path / "pyproject.toml", "tool.burnlint")
    assert find_config(tmp_path / "other") == found
    loaded = load_config(*found)
    assert isinstance(loaded, FileConfig)
    assert loaded.ignore == ("BL001",) and loaded.max_file_size == 1_000_000
    assert loaded.severity == (("BL002", Level.ERROR),)
    assert loaded.label(tmp_path) == "pyproject.toml [tool.burnlint]"
    # within one directory: burnlint.toml, then Cargo.toml, then pyproject.toml
    assert find_config(tmp_path / "both") == (tmp_path / "both/burnlint.toml", None)
    (tmp_path / "both/burnlint.toml").unlink()
    assert find_config(tmp_path / "both") == (
        tmp_path / "both/Cargo.toml",
        "package.metadata.burnlint",
    )
    # given with --config, the table is found; a mistake names it and its line
    assert isinstance(load_config(tmp_path / "pyproject.toml"), FileConfig)
    assert messages(load_config(tmp_path / "other/pyproject.toml")) == [
        f"{(tmp_path / 'other/pyproject.toml').as_posix()}: has no [tool.burnlint] table"
    ]
    result = load(
        tmp_path / "pyproject.toml", '[project]\nname = "x"\n[tool.burnlint]\nselct = []\n'
    )
    assert [p.line for p in result if isinstance(p, Problem)] == [4]  # type: ignore[union-attr]
    assert messages(result)[0].endswith(
        "[tool.burnlint] key `selct`: unknown key (did you mean `select`?); expected one of: "
        "select, extend-select, ignore, exclude, extend-exclude, respect-gitignore, "
        "per-file-ignores, severity, burn-version, max-file-size"
    )
    write(tmp_path, {"broken/pyproject.toml": "[tool.burnlint]\nignore = [\n"})
    broken = find_config(tmp_path / "broken")
    assert isinstance(broken, Problem)
    assert "not valid TOML, so its burnlint settings cannot be read" in broken.message


def test_pyproject_configures_a_run_and_burnlint_config_names_it(
    runner: CliRunner, crate: Path
) -> None:
    write(crate, {"pyproject.toml": '[tool.burnlint]\nignore = ["BL001"]\n'})
    assert run(runner, ".").exit_code == 0
    out = run(runner, "config")
    assert out.stdout.startswith("# settings for `.` from pyproject.toml [tool.burnlint]\n")
    write(crate, {"pyproject.toml": "[tool.burnlint]\nignore = 1\n"})
    out = run(runner, "--format", "concise", ".")
    assert out.exit_code == 2
    assert "pyproject.toml:2: error: [tool.burnlint] key `ignore`: expected an array" in out.stdout


def test_a_broken_cargo_toml_with_burnlint_settings_is_an_error(tmp_path: Path) -> None:
    write(tmp_path, {"Cargo.toml": "[package.metadata.burnlint]\nignore = [\n"})
    found = find_config(tmp_path)
    assert isinstance(found, Problem)
    assert "not valid TOML, so its burnlint settings cannot be read" in found.message


def test_a_broken_cargo_toml_without_them_is_skipped(tmp_path: Path) -> None:
    write(tmp_path, {"burnlint.toml": "", "sub/Cargo.toml": "[package\n"})
    assert find_config(tmp_path / "sub") == (tmp_path / "burnlint.toml", None)


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symlinks")
def test_a_dangling_or_looping_config_link_is_an_error_not_a_default(
    tmp_path: Path, runner: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A `burnlint.toml` that is a broken link is unreadable settings, not "no settings"."""
    write(tmp_path, {"burnlint.toml": 'select = ["BL001"]\n', "sub/main.rs": DISCARDED})
    try:
        (tmp_path / "sub" / "burnlint.toml").symlink_to(tmp_path / "gone.toml")
        (tmp_path / "loop" / "a").mkdir(parents=True)
        (tmp_path / "loop" / "a" / ".burnlint.toml").symlink_to(".burnlint.toml")
    except OSError as exc:
        pytest.skip(f"cannot create symlinks: {exc}")
    found = find_config(tmp_path / "sub")
    assert isinstance(found, Problem)
    assert found.path == tmp_path / "sub" / "burnlint.toml"
    assert found.message == "broken symbolic link (its target does not exist), so it cannot be read"
    found = find_config(tmp_path / "loop" / "a")
    assert isinstance(found, Problem)
    assert found.message == "symbolic link loop, so it cannot be read"
    monkeypatch.chdir(tmp_path)
    out = run(runner, "sub")
    assert out.exit_code == 2
    assert out.stdout.startswith(
        "error: sub/burnlint.toml: broken symbolic link (its target does not exist), "
        "so it cannot be read\n"
    )


# --- validation ---


def test_a_full_configuration(tmp_path: Path) -> None:
    loaded = load(
        tmp_path / "burnlint.toml",
        """\
        select = ["ALL"]
        ignore = ["implicit-key-mapping"]
        extend-select = ["bl004"]
        exclude = ["generated/"]
        extend-exclude = ["*_pb.rs"]
        respect-gitignore = false
        burn-version = "=0.22.0-pre.2"
        max-file-size = "20MB"

        [per-file-ignores]
        "tests/**" = ["BL001", "store-error-only-logged"]
        "benches/" = ["ALL"]

        [severity]
        store-overwrite-in-loop = "warning"
        BL008 = "error"
        """,
    )
    assert isinstance(loaded, FileConfig)
    assert loaded.select is not None and len(loaded.select) == len(registry.ALL)  # `ALL`
    assert loaded.ignore == ("BL005",)
    assert loaded.extend_select == ("BL004",)
    assert loaded.exclude == ("generated/",)
    assert loaded.extend_exclude == ("*_pb.rs",)
    assert loaded.respect_gitignore is False
    assert loaded.burn_version == "0.22.0-pre.2"
    assert loaded.max_file_size == 20_000_000
    assert loaded.per_file_ignores is not None
    assert loaded.per_file_ignores[0] == ("tests/**", ("BL001", "BL002"))
    assert len(loaded.per_file_ignores[1][1]) == len(registry.ALL)
    assert loaded.severity == (("BL003", Level.WARNING), ("BL008", Level.ERROR))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            'selct = ["BL001"]',
            "burnlint.toml:1: key `selct`: unknown key (did you mean `select`?); expected one "
            "of: select, extend-select, ignore, exclude, extend-exclude, respect-gitignore, "
            "per-file-ignores, severity, burn-version, max-file-size",
        ),
        ("extend_select = []", "key `extend_select`: unknown key (did you mean `extend-select`?)"),
        ("color = true", "key `color`: unknown key; expected one of"),
        (
            'select = "BL001"',
            'key `select`: expected an array of rule ids or names, e.g. ["BL003"], '
            'found a string ("BL001")',
        ),
        ("ignore = [1]", "key `ignore`: expected an array of rule ids or names"),
        ('ignore = ["BL09"]', "key `ignore`: unknown rule `BL09` (did you mean `BL009`?)"),
        (
            'extend-select = ["store-overwrite-in-lop"]',
            "unknown rule `store-overwrite-in-lop` (did you mean `store-overwrite-in-loop`?)",
        ),
        (
            'respect-gitignore = "no"',
            'key `respect-gitignore`: expected true or false, found a string ("no")',
        ),
        ("exclude = true", "key `exclude`: expected an array of gitignore-style patterns"),
        (
            'burn-version = "latest"',
            'key `burn-version`: expected a version like "0.22.1", found "latest"',
        ),
        ("burn-version = 22", "found an integer (22)"),
        (
            'max-file-size = "big"',
            'key `max-file-size`: expected a size like 2000000, "20MB" or "512KiB", found "big"',
        ),
        ("max-file-size = 0", "key `max-file-size`: expected a size from 1 byte to 1GiB, found 0"),
        # an integer that overflowed the read (OverflowError), or a size it could not allocate
        (
            "max-file-size = 99999999999999999999999999999",
            "key `max-file-size`: expected a size from 1 byte to 1GiB, "
            "found 99999999999999999999999999999",
        ),
        ('max-file-size = "2GiB"', 'expected a size from 1 byte to 1GiB, found "2GiB"'),
        ('max-file-size = "0.5"', 'expected a size from 1 byte to 1GiB, found "0.5"'),
        # more digits than Python's int() reads: the parser's ValueError was an internal error
        ("max-file-size = " + "9" * 5000, "not valid TOML: an integer has too many digits"),
        (
            'per-file-ignores = ["tests"]',
            "key `per-file-ignores`: expected a table of patterns to rule lists",
        ),
        (
            '[per-file-ignores]\n"tests/**" = "BL001"',
            'key `per-file-ignores."tests/**"`: expected an array',
        ),
        (
            '[per-file-ignores]\n"tests/**" = ["BL01"]',
            'burnlint.toml:2: key `per-file-ignores."tests/**"`: unknown rule `BL01` (did you '
            "mean `BL001`?)",
        ),
        (
            '[severity]\nBL003 = "warn"',
            'burnlint.toml:2: key `severity.BL003`: expected "error", "warning" or "note", '
            'found "warn" (did you mean "warning"?)',
        ),
        ('[severity]\nBL033 = "note"', "key `severity.BL033`: unknown rule `BL033`"),
        ("severity = 1", "key `severity`: expected a table of rules to levels"),
    ],
)
def test_bad_values_name_the_file_the_key_and_what_was_expected(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str, expected: str
) -> None:
    monkeypatch.chdir(tmp_path)
    result = load(Path("burnlint.toml"), text + "\n")
    (message,) = messages(result)
    assert message.startswith("burnlint.toml")
    assert expected in message


def test_every_problem_is_reported_in_line_order(tmp_path: Path) -> None:
    result = load(
        tmp_path / "burnlint.toml",
        'ignore = ["BL09"]\nselct = []\n\n[severity]\nBL001 = "fatal"\n',
    )
    assert [p.line for p in result if isinstance(p, Problem)] == [1, 2, 5]  # type: ignore[union-attr]


def test_not_toml_and_not_utf8(tmp_path: Path) -> None:
    (message,) = messages(load(tmp_path / "burnlint.toml", "this is = = not toml\n"))
    assert "burnlint.toml:1: not valid TOML: " in message
    (tmp_path / "burnlint.toml").write_bytes(b"\xff\xfe")
    (message,) = messages(load_config(tmp_path / "burnlint.toml"))
    assert message.endswith("burnlint.toml: not valid TOML: not UTF-8 at byte offset 0")


def test_missing_or_directory_config(tmp_path: Path) -> None:
    assert messages(load_config(tmp_path / "nope.toml"))[0].endswith(
        "nope.toml: configuration file not found"
    )
    assert messages(load_config(tmp_path))[0].endswith("is a directory, not a configuration file")


def test_a_cargo_toml_given_without_a_burnlint_table(tmp_path: Path) -> None:
    (message,) = messages(load(tmp_path / "Cargo.toml", '[package]\nname = "x"\n'))
    assert "has no [package.metadata.burnlint] or [workspace.metadata.burnlint] table" in message


def test_problems_in_a_cargo_table_name_the_table_and_line(tmp_path: Path) -> None:
    result = load(
        tmp_path / "Cargo.toml",
        """\
        [package]
        name = "x"
        ignore = ["BL001"]

        [package.metadata.burnlint]
        ignore = ["BL0001"]
        """,
        "package.metadata.burnlint",
    )
    (problem,) = result if isinstance(result, list) else []
    assert problem.line == 6  # the key in the burnlint table, not the one above it
    assert problem.message.startswith("[package.metadata.burnlint] key `ignore`: unknown rule")


@pytest.mark.parametrize(
    ("value", "size"),
    [(2_000_000, 2_000_000), ("20MB", 20_000_000), ("512 KiB", 524_288), ("1.5m", 1_500_000)],
)
def test_sizes(value: object, size: int) -> None:
    assert parse_size(value) == size


@pytest.mark.parametrize(
    "value", ["", "-1", "1 TB", True, 1.5, [1], 0, 2**30 + 1, "9" * 400 + ".5GB", 10**4000]
)
def test_bad_sizes(value: object) -> None:
    with pytest.raises(ValueError, match="expected a size"):
        parse_size(value)


def test_the_largest_size_is_one_gib() -> None:
    assert parse_size("1GiB") == parse_size(2**30) == 2**30
    with pytest.raises(ValueError, match=r'found "9{40}\.\.\."$'):
        parse_size("9" * 100_000)  # the message shows the value's start


# --- precedence ---


def settings(file: FileConfig | None, **cli_values: object) -> Settings:
    return effective(file, CliSettings(**cli_values), Path("/p"))  # type: ignore[arg-type]


def _default_rules() -> frozenset[str]:
    """The rules on by default, as the registry says."""
    return frozenset(meta.id for meta in registry.ALL if meta.enabled_by_default)


def test_defaults() -> None:
    defaults = settings(None)
    assert defaults.rule_ids.value == _default_rules()
    assert defaults.rule_ids.origin == "default"
    assert defaults.respect_gitignore == Sourced(True, "default")
    assert defaults.max_file_size.value == 2_000_000
    assert defaults.exclude.value == ()


def test_file_beats_defaults_and_cli_beats_file() -> None:
    file = FileConfig(
        path=Path("/p/burnlint.toml"),
        select=("BL001", "BL002"),
        ignore=("BL002",),
        exclude=("gen/",),
        respect_gitignore=False,
        max_file_size=10,
    )
    from_file = settings(file)
    assert from_file.rule_ids == Sourced(frozenset({"BL001"}), "burnlint.toml (select, ignore)")
    assert from_file.respect_gitignore == Sourced(False, "burnlint.toml")
    assert from_file.exclude == Sourced(("gen/",), "burnlint.toml (exclude)")

    extended = settings(file, extend_select=("BL004",), extend_exclude=("x/",))
    assert extended.rule_ids.value == frozenset({"BL001", "BL004"})
    assert extended.rule_ids.origin == (
        "burnlint.toml (select, ignore), then command line (extend-select)"
    )
    assert extended.exclude.value == ("gen/", "x/")

    overridden = settings(
        file, select=("BL002",), exclude=(), respect_gitignore=True, max_file_size=99
    )
    assert overridden.rule_ids == Sourced(frozenset({"BL002"}), "command line (select)")
    assert overridden.exclude.value == ()
    assert overridden.respect_gitignore == Sourced(True, "command line")
    assert overridden.max_file_size == Sourced(99, "command line")


def test_cli_ignore_applies_after_the_file() -> None:
    file = FileConfig(path=Path("/p/burnlint.toml"), extend_select=("BL004",))
    result = settings(file, ignore=("implicit-overwrite",))
    assert "BL004" not in result.rule_ids.value
    assert result.rule_ids.origin == (
        "default, then burnlint.toml (extend-select), then command line (ignore)"
    )


# --- the command line ---


def test_a_config_error_exits_2_and_still_writes_every_output(
    runner: CliRunner, crate: Path
) -> None:
    write(crate, {"burnlint.toml": 'selct = ["BL001"]\n'})
    out = run(
        runner,
        "--format",
        "json",
        "--output-format",
        "sarif=report.sarif",
        "--output-format",
        "text=report.txt",
        ".",
    )
    assert out.exit_code == 2
    assert out.stderr.startswith(
        "burnlint: error: burnlint.toml:1: key `selct`: unknown key (did you mean `select`?)"
    )
    report = json.loads(out.stdout)
    assert report["successful"] is False and report["findings"] == []
    sarif = json.loads((crate / "report.sarif").read_text())
    schema = json.loads((TESTDATA / "sarif-schema-2.1.0.json").read_text("utf-8"))
    Draft4Validator(schema).validate(sarif)
    invocation = sarif["runs"][0]["invocations"][0]
    assert invocation["executionSuccessful"] is False
    (note,) = invocation["toolConfigurationNotifications"]
    assert note["level"] == "error"
    assert "`selct`" in note["message"]["text"]
    location = note["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == "burnlint.toml"
    assert location["region"]["startLine"] == 1
    text = (crate / "report.txt").read_text()
    assert text.splitlines()[0].startswith("error: burnlint.toml:1: key `selct`")
    assert text.splitlines()[-1] == "no files checked"


def test_a_config_error_in_the_terminal_report_is_shown_once(
    runner: CliRunner, crate: Path
) -> None:
    write(crate, {"burnlint.toml": "[severity]\nBL001 = 3\n"})
    out = run(runner, ".")
    assert out.exit_code == 2
    assert out.stderr == ""
    assert (
        'error: burnlint.toml:2: key `severity.BL001`: expected "error", "warning" or "note", '
        "found an integer (3)" in out.stdout
    )


def test_exit_zero_does_not_hide_a_config_error(runner: CliRunner, crate: Path) -> None:
    write(crate, {"burnlint.toml": "nonsense = 1\n"})
    assert run(runner, "--exit-zero", ".").exit_code == 2


def test_config_option_overrides_discovery(runner: CliRunner, crate: Path) -> None:
    write(crate, {"burnlint.toml": 'ignore = ["BL001"]\n', "ci.toml": "select = []\n"})
    assert run(runner, ".").exit_code == 0
    write(crate, {"burnlint.toml": "select = []\n", "ci.toml": 'select = ["BL001"]\n'})
    out = run(runner, "--config", "ci.toml", ".")
    assert out.exit_code == 1
    assert "error[BL001]" in out.stdout


def test_a_configuration_that_selects_no_rule_is_an_error(runner: CliRunner, crate: Path) -> None:
    write(crate, {"burnlint.toml": 'select = ["BL001"]\nignore = ["discarded-store-result"]\n'})
    out = run(runner, "--output-format", "sarif=out.sarif", ".")
    assert out.exit_code == 2
    assert out.stdout.startswith(
        "error: burnlint.toml: no rules selected: check `select`, `extend-select` and `ignore`\n"
    )
    log = json.loads((crate / "out.sarif").read_text())
    assert log["runs"][0]["invocations"][0]["executionSuccessful"] is False
    # the command line can put a rule back; emptying it is the command line's mistake
    assert run(runner, "--extend-select", "BL001", ".").exit_code == 1
    out = run(runner, "config", "--select", "")
    assert out.exit_code == 2
    assert "no rules selected: check --select" in out.stderr


def test_a_missing_config_file_is_a_config_error(runner: CliRunner, crate: Path) -> None:
    out = run(runner, "--config", "nope.toml", "--format", "concise", ".")
    assert out.exit_code == 2
    assert "nope.toml: error: configuration file not found" in out.stdout


def test_unknown_rule_on_the_command_line_is_a_usage_error(runner: CliRunner, crate: Path) -> None:
    out = run(runner, "--ignore", "BL09", ".")
    assert out.exit_code == 2
    assert out.stderr == "burnlint: error: unknown rule `BL09` (did you mean `BL009`?)\n"


def test_bad_size_on_the_command_line(runner: CliRunner, crate: Path) -> None:
    out = run(runner, "--max-file-size", "huge", ".")
    assert out.exit_code == 2
    assert "expected a size like" in out.stderr


@pytest.mark.parametrize("value", ["99999999999999999999999999999", "9" * 5000, "100GB"])
def test_an_extreme_size_on_the_command_line_is_one_usage_error(
    runner: CliRunner, crate: Path, value: str
) -> None:
    """Not an internal error (OverflowError, MemoryError, int()'s digit limit) printed in the
    report and again on stderr: one line naming the option and its range."""
    out = run(runner, "--max-file-size", value, ".")
    assert out.exit_code == 2
    assert out.stdout == ""
    [line] = out.stderr.splitlines()
    assert line.startswith(
        "burnlint: error: invalid value for '--max-file-size': expected a size from 1 byte "
        'to 1GiB, found "'
    )


def test_an_extreme_size_in_the_configuration_is_a_configuration_error(
    runner: CliRunner, crate: Path
) -> None:
    write(crate, {"burnlint.toml": "max-file-size = 99999999999999999999999999999\n"})
    out = run(runner, "--output-format", "sarif=out.sarif", ".")
    assert out.exit_code == 2
    assert out.stderr == ""  # once, in the report
    assert out.stdout.count("99999999999999999999999999999") == 1
    assert (
        "error: burnlint.toml:1: key `max-file-size`: expected a size from 1 byte to 1GiB, "
        "found 99999999999999999999999999999\n" in out.stdout
    )
    log = json.loads((crate / "out.sarif").read_text())
    assert log["runs"][0]["invocations"][0]["executionSuccessful"] is False


def test_an_extreme_jobs_count_is_a_usage_error(runner: CliRunner, crate: Path) -> None:
    """With 1000 files or more, the files were split into that many shares: the run hung."""
    out = run(runner, "--jobs", "99999999999999999999", ".")
    assert out.exit_code == 2
    assert out.stderr == (
        "burnlint: error: invalid value for '-j' / '--jobs': 99999999999999999999 is not in "
        "the range 0<=x<=1024\n"
    )
    assert run(runner, "--jobs", "1024", ".").exit_code == 1


def test_a_large_limit_reads_a_file_in_pieces() -> None:
    """``read(limit + 1)`` allocates the limit before it reads: a 100GB limit was a
    MemoryError, a 1GiB one a gigabyte per file."""
    from burnlint.engine import scan

    class Recording(io.BytesIO):
        def __init__(self, data: bytes) -> None:
            super().__init__(data)
            self.asked: list[int] = []

        def read(self, size: int | None = -1, /) -> bytes:
            self.asked.append(-1 if size is None else size)
            return super().read(size)

    data = b"x" * (3 * scan._CHUNK)
    source = Recording(data)
    assert scan.read_at_most(source, 2**30) == data
    assert max(source.asked) == scan._CHUNK
    over = Recording(data)
    assert scan.read_at_most(over, scan._CHUNK + 1) == data[: scan._CHUNK + 2]
    small = Recording(b"fn f() {}")
    assert scan.read_at_most(small, 100) == b"fn f() {}" and small.asked == [101]


def test_selection_and_severity_from_the_file(runner: CliRunner, crate: Path) -> None:
    write(crate, {"burnlint.toml": '[severity]\ndiscarded-store-result = "note"\n'})
    out = run(runner, "--fail-on", "warning", ".")
    assert out.exit_code == 0
    assert out.stdout.startswith("note[BL001]")
    assert run(runner, "--fail-on", "note", ".").exit_code == 1
    assert run(runner, "--ignore", "BL001", ".").exit_code == 0


def test_cargo_metadata_configures(runner: CliRunner, crate: Path) -> None:
    (crate / "Cargo.toml").write_text(
        '[package]\nname = "demo"\n\n[package.metadata.burnlint]\nignore = ["BL001"]\n'
    )
    assert run(runner, ".").exit_code == 0


def test_per_file_ignores_and_excludes(runner: CliRunner, crate: Path) -> None:
    write(
        crate,
        {
            "tests/it.rs": DISCARDED,
            "benches/b.rs": DISCARDED,
            "generated/g.rs": DISCARDED,
            "burnlint.toml": """\
                exclude = ["generated/"]

                [per-file-ignores]
                "tests/**" = ["discarded-store-result"]
                """,
        },
    )
    out = run(runner, "--format", "concise", "--statistics", ".")
    assert out.exit_code == 1
    paths = sorted({line.split(":")[0] for line in out.stdout.splitlines() if "[BL001]" in line})
    assert paths == ["benches/b.rs", "src/main.rs"]
    assert "2 findings, 1 suppressed" in out.stdout
    # --extend-exclude adds to the file's excludes; --exclude replaces them
    out = run(runner, "--format", "concise", "--extend-exclude", "benches", ".")
    assert "benches/b.rs" not in out.stdout and "generated/" not in out.stdout
    out = run(runner, "--format", "concise", "--exclude", "src/", ".")
    assert "generated/g.rs" in out.stdout and "src/main.rs" not in out.stdout


def test_explicit_files_are_checked_unless_force_exclude(runner: CliRunner, crate: Path) -> None:
    write(crate, {"generated/g.rs": DISCARDED, "burnlint.toml": 'exclude = ["generated/"]\n'})
    assert run(runner, "generated/g.rs").exit_code == 1
    out = run(runner, "--force-exclude", "generated/g.rs", "src/main.rs", "--format", "concise")
    assert out.exit_code == 1
    assert "generated/g.rs" not in out.stdout and "src/main.rs" in out.stdout
    out = run(runner, "--force-exclude", "generated/g.rs")
    assert out.exit_code == 0
    assert "no Rust files found" in out.stderr


def test_gitignore_and_no_respect_gitignore(runner: CliRunner, crate: Path) -> None:
    write(crate, {".gitignore": "scratch/\n", "scratch/s.rs": DISCARDED})
    assert "scratch/s.rs" not in run(runner, "--format", "concise", ".").stdout
    out = run(runner, "--format", "concise", "--no-respect-gitignore", ".")
    assert "scratch/s.rs" in out.stdout
    write(crate, {"burnlint.toml": "respect-gitignore = false\n"})
    assert "scratch/s.rs" in run(runner, "--format", "concise", ".").stdout
    assert (
        "scratch/s.rs" not in run(runner, "--format", "concise", "--respect-gitignore", ".").stdout
    )
    # an explicit file is checked although ignored, unless --force-exclude
    assert run(runner, "scratch/s.rs").exit_code == 1
    assert run(runner, "--respect-gitignore", "--force-exclude", "scratch/s.rs").exit_code == 0


def test_max_file_size(runner: CliRunner, crate: Path) -> None:
    out = run(runner, "--max-file-size", "100", ".")
    assert out.exit_code == 2  # every file found was skipped: nothing was checked
    size = len(DISCARDED.encode())
    assert f"note: src/main.rs: skipped: {size} bytes is over the limit of 100" in out.stdout
    write(crate, {"burnlint.toml": 'max-file-size = "1KB"\n'})
    assert run(runner, ".").exit_code == 1


def test_paths_under_different_configurations(runner: CliRunner, tmp_path: Path) -> None:
    for name, ignore in (("a", '["BL001"]'), ("b", "[]")):
        write(
            tmp_path / name,
            {
                "Cargo.toml": f'[package]\nname = "{name}"\n\n'
                f"[package.metadata.burnlint]\nignore = {ignore}\n",
                "src/main.rs": DISCARDED,
            },
        )
    out = run(
        runner,
        "--format",
        "concise",
        "--project-root",
        str(tmp_path),
        str(tmp_path / "a"),
        str(tmp_path / "b"),
    )
    assert out.exit_code == 1
    assert [line.split(":")[0] for line in out.stdout.splitlines()[:-1]] == ["b/src/main.rs"]
    assert out.stdout.splitlines()[-1] == "found 1 problem in 2 files checked"


def test_statistics(runner: CliRunner, crate: Path) -> None:
    write(crate, {"src/lib.rs": DISCARDED.replace("let _", "// burnlint: allow(BL001)\n    let _")})
    out = run(runner, "--statistics", "-q", ".")
    assert out.exit_code == 1
    table = out.stdout.split("\n\n")[-1]
    assert table == (
        "findings  suppressed  rule\n"
        "       1           1  BL001 discarded-store-result\n"
        "1 finding, 1 suppressed\n"
    )
    out = run(runner, "--statistics", "--format", "json", ".")
    assert json.loads(out.stdout)["suppressed"] == 1
    assert out.stderr.endswith("1 finding, 1 suppressed\n")


# --- burnlint config ---


def test_config_command_shows_values_and_origins(runner: CliRunner, crate: Path) -> None:
    write(
        crate,
        {
            "burnlint.toml": """\
                ignore = ["BL002"]
                burn-version = "0.22.1"

                [per-file-ignores]
                "tests/**" = ["BL001"]
                """
        },
    )
    out = run(runner, "config", "--extend-select", "BL004", "--max-file-size", "1MiB")
    assert out.exit_code == 0, out.stderr
    selected = sorted(_default_rules() - {"BL002"} | {"BL004"})
    rules = ", ".join(f'"{rule_id}"' for rule_id in selected)
    assert out.stdout.splitlines() == [
        "# settings for `.` from burnlint.toml",
        f"rules = [{rules}]  # default, then burnlint.toml (ignore), then command line "
        "(extend-select)",
        "exclude = []  # default",
        "respect-gitignore = true  # default",
        "force-exclude = false  # default",
        'per-file-ignores = {"tests/**" = ["BL001"]}  # burnlint.toml',
        "severity = {}  # default",
        'burn-version = "0.22.1"  # burnlint.toml',
        "max-file-size = 1048576  # command line",
    ]


def test_config_command_defaults_and_version_from_the_lock(runner: CliRunner, crate: Path) -> None:
    write(crate, {"Cargo.lock": '[[package]]\nname = "burn-store"\nversion = "0.22.1"\n'})
    out = run(runner, "config")
    assert out.exit_code == 0
    lines = out.stdout.splitlines()
    assert lines[0] == "# settings for `.`: no configuration file found, defaults"
    assert 'burn-version = "0.22.1"  # Cargo.lock' in lines


def test_config_command_without_a_version(runner: CliRunner, crate: Path) -> None:
    lines = run(runner, "config").stdout.splitlines()
    assert "# burn-version: not set, and no burn or burn-store in Cargo.lock or Cargo.toml" in lines


def test_config_command_reports_errors(runner: CliRunner, crate: Path) -> None:
    write(crate, {"burnlint.toml": 'select = ["BL001", "BL0002"]\n'})
    out = run(runner, "config")
    assert out.exit_code == 2
    assert out.stderr.startswith("burnlint: error: burnlint.toml:1: key `select`: unknown rule")
    assert out.stdout == ""


# --- the burn version ---


def test_version_from_the_lock_beats_the_manifest(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "Cargo.toml": '[package]\nname = "x"\n[dependencies]\nburn = "0.21"\n',
            "Cargo.lock": """\
                version = 4
                [[package]]
                name = "burn"
                version = "0.22.1"
                [[package]]
                name = "burn-store"
                version = "0.22.0-pre.2"
                [[package]]
                name = "burn-store"
                version = "0.21.3"
                """,
        },
    )
    found = VersionReader().for_directory(tmp_path)
    assert found is not None
    assert (found.version, found.crate, found.exact) == ("0.22.0-pre.2", "burn-store", True)


def test_version_from_workspace_dependencies(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "Cargo.toml": """\
                [workspace]
                members = ["crates/*"]
                [workspace.dependencies]
                store = { package = "burn-store", version = "^0.22" }
                """,
            "crates/a/Cargo.toml": """\
                [package]
                name = "a"
                [target.'cfg(unix)'.dependencies]
                store = { workspace = true }
                """,
        },
    )
    found = VersionReader().for_directory(tmp_path / "crates/a")
    assert found is not None
    assert (found.version, found.crate, found.exact) == ("0.22", "burn-store", False)
    assert found.source == tmp_path / "Cargo.toml"


def test_git_dependency_without_version_is_unknown(tmp_path: Path) -> None:
    write(tmp_path, {"Cargo.toml": '[dependencies]\nburn = { git = "https://x" }\n'})
    assert VersionReader().for_directory(tmp_path) is None


def test_broken_manifests_are_warnings(tmp_path: Path) -> None:
    write(tmp_path, {"Cargo.toml": "[package\n", "Cargo.lock": "[[package]\n"})
    reader = VersionReader()
    assert reader.for_directory(tmp_path) is None
    assert [(n.path, n.level) for n in reader.notifications] == [
        (tmp_path / "Cargo.lock", Level.WARNING),
        (tmp_path / "Cargo.toml", Level.WARNING),
    ]
    assert reader.notifications[0].message.startswith("not valid TOML: ")


def test_a_manifest_with_an_endless_integer_is_a_warning(tmp_path: Path) -> None:
    """The parser's int() refuses more than 4300 digits with a ValueError that was an
    internal error."""
    write(tmp_path, {"Cargo.toml": "[package]\nname = 'a'\n[dependencies]\nx = " + "9" * 5000})
    reader = VersionReader()
    assert reader.for_directory(tmp_path) is None
    [note] = reader.notifications
    assert note.message == (
        "not valid TOML: an integer has too many digits; the burn version is not read from it"
    )


def test_version_order() -> None:
    ordered = ["0.9.0", "0.21.3", "0.22.0-pre.2", "0.22.0", "0.22.1"]
    assert sorted(reversed(ordered), key=version_key) == ordered


@pytest.mark.parametrize(
    ("requirement", "lowest"),
    [
        ("0.19.1", "0.19.1"),
        ("=0.19.1", "0.19.1"),
        ("^0.19", "0.19"),
        ("~0.20.0-pre.5", "0.20.0-pre.5"),
        ("0.19.*", "0.19"),
        (">=0.19, <0.21", "0.19"),
        ("<0.21", None),
        ("*", None),
    ],
)
def test_lowest_version_of_a_requirement(requirement: str, lowest: str | None) -> None:
    assert lowest_version(requirement) == lowest


def test_release_order_pads_and_compares_pre_releases_as_numbers() -> None:
    ordered = ["0.19", "0.20.0-pre.4", "0.20.0-pre.6", "0.20.0-pre.10", "0.20", "0.20.1"]
    assert sorted(reversed(ordered), key=release_key) == ordered
    assert release_key("0.20") == release_key("0.20.0")


def test_burn_version_in_the_configuration_reaches_the_key_mapping_rules(
    runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`burn-version = "0.19.1"` in `burnlint.toml`: burn-store 0.19 has neither key-mapping
    option, so the mirror layout that 0.22 (from `Cargo.toml`) reports is not reported."""
    fixture = Path(__file__).resolve().parent.parent / "testdata/crates/burn_version_config"
    crate = tmp_path / "crate"
    shutil.copytree(fixture, crate)
    monkeypatch.chdir(crate)
    with_config = run(runner, "--format", "concise", "--select", "BL005,BL006,BL012", ".")
    assert with_config.exit_code == 0, with_config.stdout
    assert "BL00" not in with_config.stdout
    (crate / "burnlint.toml").unlink()
    without = run(runner, "--format", "concise", "--select", "BL005,BL006,BL012", ".")
    assert without.exit_code == 1
    assert sorted(line.split(": ")[1].split()[0] for line in without.stdout.splitlines()[:-1]) == [
        "note[BL005]",
        "note[BL005]",
        "warning[BL012]",
        "warning[BL012]",
    ]


def test_the_version_reaches_text_json_and_sarif(runner: CliRunner, crate: Path) -> None:
    write(crate, {"Cargo.lock": '[[package]]\nname = "burn"\nversion = "0.22.1"\n'})
    out = run(runner, "--output-format", "sarif=r.sarif", "--output-format", "json=r.json", ".")
    assert (
        out.stdout.splitlines()[-1]
        == "found 1 problem (1 error) in 1 file checked (assuming burn 0.22.1)"
    )
    sarif = json.loads((crate / "r.sarif").read_text())
    assert sarif["runs"][0]["invocations"][0]["properties"] == {"burnVersion": "0.22.1"}
    assert json.loads((crate / "r.json").read_text())["burn_version"] == "0.22.1"
    # `burn-version` in the configuration is what the run assumes
    write(crate, {"burnlint.toml": 'burn-version = "0.21.0"\n'})
    assert run(runner, ".").stdout.splitlines()[-1].endswith("(assuming burn 0.21.0)")


def test_a_broken_cargo_toml_is_a_warning_not_an_error(runner: CliRunner, crate: Path) -> None:
    (crate / "Cargo.toml").write_text("[package\nname = 1\n")
    out = run(runner, "--format", "concise", ".")
    assert out.exit_code == 1  # the finding; the broken manifest does not make it 2
    assert "Cargo.toml: warning: not valid TOML" in out.stdout
    assert "the burn version is not read from it" in out.stdout


def test_display_is_relative_to_the_project_root(tmp_path: Path) -> None:
    assert display(tmp_path / "a" / "b.toml", tmp_path) == "a/b.toml"
    outside = tmp_path.parent / "other.toml"
    assert display(outside, tmp_path) == Path(os.path.abspath(outside)).as_posix()
