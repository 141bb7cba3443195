"""Reading and prefiltering: which files are skipped, and which are candidates to parse.

A file is read once here and its bytes are dropped: the group that checks it reads it again,
if it needs it at all (so the memory held does not grow with the tree, and a pool ships
paths, not contents).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import BinaryIO

from burnlint.engine.cache import Cache, Scan, ScanEntry, Stat, now_ns
from burnlint.engine.finish import digest as bytes_digest
from burnlint.engine.session import run_or_defer
from burnlint.findings import Level
from burnlint.options import EngineOptions
from burnlint.project.prefilter import has_trigger

# From this many files on, they are read and prefiltered in worker processes too. Reading and
# prefiltering a file costs 50-70 us and starting two forked workers 15-45 ms, so below about a
# thousand files the split is not worth a pool (the pool is then kept to check the crates).
PARALLEL_MIN_FILES = 1000

# Files are read in pieces of this size when the limit is larger (``read_at_most``): above
# the default limit, so that a file under it is one read as before.
_CHUNK = 8 * 1024 * 1024


def scan_file(path: str | Path, options: EngineOptions, data: bytes | None = None) -> Scan:
    """Read ``path`` (unless its bytes are ``data``) and say whether it is skipped, or a
    candidate: a file that passes the prefilter (``prefilter.has_trigger``)."""
    if data is None:
        try:
            with open(path, "rb") as fh:  # no stat: the read says whether it is too big
                data = read_at_most(fh, options.max_file_bytes)
                size = len(data)
                if size > options.max_file_bytes:
                    size = os.fstat(fh.fileno()).st_size
        except OSError as exc:
            return Scan(skipped=f"cannot read: {exc.strerror or exc}")
        if size > options.max_file_bytes:
            return Scan(
                skipped=f"skipped: {size:,} bytes is over the limit of {options.max_file_bytes:,}",
                level=Level.NOTE,
            )
    if b"\x00" in data:
        # Binary (a NUL byte is never in Rust source): said so even when the prefilter would
        # have passed over it silently; one memchr, cheaper than the trigger words.
        return Scan(skipped="skipped: binary file (contains NUL bytes)")
    if not data.isascii():
        # Not UTF-8: skipped and said so whether or not the prefilter would pass it, so that
        # "N files checked" does not depend on the prefilter. `isascii` is one pass in C over
        # the bytes; only the few files with other bytes (comments in other scripts) decode.
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as exc:
            return Scan(skipped=f"skipped: not valid UTF-8 at byte offset {exc.start}")
    # plain `bytes in` checks on the raw bytes; its bytes are not kept (the group that checks a
    # file reads it again, if it needs it at all)
    digest = bytes_digest(data) if options.cache_dir is not None else None
    return Scan(len(data), not options.prefilter or has_trigger(data), digest=digest)


def read_at_most(fh: BinaryIO, limit: int) -> bytes:
    """Up to ``limit + 1`` bytes of ``fh``: one more than the limit says the file is over it.

    ``read(n)`` allocates n bytes before it reads, so a limit of a gigabyte would cost a
    gigabyte per file (a MemoryError on a small machine): above ``_CHUNK`` the buffer grows with
    the file instead."""
    if limit < _CHUNK:
        return fh.read(limit + 1)
    chunks: list[bytes] = []
    left = limit + 1
    while left > 0:
        chunk = fh.read(min(left, _CHUNK))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def scan_files(paths: list[str], options: EngineOptions) -> list[Scan]:
    """``scan_file`` of each path: one worker's share."""
    return [scan_file(path, options) for path in paths]


def scan_with_cache(
    paths: list[Path],
    options: EngineOptions,
    overrides: dict[Path, bytes],
    cache: Cache,
    rescan: Callable[[list[Path]], list[Scan]],
) -> list[Scan]:
    """``scan_file`` of each path, in order (``rescan`` does it, in workers or not), taking a
    file whose size, modification time, inode and change time are those the cache holds from
    the cache without reading it (``cache.ScanEntry``). The index is written back when files
    were scanned now; entries of files that are gone are dropped then."""
    index = cache.load_scans(options)
    started = now_ns()
    stats: dict[Path, Stat] = {}
    for path in paths:
        if path not in overrides:
            # before the file is read: a change after it is seen next time; a file that
            # cannot be stat-ed is scanned, and the read says what is wrong
            with contextlib.suppress(OSError):
                stats[path] = Stat.of(os.stat(path))
    found: dict[Path, Scan] = {}
    for path, stat in stats.items():
        entry = index.get(os.fspath(path))
        if entry is not None and entry.valid_for(stat):
            found[path] = entry.scan._replace(cached=True)
    missing = [path for path in paths if path not in found]
    if missing:
        for path, scan in zip(missing, rescan(missing), strict=True):
            found[path] = scan
            if path in stats and scan.digest is not None and scan.skipped is None:
                index[os.fspath(path)] = ScanEntry(stats[path], scan, started)
        named = {os.fspath(path) for path in paths}
        for key in [k for k in index if k not in named and not os.path.exists(k)]:
            del index[key]
        run_or_defer(partial(cache.save_scans, options, index))
    return [found[path] for path in paths]
