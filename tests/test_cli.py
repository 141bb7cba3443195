"""The command line: commands, options, outputs and exit codes.

Most tests replace the engine with a stub returning a prepared result, so they test the CLI's
own wiring; the others run the real engine on small crates made on the fly.
"""

from __future__ import annotations

import errno
import os
import re
import shutil
import stat
import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

import burnlint
import factories
from burnlint import cli, docs, engine, report
from burnlint.app.check import exit_code
from burnlint.app.console import DEBUG_ENV
from burnlint.cli import check as check_command
from burnlint.findings import Level, LintResult, Notification, NotificationKind, RuleMeta
from burnlint.options import EngineOptions
from burnlint.rules import registry
from factories import at, finding, result


def run(runner: CliRunner, *args: str, **kwargs: object) -> Result:
    return runner.invoke(cli.cli, list(args), catch_exceptions=True, **kwargs)  # type: ignore[arg-type]


class FakeEngine:
    """Stands in for ``engine.lint_paths`` and records how it was called."""

    def __init__(self, returns: LintResult | Exception) -> None:
        self.returns = returns
        self.calls: list[tuple[tuple[Path, ...], EngineOptions]] = []

    def __call__(
        self,
        paths: Sequence[Path],
        options: EngineOptions,
        *,
        meanwhile: Callable[[], object] | None = None,
    ) -> LintResult:
        self.calls.append((tuple(paths), options))
        if meanwhile is not None:
            meanwhile()
        if isinstance(self.returns, Exception):
            raise self.returns
        return self.returns

    @property
    def options(self) -> EngineOptions:
        return self.calls[-1][1]


@pytest.fixture
def fake_engine(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> Iterator[Callable[[LintResult | Exception], FakeEngine]]:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "lib.rs").write_text("fn f() {}\n")

    # the findings tests make (``factories``) are in this project, as the engine's would be
    monkeypatch.setattr(factories, "PROJECT", tmp_path)

    def install(returns: LintResult | Exception) -> FakeEngine:
        fake = FakeEngine(returns)
        monkeypatch.setattr(engine, "lint_paths", fake)
        return fake

    yield install


FAKE_SAVE = RuleMeta(
    id="BL042",
    name="fake-save-rule",
    level=Level.ERROR,
    summary="a fake rule for CLI tests",
    precision="high",
    since="0.1.0",
)
FAKE_NOTE = RuleMeta(
    id="BL043",
    name="fake-note-rule",
    level=Level.NOTE,
    summary="another fake rule",
    precision="high",
    enabled_by_default=False,
    fixable=True,
    since="0.1.0",
)


@pytest.fixture
def fake_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "ALL", (FAKE_SAVE, FAKE_NOTE))


# --- version, help, lazy imports ------------------------------------------------------------


def _imports_after(args: list[str]) -> tuple[str, str, list[str]]:
    code = (
        "import sys\n"
        "from burnlint.cli import main\n"
        "try:\n"
        f"    main({args!r})\n"
        "except SystemExit as exc:\n"
        "    print('exit', exc.code, file=sys.stderr)\n"
        "heavy = ('tree_sitter', 'tree_sitter_rust', 'burnlint.engine', 'burnlint.rules')\n"
        "print('heavy:' + ','.join(m for m in heavy if m in sys.modules), file=sys.stderr)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=60
    )
    lines = proc.stderr.strip().splitlines()
    assert lines[-1].startswith("heavy:"), proc.stderr
    return proc.stdout, lines[-2], [m for m in lines[-1].removeprefix("heavy:").split(",") if m]


def test_version_does_not_import_tree_sitter() -> None:
    stdout, status, heavy = _imports_after(["--version"])
    assert stdout == f"burnlint {burnlint.__version__}\n"
    assert status == "exit 0"
    assert heavy == []


def test_help_does_not_import_tree_sitter() -> None:
    stdout, status, heavy = _imports_after(["--help"])
    assert "check" in stdout
    assert "rules" in stdout
    assert status == "exit 0"
    assert heavy == []


def test_version_matches_the_package_metadata() -> None:
    from importlib.metadata import version

    assert burnlint.__version__ == version("burnlint")


def test_python_dash_m_burnlint() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "burnlint", "--version"],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert proc.returncode == 0
    assert proc.stdout == f"burnlint {burnlint.__version__}\n"
    assert proc.stderr == ""


def test_check_help_lists_every_registered_format(runner: CliRunner) -> None:
    out = run(runner, "check", "--help")
    assert out.exit_code == 0
    for name in report.FORMATS:
        assert name in out.stdout
    assert "--no-prefilter" not in out.stdout  # hidden


def test_format_choices_come_from_the_registry() -> None:
    check = cli.cli.commands["check"]
    option = next(p for p in check.params if p.name == "output_format")
    assert list(option.type.choices) == list(report.FORMATS)  # type: ignore[attr-defined]


# --- the default command and missing paths ------------------------------------------------------


def test_missing_path_exits_2_naming_it(runner: CliRunner, tmp_path: Path) -> None:
    missing = tmp_path / "no-such-dir"
    out = run(runner, str(missing))
    assert out.exit_code == 2
    named = [line for line in out.stdout.splitlines() if str(missing) in line]
    assert named == [f"error: {missing.as_posix()}: path does not exist"]
    assert "Traceback" not in out.stdout + out.stderr


def test_check_is_the_default_command(runner: CliRunner, tmp_path: Path) -> None:
    missing = str(tmp_path / "gone")
    implicit = run(runner, "--format", "concise", missing)
    explicit = run(runner, "check", "--format", "concise", missing)
    assert implicit.exit_code == explicit.exit_code == 2
    assert implicit.stdout == explicit.stdout
    assert (
        implicit.stdout.splitlines()[0] == f"{Path(missing).as_posix()}: error: path does not exist"
    )


def test_no_arguments_checks_the_current_directory(
    runner: CliRunner, fake_engine: Callable[..., FakeEngine]
) -> None:
    fake = fake_engine(result(files_checked=1))
    out = run(runner)
    assert out.exit_code == 0, out.stderr
    assert fake.calls[0][0] == (Path("."),)


def test_output_is_written_even_when_every_path_is_missing(
    runner: CliRunner, tmp_path: Path
) -> None:
    report_file = tmp_path / "report.txt"
    out = run(runner, str(tmp_path / "gone"), "--output", str(report_file))
    assert out.exit_code == 2
    assert out.stdout == ""
    assert "path does not exist" in report_file.read_text()


# --- rule selection ----------------------------------------------------------------------------


@pytest.mark.usefixtures("fake_rules")
def test_unknown_selector_exits_2_with_did_you_mean(runner: CliRunner) -> None:
    out = run(runner, "--select", "BL42", ".")
    assert out.exit_code == 2
    assert out.stderr == "burnlint: error: unknown rule `BL42` (did you mean `BL042`?)\n"
    out = run(runner, "--ignore", "fake-save-rul", ".")
    assert out.exit_code == 2
    assert "did you mean `fake-save-rule`?" in out.stderr


@pytest.mark.usefixtures("fake_rules")
def test_unknown_selector_without_suggestion(runner: CliRunner) -> None:
    out = run(runner, "--extend-select", "nothing-like-it", ".")
    assert out.exit_code == 2
    assert out.stderr == (
        "burnlint: error: unknown rule `nothing-like-it` "
        "(`burnlint rules` lists the rule ids and names)\n"
    )


@pytest.mark.usefixtures("fake_rules")
@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ([], {"BL042"}),
        (["--select", "BL043"], {"BL043"}),
        (["--select", "bl042,fake-note-rule"], {"BL042", "BL043"}),
        (["--select", "BL042", "--select", "BL043", "--ignore", "BL042"], {"BL043"}),
        (["--extend-select", "BL043"], {"BL042", "BL043"}),
        (["--select", "ALL", "--ignore", "fake-save-rule"], {"BL043"}),
    ],
)
def test_selectors_reach_the_engine(
    runner: CliRunner,
    fake_engine: Callable[..., FakeEngine],
    args: list[str],
    expected: set[str],
) -> None:
    fake = fake_engine(result())
    out = run(runner, *args, "src")
    assert out.exit_code == 0, out.stderr
    assert fake.options.rule_ids == frozenset(expected)


@pytest.mark.usefixtures("fake_rules")
@pytest.mark.parametrize(
    "args",
    [
        ["--select", ""],  # an empty CI variable: --select "$RULES"
        ["--select", ",,"],
        ["--select", "BL042", "--ignore", "fake-save-rule"],
        ["--ignore", "ALL"],
    ],
)
def test_no_rules_selected_is_an_error(
    runner: CliRunner, fake_engine: Callable[..., FakeEngine], args: list[str]
) -> None:
    """A run without rules would report a clean pass."""
    fake = fake_engine(result())
    out = run(runner, *args, "src")
    assert out.exit_code == 2
    assert out.stdout == ""
    assert out.stderr == (
        "burnlint: error: no rules selected: check --select, --extend-select and --ignore\n"
    )
    assert fake.calls == []


def test_engine_options(
    runner: CliRunner, fake_engine: Callable[..., FakeEngine], tmp_path: Path
) -> None:
    fake = fake_engine(result())
    root = tmp_path / "src"
    out = run(runner, "--jobs", "3", "--no-prefilter", "--project-root", str(root), "src")
    assert out.exit_code == 0, out.stderr
    assert fake.options.jobs == 3
    assert fake.options.prefilter is False
    assert fake.options.project_root == root.resolve()
    run(runner, "--jobs", "0", "src")
    assert fake.options.jobs == (os.cpu_count() or 1)
    assert fake.options.prefilter is True


def test_project_root_defaults_to_the_current_directory_outside_git(
    runner: CliRunner, fake_engine: Callable[..., FakeEngine], tmp_path: Path
) -> None:
    if (
        shutil.which("git")
        and subprocess.run(["git", "rev-parse"], capture_output=True).returncode == 0
    ):
        pytest.skip("the temporary directory is inside a git work tree")
    fake = fake_engine(result())
    run(runner, "src")
    assert fake.options.project_root == tmp_path.resolve()


def test_project_root_is_found_from_a_dot_git_file(
    runner: CliRunner,
    fake_engine: Callable[..., FakeEngine],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A linked worktree or a submodule has a ``.git`` file, not a directory: its top is the
    project root all the same (git is not needed to find it)."""
    (tmp_path / ".git").write_text("gitdir: /elsewhere/.git/worktrees/x\n")
    fake = fake_engine(result())
    monkeypatch.chdir(tmp_path / "src")
    run(runner, ".")
    assert fake.options.project_root == tmp_path.resolve()


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_project_root_defaults_to_the_git_work_tree(
    runner: CliRunner,
    fake_engine: Callable[..., FakeEngine],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    fake = fake_engine(result())
    monkeypatch.chdir(tmp_path / "src")
    out = run(runner, "lib.rs")
    assert out.exit_code == 0, out.stderr
    assert fake.options.project_root == tmp_path.resolve()


def test_bad_option_values_are_usage_errors(runner: CliRunner) -> None:
    for args in (["--format", "yaml"], ["--fail-on", "info"], ["--jobs", "-1"], ["--color", "x"]):
        out = run(runner, *args, ".")
        assert out.exit_code == 2, args
        assert "Traceback" not in out.stderr


# --- exit codes --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("levels", "args", "code"),
    [
        ([], [], 0),
        ([Level.NOTE], [], 1),
        ([Level.WARNING], ["--fail-on", "error"], 0),
        ([Level.WARNING, Level.ERROR], ["--fail-on", "error"], 1),
        ([Level.WARNING], ["--fail-on", "warning"], 1),
        ([Level.NOTE], ["--fail-on", "warning"], 0),
        ([Level.ERROR], ["--exit-zero"], 0),
    ],
)
def test_exit_codes(
    runner: CliRunner,
    fake_engine: Callable[..., FakeEngine],
    levels: list[Level],
    args: list[str],
    code: int,
) -> None:
    fake_engine(result(*[finding(level=level, line=i + 1) for i, level in enumerate(levels)]))
    out = run(runner, *args, "src")
    assert out.exit_code == code, out.stdout + out.stderr


def test_an_unsuccessful_run_exits_2_even_with_exit_zero(
    runner: CliRunner, fake_engine: Callable[..., FakeEngine]
) -> None:
    crash = Notification(at("src/lib.rs"), "rule crashed", NotificationKind.INTERNAL, Level.ERROR)
    fake_engine(result(finding(), notifications=(crash,)))
    for args in ([], ["--exit-zero"]):
        out = run(runner, *args, "src")
        assert out.exit_code == 2
        assert "error: src/lib.rs: rule crashed" in out.stdout


def test_exit_code_function() -> None:
    clean = result()
    assert exit_code(clean, Level.NOTE, exit_zero=False) == 0
    bad = result(notifications=(Notification(None, "x", level=Level.ERROR),))
    assert exit_code(bad, Level.NOTE, exit_zero=True) == 2
    warned = result(notifications=(Notification(None, "x", level=Level.WARNING),))
    assert exit_code(warned, Level.NOTE, exit_zero=False) == 0


# --- output ------------------------------------------------------------------------------------


def test_stdout_gets_the_rendered_report(
    runner: CliRunner, fake_engine: Callable[..., FakeEngine]
) -> None:
    res = result(finding(help="fix it"), burn_version="0.22.1")
    fake_engine(res)
    out = run(runner, "src")
    ctx = report.ReportContext(color=False, project_root=Path.cwd(), tool_version="x")
    assert out.stdout == report.FORMATS["text"](res, ctx)
    concise_out = run(runner, "--format", "concise", "src")
    assert concise_out.stdout == report.FORMATS["concise"](res, ctx)


def test_quiet_drops_summary_and_warnings(
    runner: CliRunner, fake_engine: Callable[..., FakeEngine]
) -> None:
    fake_engine(result(files_checked=0))
    out = run(runner, "--quiet", "src")
    assert out.exit_code == 0
    assert out.stdout == ""
    assert out.stderr == ""


def test_output_file_is_written_atomically(
    runner: CliRunner, fake_engine: Callable[..., FakeEngine], tmp_path: Path
) -> None:
    fake_engine(result(finding()))
    target = tmp_path / "out" / "report.txt"
    target.parent.mkdir()
    target.write_text("old report\n")
    os.chmod(target, 0o640)
    out = run(runner, "--format", "concise", "--output", str(target), "src")
    assert out.exit_code == 1
    assert out.stdout == ""
    assert target.read_text() == (
        "src/train.rs:42:17: error[BL001] the `Result` of `save_into` is discarded;"
        " a failed save goes unnoticed\nfound 1 problem in 12 files checked\n"
    )
    assert os.stat(target).st_mode & 0o777 == 0o640  # permissions kept
    assert os.listdir(target.parent) == ["report.txt"]  # no temporary file left


def test_failed_output_write_keeps_the_old_file(
    runner: CliRunner,
    fake_engine: Callable[..., FakeEngine],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake_engine(result(finding()))
    target = tmp_path / "report.sarif"
    target.write_text("old report\n")

    def refuse(src: str, dst: str) -> None:
        raise OSError(errno.EACCES, "Permission denied")

    monkeypatch.setattr("burnlint.fsutil.os.replace", refuse)
    out = run(runner, "--output", str(target), "src")
    assert out.exit_code == 2
    assert out.stderr == f"burnlint: error: cannot write `{target}`: Permission denied\n"
    assert target.read_text() == "old report\n"
    assert sorted(os.listdir(tmp_path)) == ["report.sarif", "src"]


def test_one_failed_output_does_not_drop_the_others(
    runner: CliRunner, fake_engine: Callable[..., FakeEngine], tmp_path: Path
) -> None:
    """Every output that can be written is written, whatever the order; then exit 2 naming
    the one that failed."""
    fake_engine(result(finding()))
    missing = tmp_path / "no" / "dir"
    args = [
        ["--output-format", f"json={missing / 'r.json'}"],
        ["--output-format", f"sarif={tmp_path / 'r.sarif'}"],
        ["-o", str(tmp_path / "r.txt")],
        ["--write-baseline", str(tmp_path / "base.json")],
    ]
    for order in (args, args[::-1]):
        for name in ("r.sarif", "r.txt", "base.json"):
            (tmp_path / name).unlink(missing_ok=True)
        out = run(runner, *(arg for pair in order for arg in pair), "src")
        assert out.exit_code == 2
        errors = [line for line in out.stderr.splitlines() if "error" in line]
        assert errors == [
            f"burnlint: error: cannot write `{missing / 'r.json'}`: No such file or directory"
        ]
        assert (tmp_path / "r.sarif").read_text().startswith("{")
        assert (tmp_path / "r.txt").read_text().startswith("error[BL001]")
        assert (tmp_path / "base.json").read_text().startswith("{")


def test_output_into_a_missing_directory_is_an_error(
    runner: CliRunner, fake_engine: Callable[..., FakeEngine], tmp_path: Path
) -> None:
    fake_engine(result())
    out = run(runner, "--output", str(tmp_path / "no" / "dir" / "r.txt"), "src")
    assert out.exit_code == 2
    assert out.stderr.startswith("burnlint: error: cannot write ")
    assert "Traceback" not in out.stderr


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symlinks")
def test_output_through_a_symlink_replaces_the_target(
    runner: CliRunner, fake_engine: Callable[..., FakeEngine], tmp_path: Path
) -> None:
    fake_engine(result())
    real = tmp_path / "real.txt"
    real.write_text("old\n")
    (tmp_path / "link.txt").symlink_to(real)
    assert run(runner, "--output", str(tmp_path / "link.txt"), "src").exit_code == 0
    assert (tmp_path / "link.txt").is_symlink()
    assert real.read_text() == "no problems found in 12 files checked\n"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs")
@pytest.mark.parametrize("option", ["--output", "--output-format"])
def test_output_into_a_fifo_reaches_its_reader(
    runner: CliRunner, fake_engine: Callable[..., FakeEngine], tmp_path: Path, option: str
) -> None:
    """A FIFO is written into, not replaced by a regular file its reader never sees."""
    fake_engine(result(finding()))
    fifo = tmp_path / "report.fifo"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # a reader is waiting
    try:
        target = str(fifo) if option == "--output" else f"concise={fifo}"
        out = run(runner, "--format", "concise", option, target, "src")
        received = os.read(reader, 65536).decode()
    finally:
        os.close(reader)
    assert out.exit_code == 1, out.stderr
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert received.startswith("src/train.rs:42:17: error[BL001] ")
    assert sorted(os.listdir(tmp_path)) == ["report.fifo", "src"]


@pytest.mark.skipif(
    not hasattr(os, "mknod") or not hasattr(os, "geteuid") or os.geteuid() != 0,
    reason="making a device node needs root",
)
def test_output_into_a_character_device_keeps_the_device(
    runner: CliRunner, fake_engine: Callable[..., FakeEngine], tmp_path: Path
) -> None:
    """`-o /dev/null` as root (CI containers) must not replace the device with a file."""
    fake_engine(result(finding()))
    null = tmp_path / "null"
    try:
        os.mknod(null, stat.S_IFCHR | 0o666, os.makedev(1, 3))  # /dev/null's numbers
        null.write_text("probe")
    except OSError as exc:  # a file system mounted nodev, a container without the capability
        pytest.skip(f"no usable device node: {exc}")
    for option, target in (("--output", str(null)), ("--output-format", f"sarif={null}")):
        out = run(runner, option, target, "src")
        assert out.exit_code == 1, out.stderr
        assert stat.S_ISCHR(os.lstat(null).st_mode), option
    assert sorted(os.listdir(tmp_path)) == ["null", "src"]


@pytest.mark.skipif(not os.path.exists("/dev/stdout"), reason="no /dev/stdout")
def test_output_to_dev_stdout_and_dev_stderr(tmp_path: Path) -> None:
    """`-o /dev/stdout` writes to the open stream, a pipe here (no file to replace)."""
    (tmp_path / "a.rs").write_text("fn main() {}\n")
    env = {**os.environ, "NO_COLOR": "1"}
    for path, stream in (("/dev/stdout", "stdout"), ("/dev/stderr", "stderr")):
        proc = subprocess.run(
            [sys.executable, "-m", "burnlint", "--format", "json", "-o", path, "a.rs"],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            env=env,
            check=False,
            timeout=120,
        )
        assert proc.returncode == 0, proc.stderr
        assert '"files_checked": 1' in getattr(proc, stream), (path, proc.stderr)
    # stdout appended to a file: the report is appended too, the file is not replaced
    log = tmp_path / "log.txt"
    log.write_text("before\n")
    with log.open("a") as append:
        proc = subprocess.run(
            [sys.executable, "-m", "burnlint", "--format", "concise", "-o", "/dev/stdout", "."],
            cwd=tmp_path,
            stdout=append,
            env=env,
            check=False,
            timeout=120,
        )
    assert proc.returncode == 0
    assert log.read_text() == "before\nno problems found in 1 file checked\n"


# --- colour ------------------------------------------------------------------------------------


def test_colour_choices(
    runner: CliRunner, fake_engine: Callable[..., FakeEngine], monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_engine(result(finding()))
    assert "\x1b[" in run(runner, "--color", "always", "src", color=True).stdout
    assert "\x1b[" not in run(runner, "--color", "never", "src", color=True).stdout
    # auto: the test runner's stdout is not a terminal
    assert "\x1b[" not in run(runner, "src", color=True).stdout


def test_auto_colour_needs_a_terminal_and_no_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    class Tty:
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(sys, "stdout", Tty())
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert check_command._use_color("auto", to_file=False) is True
    assert check_command._use_color("auto", to_file=True) is False
    assert check_command._use_color("always", to_file=True) is True
    assert check_command._use_color("never", to_file=False) is False
    monkeypatch.setenv("NO_COLOR", "1")
    assert check_command._use_color("auto", to_file=False) is False
    monkeypatch.setenv("NO_COLOR", "")
    assert check_command._use_color("auto", to_file=False) is True


# --- internal errors ---------------------------------------------------------------------------


def test_engine_crash_is_one_line_and_exit_2(
    runner: CliRunner,
    fake_engine: Callable[..., FakeEngine],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(DEBUG_ENV, raising=False)
    fake_engine(RuntimeError("boom\nsecond line"))
    target = tmp_path / "r.txt"
    out = run(runner, "--output", str(target), "src")
    assert out.exit_code == 2
    assert out.stderr == (
        "burnlint: internal error: RuntimeError: boom second line"
        " (set BURNLINT_DEBUG=1 for a traceback)\n"
    )
    # the report is still written, with the crash in it
    assert "error: internal error: RuntimeError: boom second line" in target.read_text()


def test_debug_env_re_raises(
    runner: CliRunner, fake_engine: Callable[..., FakeEngine], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(DEBUG_ENV, "1")
    fake_engine(RuntimeError("boom"))
    out = run(runner, "src")
    assert isinstance(out.exception, RuntimeError)


def test_reporter_crash_is_an_internal_error(
    fake_engine: Callable[..., FakeEngine],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A crash outside the engine (here in a reporter) reaches the guard of `main`."""
    monkeypatch.delenv(DEBUG_ENV, raising=False)
    fake_engine(result())

    def broken(res: LintResult, ctx: report.ReportContext) -> str:
        raise KeyError("oops")

    monkeypatch.setitem(report.FORMATS, "text", broken)
    with pytest.raises(SystemExit) as exc:
        cli.main(["src"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("burnlint: internal error: KeyError: 'oops'")
    assert len(err.splitlines()) == 1


def test_main_exits_with_the_command_code(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exc:
        cli.main([str(tmp_path / "gone")])
    assert exc.value.code == 2
    assert "path does not exist" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exc:
        cli.main(["--format", "nope", "."])
    assert exc.value.code == 2
    assert capsys.readouterr().err == (
        "burnlint: error: invalid value for '--format': 'nope' is not one of "
        "'text', 'concise', 'json', 'sarif', 'github'\n"
    )
    with pytest.raises(SystemExit) as exc:
        cli.main(["rules"])
    assert exc.value.code == 0


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (
            ["--format", "xml", "."],
            "invalid value for '--format': 'xml' is not one of "
            "'text', 'concise', 'json', 'sarif', 'github'",
        ),
        (["--fromat", "json", "."], "no such option '--fromat' (did you mean '--format'?)"),
        (["--project-root", "missing", "."], "--project-root: `missing` does not exist"),
        (["--project-root", "src/lib.rs", "."], "--project-root: `src/lib.rs` is not a directory"),
        (["config", "--project-root", "missing"], "--project-root: `missing` does not exist"),
        (["rule"], "missing argument 'ID' (see `burnlint rule --help`)"),
        (["rules", "extra"], "got unexpected extra argument (extra) (see `burnlint rules --help`)"),
        (
            ["--output-format", "xml=out.xml", "."],
            "invalid value for '--output-format': unknown format `xml` "
            "(known: text, concise, json, sarif, github)",
        ),
    ],
)
def test_usage_errors_are_one_line(
    fake_engine: Callable[..., FakeEngine],
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    expected: str,
) -> None:
    """Like every other error: `burnlint: error: ...` on one line and exit 2, not click's
    three-line usage block."""
    fake_engine(result())
    with pytest.raises(SystemExit) as exc:
        cli.main(args)
    assert exc.value.code == 2
    captured = capsys.readouterr()
    assert captured.err == f"burnlint: error: {expected}\n"
    assert captured.out == ""


def test_config_option_naming_a_directory_is_a_configuration_error(
    runner: CliRunner, fake_engine: Callable[..., FakeEngine]
) -> None:
    fake_engine(result())
    out = run(runner, "--config", "src", "--format", "concise", "src")
    assert out.exit_code == 2
    assert out.stdout.startswith("src: error: is a directory, not a configuration file\n")


def test_main_turns_unexpected_errors_into_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv(DEBUG_ENV, raising=False)

    def explode(*args: object, **kwargs: object) -> None:
        raise ValueError("bad")

    monkeypatch.setattr(cli.cli, "main", explode)
    with pytest.raises(SystemExit) as exc:
        cli.main(["--version"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert (
        err == "burnlint: internal error: ValueError: bad (set BURNLINT_DEBUG=1 for a traceback)\n"
    )


# --- rules and rule ----------------------------------------------------------------------------


def test_rules_with_an_empty_registry(runner: CliRunner, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "ALL", ())
    out = run(runner, "rules")
    assert out.exit_code == 0
    assert out.stdout == "id  name  level  default  fixable\n"


@pytest.mark.usefixtures("fake_rules")
def test_rules_table(runner: CliRunner) -> None:
    out = run(runner, "rules")
    assert out.exit_code == 0
    assert out.stdout.splitlines() == [
        "id     name            level  default  fixable",
        "BL042  fake-save-rule  error  on       no",
        "BL043  fake-note-rule  note   off      yes",
    ]


def test_rules_lists_the_real_registry(runner: CliRunner) -> None:
    out = run(runner, "rules")
    assert out.exit_code == 0
    listed = [line.split()[0] for line in out.stdout.splitlines()[1:]]
    assert listed == [rule.id for rule in registry.ALL]


@pytest.mark.usefixtures("fake_rules")
def test_rule_prints_its_doc(
    runner: CliRunner, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (tmp_path / "BL042-fake-save-rule.md").write_text("# BL042 fake-save-rule\n\n## What\n")
    monkeypatch.setattr(docs, "_candidate_dirs", lambda: [tmp_path])
    for selector in ("BL042", "bl042", "fake-save-rule"):
        out = run(runner, "rule", selector)
        assert out.exit_code == 0
        assert out.stdout == "# BL042 fake-save-rule\n\n## What\n"


@pytest.mark.usefixtures("fake_rules")
def test_rule_without_a_doc_falls_back_to_its_summary(
    runner: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(docs, "_candidate_dirs", list)
    out = run(runner, "rule", "BL043")
    assert out.exit_code == 0
    assert out.stdout == "# BL043 fake-note-rule\n\nanother fake rule\n"
    assert out.stderr == "burnlint: warning: no documentation file found for BL043\n"


@pytest.mark.usefixtures("fake_rules")
def test_unknown_rule_exits_2_with_did_you_mean(runner: CliRunner) -> None:
    out = run(runner, "rule", "BL42")
    assert out.exit_code == 2
    assert out.stderr == "burnlint: error: unknown rule `BL42` (did you mean `BL042`?)\n"
    for unlike in ("zzz", "BL999"):
        out = run(runner, "rule", unlike)
        assert out.exit_code == 2
        assert out.stderr == (
            f"burnlint: error: unknown rule `{unlike}` "
            "(`burnlint rules` lists the rule ids and names)\n"
        )


def test_every_registered_rule_has_a_doc_or_a_summary(runner: CliRunner) -> None:
    for rule in registry.ALL:
        out = run(runner, "rule", rule.id)
        assert out.exit_code == 0
        assert out.stdout.startswith(f"# {rule.id} ")


# --- with the real engine ----------------------------------------------------------------------

DISCARDED = """\
use burn_store::{ModuleSnapshot, SafetensorsStore};

fn save<M: ModuleSnapshot>(model: &M) {
\tlet mut store = SafetensorsStore::from_file("model.safetensors");
\tlet _ = model.save_into(&mut store);
}
"""


@pytest.fixture
def crate(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "Cargo.toml").write_text('[package]\nname = "demo"\nversion = "0.1.0"\n')
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "main.rs").write_text(DISCARDED)
    (tmp_path / "src" / "other.rs").write_text("fn unrelated() {}\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_directory_without_rust_files(runner: CliRunner, tmp_path: Path) -> None:
    (tmp_path / "README.md").write_text("nothing here\n")
    out = run(runner, str(tmp_path))
    assert out.exit_code == 0, out.stderr
    assert out.stdout == "no problems found in 0 files checked\n"
    assert out.stderr == f"burnlint: warning: no Rust files found in `{tmp_path.as_posix()}`\n"


def test_real_finding_in_text_and_concise(runner: CliRunner, crate: Path) -> None:
    out = run(runner, "--project-root", str(crate), ".")
    assert out.exit_code == 1, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("error[BL001]: the `Result` of `save_into` is discarded")
    assert lines[1] == " --> src/main.rs:5:10"
    assert lines[3] == "5 |     let _ = model.save_into(&mut store);"
    assert lines[4] == (
        "  |             ^^^^^^^^^^^^^^^^^^^^^^^^^^^ once the file exists every save fails "
        "with `File already exists`, unnoticed"
    )
    assert lines[-1] == "found 1 problem (1 error) in 2 files checked"

    concise_out = run(runner, "--format", "concise", "--project-root", str(crate))
    assert re.fullmatch(
        r"src/main\.rs:5:10: error\[BL001\] the `Result` of `save_into` is discarded.*\n"
        r"found 1 problem in 2 files checked\n",
        concise_out.stdout,
    )


@pytest.mark.parametrize(
    ("args", "code"),
    [
        ([], 1),
        (["--fail-on", "error"], 1),
        (["--ignore", "BL001"], 0),
        (["--select", "discarded-store-result"], 1),
        (["--exit-zero"], 0),
    ],
)
def test_real_exit_codes(runner: CliRunner, crate: Path, args: list[str], code: int) -> None:
    assert run(runner, *args, "src").exit_code == code


def test_a_missing_path_among_real_ones_exits_2(runner: CliRunner, crate: Path) -> None:
    out = run(runner, "--format", "concise", "src", "nope")
    assert out.exit_code == 2
    assert "nope: error: path does not exist" in out.stdout.splitlines()
    assert any("error[BL001]" in line for line in out.stdout.splitlines())


def test_output_is_identical_across_runs_and_jobs(runner: CliRunner, crate: Path) -> None:
    outputs = {run(runner, "--jobs", jobs, ".").stdout for jobs in ("1", "2", "1")}
    assert len(outputs) == 1


def test_prefilter_changes_nothing(runner: CliRunner, crate: Path) -> None:
    assert run(runner, ".").stdout == run(runner, "--no-prefilter", ".").stdout


def test_atomic_write_new_file_mode_and_odd_text(tmp_path: Path) -> None:
    from burnlint.fsutil import write_text_atomic

    target = tmp_path / "r.txt"
    # A file name that is not UTF-8 reaches reports as a lone surrogate.
    write_text_atomic(target, "bad\udcff.rs\r\n")
    assert target.read_bytes() == b"bad\\udcff.rs\r\n"
    umask = os.umask(0)
    os.umask(umask)
    assert os.stat(target).st_mode & 0o777 == 0o666 & ~umask


def test_extra_outputs_and_category(tmp_path: Path) -> None:
    """`--output-format FORMAT=FILE` writes more reports in the same run, whatever the exit
    code; `--category` reaches SARIF's automationDetails."""
    import json

    crate = tmp_path / "crate"
    (crate / "src").mkdir(parents=True)
    (crate / "Cargo.toml").write_text('[package]\nname = "c"\nversion = "0.1.0"\n')
    (crate / "src" / "main.rs").write_text(
        "use burn_store::{ModuleSnapshot, BurnpackStore};\n"
        "fn main() {\n"
        '    let _ = model.save_into(&mut BurnpackStore::from_file("m").overwrite(true));\n'
        "}\n"
    )
    sarif, as_json = tmp_path / "out.sarif", tmp_path / "out.json"
    out = CliRunner().invoke(
        cli.cli,
        [
            "check",
            str(crate),
            "--project-root",
            str(crate),
            "--output-format",
            f"sarif={sarif}",
            "--output-format",
            f"json={as_json}",
            "--category",
            "burnlint",
            "--format",
            "concise",
        ],
    )
    assert out.exit_code == 1
    assert "src/main.rs:3:13: error[BL001]" in out.output
    log = json.loads(sarif.read_text())
    assert log["runs"][0]["automationDetails"] == {"id": "burnlint/"}
    assert [r["ruleId"] for r in log["runs"][0]["results"]] == ["BL001"]
    assert json.loads(as_json.read_text())["findings"][0]["rule_id"] == "BL001"


def test_extra_output_format_must_be_known(tmp_path: Path) -> None:
    out = CliRunner().invoke(cli.cli, ["check", str(tmp_path), "--output-format", "xml=out.xml"])
    assert out.exit_code == 2
    assert "unknown format `xml`" in out.output
    assert not (tmp_path / "out.xml").exists()
