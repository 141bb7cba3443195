"""The checks of the open documents: when they run, and what is published.

One worker thread checks, one document at a time (the engine is not shared between threads).
A document asked for while it is being checked is checked again when that check ends, with its
newest text: a version that was overtaken is never published, the newest one always is (with no
findings, an empty list). Each check sees the other open documents' unsaved text.

When a file changes (edited in the editor, saved, or changed on disk), the open documents whose
crates read it for their facts are checked again: those of its own crate and of the crates that
name it as a path dependency.
"""

from __future__ import annotations

import asyncio
import os
import traceback
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.workspace import TextDocument

from burnlint.app.console import DEBUG_ENV, internal_error_message
from burnlint.engine.session import Session
from burnlint.findings import Level, LintResult, NotificationKind
from burnlint.paths import shown_path
from burnlint.server.checking import OptionsCache, check_buffer
from burnlint.server.convert import Checked, Positions, Texts, diagnostic, path_of, uri_of


@dataclass(frozen=True)
class _Snapshot:
    uri: str
    path: Path
    version: int | None
    data: bytes
    buffers: dict[Path, bytes]
    versions: dict[Path, int | None]


class Documents:
    """The checks of the open documents of one server (see the module's docstring)."""

    def __init__(self, server: LanguageServer, options: OptionsCache) -> None:
        self.server = server
        self.options = options
        self.published: dict[str, Checked] = {}
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="burnlint-check")
        self._running: dict[str, asyncio.Task[None]] = {}
        self._again: set[str] = set()
        self._said: set[str] = set()
        # what the checks keep between them (``engine/session.py``): used in the checks'
        # thread only; what they leave for later runs once their results are out
        self.session = Session()

    # -- what the server asks for -------------------------------------------------------------

    def changed(self, uri: str) -> None:
        """``uri`` was opened or edited: check it, and the open documents that read it."""
        self.check(uri)
        path = path_of(uri)
        if path is not None and path.suffix == ".rs":
            # a configuration file counts once saved: it is read from disk
            self.file_changed(path, but=uri)

    def closed(self, uri: str) -> None:
        """``uri`` was closed: its diagnostics are cleared, and the documents that read it read
        the disk again."""
        path = path_of(uri)
        if path is None or path.suffix != ".rs":
            return
        self.published.pop(uri, None)
        self._publish(uri, None, [])
        self.file_changed(path)

    def file_changed(self, path: Path, but: str | None = None) -> None:
        """``path`` changed on disk or in another buffer: check the open documents that read it
        (every open document under its directory, for a manifest or a configuration file)."""
        from burnlint.server.checking import CONFIG_NAMES

        if path.name in CONFIG_NAMES:
            self.options.clear()
            self.check_all(d for d in self._open() if _under(d[1], path.parent))
            return
        changed_crate = _crate(path)
        if changed_crate is None:
            return
        for uri, own in self._open():
            if uri != but and own != path and changed_crate in _crate_group(own):
                self.check(uri)

    def check_all(self, documents: Iterable[tuple[str, Path]] | None = None) -> None:
        for uri, _path in documents if documents is not None else self._open():
            self.check(uri)

    def check(self, uri: str) -> None:
        """Check the open document ``uri`` (a Rust file; others are not checked) when the
        worker is free."""
        path = path_of(uri)
        if path is None or path.suffix != ".rs":
            return
        if uri in self._running:
            self._again.add(uri)
            return
        task = asyncio.get_running_loop().create_task(self._check_until_current(uri))
        self._running[uri] = task

    def shutdown(self) -> None:
        for task in self._running.values():
            task.cancel()
        self._executor.shutdown(wait=False, cancel_futures=True)

    # -- the checks ---------------------------------------------------------------------------

    def _open(self) -> list[tuple[str, Path]]:
        """The open Rust documents: their URIs as the client gave them, and their paths."""
        found = []
        for document in self.server.workspace.text_documents.values():
            path = path_of(document.uri)
            if path is not None and path.suffix == ".rs":
                found.append((document.uri, path))
        return sorted(found)

    def _snapshot(self, uri: str) -> _Snapshot | None:
        document = self.document(uri)
        path = path_of(uri)
        if document is None or path is None:
            return None
        buffers: dict[Path, bytes] = {}
        versions: dict[Path, int | None] = {}
        for other in self.server.workspace.text_documents.values():
            other_path = path_of(other.uri)
            if other_path is not None and other_path != path:
                buffers[other_path] = other.source.encode("utf-8", errors="surrogatepass")
                versions[other_path] = other.version
        data = document.source.encode("utf-8", errors="surrogatepass")
        return _Snapshot(uri, path, document.version, data, buffers, versions)

    def document(self, uri: str) -> TextDocument | None:
        """The open document ``uri`` (the workspace keeps them by their unquoted URI)."""
        documents: dict[str, TextDocument] = self.server.workspace.text_documents
        return documents.get(unquote(uri))

    def _current_version(self, uri: str) -> tuple[bool, int | None]:
        document = self.document(uri)
        return (document is not None, document.version if document is not None else None)

    async def _check_until_current(self, uri: str) -> None:
        try:
            await self._check_loop(uri)
        except Exception as exc:  # never lost in a task nobody awaits
            self.internal_error(exc, uri)
        finally:
            self._running.pop(uri, None)

    async def _check_loop(self, uri: str) -> None:
        """Check ``uri`` until the version checked is still the newest when its check ends."""
        while True:
            self._again.discard(uri)
            snapshot = self._snapshot(uri)
            if snapshot is None:
                return
            result = await self._run(snapshot)
            still_open, version = self._current_version(uri)
            if result is not None and still_open and version == snapshot.version:
                self._publish_result(snapshot, result)
            # what the check left for later (cache writes), once its result is out; before
            # the next check, which reads what it writes
            await self._finish(uri)
            if not still_open or (uri not in self._again and version == snapshot.version):
                return

    async def _run(self, snapshot: _Snapshot) -> LintResult | None:
        """The check of ``snapshot``, or None when it could not run (said in the log)."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._executor, self._check, snapshot)
        except Exception as exc:
            self.internal_error(exc, snapshot.uri)
            return None

    def _check(self, snapshot: _Snapshot) -> LintResult:
        root = self._project_root(snapshot.path)
        options = self.options.options_for(snapshot.path, root)
        if isinstance(options, tuple):
            # nothing is checked with a broken configuration, as on the command line
            notes = tuple(problem.notification() for problem in options)
            return LintResult(findings=(), notifications=notes)
        return check_buffer(snapshot.path, snapshot.data, options, snapshot.buffers, self.session)

    async def _finish(self, uri: str) -> None:
        """Run what the checks so far left for later (``engine/session.py``) in the checks'
        thread; the problems it meets are logged as the checks' own are."""
        if not len(self.session.later):
            return
        loop = asyncio.get_running_loop()
        try:
            problems = await loop.run_in_executor(self._executor, self.session.later.run)
        except Exception as exc:
            self.internal_error(exc, uri)
        else:
            self._log_cache_problems(problems)

    def _project_root(self, path: Path) -> Path:
        """The innermost workspace folder holding ``path``, else its directory."""
        roots = [p for f in self.server.workspace.folders.values() if (p := path_of(f.uri))]
        holding = [r for r in roots if _under(path, r)]
        return max(holding, key=lambda r: len(r.parts)) if holding else path.parent

    def _say_once(self, text: str) -> None:
        """An error in the log, and once a session in a message window."""
        self.log(text, types.MessageType.Error)
        if text not in self._said:
            self._said.add(text)
            self.server.window_show_message(
                types.ShowMessageParams(type=types.MessageType.Error, message=text)
            )

    def _publish_result(self, snapshot: _Snapshot, result: LintResult) -> None:
        root = self._project_root(snapshot.path)
        for note in result.notifications:
            where = shown_path(note.path, root) if note.path is not None else ""
            where += f":{note.line}" if where and note.line else ""
            text = f"burnlint: {where}: {note.message}" if where else f"burnlint: {note.message}"
            if note.kind is NotificationKind.CONFIG:
                self._say_once(text.replace("burnlint: ", "burnlint: configuration error: ", 1))
            elif note.level is Level.ERROR:
                self.log(text, types.MessageType.Error)
            else:
                self.log(text)
        self._log_cache_problems(result.cache_problems)
        texts = Texts({**snapshot.buffers, snapshot.path: snapshot.data})
        positions = Positions(self.server.workspace.position_encoding, texts)

        def uri_for(path: Path) -> str:
            return snapshot.uri if path == snapshot.path else uri_of(path)

        pairs = tuple(
            (finding, diagnostic(finding, positions, uri_for))
            for finding in result.findings
            if finding.location.path == snapshot.path
        )
        self.published[snapshot.uri] = Checked(
            snapshot.uri,
            snapshot.version,
            snapshot.path,
            snapshot.data,
            pairs,
            positions,
            uri_for,
            snapshot.versions,
        )
        self._publish(snapshot.uri, snapshot.version, [d for _, d in pairs])

    def _log_cache_problems(self, problems: Iterable[str]) -> None:
        for problem in problems:
            if problem not in self._said:
                self._said.add(problem)
                self.log(f"burnlint: warning: {problem}", types.MessageType.Warning)

    def _publish(self, uri: str, version: int | None, found: list[types.Diagnostic]) -> None:
        self.server.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=found, version=version)
        )

    def internal_error(self, exc: Exception, uri: str) -> None:
        """An error burnlint did not expect, in the log (with the traceback when
        ``BURNLINT_DEBUG`` is set): the server goes on."""
        text = f"{internal_error_message(exc)}, checking {uri}"
        if os.environ.get(DEBUG_ENV, "") not in ("", "0"):
            text += "\n" + "".join(traceback.format_exception(exc))
        self.log(text, types.MessageType.Error)

    def log(self, message: str, kind: types.MessageType = types.MessageType.Info) -> None:
        self.server.window_log_message(types.LogMessageParams(type=kind, message=message))


def _under(path: Path, directory: Path) -> bool:
    return path == directory or directory in path.parents


def _crate(path: Path) -> Path | None:
    from burnlint.project.targets import crate_root

    found = crate_root(path.parent)
    return Path(os.path.abspath(found)) if found is not None else None


def _crate_group(path: Path) -> set[Path]:
    """The crates whose files ``path`` is checked with: its own and its path dependencies."""
    from burnlint.project.targets import with_path_dependencies

    crate = _crate(path)
    if crate is None:
        return set()
    return {Path(os.path.abspath(c)) for c in with_path_dependencies([crate])}
