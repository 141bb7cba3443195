"""Rule docs are found in the installed package or, for editable installs, the source tree."""

from __future__ import annotations

from pathlib import Path

import pytest

from burnlint import docs
from burnlint.docs import Traversable

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture
def doc_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(docs, "_candidate_dirs", lambda: [tmp_path])
    return tmp_path


def test_docs_directory_is_found_in_this_install() -> None:
    directory = docs.rule_docs_dir()
    assert directory is not None
    assert directory.is_dir()
    if Path(str(directory)).parent == REPO:  # editable install: the checkout's rules/
        assert Path(str(directory)) == REPO / "rules"


def test_every_doc_in_the_checkout_is_found() -> None:
    on_disk = sorted(p.name for p in (REPO / "rules").glob("BL*.md"))
    found = docs.all_rule_docs()
    assert sorted(doc.name for doc in found.values()) == on_disk
    for rule_id, doc in found.items():
        text = docs.rule_doc(rule_id)
        assert text is not None
        assert text == doc.read_text(encoding="utf-8")


def test_rule_doc_by_id_any_case(doc_dir: Path) -> None:
    (doc_dir / "BL001-discarded-store-result.md").write_text("# BL001 discarded-store-result\n")
    (doc_dir / "BL002.md").write_text("# BL002\n")
    (doc_dir / "notes.md").write_text("not a rule doc\n")
    assert docs.rule_doc("BL001") == "# BL001 discarded-store-result\n"
    assert docs.rule_doc(" bl002 ") == "# BL002\n"
    assert docs.rule_doc("BL003") is None
    path = docs.rule_doc_path("bl001")
    assert isinstance(path, Traversable)
    assert path.name == "BL001-discarded-store-result.md"
    assert list(docs.all_rule_docs()) == ["BL001", "BL002"]


def test_unreadable_doc_is_none(doc_dir: Path) -> None:
    (doc_dir / "BL001-x.md").write_bytes(b"\xff\xfe not utf-8 \xff")
    assert docs.rule_doc("BL001") is None


def test_no_docs_anywhere(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(docs, "_candidate_dirs", list)
    assert docs.rule_docs_dir() is None
    assert docs.rule_doc("BL001") is None
    assert docs.all_rule_docs() == {}
