"""The command line: click's parameters -> a request -> ``app.check`` -> printed messages and
the exit code.

Only this module prints or exits; the check itself is the application layer's
(``app/check.py``). ``burnlint --version`` and ``--help`` must stay fast, so everything that
pulls in tree-sitter (the engine, the rules, the model) is imported inside the commands that
need it.
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import click

from burnlint import __version__
from burnlint.app import EXIT_ERROR, EXIT_OK
from burnlint.app.console import DEBUG_ENV, Message, Stream, internal_error_message
from burnlint.findings import Level
from burnlint.report import FORMATS

if TYPE_CHECKING:
    from burnlint.config import CliSettings

_GROUP_OPTIONS = frozenset({"-h", "--help", "--version"})
_Command = TypeVar("_Command", bound=Callable[..., Any])


def _debug() -> bool:
    return os.environ.get(DEBUG_ENV, "") not in ("", "0")


def _fail(message: str) -> NoReturn:
    """A usage or configuration error the user can fix: one line on stderr, exit 2."""
    click.echo(f"burnlint: error: {message}", err=True)
    raise click.exceptions.Exit(EXIT_ERROR)


def _usage_error(exc: click.UsageError) -> NoReturn:
    """A mistake on the command line that click found (an unknown option, a bad choice, a
    missing argument): one ``burnlint: error:`` line like every other error, not click's
    usage block, and exit 2."""
    message = " ".join(exc.format_message().split()).rstrip(".")
    message = re.sub(r"\. Did you mean (.+)\?$", r" (did you mean \1?)", message)
    if message[:1].isupper() and message[1:2].islower():
        message = message[0].lower() + message[1:]
    bad_value = isinstance(exc, click.BadParameter) and not isinstance(exc, click.MissingParameter)
    if not bad_value and "did you mean" not in message:
        command = exc.ctx.command_path if exc.ctx is not None else "burnlint"
        message += f" (see `{command} --help`)"
    _fail(message)


class _DefaultCommandGroup(click.Group):
    """``burnlint PATHS...`` means ``burnlint check PATHS...``.

    Anything that is neither a subcommand nor a group option starts the default command, so a
    directory named like a command (``rules``) needs ``burnlint check rules`` or ``./rules``.
    """

    default_command = "check"

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not args or (args[0] not in self.commands and args[0] not in _GROUP_OPTIONS):
            args = [self.default_command, *args]
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as exc:
            _usage_error(exc)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.UsageError as exc:
            _usage_error(exc)


@click.group(
    cls=_DefaultCommandGroup,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
)
@click.version_option(
    __version__, "--version", prog_name="burnlint", message="%(prog)s %(version)s"
)
def cli() -> None:
    """Find Rust code that makes burn-store checkpoints silently stale.

    \b
    burnlint [check] [PATHS]...   check Rust files (the default command)
    burnlint rules                list the rules
    burnlint rule ID              show a rule's documentation
    burnlint config [PATHS]...    show the effective settings and where each comes from
    """


def _split_selectors(values: Iterable[str]) -> list[str]:
    """``--select BL001,BL002 --select BL003`` -> the three ids (empty parts ignored)."""
    return [part.strip() for value in values for part in value.split(",") if part.strip()]


def _use_color(choice: str, to_file: bool) -> bool:
    if choice == "always":
        return True
    if choice == "never" or to_file:
        return False
    # https://no-color.org: set and non-empty disables colour.
    if os.environ.get("NO_COLOR"):
        return False
    return sys.stdout.isatty()


def _parse_extra_outputs(values: Iterable[str]) -> list[tuple[str, Path]]:
    """``FORMAT=FILE`` pairs of ``--output-format``."""
    parsed: list[tuple[str, Path]] = []
    for value in values:
        name, sep, file = value.partition("=")
        if not sep or not file:
            raise click.BadParameter(f"`{value}` is not FORMAT=FILE")
        if name not in FORMATS:
            known = ", ".join(FORMATS)
            raise click.BadParameter(f"unknown format `{name}` (known: {known})")
        parsed.append((name, Path(file)))
    return parsed


def _existing_directory(option: str, value: Path | None) -> Path | None:
    if value is None or value.is_dir():
        return value
    what = "is not a directory" if value.exists() else "does not exist"
    _fail(f"{option}: `{value}` {what}")


def _size(_ctx: click.Context, _param: click.Parameter, value: str | None) -> int | None:
    from burnlint.config import parse_size

    if value is None:
        return None
    try:
        return parse_size(int(value) if value.strip().isdigit() else value)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None


def _settings_options(command: _Command) -> _Command:
    """The options that override the configuration file: shared by ``check`` and ``config``."""
    options = [
        click.option(
            "--config",
            "config_file",
            type=click.Path(path_type=Path),
            help="Use this configuration file (burnlint.toml, or a Cargo.toml with a "
            "[package.metadata.burnlint] table) instead of searching upward from each path.",
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


@cli.command("check")
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path, readable=False))
@_settings_options
@click.option(
    "--format",
    "output_format",
    type=click.Choice(list(FORMATS)),
    default="text",
    show_default=True,
    help="Output format.",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the report to FILE instead of stdout (a regular file is replaced atomically; "
    "a device, a FIFO or /dev/stdout is written into).",
)
@click.option(
    "--fail-on",
    type=click.Choice([level.value for level in Level]),
    default=Level.NOTE.value,
    show_default=True,
    help="Exit 1 when a finding is at this level or more severe.",
)
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when there are findings.")
@click.option(
    "-j",
    "--jobs",
    type=click.IntRange(min=0),
    default=0,
    help="Worker processes [default: 0, one per CPU]; 1 checks everything in this process. "
    "Workers start only when enough files mention burn-store to pay for them.",
)
@click.option(
    "--project-root",
    type=click.Path(path_type=Path),
    callback=lambda _ctx, _param, value: _existing_directory("--project-root", value),
    help="Report paths relative to DIR [default: the git work tree, else the current dir].",
)
@click.option("--no-prefilter", is_flag=True, hidden=True)
@click.option(
    "--color",
    type=click.Choice(["auto", "always", "never"]),
    default="auto",
    show_default=True,
    help="Colour the output (auto: on a terminal and when NO_COLOR is unset).",
)
@click.option("-q", "--quiet", is_flag=True, help="Print findings only, no summary line.")
@click.option(
    "--statistics",
    is_flag=True,
    help="Also print how many findings each rule reported and how many were suppressed.",
)
@click.option(
    "--output-format",
    "extra_outputs",
    multiple=True,
    metavar="FORMAT=FILE",
    callback=lambda _ctx, _param, value: _parse_extra_outputs(value),
    help="Also write the report in FORMAT to FILE, in the same run (repeatable), "
    "e.g. `--output-format sarif=burnlint.sarif`.",
)
@click.option(
    "--category",
    metavar="NAME",
    help="SARIF `automationDetails.id` (GitHub code scanning keeps one analysis per category).",
)
@click.option("--fix", is_flag=True, help="Apply safe fixes, then report what is left.")
@click.option(
    "--unsafe-fixes",
    is_flag=True,
    help="With --fix or --diff: include fixes that change behaviour (e.g. `.overwrite(true)`).",
)
@click.option(
    "--diff",
    is_flag=True,
    help="Print the fixes as a unified diff on stdout and edit nothing (the report goes only to "
    "the files of -o and --output-format).",
)
@click.option(
    "--baseline",
    "baseline_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Report only findings that are not in FILE, an earlier burnlint SARIF or JSON report "
    "(matched by fingerprint, not by line).",
)
@click.option(
    "--write-baseline",
    type=click.Path(dir_okay=False, path_type=Path),
    metavar="FILE",
    help="Write every finding of this run to FILE, for --baseline (SARIF when FILE ends in "
    "`.sarif`, else JSON).",
)
@click.option(
    "--add-allow",
    is_flag=True,
    help="Add a `// burnlint: allow(ID) -- baseline` comment above every finding reported, "
    "then report what is left.",
)
@click.option(
    "--stdin-filename",
    type=click.Path(dir_okay=False, path_type=Path),
    metavar="PATH",
    help="Check the source read from stdin as if it were the file PATH (its crate is read "
    "from disk; PATH is never written). PATHS must be empty or `-`.",
)
def check(
    paths: tuple[Path, ...],
    config_file: Path | None,
    select: tuple[str, ...],
    ignore: tuple[str, ...],
    extend_select: tuple[str, ...],
    exclude: tuple[str, ...],
    extend_exclude: tuple[str, ...],
    respect_gitignore: bool | None,
    force_exclude: bool,
    max_file_size: int | None,
    output_format: str,
    output: Path | None,
    fail_on: str,
    exit_zero: bool,
    jobs: int,
    project_root: Path | None,
    no_prefilter: bool,
    color: str,
    quiet: bool,
    statistics: bool,
    extra_outputs: list[tuple[str, Path]],
    category: str | None,
    fix: bool,
    unsafe_fixes: bool,
    diff: bool,
    baseline_file: Path | None,
    write_baseline: Path | None,
    add_allow: bool,
    stdin_filename: Path | None,
) -> None:
    """Check the Rust files under PATHS (default: the current directory)."""
    from burnlint.app.check import run_check
    from burnlint.app.request import CheckRequest, RequestError

    overrides = _cli_settings(
        select, ignore, extend_select, exclude, extend_exclude, respect_gitignore,
        force_exclude, max_file_size,
    )  # fmt: skip
    request = CheckRequest(
        paths=paths,
        settings=overrides,
        config_file=config_file,
        output_format=output_format,
        format_given=_given(click.get_current_context(), "output_format"),
        output=output,
        extra_outputs=tuple(extra_outputs),
        fail_on=Level(fail_on),
        exit_zero=exit_zero,
        jobs=jobs,
        project_root=project_root,
        prefilter=not no_prefilter,
        color=_use_color(color, to_file=output is not None),
        quiet=quiet,
        statistics=statistics,
        category=category,
        fix=fix,
        unsafe_fixes=unsafe_fixes,
        diff=diff,
        baseline=baseline_file,
        write_baseline=write_baseline,
        add_allow=add_allow,
        stdin_filename=stdin_filename,
        debug=_debug(),
    )
    try:
        outcome = run_check(request, emit=_echo)
    except RequestError as exc:
        _fail(str(exc))
    raise click.exceptions.Exit(outcome.exit_code)


def _echo(message: Message) -> None:
    click.echo(
        message.text,
        nl=message.newline,
        err=message.stream is Stream.STDERR,
        color=message.color,
    )


def _given(ctx: click.Context, name: str) -> bool:
    """Whether the option ``name`` was given (on the command line or in the environment),
    not left at its default."""
    from click.core import ParameterSource

    source = ctx.get_parameter_source(name)
    return source is not None and source not in (
        ParameterSource.DEFAULT,
        ParameterSource.DEFAULT_MAP,
    )


def _cli_settings(
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


@cli.command("config")
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path, readable=False))
@_settings_options
@click.option(
    "--project-root",
    type=click.Path(path_type=Path),
    callback=lambda _ctx, _param, value: _existing_directory("--project-root", value),
    help="Show paths relative to DIR [default: the git work tree, else the current dir].",
)
def show_config(
    paths: tuple[Path, ...],
    config_file: Path | None,
    select: tuple[str, ...],
    ignore: tuple[str, ...],
    extend_select: tuple[str, ...],
    exclude: tuple[str, ...],
    extend_exclude: tuple[str, ...],
    respect_gitignore: bool | None,
    force_exclude: bool,
    max_file_size: int | None,
    project_root: Path | None,
) -> None:
    """Print the effective settings for PATHS (default: the current directory) and where each
    one comes from: the command line, a configuration file, Cargo.lock or the defaults."""
    from burnlint import config as configuration
    from burnlint.app.check import plan_runs, report_problems
    from burnlint.app.console import Console
    from burnlint.app.request import RequestError
    from burnlint.paths import default_project_root

    overrides = _cli_settings(
        select, ignore, extend_select, exclude, extend_exclude, respect_gitignore,
        force_exclude, max_file_size,
    )  # fmt: skip
    root = (project_root or default_project_root()).resolve()
    try:
        plan = plan_runs(paths or (Path("."),), overrides, config_file, root)
    except RequestError as exc:
        _fail(str(exc))
    if plan.problems:
        report_problems(plan.problems, root, Console(_echo))
        raise click.exceptions.Exit(EXIT_ERROR)
    for index, (settings, group) in enumerate(plan.groups):
        if index:
            click.echo("")
        click.echo(configuration.render_settings(settings, group, root), nl=False)


@cli.command("rules")
def list_rules() -> None:
    """List every rule: id, name, level, whether it is on by default, whether it can fix."""
    from burnlint.rules import registry

    rows = [("id", "name", "level", "default", "fixable")]
    rows += [
        (
            rule.id,
            rule.name,
            rule.level.value,
            "on" if rule.enabled_by_default else "off",
            "yes" if rule.fixable else "no",
        )
        for rule in registry.ALL
    ]
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    for row in rows:
        click.echo(
            "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        )


@cli.command("rule")
@click.argument("rule_id", metavar="ID")
def show_rule(rule_id: str) -> None:
    """Show the documentation of rule ID (an id like BL001 or a name)."""
    from burnlint import docs
    from burnlint.rules import registry

    try:
        rule = registry.by_selector(rule_id)
    except registry.UnknownRuleError as exc:
        _fail(str(exc))
    text = docs.rule_doc(rule.id)
    if text is None:
        click.echo(f"burnlint: warning: no documentation file found for {rule.id}", err=True)
        text = f"# {rule.id} {rule.name}\n\n{rule.summary}\n"
    click.echo(text, nl=not text.endswith("\n"))


def _make_streams_safe() -> None:
    """A report must never fail because a terminal cannot show a character of the code."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with contextlib.suppress(OSError, ValueError):
                reconfigure(errors="backslashreplace")


def main(argv: Sequence[str] | None = None) -> NoReturn:
    """Console-script entry point: run the CLI and exit with its code, never a traceback
    (unless ``BURNLINT_DEBUG=1``)."""
    _make_streams_safe()
    code: int
    try:
        result = cli.main(
            args=list(argv) if argv is not None else None,
            prog_name="burnlint",
            standalone_mode=False,
        )
        code = result if isinstance(result, int) else EXIT_OK
    except click.ClickException as exc:
        exc.show()
        code = exc.exit_code
    except (click.exceptions.Abort, KeyboardInterrupt):
        click.echo("burnlint: interrupted", err=True)
        code = 130
    except Exception as exc:
        if _debug():
            raise
        click.echo(internal_error_message(exc), err=True)
        code = EXIT_ERROR
    sys.exit(code)
