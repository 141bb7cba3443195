"""``burnlint check``: its options -> a request -> ``app.check`` -> printed messages and the
exit code."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from pathlib import Path

import click

from burnlint.cli.common import (
    cli_settings,
    debug_enabled,
    echo_message,
    existing_directory,
    fail,
    require_working_directory,
    settings_options,
)
from burnlint.findings import Level
from burnlint.report import FORMATS

# The most worker processes `--jobs` may ask for: more than any machine has CPUs, and a bound
# that keeps a value such as 99999999999999999999 from splitting the files into that many
# shares (the run hung) or forking that many processes.
MAX_JOBS = 1024


def _use_color(choice: str, to_file: bool) -> bool:
    if choice == "always":
        return True
    if choice == "never" or to_file:
        return False
    # https://no-color.org: set and non-empty disables colour.
    if os.environ.get("NO_COLOR"):
        return False
    return sys.stdout.isatty()


def _output_path(value: str) -> Path:
    """A report's file; a bare ``-`` is stdout (``request.STDOUT``)."""
    from burnlint.app.request import STDOUT

    return STDOUT if value == "-" else Path(value)


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
        parsed.append((name, _output_path(file)))
    return parsed


def _given(ctx: click.Context, name: str) -> bool:
    """Whether the option ``name`` was given (on the command line or in the environment),
    not left at its default."""
    from click.core import ParameterSource

    source = ctx.get_parameter_source(name)
    return source is not None and source not in (
        ParameterSource.DEFAULT,
        ParameterSource.DEFAULT_MAP,
    )


@click.command("check")
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path, readable=False))
@settings_options
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
    type=click.Path(dir_okay=False, allow_dash=True),
    callback=lambda _ctx, _param, value: None if value is None else _output_path(value),
    help="Write the report to FILE instead of stdout (`-`: stdout; a regular file is replaced "
    "atomically; a device, a FIFO or /dev/stdout is written into).",
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
    type=click.IntRange(min=0, max=MAX_JOBS),
    default=0,
    help="Worker processes [default: 0, one per CPU]; 1 checks everything in this process. "
    "Workers start only when enough files mention burn-store to pay for them.",
)
@click.option(
    "--project-root",
    type=click.Path(path_type=Path),
    callback=lambda _ctx, _param, value: existing_directory("--project-root", value),
    help="Report paths relative to DIR [default: the git work tree, else the current dir].",
)
@click.option("--no-prefilter", is_flag=True, hidden=True)
@click.option(
    "-n",
    "--no-cache",
    is_flag=True,
    help="Neither read nor write the cache of unchanged files' facts and findings.",
)
@click.option(
    "--cache-dir",
    type=click.Path(file_okay=False, path_type=Path),
    envvar="BURNLINT_CACHE_DIR",
    show_envvar=True,
    help="Keep the cache in DIR [default: .burnlint_cache in the project root].",
)
@click.option(
    "--color",
    type=click.Choice(["auto", "always", "never"]),
    default="auto",
    show_default=True,
    help="Colour the output (auto: on a terminal and when NO_COLOR is unset).",
)
@click.option(
    "-q",
    "--quiet",
    is_flag=True,
    help="Print findings and errors only: no summary line, no count of fixes.",
)
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
    "e.g. `--output-format sarif=burnlint.sarif`; FILE `-` is stdout.",
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
    type=click.Path(dir_okay=False, allow_dash=True),
    callback=lambda _ctx, _param, value: None if value is None else _output_path(value),
    metavar="FILE",
    help="Write every finding of this run to FILE, for --baseline (SARIF when FILE ends in "
    "`.sarif`, else JSON; `-`: JSON on stdout).",
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
    no_cache: bool,
    cache_dir: Path | None,
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
    require_working_directory()
    from burnlint.app.check import run_check
    from burnlint.app.request import CheckRequest, RequestError, is_stdout

    def request_file(path: Path | None) -> Path | None:
        return None if is_stdout(path) else path

    overrides = cli_settings(
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
        cache=not no_cache,
        cache_dir=cache_dir,
        color=_use_color(color, to_file=request_file(output) is not None),
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
        debug=debug_enabled(),
    )
    try:
        outcome = run_check(request, emit=echo_message)
    except RequestError as exc:
        fail(str(exc))
    raise click.exceptions.Exit(outcome.exit_code)
