"""``burnlint server``: the language server over stdio (pygls), its features wired to the
checks of the open documents (``documents.py``), code actions (``actions.py``) and hovers."""

from __future__ import annotations

import logging
from typing import Any

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from burnlint import __version__
from burnlint.app.console import internal_error_message
from burnlint.server.actions import code_actions
from burnlint.server.checking import EditorSettings, OptionsCache, editor_settings
from burnlint.server.convert import Checked, contains, hover_text, path_of
from burnlint.server.documents import Documents

# the files whose change on disk is checked for: the sources the open documents read, and
# what their configuration and crate facts come from
WATCHED = (
    "**/*.rs",
    "**/Cargo.toml",
    "**/Cargo.lock",
    "**/burnlint.toml",
    "**/.burnlint.toml",
    "**/pyproject.toml",
)


class BurnlintServer(LanguageServer):
    """The server; an error no handler expected goes to the client's log, not a window."""

    def __init__(self) -> None:
        super().__init__("burnlint", __version__)
        self.documents = Documents(self, OptionsCache(EditorSettings()))
        self.setting_problems: list[str] = []

    def report_server_error(self, error: Exception, source: Any) -> None:
        try:
            self.window_log_message(
                types.LogMessageParams(
                    type=types.MessageType.Error, message=internal_error_message(error)
                )
            )
        except Exception:  # the connection itself is gone: nothing to tell
            logging.getLogger(__name__).exception("cannot report an error")


def build() -> BurnlintServer:
    server = BurnlintServer()

    @server.feature(types.INITIALIZE)
    def initialize(ls: BurnlintServer, params: types.InitializeParams) -> None:
        settings, problems = editor_settings(params.initialization_options)
        ls.documents.options = OptionsCache(settings)
        ls.setting_problems = problems

    @server.feature(types.INITIALIZED)
    async def initialized(ls: BurnlintServer, _params: types.InitializedParams) -> None:
        for problem in ls.setting_problems:
            ls.window_show_message(
                types.ShowMessageParams(type=types.MessageType.Warning, message=problem)
            )
            ls.documents.log(problem, types.MessageType.Warning)
        workspace = ls.client_capabilities.workspace
        watching = workspace.did_change_watched_files if workspace is not None else None
        if watching is not None and watching.dynamic_registration:
            options = types.DidChangeWatchedFilesRegistrationOptions(
                watchers=[types.FileSystemWatcher(glob_pattern=g) for g in WATCHED]
            )
            registration = types.Registration(
                id="burnlint-watched-files",
                method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                register_options=options,
            )
            try:
                await ls.client_register_capability_async(
                    types.RegistrationParams(registrations=[registration])
                )
            except Exception as exc:
                ls.documents.log(f"burnlint: files are not watched: {exc}")

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: BurnlintServer, params: types.DidOpenTextDocumentParams) -> None:
        ls.documents.changed(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: BurnlintServer, params: types.DidChangeTextDocumentParams) -> None:
        ls.documents.changed(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: BurnlintServer, params: types.DidSaveTextDocumentParams) -> None:
        path = path_of(params.text_document.uri)
        if path is not None and path.suffix != ".rs":
            ls.documents.file_changed(path)  # a configuration file: read again from disk
        else:
            ls.documents.changed(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: BurnlintServer, params: types.DidCloseTextDocumentParams) -> None:
        ls.documents.closed(params.text_document.uri)

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def watched(ls: BurnlintServer, params: types.DidChangeWatchedFilesParams) -> None:
        for change in params.changes:
            path = path_of(change.uri)
            if path is not None:
                ls.documents.file_changed(path)

    @server.feature(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
    def folders(ls: BurnlintServer, _params: types.DidChangeWorkspaceFoldersParams) -> None:
        ls.documents.check_all()  # paths in messages are named from the innermost folder

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(
            code_action_kinds=[types.CodeActionKind.QuickFix, types.CodeActionKind.SourceFixAll]
        ),
    )
    def code_action(
        ls: BurnlintServer, params: types.CodeActionParams
    ) -> list[types.CodeAction] | None:
        checked = _current(ls, params.text_document.uri)
        if checked is None:
            return None
        return code_actions(checked, params, versioned=_takes_document_changes(ls))

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(ls: BurnlintServer, params: types.HoverParams) -> types.Hover | None:
        checked = _current(ls, params.text_document.uri)
        if checked is None:
            return None
        under = [(f, d) for f, d in checked.findings if contains(d.range, params.position)]
        if not under:
            return None
        under.sort(key=lambda pair: _extent(pair[1].range))  # the innermost first
        text = "\n\n---\n\n".join(hover_text(f) for f, _ in under)
        return types.Hover(
            contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text),
            range=under[0][1].range,
        )

    @server.feature(types.SHUTDOWN)
    def shutdown(ls: BurnlintServer, _params: None) -> None:
        ls.documents.shutdown()

    return server


def _takes_document_changes(ls: BurnlintServer) -> bool:
    """Whether the client takes versioned edits (``workspace.workspaceEdit.documentChanges``)."""
    workspace = ls.client_capabilities.workspace
    edit = workspace.workspace_edit if workspace is not None else None
    return bool(edit is not None and edit.document_changes)


def _extent(span: types.Range) -> tuple[int, int]:
    return (span.end.line - span.start.line, span.end.character - span.start.character)


def _current(ls: BurnlintServer, uri: str) -> Checked | None:
    """What was published for the document's current version; None when that version has not
    been checked yet (its findings would be in the wrong places)."""
    checked = ls.documents.published.get(uri)
    document = ls.documents.document(uri)
    if checked is None or document is None or document.version != checked.version:
        return None
    return checked


def serve() -> None:
    """Run the server on stdin and stdout until the client says exit."""
    build().start_io()
