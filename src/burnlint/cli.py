"""The command line: arguments -> options -> engine -> reporter -> output -> exit code.

Only this module prints or exits. ``burnlint --version`` and ``--help`` must stay fast, so
everything that pulls in tree-sitter (the engine, the rules, the model) is imported inside the
commands that need it.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import click

from burnlint import __version__
from burnlint.findings import Level, LintResult, Notification, NotificationKind
from burnlint.report import FORMATS, ReportContext

if TYPE_CHECKING:
    from burnlint.options import EngineOptions

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_ERROR = 2

DEBUG_ENV = "BURNLINT_DEBUG"
_GROUP_OPTIONS = frozenset({"-h", "--help", "--version"})


def _debug() -> bool:
    return os.environ.get(DEBUG_ENV, "") not in ("", "0")


def _internal_error_message(exc: BaseException) -> str:
    detail = " ".join(str(exc).split())
    what = f"{type(exc).__name__}: {detail}" if detail else type(exc).__name__
    return f"burnlint: internal error: {what} (set {DEBUG_ENV}=1 for a traceback)"


def _fail(message: str) -> NoReturn:
    """A usage or configuration error the user can fix: one line on stderr, exit 2."""
    click.echo(f"burnlint: error: {message}", err=True)
    raise click.exceptions.Exit(EXIT_ERROR)


class _DefaultCommandGroup(click.Group):
    """``burnlint PATHS...`` means ``burnlint check PATHS...``.

    Anything that is neither a subcommand nor a group option starts the default command, so a
    directory named like a command (``rules``) needs ``burnlint check rules`` or ``./rules``.
    """

    default_command = "check"

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not args or (args[0] not in self.commands and args[0] not in _GROUP_OPTIONS):
            args = [self.default_command, *args]
        return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (click.exceptions.Exit, click.exceptions.Abort, click.ClickException):
            raise
        except Exception as exc:
            if _debug():
                raise
            click.echo(_internal_error_message(exc), err=True)
            raise click.exceptions.Exit(EXIT_ERROR) from None


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


def _default_project_root() -> Path:
    """The git work tree around the current directory, else the current directory."""
    try:
        proc = subprocess.run(
            ["git", "rev-parse", "--show-toplevel"],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return Path.cwd()
    top = proc.stdout.strip()
    if proc.returncode == 0 and top:
        return Path(top)
    return Path.cwd()


def exit_code(result: LintResult, fail_on: Level, exit_zero: bool) -> int:
    """2 when the run was not successful (even with ``--exit-zero``: an incomplete check must
    not pass for a clean one), else 1 when a finding is at or above ``fail_on``, else 0."""
    if not result.successful:
        return EXIT_ERROR
    if exit_zero:
        return EXIT_OK
    if any(finding.level.at_least(fail_on) for finding in result.findings):
        return EXIT_FINDINGS
    return EXIT_OK


def _run_engine(paths: Sequence[Path], options: EngineOptions) -> LintResult:
    """The engine's result; a crash becomes a result too, so that outputs are still written."""
    if not any(os.path.exists(path) for path in paths):
        # Nothing to check: the notifications explain why, the engine is not needed.
        from burnlint.discover import discover

        return LintResult(findings=(), notifications=discover(paths).notifications, files_checked=0)
    from burnlint import engine

    try:
        return engine.lint_paths(paths, options)
    except Exception as exc:
        if _debug():
            raise
        message = _internal_error_message(exc)
        click.echo(message, err=True)
        crash = Notification(
            path="",
            message=message.removeprefix("burnlint: "),
            kind=NotificationKind.INTERNAL,
            level=Level.ERROR,
        )
        return LintResult(findings=(), notifications=(crash,), files_checked=0)


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


def _write_output(output: Path, text: str) -> None:
    from burnlint.fsutil import write_text_atomic

    try:
        write_text_atomic(output, text)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        _fail(f"cannot write `{output}`: {reason}")


@cli.command("check")
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
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
    help="Write the report to FILE (atomically) instead of stdout.",
)
@click.option(
    "--select",
    multiple=True,
    metavar="RULES",
    help="Run only these rules (ids or names, comma-separated, repeatable; `ALL` for all).",
)
@click.option("--ignore", multiple=True, metavar="RULES", help="Do not run these rules.")
@click.option(
    "--extend-select",
    multiple=True,
    metavar="RULES",
    help="Run these rules as well as the selected ones (e.g. rules off by default).",
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
    default=1,
    show_default=True,
    help="Worker processes; 0 means one per CPU.",
)
@click.option(
    "--project-root",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
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
@click.option("--diff", is_flag=True, help="Print the fixes as a unified diff; write nothing.")
def check(
    paths: tuple[Path, ...],
    output_format: str,
    output: Path | None,
    select: tuple[str, ...],
    ignore: tuple[str, ...],
    extend_select: tuple[str, ...],
    fail_on: str,
    exit_zero: bool,
    jobs: int,
    project_root: Path | None,
    no_prefilter: bool,
    color: str,
    quiet: bool,
    extra_outputs: list[tuple[str, Path]],
    category: str | None,
    fix: bool,
    unsafe_fixes: bool,
    diff: bool,
) -> None:
    """Check the Rust files under PATHS (default: the current directory)."""
    from burnlint import rules
    from burnlint.options import EngineOptions

    try:
        rule_ids = rules.resolve_rules(
            _split_selectors(select) if select else None,
            _split_selectors(ignore),
            _split_selectors(extend_select),
        )
    except rules.UnknownRuleError as exc:
        _fail(str(exc))

    root = (project_root or _default_project_root()).resolve()
    options = EngineOptions(
        rule_ids=rule_ids,
        project_root=root,
        prefilter=not no_prefilter,
        jobs=jobs or (os.cpu_count() or 1),
    )
    targets = paths or (Path("."),)
    result = _run_engine(targets, options)
    if diff:
        _print_diff(result, root, unsafe_fixes)
    if fix:
        result = _fix_until_stable(targets, options, result, unsafe_fixes)

    use_color = _use_color(color, to_file=output is not None)
    context = ReportContext(
        color=use_color,
        project_root=root,
        tool_version=__version__,
        quiet=quiet,
        category=category,
    )
    # Every requested output is written, whatever the result: an upload step after a failed
    # run still finds its SARIF file (with executionSuccessful: false).
    for extra_format, extra_path in extra_outputs:
        plain = ReportContext(
            color=False,
            project_root=root,
            tool_version=__version__,
            quiet=quiet,
            category=category,
        )
        _write_output(extra_path, FORMATS[extra_format](result, plain))
    rendered = FORMATS[output_format](result, context)
    if output is not None:
        _write_output(output, rendered)
    else:
        click.echo(rendered, nl=False, color=use_color)

    if result.files_checked == 0 and result.files_skipped == 0 and result.successful and not quiet:
        shown = ", ".join(f"`{p.as_posix()}`" for p in targets)
        click.echo(f"burnlint: warning: no Rust files found in {shown}", err=True)
    raise click.exceptions.Exit(exit_code(result, Level(fail_on), exit_zero))


def _print_diff(result: LintResult, root: Path, unsafe: bool) -> NoReturn:
    """``--diff``: show what ``--fix`` would change, write nothing; exit 1 when it would."""
    from burnlint.fix import fix_files

    digests = result.extra.get("digests", {})
    assert isinstance(digests, dict)
    outcome = fix_files(result.findings, root=root, digests=digests, unsafe=unsafe, write=False)
    click.echo("".join(outcome.diffs), nl=False)
    for note in outcome.notifications:
        click.echo(f"burnlint: warning: {note.path}: {note.message}", err=True)
    count = outcome.total
    if count:
        click.echo(f"would fix {count} problem{'s' if count != 1 else ''}", err=True)
    raise click.exceptions.Exit(EXIT_FINDINGS if count else EXIT_OK)


# Fixes are applied, the files checked again, and so on: a fix skipped because it overlapped
# another is applied in the next pass. Each pass fixes at least one thing or stops.
_MAX_FIX_PASSES = 4


def _fix_until_stable(
    targets: Sequence[Path], options: EngineOptions, result: LintResult, unsafe: bool
) -> LintResult:
    from dataclasses import replace

    from burnlint.fix import fix_files

    notes: list[Notification] = []
    fixed = 0
    for _ in range(_MAX_FIX_PASSES):
        digests = result.extra.get("digests", {})
        assert isinstance(digests, dict)
        outcome = fix_files(
            result.findings, root=options.project_root, digests=digests, unsafe=unsafe, write=True
        )
        notes.extend(outcome.notifications)
        if outcome.total == 0:
            break
        fixed += outcome.total
        result = _run_engine(targets, options)
    if fixed:
        click.echo(f"fixed {fixed} problem{'s' if fixed != 1 else ''}", err=True)
    if notes:
        merged = tuple(
            sorted(set(result.notifications) | set(notes), key=lambda n: (n.path, n.message))
        )
        result = replace(result, notifications=merged)
    return result


@cli.command("rules")
def list_rules() -> None:
    """List every rule: id, name, level, whether it is on by default, whether it can fix."""
    from burnlint import rules

    rows = [("id", "name", "level", "default", "fixable")]
    rows += [
        (
            rule.id,
            rule.name,
            rule.level.value,
            "on" if rule.enabled_by_default else "off",
            "yes" if rule.fixable else "no",
        )
        for rule in rules.ALL_RULES
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
    from burnlint import docs, rules

    try:
        rule = rules.rule_by_selector(rule_id)
    except rules.UnknownRuleError as exc:
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
        click.echo(_internal_error_message(exc), err=True)
        code = EXIT_ERROR
    sys.exit(code)
