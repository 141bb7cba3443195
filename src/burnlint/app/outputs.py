"""The reports a check writes: which files they go to, and writing them.

Every requested output is written, whatever the result: an upload step after a failed run
still finds its SARIF file (with ``executionSuccessful: false``). One that cannot be written
does not keep the others from being written; the run then exits 2.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from burnlint.app.console import Console
from burnlint.app.inputs import FileId
from burnlint.app.request import STDOUT, RequestError, is_stdout
from burnlint.paths import shown_path


@dataclass(frozen=True)
class Output:
    """A report rendered in ``format``: written to ``path`` (``written`` says whether that
    worked), or for stdout when ``path`` is None."""

    format: str
    path: Path | None
    text: str
    written: bool = True


def write_output(path: Path, text: str, console: Console) -> bool:
    """Write one report (``fsutil.write_report``); on failure say why and return False."""
    from burnlint.fsutil import write_report

    try:
        write_report(path, text)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        console.error(f"cannot write `{path}`: {reason}")
        return False
    return True


def check_output_paths(
    outputs: Sequence[tuple[str, Path]], baseline: Path | None, write_baseline: Path | None
) -> None:
    """Refuse, before anything runs, an output that would replace the baseline being read
    (the next run would call every accepted finding new) or a file another output writes.
    ``outputs``: (option, file) pairs; an option ending in ``=`` is shown with its file."""
    shown = _shown_option
    files = [(option, path) for option, path in outputs if not is_stdout(path)]
    if baseline is not None and _regular_or_missing(baseline):
        for option, path in files:
            if _same_file(path, baseline):
                raise RequestError(
                    f"{shown(option, path)} would replace the baseline being read with a "
                    f"report of the new findings only; to update the baseline, use "
                    f"`--write-baseline {baseline}`"
                )
    named = [*files]
    if write_baseline is not None and not is_stdout(write_baseline):
        named.append(("--write-baseline", write_baseline))
    for index, (option, path) in enumerate(named):
        for other_option, other in named[:index]:
            if _regular_or_missing(path) and _same_file(path, other):
                raise RequestError(
                    f"{shown(other_option, other)} and {shown(option, path)} write the same file"
                )


def _shown_option(option: str, path: Path) -> str:
    return f"`{option}{path}`" if option.endswith("=") else f"`{option} {path}`"


def refuse_inputs(
    outputs: Sequence[tuple[str, Path]],
    inputs: Callable[[], Mapping[FileId, tuple[str, Path]]],
    root: Path,
) -> None:
    """Refuse, before anything runs, an output whose file (by its real path or inode: a
    symbolic or hard link to it is the same file) is an input of the run: ``inputs`` gives
    them (``inputs.run_inputs``), asked only when an output already exists as a regular file,
    since a file not there yet cannot be one. The report would replace the code, the
    configuration or the manifest it was made from."""
    existing: list[tuple[str, Path, FileId]] = []
    for option, path in outputs:
        if is_stdout(path):
            continue
        try:
            st = os.stat(path)
        except OSError:
            continue
        if stat.S_ISREG(st.st_mode):
            existing.append((option, path, (st.st_dev, st.st_ino)))
    if not existing:
        return
    known = inputs()
    for option, path, identity in existing:
        if identity in known:
            what, source = known[identity]
            shown = shown_path(Path(os.path.abspath(source)), root, resolve=True)
            raise RequestError(
                f"{_shown_option(option, path)} would replace `{shown}`, {what}; "
                "write the report to another file"
            )


def check_stdout_outputs(
    output: Path | None,
    extra_outputs: Sequence[tuple[str, Path]],
    *,
    diff: bool,
    write_baseline: Path | None = None,
) -> None:
    """Refuse two reports on stdout (``-o -`` or no ``-o``, ``--output-format F=-`` and
    ``--write-baseline -``), or one beside ``--diff``'s diff: interleaved, neither could be
    read."""
    writers = [f"`--output-format {name}=-`" for name, path in extra_outputs if is_stdout(path)]
    if is_stdout(write_baseline):
        writers.append("`--write-baseline -`")
    if output is STDOUT or (output is None and not diff and writers):
        writers.insert(0, "`-o -`" if output is STDOUT else "the report (without -o)")
    if diff and writers:
        raise RequestError(
            f"--diff prints the diff on stdout: {writers[0]} cannot write there too; "
            "write the report to a file"
        )
    if len(writers) > 1:
        every = "both" if len(writers) == 2 else "all"
        raise RequestError(
            f"{' and '.join(writers)} would {every} write to stdout; write all but one to a file"
        )


def _regular_or_missing(path: Path) -> bool:
    """A path a report replaces (a device or a FIFO can take several outputs)."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return True


def _same_file(one: Path, other: Path) -> bool:
    try:
        return os.path.samefile(one, other)
    except OSError:  # one of them does not exist (yet): compare where they would be
        return os.path.normcase(os.path.realpath(one)) == os.path.normcase(os.path.realpath(other))
