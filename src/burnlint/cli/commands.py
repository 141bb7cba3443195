"""The commands that report on the setup rather than check code: ``config``, ``rules`` and
``rule``; and ``server``, the language server."""

from __future__ import annotations

from pathlib import Path

import click

from burnlint.app import EXIT_ERROR
from burnlint.cli.common import (
    cli_settings,
    echo_message,
    existing_directory,
    fail,
    require_working_directory,
    settings_options,
)


@click.command("config")
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path, readable=False))
@settings_options
@click.option(
    "--project-root",
    type=click.Path(path_type=Path),
    callback=lambda _ctx, _param, value: existing_directory("--project-root", value),
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
    require_working_directory()
    from burnlint import config as configuration
    from burnlint.app.check import plan_runs, report_problems
    from burnlint.app.console import Console
    from burnlint.app.request import RequestError
    from burnlint.paths import default_project_root

    overrides = cli_settings(
        select, ignore, extend_select, exclude, extend_exclude, respect_gitignore,
        force_exclude, max_file_size,
    )  # fmt: skip
    root = (project_root or default_project_root()).resolve()
    try:
        plan = plan_runs(paths or (Path("."),), overrides, config_file, root)
    except RequestError as exc:
        fail(str(exc))
    if plan.problems:
        report_problems(plan.problems, root, Console(echo_message))
        raise click.exceptions.Exit(EXIT_ERROR)
    for index, (settings, group) in enumerate(plan.groups):
        if index:
            click.echo("")
        click.echo(configuration.render_settings(settings, group, root), nl=False)


@click.command("rules")
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


@click.command("rule")
@click.argument("rule_id", metavar="ID")
def show_rule(rule_id: str) -> None:
    """Show the documentation of rule ID (an id like BL001 or a name)."""
    from burnlint import docs
    from burnlint.rules import registry

    try:
        rule = registry.by_selector(rule_id)
    except registry.UnknownRuleError as exc:
        fail(str(exc))
    text = docs.rule_doc(rule.id)
    if text is None:
        click.echo(f"burnlint: warning: no documentation file found for {rule.id}", err=True)
        text = f"# {rule.id} {rule.name}\n\n{rule.summary}\n"
    click.echo(text, nl=not text.endswith("\n"))


@click.command("clean")
@click.option(
    "--cache-dir",
    type=click.Path(file_okay=False, path_type=Path),
    envvar="BURNLINT_CACHE_DIR",
    show_envvar=True,
    help="The cache to remove [default: .burnlint_cache in the project root].",
)
def clean_cache(cache_dir: Path | None) -> None:
    """Remove the cache of facts and findings (.burnlint_cache)."""
    require_working_directory()
    from burnlint.engine.cache import CacheError, default_cache_dir, remove_cache
    from burnlint.paths import default_project_root, escape_controls

    directory = cache_dir or default_cache_dir(default_project_root())
    try:
        removed = remove_cache(directory)
    except CacheError as exc:
        fail(str(exc))
    shown = escape_controls(str(directory))
    click.echo(f"removed {shown}" if removed else f"no cache in {shown}")


@click.command("server")
@click.option("--stdio", is_flag=True, help="Talk over stdin and stdout (the only transport).")
def server(stdio: bool) -> None:
    """Run the language server over stdin and stdout, for an editor (needs the `lsp` extra:
    pip install 'burnlint[lsp]')."""
    from burnlint.server import MISSING, available

    del stdio  # accepted because editors' client settings often pass it
    if not available():
        fail(MISSING)
    from burnlint.server.lsp import serve

    serve()
