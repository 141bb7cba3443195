"""Crash isolation (DESIGN.md sections 1 and 2b, "Isolation"): every per-file stage runs under
``guarded``, so an exception in one file's crate facts, one rule or one file's allow comments
becomes an error notification for that file, and the run goes on (and exits 2)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from burnlint.findings import Level, Notification, NotificationKind, RuleMeta


@dataclass
class Attempt:
    """How a guarded stage went: ``failed`` once it raised (its notification is noted)."""

    failed: bool = False


@contextmanager
def guarded(notes: list[Notification], file: Path, stage: str | RuleMeta) -> Iterator[Attempt]:
    """Run the body as ``stage`` of ``file`` (its absolute path): a stage named in words
    (``"this file's crate facts"``) or a rule's check. An exception becomes a notification
    in ``notes`` and the ``Attempt`` says it failed; the caller decides what the file then
    gets."""
    attempt = Attempt()
    try:
        yield attempt
    except Exception as exc:  # a bug in one file's stage must not stop the run
        attempt.failed = True
        notes.append(_crashed(file, stage, exc))


def _crashed(file: Path, stage: str | RuleMeta, exc: Exception) -> Notification:
    if isinstance(stage, RuleMeta):
        return Notification(
            file,
            f"rule {stage.id} ({stage.name}) crashed on this file: {type(exc).__name__}: {exc}",
            kind=NotificationKind.INTERNAL,
            level=Level.ERROR,
            rule_id=stage.id,
        )
    return Notification(
        file,
        f"internal error in {stage}: {type(exc).__name__}: {' '.join(str(exc).split())}",
        kind=NotificationKind.INTERNAL,
        level=Level.ERROR,
    )
