"""The command line: click's parameters -> a request -> ``app.check`` -> printed messages and
the exit code.

Only this package prints or exits; the check itself is the application layer's
(``app/check.py``). ``burnlint --version`` and ``--help`` must stay fast, so everything that
pulls in tree-sitter (the engine, the rules, the model) is imported inside the commands that
need it.
"""

import contextlib
import re
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

import click

from burnlint import __version__
from burnlint.app import EXIT_ERROR, EXIT_OK
from burnlint.app.console import internal_error_message
from burnlint.cli import streams
from burnlint.cli.check import check as check_command
from burnlint.cli.commands import clean_cache, list_rules, server, show_config, show_rule
from burnlint.cli.common import debug_enabled, fail

_GROUP_OPTIONS = frozenset({"-h", "--help", "--version"})


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
    fail(message)


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
    burnlint clean                remove the cache (.burnlint_cache)
    burnlint server               run the language server (stdio), for an editor
    """


for _command in (check_command, show_config, list_rules, show_rule, clean_cache, server):
    cli.add_command(_command)


def _make_streams_safe() -> None:
    """A report must never fail because a terminal cannot show a character of the code."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with contextlib.suppress(OSError, ValueError):
                reconfigure(errors="backslashreplace")


def main(argv: Sequence[str] | None = None) -> NoReturn:
    """Console-script entry point: run the CLI and exit with its code, never a traceback
    (unless ``BURNLINT_DEBUG=1``). A report that cannot be written to stdout (closed, full,
    a closed pipe) is one error line and exit 2 (``streams.py``), whatever the command."""
    _make_streams_safe()
    with streams.guarded() as stdout:
        code = _run(argv)
        with contextlib.suppress(streams.StdoutError):
            stdout.flush()  # what is still buffered fails here, not at exit
        if stdout.error is not None:
            message = f"cannot write the report to stdout: {stdout.error.reason}"
            click.echo(f"burnlint: error: {message}", err=True)
            code = EXIT_ERROR
    sys.exit(code)


def _run(argv: Sequence[str] | None) -> int:
    """The command's exit code; every exception but ``SystemExit`` turned into a message."""
    code: int
    try:
        result = cli.main(
            args=list(argv) if argv is not None else None,
            prog_name="burnlint",
            standalone_mode=False,
        )
        code = result if isinstance(result, int) else EXIT_OK
    except streams.StdoutError:
        code = EXIT_ERROR  # said by `main`
    except click.ClickException as exc:
        exc.show()
        code = exc.exit_code
    except (click.exceptions.Abort, KeyboardInterrupt):
        click.echo("burnlint: interrupted", err=True)
        code = 130
    except Exception as exc:
        if debug_enabled():
            raise
        click.echo(internal_error_message(exc), err=True)
        code = EXIT_ERROR
    return code
