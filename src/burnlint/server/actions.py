"""Code actions on a published check: each finding's fix as a quick fix (a safe one preferred,
an unsafe one saying so), "allow this rule here" (the comment ``--add-allow`` inserts, planned
and verified by its code), and ``source.fixAll`` with every safe fix of the file but those of
the rules in ``FIX_ALL_LEAVES``.

Their edits are versioned (``documentChanges``, each document with the version the findings
were computed for) when the client supports it: a client then refuses an edit made for a text
it no longer has, instead of applying it at positions that moved. Else they are ``changes``."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from lsprotocol import types

from burnlint.app.add_allow import plan_file, verify
from burnlint.app.fix import applicable_fixes
from burnlint.findings import Applicability, Edit, Finding
from burnlint.rules.registry import UNUSED_SUPPRESSION
from burnlint.server.convert import Checked, overlaps

UNSAFE_NOTE = " (unsafe: changes behaviour)"
FIX_ALL_TITLE = "burnlint: apply every safe fix"
# Rules whose safe fixes `source.fixAll` leaves to their quick fix. Editors run fixAll on save
# (`editor.codeActionsOnSave`): BL005's fix would spell out the defaults of every store the
# moment it is typed, before its author chose the values the model needs.
FIX_ALL_LEAVES = frozenset({"BL005"})


def code_actions(
    checked: Checked, params: types.CodeActionParams, *, versioned: bool = False
) -> list[types.CodeAction]:
    """The actions for the findings of ``checked`` under ``params.range``, and the file's
    ``source.fixAll``, as far as ``params.context.only`` asks for them; ``versioned``: the
    client takes ``documentChanges`` (``workspace.workspaceEdit.documentChanges``)."""
    only = params.context.only

    def wanted(kind: str) -> bool:
        return not only or any(kind == k or kind.startswith(f"{k}.") for k in only)

    actions: list[types.CodeAction] = []
    here = [(f, d) for f, d in checked.findings if overlaps(d.range, params.range)]
    if wanted(types.CodeActionKind.QuickFix):
        for finding, diagnostic in here:
            action = _fix_action(checked, finding, diagnostic, versioned)
            if action is not None:
                actions.append(action)
        for finding, diagnostic in here:
            action = _allow_action(checked, finding, diagnostic, versioned)
            if action is not None:
                actions.append(action)
    if wanted(types.CodeActionKind.SourceFixAll):
        action = _fix_all(
            checked,
            [f for f, _ in checked.findings if f.rule_id not in FIX_ALL_LEAVES],
            versioned,
        )
        if action is not None:
            actions.append(action)
    return actions


def _workspace_edit(
    checked: Checked, edits: Iterable[Edit], versioned: bool
) -> types.WorkspaceEdit | None:
    by_path: dict[Path, list[types.TextEdit]] = {}
    for edit in edits:
        text_edit = checked.positions.text_edit(edit)
        if text_edit is None:
            return None
        by_path.setdefault(edit.path, []).append(text_edit)
    return _document_edits(checked, by_path, versioned) if by_path else None


def _document_edits(
    checked: Checked, by_path: dict[Path, list[types.TextEdit]], versioned: bool
) -> types.WorkspaceEdit:
    """``by_path`` as ``documentChanges`` with each document's version (``versioned``), else
    as unversioned ``changes``."""

    def uri(path: Path) -> str:
        return checked.uri if path == checked.path else checked.uri_for(path)

    if not versioned:
        return types.WorkspaceEdit(changes={uri(path): edits for path, edits in by_path.items()})
    return types.WorkspaceEdit(
        document_changes=[
            types.TextDocumentEdit(
                text_document=types.OptionalVersionedTextDocumentIdentifier(
                    uri=uri(path), version=checked.version_of(path)
                ),
                edits=list(edits),
            )
            for path, edits in by_path.items()
        ]
    )


def _fix_action(
    checked: Checked, finding: Finding, diagnostic: types.Diagnostic, versioned: bool
) -> types.CodeAction | None:
    fix = finding.fix
    if fix is None:
        return None
    edit = _workspace_edit(checked, fix.edits, versioned)
    if edit is None:
        return None
    safe = fix.applicability is Applicability.SAFE
    return types.CodeAction(
        title=f"{finding.rule_id}: {fix.title}" + ("" if safe else UNSAFE_NOTE),
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[diagnostic],
        is_preferred=safe,
        edit=edit,
    )


def _allow_action(
    checked: Checked, finding: Finding, diagnostic: types.Diagnostic, versioned: bool
) -> types.CodeAction | None:
    if finding.rule_id == UNUSED_SUPPRESSION.id or finding.location.path != checked.path:
        return None
    plan = plan_file(checked.path, checked.data, [finding])
    if plan.data == checked.data or verify(checked.path, checked.data, plan, [finding]):
        return None
    try:
        old, new = checked.data.decode("utf-8"), plan.data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    text_edit = _text_difference(old, new, checked.positions.encoding)
    return types.CodeAction(
        title=f"{finding.rule_id}: allow `{finding.rule_name}` here",
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[diagnostic],
        edit=_document_edits(checked, {checked.path: [text_edit]}, versioned),
    )


def _fix_all(checked: Checked, findings: list[Finding], versioned: bool) -> types.CodeAction | None:
    """Every safe fix of the file's findings, without the edits that overlap one taken before
    (as ``--fix`` leaves them for its next round)."""
    kept: list[Edit] = []
    for _path, edits in sorted(applicable_fixes(findings, unsafe=False).items()):
        end = -1
        for edit in sorted(edits, key=lambda e: (e.start_byte, e.end_byte, e.content)):
            if edit.start_byte < end or edit.start_byte > edit.end_byte:
                continue
            kept.append(edit)
            end = edit.end_byte
    workspace_edit = _workspace_edit(checked, kept, versioned)
    if workspace_edit is None:
        return None
    return types.CodeAction(
        title=FIX_ALL_TITLE, kind=types.CodeActionKind.SourceFixAll, edit=workspace_edit
    )


def _text_difference(old: str, new: str, encoding: str) -> types.TextEdit:
    """The one edit that turns ``old`` into ``new``: what lies between their common start and
    their common end."""
    start = 0
    limit = min(len(old), len(new))
    while start < limit and old[start] == new[start]:
        start += 1
    end = 0
    while end < limit - start and old[-1 - end] == new[-1 - end]:
        end += 1
    return types.TextEdit(
        range=types.Range(
            _position(old, start, encoding), _position(old, len(old) - end, encoding)
        ),
        new_text=new[start : len(new) - end],
    )


def _position(text: str, index: int, encoding: str) -> types.Position:
    line_start = text.rfind("\n", 0, index) + 1
    piece = text[line_start:index]
    if encoding == types.PositionEncodingKind.Utf32:
        column = len(piece)
    elif encoding == types.PositionEncodingKind.Utf8:
        column = len(piece.encode("utf-8"))
    else:
        column = len(piece.encode("utf-16-le")) // 2
    return types.Position(text.count("\n", 0, index), column)
