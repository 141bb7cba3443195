"""A pytest-lsp client for ``burnlint server`` that keeps every ``publishDiagnostics`` it gets
(with its version), so that a test can wait for the one of a given document version."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from pytest_lsp.client import (  # type: ignore[attr-defined]
    DEFAULT_CLIENT_FEATURES,
    default_converter,
    register_lsp_features,
)

SERVER = [sys.executable, "-m", "burnlint", "server"]
TIMEOUT = 60.0  # the machine may be busy


class RecordingClient(LanguageClient):
    published: list[types.PublishDiagnosticsParams]
    registrations: list[types.Registration]


def _publish(client: RecordingClient, params: types.PublishDiagnosticsParams) -> None:
    client.published.append(params)
    client.diagnostics[params.uri] = params.diagnostics


def _register(client: RecordingClient, params: types.RegistrationParams) -> None:
    client.registrations.extend(params.registrations)


def make_client() -> RecordingClient:
    client = RecordingClient(converter_factory=default_converter)
    client.published = []
    client.registrations = []
    features: dict[str, Callable[..., Any]] = {
        **DEFAULT_CLIENT_FEATURES,
        types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS: _publish,
        types.CLIENT_REGISTER_CAPABILITY: _register,
    }
    register_lsp_features(client, features)
    return client


CONFIG = ClientServerConfig(server_command=SERVER, client_factory=make_client)


def initialize_params(
    folders: list[Path],
    options: object = None,
    encoding: str | None = None,
    *,
    document_changes: bool = True,
) -> types.InitializeParams:
    """VS Code's capabilities; ``document_changes=False``: a client that takes no versioned
    edits (``workspace.workspaceEdit.documentChanges``)."""
    capabilities = client_capabilities("visual-studio-code")
    if not document_changes:
        assert capabilities.workspace is not None
        assert capabilities.workspace.workspace_edit is not None
        capabilities.workspace.workspace_edit.document_changes = False
    if encoding is not None:
        capabilities.general = types.GeneralClientCapabilities(position_encodings=[encoding])
    return types.InitializeParams(
        capabilities=capabilities,
        workspace_folders=[types.WorkspaceFolder(uri=f.as_uri(), name=f.name) for f in folders],
        initialization_options=options,
    )


async def published(
    client: RecordingClient, uri: str, version: int | None, after: int = 0
) -> types.PublishDiagnosticsParams:
    """The first publish for ``uri`` at ``version`` among those received from index ``after``
    on, waiting for it."""
    deadline = asyncio.get_running_loop().time() + TIMEOUT
    while True:
        for params in client.published[after:]:
            if params.uri == uri and params.version == version:
                return params
        if asyncio.get_running_loop().time() > deadline:
            seen = [(p.uri, p.version) for p in client.published]
            raise AssertionError(f"no diagnostics for {uri} version {version}; got {seen}")
        await asyncio.sleep(0.02)


def open_document(client: LanguageClient, path: Path, version: int = 1) -> str:
    uri = path.as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri, language_id="rust", version=version, text=path.read_text("utf-8")
            )
        )
    )
    return uri


def replace_text(client: LanguageClient, uri: str, version: int, text: str) -> None:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


async def code_actions(
    client: LanguageClient,
    uri: str,
    range_: types.Range,
    diagnostics: list[types.Diagnostic] | None = None,
    only: list[types.CodeActionKind | str] | None = None,
) -> list[types.Command | types.CodeAction] | None:
    """The code actions the server offers for ``range_`` of ``uri`` (for ``diagnostics``, of
    the kinds ``only`` names)."""
    return await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=range_,
            context=types.CodeActionContext(diagnostics=diagnostics or [], only=only),
        )
    )


def versioned_edits(
    edit: types.WorkspaceEdit | None, uri: str, version: int
) -> list[types.TextEdit]:
    """The edits of ``uri`` in ``edit``'s ``documentChanges``, checked to be for ``version``
    and the only ones (no unversioned ``changes`` beside them)."""
    assert edit is not None and edit.changes is None and edit.document_changes is not None
    found: list[types.TextEdit] = []
    for change in edit.document_changes:
        assert isinstance(change, types.TextDocumentEdit)
        if change.text_document.uri == uri:
            assert change.text_document.version == version
            found.extend(e for e in change.edits if isinstance(e, types.TextEdit))
    assert found, f"no edits of {uri}"
    return found


def apply_edits(text: str, edits: list[types.TextEdit]) -> str:
    """``edits`` (UTF-16 positions, as the test client negotiates) applied to ``text``."""
    lines = text.splitlines(keepends=True)

    def offset(position: types.Position) -> int:
        before = "".join(lines[: position.line])
        line = lines[position.line] if position.line < len(lines) else ""
        units = line.encode("utf-16-le")[: position.character * 2].decode("utf-16-le")
        return len(before) + len(units)

    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character))[::-1]:
        start, end = offset(edit.range.start), offset(edit.range.end)
        text = text[:start] + edit.new_text + text[end:]
        lines = text.splitlines(keepends=True)
    return text
