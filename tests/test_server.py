"""``burnlint server`` end to end: the real server started over stdio, driven by pytest-lsp's
client, on files and crates copied from ``testdata/``."""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types

from lsp_client import (
    CONFIG,
    RecordingClient,
    apply_edits,
    code_actions,
    initialize_params,
    open_document,
    published,
    replace_text,
    versioned_edits,
)

pytestmark = pytest.mark.asyncio(loop_scope="function")  # every test here is async

TESTDATA = Path(__file__).resolve().parent.parent / "testdata"


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A folder with the write-up's save loop (``seed_loop.rs``) and a copy of the
    ``checkpoint-helper`` crate, whose binary saves through helpers of its lib. Its name has a
    space, which URIs quote."""
    root = tmp_path / "work space"
    root.mkdir()
    shutil.copy(TESTDATA / "fixes" / "seed_loop.rs", root / "seed_loop.rs")
    shutil.copytree(TESTDATA / "crates" / "checkpoint-helper", root / "checkpoint-helper")
    return root


@pytest_lsp.fixture(config=CONFIG, loop_scope="function")
async def client(lsp_client: RecordingClient, workspace: Path) -> AsyncIterator[None]:
    await lsp_client.initialize_session(initialize_params([workspace]))
    yield
    await lsp_client.shutdown_session()


def codes(params: types.PublishDiagnosticsParams) -> list[tuple[int, str]]:
    return [(d.range.start.line + 1, str(d.code)) for d in params.diagnostics]


async def test_the_classic_save_loop_gets_bl002_and_bl003(
    client: RecordingClient, workspace: Path
) -> None:
    uri = open_document(client, workspace / "seed_loop.rs")
    found = await published(client, uri, 1)
    assert codes(found) == [(15, "BL002"), (15, "BL003"), (29, "BL002"), (29, "BL003")]
    bl003 = found.diagnostics[1]
    assert bl003.source == "burnlint"
    assert bl003.severity is types.DiagnosticSeverity.Error
    assert found.diagnostics[0].severity is types.DiagnosticSeverity.Warning
    # `SafetensorsStore::from_file(&file)` on line 15, in UTF-16 columns
    line = (workspace / "seed_loop.rs").read_text().splitlines()[14]
    assert line[bl003.range.start.character :].startswith("SafetensorsStore::from_file(&file)")
    assert bl003.message.startswith("`SafetensorsStore` is saved into in a loop")
    assert "\nhelp: " in bl003.message


async def test_the_overwrite_fix_is_offered_and_applying_it_clears_bl003(
    client: RecordingClient, workspace: Path
) -> None:
    path = workspace / "seed_loop.rs"
    uri = open_document(client, path)
    found = await published(client, uri, 1)
    bl003 = found.diagnostics[1]
    actions = await code_actions(client, uri, bl003.range, [bl003])
    assert actions is not None
    fixes = [a for a in actions if isinstance(a, types.CodeAction) and ".overwrite(" in a.title]
    assert len(fixes) == 1
    fix = fixes[0]
    assert fix.kind == types.CodeActionKind.QuickFix
    assert "unsafe" in fix.title and not fix.is_preferred  # it changes behaviour
    text = apply_edits(path.read_text(), versioned_edits(fix.edit, uri, 1))
    assert "SafetensorsStore::from_file(&file).overwrite(true)" in text
    replace_text(client, uri, 2, text)
    after = await published(client, uri, 2)
    assert codes(after) == [(15, "BL002"), (29, "BL002"), (29, "BL003")]


async def test_typing_the_overwrite_makes_bl003_go(
    client: RecordingClient, workspace: Path
) -> None:
    path = workspace / "seed_loop.rs"
    uri = open_document(client, path)
    await published(client, uri, 1)
    line = path.read_text().splitlines()[28]
    column = line.index("(&file)") + len("(&file)")
    position = types.Position(line=28, character=column)
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[
                types.TextDocumentContentChangePartial(
                    range=types.Range(position, position), text=".overwrite(true)"
                )
            ],
        )
    )
    after = await published(client, uri, 2)
    assert codes(after) == [(15, "BL002"), (15, "BL003"), (29, "BL002")]


async def test_allow_here_and_fix_all(client: RecordingClient, workspace: Path) -> None:
    path = workspace / "seed_loop.rs"
    source = path.read_text().replace(
        "    model\n}\n\npub fn train_latest_bpk",
        "    // burnlint: allow(BL001) -- nothing to allow here\n    model\n}\n\n"
        "pub fn train_latest_bpk",
        1,
    )
    path.write_text(source)
    uri = open_document(client, path)
    found = await published(client, uri, 1)
    unused = [d for d in found.diagnostics if d.code == "BL008"]
    assert len(unused) == 1 and list(unused[0].tags or ()) == [types.DiagnosticTag.Unnecessary]

    everything = types.Range(types.Position(0, 0), types.Position(100, 0))
    fix_all = await code_actions(
        client, uri, everything, [], only=[types.CodeActionKind.SourceFixAll]
    )
    assert fix_all is not None and len(fix_all) == 1
    action = fix_all[0]
    assert isinstance(action, types.CodeAction)
    assert action.kind == types.CodeActionKind.SourceFixAll
    # only the safe fix (the unused allow goes), not the unsafe `.overwrite(true)`
    assert apply_edits(source, versioned_edits(action.edit, uri, 1)) == path.read_text().replace(
        "    // burnlint: allow(BL001) -- nothing to allow here\n", ""
    )

    bl003 = next(d for d in found.diagnostics if d.code == "BL003")
    actions = await code_actions(
        client, uri, bl003.range, [bl003], only=[types.CodeActionKind.QuickFix]
    )
    assert actions is not None
    allow = [a for a in actions if isinstance(a, types.CodeAction) and "allow" in a.title]
    assert [a.title for a in allow] == [
        "BL002: allow `store-error-only-logged` here",
        "BL003: allow `store-overwrite-in-loop` here",
    ]
    text = apply_edits(source, versioned_edits(allow[1].edit, uri, 1))
    assert "        // burnlint: allow(BL003) -- baseline\n        let res = model" in text
    replace_text(client, uri, 2, text)
    after = await published(client, uri, 2)
    assert codes(after) == [(16, "BL002"), (22, "BL008"), (31, "BL002"), (31, "BL003")]


async def test_hover_shows_the_rule_and_what_to_write_instead(
    client: RecordingClient, workspace: Path
) -> None:
    uri = open_document(client, workspace / "seed_loop.rs")
    found = await published(client, uri, 1)
    bl003 = found.diagnostics[1]
    hover = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=bl003.range.start
        )
    )
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    text = hover.contents.value
    assert text.startswith("**BL003** `store-overwrite-in-loop`: ")
    assert "**Use instead**" in text
    assert "SafetensorsStore::from_file(&best_path).overwrite(true)" in text  # the doc's code
    nothing = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(0, 0)
        )
    )
    assert nothing is None


async def test_a_helper_edited_in_another_buffer_republishes_its_caller(
    client: RecordingClient, workspace: Path
) -> None:
    crate = workspace / "checkpoint-helper"
    main_uri = open_document(client, crate / "src" / "main.rs")
    before = await published(client, main_uri, 1)
    assert codes(before) == [(24, "BL002"), (29, "BL001"), (34, "BL001")]
    helper = crate / "src" / "checkpoint.rs"
    mark = len(client.published)
    helper_uri = open_document(client, helper)
    await published(client, helper_uri, 1, after=mark)
    assert codes(await published(client, main_uri, 1, after=mark)) == codes(before)
    mark = len(client.published)
    # the helper no longer passes `.overwrite(true)`: the caller's loop now saves into a store
    # that refuses to replace its file (unsaved: the buffer is what counts)
    text = helper.read_text().replace("from_file(path).overwrite(true))", "from_file(path))")
    replace_text(client, helper_uri, 2, text)
    again = await published(client, main_uri, 1, after=mark)
    assert codes(again) == [(24, "BL002"), (24, "BL003"), (29, "BL001"), (34, "BL001")]
    # the store is built in the helper's buffer: the related location points there
    related = again.diagnostics[1].related_information or []
    assert [(r.location.uri, r.location.range.start.line + 1) for r in related] == [(helper_uri, 9)]
    assert related[0].message.startswith("`save_checkpoint` builds the store here")
    # closed unsaved, the helper is read from disk again
    mark = len(client.published)
    client.text_document_did_close(
        types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(helper_uri))
    )
    restored = await published(client, main_uri, 1, after=mark)
    assert codes(restored) == codes(before)


async def test_a_helper_changed_on_disk_republishes_its_caller(
    client: RecordingClient, workspace: Path
) -> None:
    crate = workspace / "checkpoint-helper"
    main_uri = open_document(client, crate / "src" / "main.rs")
    await published(client, main_uri, 1)
    assert any(r.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES for r in client.registrations)
    helper = crate / "src" / "checkpoint.rs"
    helper.write_text(
        helper.read_text().replace("from_file(path).overwrite(true))", "from_file(path))")
    )
    mark = len(client.published)
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=helper.as_uri(), type=types.FileChangeType.Changed)]
        )
    )
    again = await published(client, main_uri, 1, after=mark)
    assert (24, "BL003") in codes(again)


async def test_a_broken_half_typed_buffer_still_gets_what_can_be_found(
    client: RecordingClient, workspace: Path
) -> None:
    path = workspace / "seed_loop.rs"
    text = path.read_text()
    half = text[: text.index("pub fn train_latest_bpk")] + (
        "pub fn train_latest_bpk(device: &Device, out: &Path, epochs: usize) -> Mlp {\n"
        "    let file = out.join(\n"
        "    for epoch in 0..epochs {\n"
        "        let res = model.save_into(&mut BurnpackStore::from_fi\n"
    )
    path.write_text(half)
    uri = open_document(client, path)
    found = await published(client, uri, 1)
    assert codes(found)[:2] == [(15, "BL002"), (15, "BL003")]
    # and garbage typed into the good part does not stop the server either
    replace_text(client, uri, 2, half.replace("for epoch in 0..epochs {", "for epoch in 0..{{", 1))
    await published(client, uri, 2)


async def test_versions_overtaken_are_never_published(
    client: RecordingClient, workspace: Path
) -> None:
    path = workspace / "seed_loop.rs"
    uri = open_document(client, path)
    await published(client, uri, 1)
    text = path.read_text()
    for version in range(2, 12):
        replace_text(client, uri, version, text + "\n" * version)
    last = await published(client, uri, 11)
    assert len(last.diagnostics) == 4
    versions = [p.version for p in client.published if p.uri == uri]
    assert versions == sorted(versions) and versions[-1] == 11
    # a publish for a version is only sent while that version is the newest: none comes late
    assert versions.count(11) == 1


async def test_code_actions_and_hovers_of_unknown_documents_are_empty(
    client: RecordingClient, workspace: Path
) -> None:
    uri = (workspace / "never-opened.rs").as_uri()
    hover = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(0, 0)
        )
    )
    assert hover is None
    actions = await code_actions(
        client, uri, types.Range(types.Position(0, 0), types.Position(0, 0))
    )
    assert not actions
    # the server still answers
    good = open_document(client, workspace / "seed_loop.rs")
    assert len((await published(client, good, 1)).diagnostics) == 4


async def test_a_broken_configuration_is_said_and_nothing_is_reported(
    client: RecordingClient, workspace: Path
) -> None:
    (workspace / "burnlint.toml").write_text("selct = ['BL001']\n")
    uri = open_document(client, workspace / "seed_loop.rs")
    found = await published(client, uri, 1)
    assert list(found.diagnostics) == []
    assert any("burnlint.toml" in m.message and "selct" in m.message for m in client.messages)
    # fixed on disk and said so by the editor: the open files are checked again
    (workspace / "burnlint.toml").write_text("ignore = ['BL002']\n")
    mark = len(client.published)
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[
                types.FileEvent(
                    uri=(workspace / "burnlint.toml").as_uri(), type=types.FileChangeType.Changed
                )
            ]
        )
    )
    after = await published(client, uri, 1, after=mark)
    assert codes(after) == [(15, "BL003"), (29, "BL003")]
    # changed again with no word from the editor: the next check sees it all the same
    (workspace / "burnlint.toml").write_text("ignore = ['BL003']\n")
    replace_text(client, uri, 2, (workspace / "seed_loop.rs").read_text())
    assert codes(await published(client, uri, 2)) == [(15, "BL002"), (29, "BL002")]


@pytest_lsp.fixture(config=CONFIG, loop_scope="function")
async def configured(lsp_client: RecordingClient, workspace: Path) -> AsyncIterator[None]:
    """A client that sets rules in ``initializationOptions`` (and a key the server does not
    know), and asks for UTF-8 positions."""
    options = {"extendSelect": ["BL004"], "ignore": ["BL002"], "colour": True}
    await lsp_client.initialize_session(initialize_params([workspace], options, "utf-8"))
    yield
    await lsp_client.shutdown_session()


async def test_initialization_options_select_rules(
    configured: RecordingClient, workspace: Path
) -> None:
    client = configured
    path = workspace / "seed_loop.rs"
    text = path.read_text().replace("let res = model", "let résultat = model", 1)
    path.write_text(text.replace("match res {", "match résultat {", 1))
    uri = open_document(client, path)
    found = await published(client, uri, 1)
    assert [c for _, c in codes(found)] == ["BL003", "BL004", "BL003", "BL004"]
    # columns count UTF-8 bytes, as this client asked: `é` is two
    line = path.read_text().splitlines()[14]
    column = len(line[: line.index("SafetensorsStore")].encode("utf-8"))
    assert found.diagnostics[0].range.start.character == column == 45  # UTF-16: 44
    assert any("unknown key `colour`" in m.message for m in client.messages)


@pytest_lsp.fixture(config=CONFIG, loop_scope="function")
async def ignores_all(lsp_client: RecordingClient, workspace: Path) -> AsyncIterator[None]:
    """A client whose ``initializationOptions`` ignore every rule."""
    await lsp_client.initialize_session(initialize_params([workspace], {"ignore": ["ALL"]}))
    yield
    await lsp_client.shutdown_session()


async def test_initialization_options_that_select_no_rule_are_a_warning_and_ignored(
    ignores_all: RecordingClient, workspace: Path
) -> None:
    """They blanked every diagnostic with an error about the command line's flags."""
    client = ignores_all
    uri = open_document(client, workspace / "seed_loop.rs")
    found = await published(client, uri, 1)
    assert [c for _, c in codes(found)] == ["BL002", "BL003", "BL002", "BL003"]
    assert any(
        m.message == "initializationOptions: `ignore` leaves no rule to run; ignored, the "
        "configuration's rules run"
        for m in client.messages
    )
    assert not any("--select" in m.message for m in client.messages)


@pytest_lsp.fixture(config=CONFIG, loop_scope="function")
async def two_roots(lsp_client: RecordingClient, tmp_path: Path) -> AsyncIterator[None]:
    """Two workspace folders, each with the save loop; the second ignores BL002."""
    for name in ("first", "second"):
        (tmp_path / name).mkdir()
        shutil.copy(TESTDATA / "fixes" / "seed_loop.rs", tmp_path / name / "seed_loop.rs")
    (tmp_path / "second" / "burnlint.toml").write_text("ignore = ['BL002']\n")
    await lsp_client.initialize_session(
        initialize_params([tmp_path / "first", tmp_path / "second"])
    )
    yield
    await lsp_client.shutdown_session()


async def test_each_workspace_folder_has_its_configuration(
    two_roots: RecordingClient, tmp_path: Path
) -> None:
    client = two_roots
    first = open_document(client, tmp_path / "first" / "seed_loop.rs")
    second = open_document(client, tmp_path / "second" / "seed_loop.rs")
    assert [c for _, c in codes(await published(client, first, 1))] == ["BL002", "BL003"] * 2
    assert [c for _, c in codes(await published(client, second, 1))] == ["BL003", "BL003"]


async def test_shutdown_and_exit_are_clean(client: RecordingClient, workspace: Path) -> None:
    uri = open_document(client, workspace / "seed_loop.rs")
    await published(client, uri, 1)
    await client.shutdown_session()
    server = client._server
    assert server is not None and server.returncode == 0
    client.capabilities = None  # the session is over: the fixture has nothing left to end


async def test_an_internal_error_is_logged_and_other_files_keep_their_diagnostics(
    client: RecordingClient, workspace: Path
) -> None:
    good = open_document(client, workspace / "seed_loop.rs")
    assert len((await published(client, good, 1)).diagnostics) == 4
    # a directory no file system accepts (a NUL byte in its name): checking a file in it
    # fails inside burnlint
    bad = (workspace / "sub" / "seed_loop.rs").as_uri().replace("/sub/", "/s%00b/")
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=bad, language_id="rust", version=1, text="fn main() {}\n"
            )
        )
    )
    deadline = asyncio.get_running_loop().time() + 60
    while not any("internal error" in m.message for m in client.log_messages):
        assert asyncio.get_running_loop().time() < deadline, client.log_messages
        await asyncio.sleep(0.05)
    error = next(m for m in client.log_messages if "internal error" in m.message)
    assert error.type is types.MessageType.Error
    assert not client.messages  # nothing in a window
    assert len(client.diagnostics[good]) == 4
    # and the server goes on: the good file is checked again
    replace_text(client, good, 2, (workspace / "seed_loop.rs").read_text())
    assert len((await published(client, good, 2)).diagnostics) == 4


async def test_fix_all_leaves_the_implicit_key_mapping_fix_to_its_quick_fix(
    client: RecordingClient, workspace: Path
) -> None:
    """`source.fixAll` runs on save in many editors: it does not spell out the defaults of a
    store just typed (BL005's safe fix); the finding's own quick fix still does."""
    # a known release: the fix is safe, so only `FIX_ALL_LEAVES` keeps it out of fixAll
    (workspace / "burnlint.toml").write_text('burn-version = "0.22.0"\n')
    path = workspace / "import.rs"
    path.write_text(
        "use burn_store::{ModuleSnapshot, PytorchStore};\n\n"
        "pub fn load<M: ModuleSnapshot>(model: &mut M) {\n"
        '    model.load_from(&mut PytorchStore::from_file("m.pt")).unwrap();\n'
        "}\n"
    )
    uri = open_document(client, path)
    found = await published(client, uri, 1)
    assert codes(found) == [(4, "BL005")]
    everything = types.Range(types.Position(0, 0), types.Position(10, 0))
    fix_all = await code_actions(
        client, uri, everything, [], only=[types.CodeActionKind.SourceFixAll]
    )
    assert not fix_all
    bl005 = found.diagnostics[0]
    quick = await code_actions(
        client, uri, bl005.range, [bl005], only=[types.CodeActionKind.QuickFix]
    )
    assert quick is not None
    titles = [a.title for a in quick if isinstance(a, types.CodeAction)]
    assert any(t.startswith("BL005: write the defaults of") for t in titles), titles


async def _every_action(client: RecordingClient, uri: str) -> list[types.CodeAction]:
    everything = types.Range(types.Position(0, 0), types.Position(100, 0))
    actions = await code_actions(client, uri, everything)
    assert actions is not None
    return [a for a in actions if isinstance(a, types.CodeAction)]


async def test_code_actions_edit_the_version_they_were_computed_for(
    client: RecordingClient, workspace: Path
) -> None:
    """They carried unversioned `changes`: a client applied them to whatever text it had."""
    path = workspace / "seed_loop.rs"
    uri = open_document(client, path)
    await published(client, uri, 1)
    replace_text(client, uri, 7, path.read_text())
    await published(client, uri, 7)
    actions = await _every_action(client, uri)
    # the quick fixes, the allows and fixAll: each a versioned edit of this document
    assert len(actions) >= 3
    for action in actions:
        assert versioned_edits(action.edit, uri, 7)


@pytest_lsp.fixture(config=CONFIG, loop_scope="function")
async def unversioned(lsp_client: RecordingClient, workspace: Path) -> AsyncIterator[None]:
    """A client that takes no ``documentChanges``."""
    await lsp_client.initialize_session(initialize_params([workspace], document_changes=False))
    yield
    await lsp_client.shutdown_session()


async def test_a_client_without_document_changes_gets_changes(
    unversioned: RecordingClient, workspace: Path
) -> None:
    client = unversioned
    uri = open_document(client, workspace / "seed_loop.rs")
    await published(client, uri, 1)
    actions = await _every_action(client, uri)
    assert len(actions) >= 3
    for action in actions:
        assert action.edit is not None and action.edit.document_changes is None
        assert action.edit.changes is not None and list(action.edit.changes) == [uri]
