"""What the commands share: errors and messages on the console, and the options that override
the configuration file (``check`` and ``config``).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import click

from burnlint.app import EXIT_ERROR
from burnlint.app.console import DEBUG_ENV, Message, Stream
from burnlint.paths import escape_controls

if TYPE_CHECKING:
    from burnlint.config import CliSettings

_Command = TypeVar("_Command", bound=Callable[..., Any])


def debug_enabled() -> bool:
    return os.environ.get(DEBUG_ENV, "") not in ("", "0")


def fail(message: str) -> NoReturn:
    """A usage or configuration error the user can fix: one line on stderr (a path in it
    escaped, ``paths.escape_controls``), exit 2."""
    click.echo(f"burnlint: error: {escape_controls(message)}", err=True)
    raise click.exceptions.Exit(EXIT_ERROR)


def require_working_directory() -> None:
    """Fail, exit 2, when the current directory is gone (deleted under the shell): the
    commands that read the tree name paths, the project root and the cache from it."""
    try:
        os.getcwd()
    except OSError as exc:
        hint = " (was it deleted?)" if isinstance(exc, FileNotFoundError) else ""
        fail(f"cannot use the current directory: {exc.strerror or exc}{hint}")


def echo_message(message: Message) -> None:
    click.echo(
        message.text,
        nl=message.newline,
        err=message.stream is Stream.STDERR,
        color=message.color,
    )


def _split_selectors(values: Iterable[str]) -> list[str]:
    """``--select BL001,BL002 --select BL003`` -> the three ids (empty parts ignored)."""
    return [part.strip() for value in values for part in value.split(",") if part.strip()]


def existing_directory(option: str, value: Path | None) -> Path | None:
    if value is None or value.is_dir():
        return value
    what = "is not a directory" if value.exists() else "does not exist"
    fail(f"{option}: `{value}` {what}")


def _size(_ctx: click.Context, _param: click.Parameter, value: str | None) -> int | None:
    from burnlint.config import parse_size

    if value is None:
        return None
    try:
        # the text as given: parse_size reads digits exactly, where int() refuses more than
        # 4300 of them with a message about sys.set_int_max_str_digits
        return parse_size(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None


def settings_options(command: _Command) -> _Command:
    """The options that override the configuration file: shared by ``check`` and ``config``."""
    options = [
        click.option(
            "--config",
            "config_file",
            type=click.Path(path_type=Path),
            help="Use this configuration file (burnlint.toml, a Cargo.toml with a "
            "[package.metadata.burnlint] table, or a pyproject.toml with a [tool.burnlint] "
            "table) instead of searching upward from each path.",
        ),
        click.option(
            "--select",
            multiple=True,
            metavar="RULES",
            help="Run only these rules (ids or names, comma-separated, repeatable; `ALL` for all).",
        ),
        click.option("--ignore", multiple=True, metavar="RULES", help="Do not run these rules."),
        click.option(
            "--extend-select",
            multiple=True,
            metavar="RULES",
            help="Run these rules as well as the selected ones (e.g. rules off by default).",
        ),
        click.option(
            "--exclude",
            multiple=True,
            metavar="PATTERNS",
            help="Skip files matching these gitignore-style patterns (replaces `exclude` from "
            "the configuration; comma-separated, repeatable).",
        ),
        click.option(
            "--extend-exclude",
            multiple=True,
            metavar="PATTERNS",
            help="Skip these patterns as well as the configured ones.",
        ),
        click.option(
            "--respect-gitignore/--no-respect-gitignore",
            default=None,
            help="Honour .gitignore files [default: yes, or `respect-gitignore` from the "
            "configuration].",
        ),
        click.option(
            "--force-exclude",
            is_flag=True,
            help="Apply the excludes and .gitignore to paths named on the command line too "
            "(for pre-commit, which names every staged file).",
        ),
        click.option(
            "--max-file-size",
            metavar="SIZE",
            callback=_size,
            help="Skip files larger than SIZE, with a note (bytes, or e.g. 20MB, 512KiB) "
            "[default: 2MB].",
        ),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def cli_settings(
    select: tuple[str, ...],
    ignore: tuple[str, ...],
    extend_select: tuple[str, ...],
    exclude: tuple[str, ...],
    extend_exclude: tuple[str, ...],
    respect_gitignore: bool | None,
    force_exclude: bool,
    max_file_size: int | None,
) -> CliSettings:
    from burnlint.config import CliSettings

    return CliSettings(
        select=tuple(_split_selectors(select)) if select else None,
        extend_select=tuple(_split_selectors(extend_select)),
        ignore=tuple(_split_selectors(ignore)),
        exclude=tuple(_split_selectors(exclude)) if exclude else None,
        extend_exclude=tuple(_split_selectors(extend_exclude)),
        respect_gitignore=respect_gitignore,
        force_exclude=force_exclude,
        max_file_size=max_file_size,
    )
