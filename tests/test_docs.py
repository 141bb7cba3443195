"""Documentation: rule docs are found in the installed package or, for editable installs, the
source tree; the README's rule table and the JSON format's example agree with the tool."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from burnlint import cli, docs
from burnlint.docs import Traversable
from burnlint.rules import registry

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


# --- documents that must agree with the tool ---------------------------------------------------


def _section(text: str, heading: str) -> str:
    start = text.index(f"\n{heading}\n")
    end = text.find("\n## ", start + len(heading) + 2)
    return text[start : end if end != -1 else len(text)]


def test_the_readme_rule_table_is_the_registry() -> None:
    """Every registered rule, in order, with its name, doc, level, default and fixability."""
    table = _section((REPO / "README.md").read_text(encoding="utf-8"), "## Rules")
    rows = [
        [cell.strip() for cell in line.strip("|").split("|")]
        for line in table.splitlines()
        if line.startswith("| [BL")
    ]
    assert len(rows) == len(registry.ALL)
    for row, rule in zip(rows, registry.ALL, strict=True):
        link, name, level, default, fix = row[:5]
        match = re.fullmatch(r"\[(BL\d{3})\]\((rules/[^)]+\.md)\)", link)
        assert match is not None, link
        assert match.group(1) == rule.id
        assert match.group(2) == f"rules/{rule.id}-{rule.name}.md"
        assert (REPO / match.group(2)).is_file()
        assert name == rule.name
        assert level == rule.level.value
        assert default == ("yes" if rule.enabled_by_default else "no"), rule.id
        assert (fix != "—") is rule.fixable, rule.id
        assert fix in ("—", "safe", "unsafe", "safe/unsafe"), rule.id


def test_the_json_format_example_is_what_burnlint_prints(runner: CliRunner) -> None:
    """docs/json-format.md's example, run as it says (only burnlint's version may differ)."""
    text = _section((REPO / "docs" / "json-format.md").read_text(encoding="utf-8"), "## Example")
    example = json.loads(text.split("```json\n", 1)[1].split("```", 1)[0])
    demo = REPO / "testdata" / "demo"
    out = runner.invoke(
        cli.cli,
        ["check", "--format", "json", "--project-root", str(demo), str(demo / "src/export.rs")],
    )
    assert out.exit_code == 1, out.output
    printed = json.loads(out.stdout)
    printed["tool"]["version"] = example["tool"]["version"]
    assert list(printed) == list(example)
    assert printed == example


def test_the_readme_usage_block_lists_every_command() -> None:
    """`burnlint config` was missing from it."""
    usage = _section((REPO / "README.md").read_text(encoding="utf-8"), "## Usage")
    block = usage.split("```\n", 1)[1].split("```", 1)[0]
    listed = [line.split()[1] for line in block.splitlines() if line.startswith("burnlint ")]
    assert sorted(name.strip("[]") for name in listed) == sorted(cli.cli.commands)


def test_the_readme_says_which_burn_version_wins_as_burnlint_does(
    runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`burn-version` in the configuration overrides Cargo.lock; the README said the reverse."""
    (tmp_path / "Cargo.toml").write_text('[package]\nname = "a"\nversion = "0.1.0"\n')
    (tmp_path / "Cargo.lock").write_text('[[package]]\nname = "burn-store"\nversion = "0.21.0"\n')
    (tmp_path / "burnlint.toml").write_text('burn-version = "0.22.1"\n')
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "main.rs").write_text("fn main() {}\n")
    monkeypatch.chdir(tmp_path)
    shown = runner.invoke(cli.cli, ["config"]).stdout
    assert 'burn-version = "0.22.1"  # burnlint.toml' in shown.splitlines()
    checked = runner.invoke(cli.cli, ["check", "--no-cache", "."]).stdout
    assert "(assuming burn 0.22.1)" in checked

    configuration = _section((REPO / "README.md").read_text(encoding="utf-8"), "## Configuration")
    prose = " ".join(re.sub(r"```.*?```", "", configuration, flags=re.DOTALL).split())
    # sentences end at a dot and a space (`Cargo.lock` has a dot of its own)
    [claim] = [s for s in re.split(r"\.(?:\s|$)", prose) if "burn version" in s]
    assert claim.index("`burn-version`") < claim.index("`Cargo.lock`") < claim.index("`Cargo.toml`")
