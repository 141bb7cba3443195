"""Every per-file stage runs under one guard: an exception while computing one file's crate
facts or judging its allow comments becomes an error notification for that file (exit 2),
and the other files keep their findings."""

from __future__ import annotations

from pathlib import Path

import pytest

import burnlint.model.summaries
import burnlint.suppress
from burnlint.engine import lint_files
from burnlint.findings import Level, NotificationKind
from burnlint.options import EngineOptions
from burnlint.paths import display_path
from burnlint.rules.registry import resolve

DISCARD = """\
use burn_store::{ModuleSnapshot, SafetensorsStore};
pub fn save<M: ModuleSnapshot>(model: &M) {
    let mut store = SafetensorsStore::from_file("m.safetensors").overwrite(true);
    let _ = model.save_into(&mut store);
}
"""


def _crate(tmp_path: Path) -> list[Path]:
    (tmp_path / "Cargo.toml").write_text('[package]\nname = "c"\nversion = "0.1.0"\n')
    (tmp_path / "src").mkdir()
    files = []
    for name in ("a.rs", "b.rs"):
        path = tmp_path / "src" / name
        path.write_text(DISCARD, encoding="utf-8")
        files.append(path)
    return files


def _run(tmp_path: Path, files: list[Path]) -> tuple[set[str], list[tuple[str, str]]]:
    options = EngineOptions(rule_ids=resolve(), project_root=tmp_path, jobs=1)
    result = lint_files(files, options)
    errors = [
        (display_path(n.path, tmp_path) if n.path else "", n.message)
        for n in result.notifications
        if n.kind is NotificationKind.INTERNAL and n.level is Level.ERROR
    ]
    return {display_path(f.location.path, tmp_path) for f in result.findings}, errors


def test_crate_facts_failure_is_a_notification(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = _crate(tmp_path)
    real = burnlint.model.summaries.summarise

    def failing(model):  # type: ignore[no-untyped-def]
        if model.path.name == "a.rs":
            raise RuntimeError("facts\nbroken")
        return real(model)

    monkeypatch.setattr(burnlint.model.summaries, "summarise", failing)
    found, errors = _run(tmp_path, files)
    assert found == {"src/b.rs"}
    assert errors == [
        ("src/a.rs", "internal error in this file's crate facts: RuntimeError: facts broken")
    ]


def test_allow_comment_failure_is_a_notification(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = _crate(tmp_path)
    real = burnlint.suppress.finish_file  # the engine imports it when a group is checked

    def failing(found, source, path, options, **kwargs):  # type: ignore[no-untyped-def]
        if str(path).endswith("b.rs"):
            raise ValueError("allows broken")
        return real(found, source, path, options, **kwargs)

    monkeypatch.setattr(burnlint.suppress, "finish_file", failing)
    found, errors = _run(tmp_path, files)
    assert found == {"src/a.rs"}
    assert errors == [
        ("src/b.rs", "internal error in this file's allow comments: ValueError: allows broken")
    ]
