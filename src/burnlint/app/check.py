"""One ``burnlint check``: the configuration of each path, the engine once per configuration,
the post-run actions (``--diff``, ``--fix``, ``--add-allow``, ``--baseline``), the outputs and
the exit code.

``run_check`` never prints or exits: what is to be printed comes back as messages, in order
(and goes to ``emit`` as it comes), with the result, the reports rendered and the exit code.
A request that cannot run as asked raises ``RequestError`` before anything runs.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from burnlint import __version__
from burnlint.app import EXIT_ERROR, EXIT_FINDINGS, EXIT_OK
from burnlint.app.baseline import compared, load_or_problem, summary, with_problem, write_baseline
from burnlint.app.console import Console, Emit, Message, Stream, internal_error_message
from burnlint.app.inputs import run_inputs
from burnlint.app.outputs import (
    Output,
    check_output_paths,
    check_stdout_outputs,
    refuse_inputs,
    write_output,
)
from burnlint.app.request import CheckRequest, RequestError, is_stdout
from burnlint.engine.cache import Cache, default_cache_dir
from burnlint.findings import Level, LintResult, Notification, NotificationKind
from burnlint.paths import default_project_root
from burnlint.report import FORMATS, ReportContext, preload

if TYPE_CHECKING:
    from burnlint.config import CliSettings, Plan, Problem
    from burnlint.options import EngineOptions

# Terminal formats: with any other (or with -o), configuration problems also go to stderr.
_TERMINAL_FORMATS = ("text", "concise")


@dataclass(frozen=True)
class CheckOutcome:
    """What a check did: the ``result`` as reported (with a baseline, the new findings), the
    reports rendered (``outputs``: those written to files, and the one for stdout when it is
    printed), everything for the terminal in order (``messages``), and the exit code."""

    result: LintResult
    outputs: tuple[Output, ...]
    messages: tuple[Message, ...]
    exit_code: int


def run_check(request: CheckRequest, emit: Emit | None = None) -> CheckOutcome:
    """Check what ``request`` names, as it asks. ``emit`` gets each message as soon as it is
    made (a warning before a long run, a crash when it happens)."""
    console = Console(emit)
    root = (request.project_root or default_project_root()).resolve()
    stdin = _stdin_source(request)
    if request.add_allow and request.diff:
        raise RequestError("--add-allow writes files; it cannot be used with --diff")
    if request.diff and request.report_file is None and request.format_given:
        raise RequestError(
            "--diff prints the diff on stdout: write the report to a file with "
            "-o FILE or --output-format FORMAT=FILE"
        )
    check_stdout_outputs(
        request.output,
        request.extra_outputs,
        diff=request.diff,
        write_baseline=request.write_baseline,
    )
    if request.unsafe_fixes and not (request.fix or request.diff):
        console.warning("--unsafe-fixes does nothing without --fix or --diff")
    reports = [
        *((("-o", request.output),) if request.output is not None else ()),
        *((f"--output-format {name}=", path) for name, path in request.extra_outputs),
    ]
    check_output_paths(reports, request.baseline, request.write_baseline)
    targets = (stdin[0],) if stdin is not None else request.paths or (Path("."),)
    baseline, baseline_problem = load_or_problem(request.baseline)
    plan = plan_runs(targets, request.settings, request.config_file, root)
    refuse_inputs(
        [
            *reports,
            *((("--write-baseline", request.write_baseline),) if request.write_baseline else ()),
        ],
        lambda: run_inputs(
            plan,
            targets,
            root,
            stdin_path=stdin[0] if stdin is not None else None,
            config_file=request.config_file,
        ),
        root,
    )
    jobs = request.jobs or (os.cpu_count() or 1)
    cache_dir = None
    if request.cache:
        cache_dir = Path(os.path.abspath(request.cache_dir or default_cache_dir(root)))
    engine = _Engine(
        [
            (
                settings.engine_options(
                    root, prefilter=request.prefilter, jobs=jobs, cache_dir=cache_dir
                ),
                group,
            )
            for settings, group in plan.groups
        ],
        console,
        debug=request.debug,
    )
    to_terminal = request.report_file is None and request.output_format in _TERMINAL_FORMATS
    if plan.problems:
        # Nothing runs with a broken configuration, but every requested output is written
        # (a SARIF with executionSuccessful: false and the problem as a configuration
        # notification). Outside a terminal report the problems go to stderr as well.
        if not to_terminal:
            report_problems(plan.problems, root, console)
        result = LintResult(
            findings=(),
            notifications=tuple(problem.notification() for problem in plan.problems),
        )
    elif stdin is not None:
        result = engine.source(*stdin)
    else:
        # the output formats' imports (sarif-om's classes) are paid while workers check crates
        formats = [request.output_format, *(name for name, _ in request.extra_outputs)]
        result = engine.run(meanwhile=lambda: preload(formats))

    would_fix = 0
    # a file whose bytes are not those checked: changed since, or a stale cache entry
    stale = Cache(cache_dir).drop_stale if cache_dir is not None else None
    if request.diff:
        from burnlint.app.fix import preview

        would_fix = preview(
            result,
            root=root,
            unsafe=request.unsafe_fixes,
            console=console,
            stale=stale,
            quiet=request.quiet,
        )
    if request.fix and not request.diff and not plan.problems:
        from burnlint.app.fix import fix_until_stable

        result = fix_until_stable(
            result,
            root=root,
            unsafe=request.unsafe_fixes,
            recheck=engine.run,
            console=console,
            stale=stale,
            quiet=request.quiet,
        )
    if request.add_allow and not plan.problems and baseline_problem is None:
        from burnlint.app.add_allow import add_allow_comments

        reported = compared(result, baseline, targets, root) if baseline is not None else result
        result = add_allow_comments(
            result,
            reported.findings,
            root=root,
            recheck=engine.run,
            console=console,
            quiet=request.quiet,
            stale=stale,
        )
    complete = result  # every finding, for --write-baseline
    if baseline is not None:
        result = compared(result, baseline, targets, root)
    elif baseline_problem is not None:
        result = with_problem(result, baseline_problem)
        if not to_terminal:
            console.error(baseline_problem)

    for problem in result.cache_problems:
        console.warning(problem)  # on stderr: a report never depends on the cache
    outputs, on_stdout = _write_reports(request, result, complete, root, console)
    if baseline is not None and not request.quiet and result.baseline is not None:
        console.err(f"burnlint: {summary(result.baseline)}")
    if request.statistics:
        from burnlint.app import statistics

        # after a terminal report on stdout; beside a machine-readable one or the diff, on
        # stderr
        on_stderr = request.diff or (
            on_stdout is not None and on_stdout[0] not in _TERMINAL_FORMATS
        )
        separate = not on_stderr and on_stdout is not None and bool(on_stdout[1])
        stream = Stream.STDERR if on_stderr else Stream.STDOUT
        text = ("\n" if separate else "") + statistics.render(result)
        console.say(Message(text, stream, newline=False))
    counts = result.stats
    found_nothing = counts.files_checked == 0 and counts.files_skipped == 0
    if found_nothing and result.successful and not request.quiet:
        shown = ", ".join(f"`{p.as_posix()}`" for p in targets)
        console.warning(f"no Rust files found in {shown}")
    if request.diff:
        # 1 when --fix would change something, as ruff does; 2 for an incomplete check
        code = (EXIT_FINDINGS if would_fix else EXIT_OK) if _complete(result) else EXIT_ERROR
    else:
        code = exit_code(result, request.fail_on, request.exit_zero)
    written = all(output.written for output in outputs)
    return CheckOutcome(result, outputs, tuple(console.messages), code if written else EXIT_ERROR)


def exit_code(result: LintResult, fail_on: Level, exit_zero: bool) -> int:
    """2 when the run was not successful or every file found was skipped (even with
    ``--exit-zero``: an incomplete check must not pass for a clean one), else 1 when a finding
    is at or above ``fail_on``, else 0."""
    if not _complete(result):
        return EXIT_ERROR
    if exit_zero:
        return EXIT_OK
    if any(finding.level.at_least(fail_on) for finding in result.findings):
        return EXIT_FINDINGS
    return EXIT_OK


def nothing_checked(result: LintResult) -> bool:
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


def _complete(result: LintResult) -> bool:
    """A successful run that checked something (``nothing_checked``)."""
    return result.successful and not nothing_checked(result)


def plan_runs(
    targets: Sequence[Path], settings: CliSettings, config_file: Path | None, root: Path
) -> Plan:
    """The configuration of each path (``config.plan``); a mistake on the command line itself
    is a ``RequestError``, a problem in a configuration file is left in the plan."""
    from burnlint import config as configuration

    plan = configuration.plan(targets, settings, project_root=root, config_file=config_file)
    for problem in plan.problems:
        if problem.path is None:
            raise RequestError(problem.message)
    return plan


def report_problems(problems: Iterable[Problem], root: Path, console: Console) -> None:
    """Configuration problems, one error line each, their files shown relative to ``root``."""
    from burnlint import config as configuration

    for problem in problems:
        shown = configuration.display(problem.path, root) if problem.path else None
        console.error(problem.text(shown))


def _stdin_source(request: CheckRequest) -> tuple[Path, bytes] | None:
    """``--stdin-filename PATH`` (with no PATHS, or `-`): PATH and the bytes read from stdin."""
    dash = Path("-")
    if request.stdin_filename is None:
        if dash in request.paths:
            raise RequestError(
                "`-` reads the source from stdin: give --stdin-filename PATH as well"
            )
        return None
    if request.paths and tuple(request.paths) != (dash,):
        raise RequestError(
            "--stdin-filename checks the source read from stdin: give no PATHS, or `-`"
        )
    if request.edits_files:
        raise RequestError("--fix, --diff and --add-allow edit files: they cannot check stdin")
    return request.stdin_filename, request.read_stdin()


class _Engine:
    """The engine's runs for one check: once per configuration (paths under different
    configuration files, two crates with their own `[package.metadata.burnlint]`, are checked
    with their own settings), merged. An unexpected exception in the engine becomes a result
    too, so that every output is still written: the one place one is caught."""

    def __init__(
        self,
        runs: Sequence[tuple[EngineOptions, Sequence[Path]]],
        console: Console,
        *,
        debug: bool,
    ) -> None:
        self.runs = runs
        self.console = console
        self.debug = debug

    def run(self, meanwhile: Callable[[], object] | None = None) -> LintResult:
        """Every path of the plan; ``meanwhile`` runs while the engine's workers check."""
        return LintResult.merge(
            *(self._paths(paths, options, meanwhile) for options, paths in self.runs)
        )

    def source(self, path: Path, data: bytes) -> LintResult:
        """A source read from stdin, checked as ``path``."""
        from burnlint import engine

        return self._guarded(lambda: engine.lint_source(path, data, self.runs[0][0]))

    def _paths(
        self,
        paths: Sequence[Path],
        options: EngineOptions,
        meanwhile: Callable[[], object] | None,
    ) -> LintResult:
        if not any(os.path.exists(path) for path in paths):
            # Nothing to check: the notifications explain why, the engine is not needed.
            from burnlint.project.discover import discover

            return LintResult(findings=(), notifications=discover(paths).notifications)
        from burnlint import engine

        return self._guarded(lambda: engine.lint_paths(paths, options, meanwhile=meanwhile))

    def _guarded(self, check: Callable[[], LintResult]) -> LintResult:
        try:
            return check()
        except Exception as exc:
            # one line on stderr, an error notification in every report (so that an upload
            # step still finds its SARIF, with executionSuccessful: false)
            if self.debug:
                raise
            message = internal_error_message(exc)
            self.console.err(message)
            crash = Notification(
                path=None,
                message=message.removeprefix("burnlint: "),
                kind=NotificationKind.INTERNAL,
                level=Level.ERROR,
            )
            return LintResult(findings=(), notifications=(crash,))


def _write_reports(
    request: CheckRequest,
    result: LintResult,
    complete: LintResult,
    root: Path,
    console: Console,
) -> tuple[tuple[Output, ...], tuple[str, str] | None]:
    """Every requested report, whatever the result (``outputs.py``): the extra outputs, the
    baseline to write (``complete``: every finding), then the report itself, to its file or to
    stdout (but with --diff, whose diff holds stdout). The reports, and the format and text of
    the one on stdout (``check_stdout_outputs``: one at most)."""
    outputs: list[Output] = []
    on_stdout: tuple[str, str] | None = None

    def context(color: bool, *, quiet: bool = request.quiet) -> ReportContext:
        return ReportContext(
            color=color,
            project_root=root,
            tool_version=__version__,
            quiet=quiet,
            category=request.category,
        )

    for name, path in request.extra_outputs:
        text = FORMATS[name](result, context(False))
        if is_stdout(path):
            console.out(text, newline=False)
            outputs.append(Output(name, None, text))
            on_stdout = (name, text)
        else:
            outputs.append(Output(name, path, text, write_output(path, text, console)))
    if request.write_baseline is not None:
        baseline = write_baseline(
            request.write_baseline,
            complete,
            complete=_complete(complete),
            ctx=context(False, quiet=False),
            quiet=request.quiet,
            console=console,
        )
        if baseline is not None:
            outputs.append(baseline)
            if baseline.path is None:  # `--write-baseline -`
                on_stdout = (baseline.format, baseline.text)
    rendered = FORMATS[request.output_format](result, context(request.color))
    if request.report_file is not None:
        ok = write_output(request.report_file, rendered, console)
        outputs.append(Output(request.output_format, request.report_file, rendered, ok))
    elif not request.diff:
        console.out(rendered, newline=False, color=request.color)
        outputs.append(Output(request.output_format, None, rendered))
        on_stdout = (request.output_format, rendered)
    return tuple(outputs), on_stdout
