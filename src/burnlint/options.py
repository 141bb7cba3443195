"""Settings the engine runs with: resolved by the CLI, never read from files by the engine."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from burnlint.findings import Level

# Files larger than this are skipped with a notice: real Rust sources are far smaller, and a
# generated multi-megabyte file would dominate the run without holding training code.
DEFAULT_MAX_FILE_BYTES = 2_000_000


@dataclass(frozen=True)
class EngineOptions:
    """What to check and how.

    ``rule_ids`` is the exact set of rule ids to run (already resolved from select/ignore).
    ``report_paths``: when not None, findings are reported only for these files, while the rest
    of their cargo targets is still read for cross-file facts (pre-commit passes only the staged
    files). ``prefilter`` can be turned off to parse every file (used to prove it changes
    nothing). ``severity`` overrides a rule's level: (rule id, level) pairs, so that the options
    stay hashable (``level_of`` reads them). ``jobs`` is how many processes may check at once
    (1 or less: everything in this process); the caller decides it (the CLI's ``--jobs 0`` is
    one per CPU).

    ``exclude`` and ``per_file_ignores`` hold gitignore-style patterns relative to
    ``exclude_root`` (the configuration file's directory). ``force_exclude`` applies ``exclude``
    and ``.gitignore`` to paths named on the command line too (pre-commit names every staged
    file). ``per_file_ignores`` maps a pattern to the rule ids not reported in matching files.
    ``burn_version`` is the version from the configuration; None means read it from
    ``Cargo.lock``/``Cargo.toml``. Each crate is checked with it set to the version assumed
    for that crate (None there: unknown), which the rules follow. ``cache_dir`` is where
    facts and findings of unchanged files are kept between runs (None: not at all).
    """

    rule_ids: frozenset[str]
    project_root: Path
    prefilter: bool = True
    jobs: int = 1
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES
    severity: tuple[tuple[str, Level], ...] = ()
    report_paths: frozenset[Path] | None = None
    respect_gitignore: bool = True
    exclude: tuple[str, ...] = ()
    exclude_root: Path | None = None
    force_exclude: bool = False
    per_file_ignores: tuple[tuple[str, frozenset[str]], ...] = ()
    burn_version: str | None = None
    # the persistent cache's directory (``engine/cache.py``); None: no cache is read or written
    cache_dir: Path | None = None

    def level_of(self, rule_id: str, default: Level) -> Level:
        """The level ``rule_id`` reports at in this run: its ``severity`` override, else
        ``default`` (the rule's own level)."""
        return next((level for rule, level in self.severity if rule == rule_id), default)
