"""The command line: arguments -> options -> engine -> reporter -> output -> exit code.

Only this module prints or exits. ``burnlint --version`` and ``--help`` must stay fast, so
everything that pulls in tree-sitter (the engine, the rules, the model) is imported inside the
commands that need it.
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import click

from burnlint import __version__
from burnlint.findings import Finding, Level, LintResult, Notification, NotificationKind
from burnlint.report import FORMATS, ReportContext, preload

if TYPE_CHECKING:
    from burnlint.app.baseline import Baseline
    from burnlint.config import CliSettings, Plan, Problem
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


def _default_project_root() -> Path:
    """The git work tree around the current directory, else the current directory. The work
    tree is the nearest directory holding a ``.git`` (a directory, or the file of a linked
    worktree or a submodule): what ``git rev-parse --show-toplevel`` answers, without the
    cost of starting git at every run."""
    cwd = Path.cwd()
    for directory in (cwd, *cwd.parents):
        if os.path.lexists(directory / ".git"):
            return directory
    return cwd


def exit_code(result: LintResult, fail_on: Level, exit_zero: bool) -> int:
    """2 when the run was not successful or every file found was skipped (even with
    ``--exit-zero``: an incomplete check must not pass for a clean one), else 1 when a finding
    is at or above ``fail_on``, else 0."""
    if not result.successful or _nothing_checked(result):
        return EXIT_ERROR
    if exit_zero:
        return EXIT_OK
    if any(finding.level.at_least(fail_on) for finding in result.findings):
        return EXIT_FINDINGS
    return EXIT_OK


def _nothing_checked(result: LintResult) -> bool:
    """Rust files were found, but every one was skipped, whatever the reason (unreadable,
    binary, not UTF-8, over ``max-file-size``): nothing the user asked for was checked, and a
    run that checked nothing must not pass for a clean one.

    A skipped file is a warning (or, for its size, a note) while other files are checked.
    """
    return result.stats.files_checked == 0 and (
        result.stats.files_skipped > 0
        or any(
            n.kind is NotificationKind.FILE and n.level is not Level.NOTE
            for n in result.notifications
        )
    )


def _run_engine(
    paths: Sequence[Path], options: EngineOptions, meanwhile: Callable[[], object] | None = None
) -> LintResult:
    """The engine's result; a crash becomes a result too, so that outputs are still written.
    ``meanwhile`` runs while the engine's workers check the crates."""
    if not any(os.path.exists(path) for path in paths):
        # Nothing to check: the notifications explain why, the engine is not needed.
        from burnlint.discover import discover

        return LintResult(findings=(), notifications=discover(paths).notifications)
    from burnlint import engine

    try:
        return engine.lint_paths(paths, options, meanwhile=meanwhile)
    except Exception as exc:
        return _crash_result(exc)


def _crash_result(exc: Exception) -> LintResult:
    """An engine crash as a result: one line on stderr, an error notification in every report
    (so that an upload step still finds its SARIF, with executionSuccessful: false)."""
    if _debug():
        raise exc
    message = _internal_error_message(exc)
    click.echo(message, err=True)
    crash = Notification(
        path="",
        message=message.removeprefix("burnlint: "),
        kind=NotificationKind.INTERNAL,
        level=Level.ERROR,
    )
    return LintResult(findings=(), notifications=(crash,))


# The engine runs once per configuration: paths under different configuration files (two
# crates with their own `[package.metadata.burnlint]`) are checked with their own settings.
_Runs = Sequence[tuple["EngineOptions", Sequence[Path]]]


def _run_all(runs: _Runs, meanwhile: Callable[[], object] | None = None) -> LintResult:
    return LintResult.merge(*(_run_engine(paths, options, meanwhile) for options, paths in runs))


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


def _write_output(output: Path, text: str) -> bool:
    """Write one output; on failure say why on stderr and return False (the other outputs
    are still written, and the run exits 2)."""
    from burnlint.fsutil import write_report

    try:
        write_report(output, text)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        click.echo(f"burnlint: error: cannot write `{output}`: {reason}", err=True)
        return False
    return True


def _check_output_paths(
    outputs: Sequence[tuple[str, Path]], baseline: Path | None, write_baseline: Path | None
) -> None:
    """Refuse, before anything runs, an output that would replace the baseline being read
    (the next run would call every accepted finding new) or a file another output writes.
    ``outputs``: (option, file) pairs; an option ending in ``=`` is shown with its file."""

    def shown(option: str, path: Path) -> str:
        return f"`{option}{path}`" if option.endswith("=") else f"`{option} {path}`"

    if baseline is not None and _regular_or_missing(baseline):
        for option, path in outputs:
            if _same_file(path, baseline):
                _fail(
                    f"{shown(option, path)} would replace the baseline being read with a "
                    f"report of the new findings only; to update the baseline, use "
                    f"`--write-baseline {baseline}`"
                )
    named = [*outputs, *((("--write-baseline", write_baseline),) if write_baseline else ())]
    for index, (option, path) in enumerate(named):
        for other_option, other in named[:index]:
            if _regular_or_missing(path) and _same_file(path, other):
                _fail(f"{shown(other_option, other)} and {shown(option, path)} write the same file")


def _regular_or_missing(path: Path) -> bool:
    """A path a report replaces (a device or a FIFO can take several outputs)."""
    import stat

    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return True


def _same_file(one: Path, other: Path) -> bool:
    try:
        return os.path.samefile(one, other)
    except OSError:  # one of them does not exist (yet): compare where they would be
        return os.path.normcase(os.path.realpath(one)) == os.path.normcase(os.path.realpath(other))


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


def _settings_options(command: Any) -> Any:
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

    overrides = _cli_settings(
        select, ignore, extend_select, exclude, extend_exclude, respect_gitignore,
        force_exclude, max_file_size,
    )  # fmt: skip
    root = (project_root or _default_project_root()).resolve()
    stdin = _stdin_source(paths, stdin_filename, writes=fix or diff or add_allow)
    if add_allow and diff:
        _fail("--add-allow writes files; it cannot be used with --diff")
    if diff and output is None and _given(click.get_current_context(), "output_format"):
        _fail(
            "--diff prints the diff on stdout: write the report to a file with "
            "-o FILE or --output-format FORMAT=FILE"
        )
    if unsafe_fixes and not (fix or diff):
        click.echo(
            "burnlint: warning: --unsafe-fixes does nothing without --fix or --diff", err=True
        )
    _check_output_paths(
        [
            *((("-o", output),) if output is not None else ()),
            *((f"--output-format {name}=", path) for name, path in extra_outputs),
        ],
        baseline_file,
        write_baseline,
    )
    targets = (stdin[0],) if stdin is not None else paths or (Path("."),)
    baseline, baseline_problem = _load_baseline(baseline_file)
    plan = _plan(targets, overrides, config_file, root)
    workers = jobs or (os.cpu_count() or 1)
    runs = [
        (settings.engine_options(root, prefilter=not no_prefilter, jobs=workers), group)
        for settings, group in plan.groups
    ]
    if plan.problems:
        # Nothing runs with a broken configuration, but every requested output is written
        # (a SARIF with executionSuccessful: false and the problem as a configuration
        # notification). Outside a terminal report the problems go to stderr as well.
        if output is not None or output_format not in ("text", "concise"):
            _echo_problems(plan.problems, root)
        result = LintResult(
            findings=(),
            notifications=tuple(problem.notification(root) for problem in plan.problems),
        )
    elif stdin is not None:
        result = _run_stdin(stdin[0], stdin[1], runs[0][0])
    else:
        # the output formats' imports (sarif-om's classes) are paid while workers check crates
        formats = [output_format, *(name for name, _ in extra_outputs)]
        result = _run_all(runs, meanwhile=lambda: preload(formats))
    would_fix = _print_diff(result, root, unsafe_fixes) if diff else 0
    if fix and not diff and not plan.problems:
        result = _fix_until_stable(runs, root, result, unsafe_fixes)
    if add_allow and not plan.problems and baseline_problem is None:
        result = _add_allow(runs, root, result, baseline, targets, quiet)
    complete = result  # every finding, for --write-baseline
    if baseline is not None:
        result = _compare(result, baseline, targets, root)
    elif baseline_problem is not None:
        result = _with_problem(result, baseline_problem)
        if output is not None or output_format not in ("text", "concise"):
            click.echo(f"burnlint: error: {baseline_problem}", err=True)

    use_color = _use_color(color, to_file=output is not None)
    context = ReportContext(
        color=use_color,
        project_root=root,
        tool_version=__version__,
        quiet=quiet,
        category=category,
    )
    # Every requested output is written, whatever the result: an upload step after a failed
    # run still finds its SARIF file (with executionSuccessful: false). One that cannot be
    # written does not keep the others from being written; the run then exits 2.
    written = True
    for extra_format, extra_path in extra_outputs:
        plain = ReportContext(
            color=False,
            project_root=root,
            tool_version=__version__,
            quiet=quiet,
            category=category,
        )
        written &= _write_output(extra_path, FORMATS[extra_format](result, plain))
    if write_baseline is not None:
        written &= _write_baseline(write_baseline, complete, root, category, quiet)
    rendered = FORMATS[output_format](result, context)
    if output is not None:
        written &= _write_output(output, rendered)
    elif not diff:  # with --diff, stdout holds the diff
        click.echo(rendered, nl=False, color=use_color)
    if baseline is not None and not quiet:
        from burnlint.app import baseline as baselines

        if result.baseline is not None:
            click.echo(f"burnlint: {baselines.summary(result.baseline)}", err=True)
    if statistics:
        from burnlint.app import statistics as stats

        # after a terminal report on stdout; beside a machine-readable one, on stderr
        to_stderr = diff or (output is None and output_format not in ("text", "concise"))
        separate = output is None and not to_stderr and bool(rendered)
        click.echo(("\n" if separate else "") + stats.render(result), nl=False, err=to_stderr)

    counts = result.stats
    if counts.files_checked == 0 and counts.files_skipped == 0 and result.successful and not quiet:
        shown = ", ".join(f"`{p.as_posix()}`" for p in targets)
        click.echo(f"burnlint: warning: no Rust files found in {shown}", err=True)
    if diff:
        # 1 when --fix would change something, as ruff does; 2 for an incomplete check
        complete_run = result.successful and not _nothing_checked(result)
        code = (EXIT_FINDINGS if would_fix else EXIT_OK) if complete_run else EXIT_ERROR
    else:
        code = exit_code(result, Level(fail_on), exit_zero)
    raise click.exceptions.Exit(code if written else EXIT_ERROR)


def _given(ctx: click.Context, name: str) -> bool:
    """Whether the option ``name`` was given (on the command line or in the environment),
    not left at its default."""
    from click.core import ParameterSource

    source = ctx.get_parameter_source(name)
    return source is not None and source not in (
        ParameterSource.DEFAULT,
        ParameterSource.DEFAULT_MAP,
    )


def _hidden_fixes(findings: Iterable[Finding]) -> int:
    """Fixes left out for want of ``--unsafe-fixes``."""
    from burnlint.findings import Applicability

    return sum(
        1
        for finding in findings
        if finding.fix is not None and finding.fix.applicability is Applicability.UNSAFE
    )


def _fix_count(verb: str, count: int, hidden: int) -> str:
    """``fixed 2 problems (1 more fix with `--unsafe-fixes`)``."""
    text = f"{verb} {count} problem{'s' if count != 1 else ''}"
    if hidden:
        more = "more " if count else ""
        text += f" ({hidden} {more}fix{'es' if hidden != 1 else ''} with `--unsafe-fixes`)"
    return text


def _stdin_source(
    paths: Sequence[Path], stdin_filename: Path | None, *, writes: bool
) -> tuple[Path, bytes] | None:
    """``--stdin-filename PATH`` (with no PATHS, or `-`): PATH and the bytes read from stdin."""
    dash = Path("-")
    if stdin_filename is None:
        if dash in paths:
            _fail("`-` reads the source from stdin: give --stdin-filename PATH as well")
        return None
    if paths and tuple(paths) != (dash,):
        _fail("--stdin-filename checks the source read from stdin: give no PATHS, or `-`")
    if writes:
        _fail("--fix, --diff and --add-allow edit files: they cannot check stdin")
    return stdin_filename, sys.stdin.buffer.read()


def _run_stdin(path: Path, data: bytes, options: EngineOptions) -> LintResult:
    """The engine's result for a source read from stdin (a crash becomes a result too)."""
    from burnlint import engine

    try:
        return engine.lint_source(path, data, options)
    except Exception as exc:
        return _crash_result(exc)


def _load_baseline(file: Path | None) -> tuple[Baseline | None, str | None]:
    """The baseline, or why it cannot be used (a configuration error: the run goes on, so that
    every output is written, and exits 2)."""
    if file is None:
        return None, None
    from burnlint.app.baseline import BaselineError, load

    try:
        return load(file), None
    except BaselineError as exc:
        return None, str(exc)


def _write_baseline(
    file: Path, result: LintResult, root: Path, category: str | None, quiet: bool
) -> bool:
    """``--write-baseline``: every finding of a complete run (an incomplete one would replace
    a good baseline with a partial one), as SARIF for a ``.sarif`` file, else as JSON. False
    when the file could not be written."""
    shown = file.as_posix()
    if not result.successful or _nothing_checked(result):
        click.echo(f"burnlint: error: `{shown}` not written: the check did not complete", err=True)
        return True  # the run exits 2 anyway, for the reason that left it incomplete
    plain = ReportContext(
        color=False, project_root=root, tool_version=__version__, category=category
    )
    kind = "sarif" if file.suffix.lower() == ".sarif" else "json"
    if not _write_output(file, FORMATS[kind](result, plain)):
        return False
    if not quiet:
        count = len(result.findings)
        click.echo(
            f"burnlint: wrote {count} finding{'s' if count != 1 else ''} to `{shown}`", err=True
        )
    return True


def _compare(
    result: LintResult, baseline: Baseline, targets: Sequence[Path], root: Path
) -> LintResult:
    from burnlint.app.baseline import apply, compare, under

    return apply(result, compare(result, baseline, root=root, in_scope=under(targets, root)))


def _with_problem(result: LintResult, message: str) -> LintResult:
    from dataclasses import replace

    problem = Notification(
        path="", message=message, kind=NotificationKind.CONFIG, level=Level.ERROR
    )
    return replace(result, notifications=(problem, *result.notifications))


def _add_allow(
    runs: _Runs,
    root: Path,
    result: LintResult,
    baseline: Baseline | None,
    targets: Sequence[Path],
    quiet: bool,
) -> LintResult:
    """``--add-allow``: comments above the findings that would be reported (with a baseline,
    the new ones), then the files are checked again."""
    from burnlint.app.add_allow import add_allows

    reported = _compare(result, baseline, targets, root) if baseline is not None else result
    outcome = add_allows(reported.findings, root=root, digests=result.digests)
    if outcome.total:
        result = _run_all(runs)
    if not quiet:
        files = len(outcome.covered)
        click.echo(
            f"burnlint: added allow comments for {outcome.total} "
            f"finding{'s' if outcome.total != 1 else ''} in {files} "
            f"file{'s' if files != 1 else ''}",
            err=True,
        )
    if outcome.notifications:
        result = result.with_notifications(outcome.notifications)
    return result


def _print_diff(result: LintResult, root: Path, unsafe: bool) -> int:
    """``--diff``: show what ``--fix`` would change on stdout, edit nothing; the number of
    fixes it would apply."""
    from burnlint.app.fix import fix_files

    outcome = fix_files(
        result.findings, root=root, digests=result.digests, unsafe=unsafe, write=False
    )
    click.echo("".join(outcome.diffs), nl=False)
    for note in outcome.notifications:
        click.echo(f"burnlint: warning: {note.path}: {note.message}", err=True)
    count = outcome.total
    hidden = 0 if unsafe else _hidden_fixes(result.findings)
    if count or hidden:
        click.echo(_fix_count("would fix", count, hidden), err=True)
    return count


# Fixes are applied, the files checked again, and so on: a fix skipped because it overlapped
# another is applied in the next pass. Each pass fixes at least one thing or stops.
_MAX_FIX_PASSES = 4


def _fix_until_stable(runs: _Runs, root: Path, result: LintResult, unsafe: bool) -> LintResult:
    from burnlint.app.fix import fix_files

    notes: list[Notification] = []
    fixed = 0
    for _ in range(_MAX_FIX_PASSES):
        outcome = fix_files(
            result.findings, root=root, digests=result.digests, unsafe=unsafe, write=True
        )
        notes.extend(outcome.notifications)
        if outcome.total == 0:
            break
        fixed += outcome.total
        result = _run_all(runs)
    hidden = 0 if unsafe else _hidden_fixes(result.findings)
    if fixed or hidden:
        click.echo(_fix_count("fixed", fixed, hidden), err=True)
    if notes:
        result = result.with_notifications(notes)
    return result


def _echo_problems(problems: Iterable[Problem], root: Path) -> None:
    """Configuration problems on stderr, one line each, their files shown relative to
    ``root``."""
    from burnlint import config as configuration

    for problem in problems:
        shown = configuration.display(problem.path, root) if problem.path else None
        click.echo(f"burnlint: error: {problem.text(shown)}", err=True)


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


def _plan(
    targets: Sequence[Path], overrides: CliSettings, config_file: Path | None, root: Path
) -> Plan:
    """The configuration of each path; a command-line mistake is a usage error (exit 2)."""
    from burnlint import config as configuration

    plan = configuration.plan(targets, overrides, project_root=root, config_file=config_file)
    for problem in plan.problems:
        if problem.path is None:
            _fail(problem.message)
    return plan


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

    overrides = _cli_settings(
        select, ignore, extend_select, exclude, extend_exclude, respect_gitignore,
        force_exclude, max_file_size,
    )  # fmt: skip
    root = (project_root or _default_project_root()).resolve()
    plan = _plan(paths or (Path("."),), overrides, config_file, root)
    if plan.problems:
        _echo_problems(plan.problems, root)
        raise click.exceptions.Exit(EXIT_ERROR)
    for index, (settings, group) in enumerate(plan.groups):
        if index:
            click.echo("")
        click.echo(configuration.render_settings(settings, group, root), nl=False)


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
