"""Suppression comments: parsing, the lines each allow covers, per-file ignores, BL008 and its fix.

The annotated fixtures in ``testdata/rules/BL008/`` cover the common shapes through the one
harness; these tests pin the details: line coverage, byte offsets, line endings, the fix, and
which allows are not judged.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import burnlint.rules.all_rules
from burnlint import suppress
from burnlint.app.fix import apply_edits
from burnlint.engine import lint_source
from burnlint.findings import Applicability, Level, LintResult, RuleMeta
from burnlint.options import EngineOptions
from burnlint.rules.all_rules import ALL_RULES
from burnlint.rules.base import Rule
from burnlint.rules.registry import resolve
from burnlint.rules.unused_suppression import UnusedSuppression
from burnlint.rust.source import SourceFile
from burnlint.rust.syntax import parse

HEADER = """\
use burn_store::{ModuleSnapshot, SafetensorsStore};

fn save<M: ModuleSnapshot>(model: &M) {
    let mut store = SafetensorsStore::from_file("m.safetensors").overwrite(true);
"""


def source(text: str | bytes) -> SourceFile:
    data = text.encode() if isinstance(text, str) else text
    return SourceFile(Path("x.rs"), data, parse(data))


def allows(text: str | bytes) -> list[suppress.Allow]:
    return list(suppress.parse_directives(source(text)).allows)


def lint(code: str | bytes, tmp_path: Path, *, name: str = "x.rs", **options: object) -> LintResult:
    data = code.encode() if isinstance(code, str) else code
    opts = EngineOptions(
        rule_ids=options.pop("rule_ids", resolve()),  # type: ignore[arg-type]
        project_root=tmp_path,
        **options,  # type: ignore[arg-type]
    )
    return lint_source(tmp_path / name, data, opts)


def found(result: LintResult) -> list[tuple[int, str]]:
    return [(f.location.span.start_line, f.rule_id) for f in result.findings]


# --- the registry and the rule's metadata ---------------------------------------------------------


def test_bl008_is_registered_and_fixable() -> None:
    # the engine runs it after the suppressions, wherever it stands in the registry
    assert UnusedSuppression in ALL_RULES
    meta = UnusedSuppression.meta
    assert meta.id == "BL008"
    assert meta.name == "unused-suppression"
    assert meta.level is Level.NOTE
    assert meta.enabled_by_default and meta.fixable
    assert "BL008" in resolve()


# --- parsing ---


def test_ids_names_reason_and_offsets() -> None:
    text = (
        "fn f() {\n    // burnlint: allow(BL003, store-error-only-logged) -- a reason\n"
        "    g();\n}\n"
    )
    (allow,) = allows(text)
    assert [i.rule_id for i in allow.ids] == ["BL003", "BL002"]
    assert [i.text for i in allow.ids] == ["BL003", "store-error-only-logged"]
    data = text.encode()
    for allow_id in allow.ids:
        assert data[allow_id.start_byte : allow_id.end_byte].decode() == allow_id.text
    assert data[allow.ids_start : allow.ids_end] == b"BL003, store-error-only-logged"
    assert allow.reason == "a reason"
    assert (allow.line, allow.first_line, allow.last_line) == (2, 3, 3)
    assert not allow.trailing and not allow.file_level


def test_offsets_after_non_ascii_text() -> None:
    text = 'fn f() {\n    let s = "é"; /* ü */ // burnlint: allow(BL001) -- 说明\n}\n'
    (allow,) = allows(text)
    data = text.encode()
    assert data[allow.ids[0].start_byte : allow.ids[0].end_byte] == b"BL001"
    assert allow.reason == "说明"
    assert allow.trailing and (allow.first_line, allow.last_line) == (2, 2)


def test_unknown_id_keeps_a_suggestion() -> None:
    (allow,) = allows("// burnlint: allow(store-overwrite-in-lop)\nfn f() {}\n")
    (allow_id,) = allow.ids
    assert allow_id.rule_id is None
    assert allow_id.suggestion == "store-overwrite-in-loop"


@pytest.mark.parametrize(
    ("comment", "reason"),
    [
        ("// burnlint: allow()", "no blanket form"),
        ("// burnlint: allow( )", "no blanket form"),
        ("// burnlint: allow", "needs the rules in parentheses"),
        ("// burnlint: allow-file", "needs the rules in parentheses"),
        ("// burnlint allow(BL001)", "colon after `burnlint`"),
        ("// burnlint: allow(BL001 BL002)", "separate rule ids or names with commas"),
        ("// burnlint: allow(BL001,,BL002)", "separate rule ids or names with commas"),
        ("// burnlint: allow(BL001) reason without dashes", "a reason goes after `--`"),
        ("// burnlint: ignore(BL001)", "unknown burnlint directive `ignore`"),
        ("// burnlint:", "malformed burnlint comment"),
    ],
)
def test_malformed_comments(comment: str, reason: str) -> None:
    directives = suppress.parse_directives(source(f"fn f() {{\n    {comment}\n    g();\n}}\n"))
    assert directives.allows == ()
    (bad,) = directives.malformed
    assert reason in bad.message
    assert bad.line == 2


@pytest.mark.parametrize(
    "comment",
    [
        "/// burnlint reads this crate",  # doc prose
        "/* burnlint: a linter */",
        "// burnlint-test: select = BL004",  # the fixture marker
        "// burnlint reports this, which is right",  # prose
        "// see burnlint: allow(BL001) in the docs",  # not at the start
    ],
)
def test_not_directives(comment: str) -> None:
    directives = suppress.parse_directives(source(f"{comment}\nfn f() {{}}\n"))
    assert directives == suppress.Directives((), ())


@pytest.mark.parametrize(
    ("comment", "kind", "meant"),
    [
        ("/// burnlint: allow(BL001)", "doc", "allow(BL001)"),
        ("//! burnlint: allow-file(BL005) -- converted", "doc", "allow-file(BL005) -- converted"),
        ("/* burnlint: allow(BL001, BL002) */", "block", "allow(BL001, BL002)"),
        (
            "/** burnlint: allow(discarded-store-result) */",
            "block",
            "allow(discarded-store-result)",
        ),
        (
            "/*\n     * burnlint: allow(BL001)\n     * -- why\n     */",
            "block",
            "allow(BL001) -- why",
        ),
    ],
)
def test_allows_in_doc_or_block_comments_are_reported(comment: str, kind: str, meant: str) -> None:
    """Such an allow is not read: BL008 says so, instead of ignoring it without a word."""
    directives = suppress.parse_directives(source(f"fn f() {{\n    {comment}\n    g();\n}}\n"))
    assert directives.allows == ()
    (bad,) = directives.malformed
    assert bad.message == f"an allow must be a `//` line comment, not a {kind} comment"
    assert bad.suggestion == f"// burnlint: {meant}"
    assert bad.line == 2


def test_a_block_allow_is_reported_by_bl008_with_the_allow_meant(tmp_path: Path) -> None:
    code = (
        HEADER
        + "    /* burnlint: allow(BL001) -- checked by the caller */\n"
        + "    let _ = model.save_into(&mut store);\n}\n"
    )
    result = lint(code, tmp_path)
    assert found(result) == [(5, "BL008"), (6, "BL001")]  # not suppressed
    bl008 = result.findings[0]
    assert bl008.message == (
        "ignored burnlint comment: an allow must be a `//` line comment, not a block comment"
    )
    assert bl008.help == "write `// burnlint: allow(BL001) -- checked by the caller`"
    assert bl008.fix is None


@pytest.mark.parametrize(
    ("comment", "meant"),
    [
        ("// burnlint: allow BL005", "allow(BL005)"),
        ("// burnlint allow(store-error-only-logged)", "allow(store-error-only-logged)"),
        ("// burnlint: allow(BL002 BL007)", "allow(BL002, BL007)"),
        ("// burnlint: allow(BL004) because it is a demo", "allow(BL004) -- because it is a demo"),
        ("// burnlint: allow BL004 because it is a demo", "allow(BL004) -- because it is a demo"),
        ("// burnlint: disable(BL006)", "allow(BL006)"),
        ("// burnlint: allow-file BL005", "allow-file(BL005)"),
        ("// burnlint: BL007", "allow(BL007)"),
        ("// burnlint: allow()", None),
    ],
)
def test_the_help_of_a_malformed_allow_uses_the_rules_written(
    comment: str, meant: str | None, tmp_path: Path
) -> None:
    result = lint(HEADER + f"    {comment}\n    let _ok = 1;\n}}\n", tmp_path)
    (bl008,) = (f for f in result.findings if f.rule_id == "BL008")
    if meant is None:
        assert bl008.help is not None and "BL003" not in bl008.help
        assert bl008.help.startswith("name the rules it suppresses: `// burnlint: allow(ID, ..)`")
    else:
        assert bl008.help == f"write `// burnlint: {meant}`"


def test_trailing_comma_and_case_are_tolerated() -> None:
    (allow,) = allows("fn f() {\n    g(); // BurnLint: Allow(bl001, BL002,)\n}\n")
    assert [i.rule_id for i in allow.ids] == ["BL001", "BL002"]


# --- the lines an allow covers ---

COVERAGE = """\
fn f() {
    // burnlint: allow(BL001)
    let a = g(
        1,
    );
    let b = h(); // burnlint: allow(BL001)
    for x in xs { // burnlint: allow(BL001)
        k(x);
    }
    // burnlint: allow(BL001)
    // another comment
    #[allow(unused)]
    let c = 3;
    m(
        // burnlint: allow(BL001)
        n(),
        o(),
    );
    let d = p(
        q,
    ); // burnlint: allow(BL001)
    match r {
        // burnlint: allow(BL001)
        Ok(v) => {
            s(v);
        }
        Err(_) => {} // burnlint: allow(BL001)
    }
    // burnlint: allow(BL001)
}
// burnlint: allow(BL001)
fn later() {
    t();
}
"""


def test_covered_lines() -> None:
    covered = [(a.line, a.first_line, a.last_line, a.trailing) for a in allows(COVERAGE)]
    assert covered == [
        (2, 3, 5, False),  # the next statement, all its lines
        (6, 6, 6, True),  # trailing: its own statement
        (7, 7, 9, True),  # trailing on a line that opens a block: the whole loop
        (10, 13, 13, False),  # comments and attributes in between are skipped
        (15, 16, 16, False),  # inside an argument list: the next argument
        (21, 19, 21, True),  # trailing on the last line of a statement
        (23, 24, 26, False),  # above a match arm: the arm
        (27, 27, 27, True),
        (29, 30, 29, False),  # nothing follows before the block ends: covers nothing
        (31, 32, 34, False),  # above an item: the whole item
    ]


def test_allow_file_covers_every_line() -> None:
    (allow,) = allows("fn f() {\n    g(); // burnlint: allow-file(BL005)\n}\n")
    assert allow.file_level
    assert all(allow.covers(line) for line in (1, 2, 3, 10_000))


def test_deep_nesting_needs_no_recursion() -> None:
    depth = 5_000
    text = "fn f() " + "{" * depth + "\n// burnlint: allow(BL001)\ng();\n" + "}" * depth + "\n"
    (allow,) = allows(text)
    assert (allow.first_line, allow.last_line) == (3, 3)


def test_stacked_allows_cover_the_statement_after_them() -> None:
    """Stacked allows, comments and attributes are skipped sibling by sibling (linear: 20,000
    allows once made the search quadratic); what ends the search is looked up as before, so
    a block after them covers the line of its `{` only."""
    n = 20_000
    text = "fn f() {\n" + "// burnlint: allow(BL001)\n#[a]\n// x\n" * n + "g(\n1);\n}\n"
    found = {(a.first_line, a.last_line) for a in allows(text)}
    assert found == {(3 * n + 2, 3 * n + 3)}
    text = "fn f() {\n// burnlint: allow(BL001)\n// burnlint: allow(BL002)\n{\n g();\n}\n}\n"
    assert [(a.first_line, a.last_line) for a in allows(text)] == [(4, 4), (4, 4)]


# --- applying them through the engine ---


def test_allow_on_the_line_above_suppresses(tmp_path: Path) -> None:
    code = HEADER + "    // burnlint: allow(BL001)\n    let _ = model.save_into(&mut store);\n}\n"
    result = lint(code, tmp_path)
    assert found(result) == []
    assert result.stats.suppressed == 1
    assert result.stats.suppressed_by_rule == {"BL001": 1}


def test_unused_allow_is_reported_with_a_safe_fix(tmp_path: Path) -> None:
    code = (
        HEADER
        + "    // burnlint: allow(BL001) -- old\n    model.save_into(&mut store).unwrap();\n}\n"
    )
    result = lint(code, tmp_path)
    (finding,) = result.findings
    assert (finding.rule_id, finding.location.span.start_line) == ("BL008", 5)
    assert finding.level is Level.NOTE
    assert finding.message == "unused suppression: no `BL001` finding on line 6"
    assert finding.fix is not None and finding.fix.applicability is Applicability.SAFE
    fixed, applied = apply_edits(code.encode(), finding.fix.edits)
    assert applied == 1
    assert fixed.decode() == HEADER + "    model.save_into(&mut store).unwrap();\n}\n"
    assert lint(fixed, tmp_path).findings == ()


def test_the_fix_keeps_the_used_ids(tmp_path: Path) -> None:
    code = (
        HEADER
        + "    let _ = model.save_into(&mut store); // burnlint: allow(BL002, BL001, BL0O1)\n}\n"
    )
    (finding,) = lint(code, tmp_path).findings
    assert finding.rule_id == "BL008"
    assert "`BL002`" in finding.message and "`BL0O1` is not a burnlint rule" in finding.message
    assert finding.help is not None and "did you mean `BL001`?" in finding.help
    assert finding.fix is not None
    assert finding.fix.title == "remove `BL002`, `BL0O1` from the allow"
    fixed, _ = apply_edits(code.encode(), finding.fix.edits)
    assert b"// burnlint: allow(BL001)\n" in fixed
    assert lint(fixed, tmp_path).findings == ()


def test_the_fix_of_a_trailing_allow_keeps_the_code(tmp_path: Path) -> None:
    code = HEADER + "    model.save_into(&mut store).unwrap();   // burnlint: allow(BL001)\n}\n"
    (finding,) = lint(code, tmp_path).findings
    assert finding.fix is not None
    fixed, _ = apply_edits(code.encode(), finding.fix.edits)
    assert fixed.decode() == HEADER + "    model.save_into(&mut store).unwrap();\n}\n"


def test_crlf_line_endings(tmp_path: Path) -> None:
    code = (
        HEADER
        + "    let _ = model.save_into(&mut store); // burnlint: allow(BL001)\n"
        + "    // burnlint: allow(BL001)\n"
        + "    model.save_into(&mut store).unwrap();\n}\n"
    ).replace("\n", "\r\n")
    result = lint(code, tmp_path)
    assert found(result) == [(6, "BL008")]
    assert result.stats.suppressed == 1
    (finding,) = result.findings
    assert not finding.message.endswith("\r")
    assert finding.fix is not None
    fixed, _ = apply_edits(code.encode(), finding.fix.edits)
    # the whole line goes, with its CRLF; every other line keeps its own
    assert fixed.decode() == code.replace("    // burnlint: allow(BL001)\r\n", "")
    assert b"\n" not in fixed.replace(b"\r\n", b"")


def test_utf8_bom(tmp_path: Path) -> None:
    code = (
        "\ufeff// burnlint: allow-file(BL001)\n"
        + HEADER
        + "    let _ = model.save_into(&mut store);\n}\n"
    )
    result = lint(code.encode("utf-8"), tmp_path)
    assert found(result) == []
    assert result.stats.suppressed == 1


def test_allows_of_rules_that_did_not_run_are_not_judged(tmp_path: Path) -> None:
    code = HEADER + "    // burnlint: allow(BL004)\n    model.save_into(&mut store).unwrap();\n}\n"
    assert found(lint(code, tmp_path)) == []  # BL004 is off by default
    assert found(lint(code, tmp_path, rule_ids=resolve(select=["ALL"]))) == [(5, "BL008")]


def test_without_bl008_nothing_is_reported_but_allows_still_work(tmp_path: Path) -> None:
    code = (
        HEADER
        + "    // burnlint: allow(BL002)\n"
        + "    let _ = model.save_into(&mut store); // burnlint: allow(BL001)\n}\n"
    )
    result = lint(code, tmp_path, rule_ids=resolve(ignore=["BL008"]))
    assert found(result) == []
    assert result.stats.suppressed == 1


def test_allow_naming_bl008_and_allow_file_bl008(tmp_path: Path) -> None:
    code = (
        HEADER
        + "    // burnlint: allow(BL001, BL008)\n    model.save_into(&mut store).unwrap();\n}\n"
    )
    assert found(lint(code, tmp_path)) == []
    code = (
        "// burnlint: allow-file(unused-suppression)\n"
        + HEADER
        + "    // burnlint: allow(BL001)\n    model.save_into(&mut store).unwrap();\n}\n"
    )
    result = lint(code, tmp_path)
    assert found(result) == []
    assert result.stats.suppressed_by_rule == {"BL008": 1}


def test_a_file_with_syntax_errors_keeps_its_allows(tmp_path: Path) -> None:
    code = (
        HEADER
        + "    // burnlint: allow(BL001)\n"
        + "    model.save_into(&mut store).unwrap();\n    let = ;\n}\n"
    )
    result = lint(code, tmp_path)
    assert found(result) == []  # the rules may have missed something: nothing is judged
    assert any("syntax error" in n.message for n in result.notifications)


class _Crashing(Rule):
    meta = RuleMeta(
        id="BL001",
        name="discarded-store-result",
        level=Level.ERROR,
        summary="crashes",
        precision="high",
        since="0.1.0",
    )

    @staticmethod
    def check(ctx: object) -> object:
        raise RuntimeError("boom")


def test_allows_of_a_crashed_rule_are_not_judged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the engine reads the rules when it checks a group
    monkeypatch.setattr(burnlint.rules.all_rules, "ALL_RULES", (_Crashing, UnusedSuppression))
    code = HEADER + "    // burnlint: allow(BL001)\n    model.save_into(&mut store).unwrap();\n}\n"
    result = lint(code, tmp_path, rule_ids=frozenset({"BL001", "BL008"}))
    assert found(result) == []
    assert [n.rule_id for n in result.notifications] == ["BL001"]


def test_an_allow_in_a_file_without_burn_store_is_not_judged(tmp_path: Path) -> None:
    # like every rule, BL008 looks only at files that use burn-store
    assert lint("// burnlint: allow(BL001)\nfn f() {}\n", tmp_path).findings == ()


def test_severity_applies_to_bl008(tmp_path: Path) -> None:
    code = HEADER + "    // burnlint: allow(BL001)\n    model.save_into(&mut store).unwrap();\n}\n"
    (finding,) = lint(code, tmp_path, severity=(("BL008", Level.WARNING),)).findings
    assert finding.level is Level.WARNING


# --- per-file ignores ---

DISCARD = HEADER + "    let _ = model.save_into(&mut store);\n}\n"


@pytest.mark.parametrize(
    ("pattern", "name", "ignored"),
    [
        ("tests/**", "tests/it.rs", True),
        ("tests/", "tests/sub/it.rs", True),
        ("tests/**", "src/lib.rs", False),
        ("*_bench.rs", "benches/io_bench.rs", True),
        ("/src/bin/*.rs", "src/bin/tool.rs", True),
        ("/src/bin/*.rs", "crate/src/bin/tool.rs", False),
    ],
)
def test_per_file_ignores(tmp_path: Path, pattern: str, name: str, ignored: bool) -> None:
    result = lint(
        DISCARD,
        tmp_path,
        name=name,
        per_file_ignores=((pattern, frozenset({"BL001"})),),
        exclude_root=tmp_path,
    )
    assert found(result) == ([] if ignored else [(5, "BL001")])
    assert result.stats.suppressed == (1 if ignored else 0)


def test_an_allow_matching_a_per_file_ignore_counts_as_used(tmp_path: Path) -> None:
    code = HEADER + "    // burnlint: allow(BL001)\n    let _ = model.save_into(&mut store);\n}\n"
    result = lint(
        code,
        tmp_path,
        name="tests/it.rs",
        per_file_ignores=(("tests/", frozenset({"BL001"})),),
        exclude_root=tmp_path,
    )
    assert found(result) == []


def test_per_file_ignores_outside_the_base_do_not_apply(tmp_path: Path) -> None:
    result = lint(
        DISCARD,
        tmp_path,
        name="tests/it.rs",
        per_file_ignores=(("tests/", frozenset({"BL001"})),),
        exclude_root=tmp_path / "elsewhere",
    )
    assert found(result) == [(5, "BL001")]


# --- which allows cover a line: the index against testing every allow ----------------------------


@st.composite
def _allows(draw: st.DrawFn) -> list[suppress.Allow]:
    allows = []
    for line in range(draw(st.integers(0, 30))):
        first = draw(st.integers(1, 60))
        last = first + draw(st.integers(-1, 40))  # first - 1: the allow covers nothing
        rules = draw(st.lists(st.sampled_from(["BL001", "BL003", None]), min_size=1, max_size=3))
        ids = tuple(suppress.AllowId(str(r), 0, 0, r) for r in rules)
        allows.append(
            suppress.Allow(
                line=line,
                comment_start=0,
                comment_end=0,
                file_level=draw(st.integers(0, 9)) == 0,
                trailing=False,
                ids=ids,
                ids_start=0,
                ids_end=0,
                first_line=first,
                last_line=last,
                reason=None,
            )
        )
    return allows


@settings(max_examples=300, deadline=None)
@given(_allows(), st.lists(st.integers(0, 110), min_size=1, max_size=20))
def test_the_allow_index_finds_exactly_the_covering_allows(
    allows: list[suppress.Allow], lines: list[int]
) -> None:
    index = suppress.AllowIndex(allows)
    for rule_id in ("BL001", "BL003", "BL005"):
        for line in lines:
            expected = {
                (a, i)
                for a, allow in enumerate(allows)
                if allow.covers(line)
                for i, allow_id in enumerate(allow.ids)
                if allow_id.rule_id == rule_id
            }
            found = index.hits(rule_id, line)
            assert len(found) == len(set(found))
            assert set(found) == expected
