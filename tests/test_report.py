"""The text and concise reporters: exact output, colour, and robustness on odd spans."""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from burnlint.findings import Level, Notification, NotificationKind
from burnlint.report import FORMATS, ReportContext, concise, lazy, text
from factories import at, finding, related, result, unsafe_fix

PLAIN = ReportContext(color=False, project_root=Path("/project"), tool_version="0.1.0")
COLOR = ReportContext(color=True, project_root=Path("/project"), tool_version="0.1.0")
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def test_registry_offers_text_and_concise() -> None:
    assert list(FORMATS)[:2] == ["text", "concise"]
    assert FORMATS["text"] is text.render
    assert FORMATS["concise"] is concise.render


def test_lazy_renderer_imports_on_first_use() -> None:
    render = lazy("burnlint.report.concise")
    assert render(result(files_checked=3), PLAIN) == "no problems found in 3 files checked\n"


def test_text_rustc_style() -> None:
    out = text.render(
        result(
            finding(
                label="the error is dropped here",
                help="propagate it with `?`",
                related=(related("src/train.rs", 40, 9, "the store is built here"),),
            ),
            burn_version="0.22.1",
        ),
        PLAIN,
    )
    assert out == (
        "error[BL001]: the `Result` of `save_into` is discarded; a failed save goes unnoticed\n"
        "  --> src/train.rs:42:17\n"
        "   |\n"
        "42 |         let _ = model.save_into(&mut store);\n"
        "   |                 ^^^^^^^^^^^^^^^^^^^^^^^^^^^ the error is dropped here\n"
        "   |\n"
        "   = help: propagate it with `?`\n"
        "   = note: src/train.rs:40:9: the store is built here\n"
        "\n"
        "found 1 problem (1 error) in 12 files checked (assuming burn 0.22.1)\n"
    )


def test_text_without_findings() -> None:
    assert text.render(result(), PLAIN) == "no problems found in 12 files checked\n"
    assert text.render(result(files_checked=1), PLAIN) == "no problems found in 1 file checked\n"


def test_the_summary_counts_the_files_checked_not_the_files_with_problems() -> None:
    """Six problems in one file of six checked: "in 6 files" alone read as problems in six
    files."""
    findings = [finding(line=line) for line in range(1, 7)]
    assert text.summary(result(*findings, files_checked=6)) == (
        "found 6 problems (6 errors) in 6 files checked"
    )
    assert concise.render(result(*findings, files_checked=6), PLAIN).endswith(
        "\nfound 6 problems in 6 files checked\n"
    )


def test_text_summary_counts_levels_most_severe_first() -> None:
    out = text.render(
        result(
            finding(level=Level.WARNING, line=3),
            finding(level=Level.ERROR, line=2),
            finding(level=Level.WARNING, line=1),
            finding(level=Level.NOTE, line=4),
        ),
        PLAIN,
    )
    assert out.endswith("found 4 problems (1 error, 2 warnings, 1 note) in 12 files checked\n")
    headers = [line for line in out.splitlines() if line.startswith(("error", "warning", "note"))]
    assert [h.split("[")[0] for h in headers] == ["warning", "error", "warning", "note"]


def test_text_findings_are_sorted_by_location() -> None:
    out = text.render(result(finding(path="b.rs"), finding(path="a.rs", line=9)), PLAIN)
    assert out.index("--> a.rs:9:17") < out.index("--> b.rs:42:17")


def test_text_tabs_do_not_shift_the_carets() -> None:
    # Column 10 is `m` after a tab and `let _ = `.
    out = text.render(
        result(
            finding(line=5, col=10, end_col=37, snippet="\tlet _ = model.save_into(&mut store);")
        ),
        PLAIN,
    )
    code, carets = out.splitlines()[3:5]
    assert code == "5 |     let _ = model.save_into(&mut store);"
    assert carets == "  |             ^^^^^^^^^^^^^^^^^^^^^^^^^^^"
    assert code.index("model") == carets.index("^")


def test_text_wide_characters_take_two_cells() -> None:
    snippet = '    let p = "检查点"; save(p);'
    col = snippet.index("save") + 1
    out = text.render(result(finding(line=1, col=col, end_col=col + 7, snippet=snippet)), PLAIN)
    carets = out.splitlines()[4]
    # 3 CJK characters shown 2 cells wide: the carets move 3 cells further right.
    assert carets.index("^") - len("  | ") == col - 1 + 3


def test_text_control_characters_cannot_reach_the_terminal() -> None:
    snippet = "let _ = m.save_into(&mut s); // \x1b[31m\u202e"
    out = text.render(result(finding(line=1, col=9, end_col=28, snippet=snippet)), PLAIN)
    assert "\x1b" not in out
    assert "\u202e" not in out


def test_text_multi_line_span_shows_first_and_last_line() -> None:
    snippet = "    model\n        .clone()\n        .save_into(&mut store);"
    out = text.render(
        result(finding(line=7, col=5, end_line=9, end_col=31, snippet=snippet, label="here")),
        PLAIN,
    )
    assert out.splitlines()[1:8] == [
        " --> src/train.rs:7:5",
        "  |",
        "7 |     model",
        "  |     ^^^^^",
        "...",
        "9 |         .save_into(&mut store);",
        "  |         ^^^^^^^^^^^^^^^^^^^^^^ here",
    ]


def test_text_two_line_span_has_no_ellipsis() -> None:
    snippet = "    model\n        .save_into(&mut store);"
    out = text.render(
        result(finding(line=9, col=5, end_line=10, end_col=31, snippet=snippet)), PLAIN
    )
    assert "..." not in out
    assert "10 |         .save_into(&mut store);" in out
    assert out.splitlines()[1] == "  --> src/train.rs:9:5"


def test_text_without_snippet_shows_only_the_location() -> None:
    out = text.render(result(finding(snippet="", help="do this")), PLAIN)
    assert out.splitlines()[:4] == [
        "error[BL001]: the `Result` of `save_into` is discarded; a failed save goes unnoticed",
        "  --> src/train.rs:42:17",
        "   |",
        "   = help: do this",
    ]


def test_text_fix_title_is_a_help_line() -> None:
    out = text.render(result(finding(fix=unsafe_fix("add `.overwrite(true)`"))), PLAIN)
    assert "   = help: add `.overwrite(true)` (unsafe fix)\n" in out


def test_text_notifications_follow_the_findings() -> None:
    notes = (
        Notification(at("src/broken.rs"), "syntax error near line 3", level=Level.NOTE, line=3),
        Notification(None, "path does not exist", NotificationKind.CONFIG, Level.ERROR),
        Notification(at("src/x.rs"), "crashed", NotificationKind.INTERNAL, Level.ERROR, "BL003"),
    )
    out = text.render(result(finding(), notifications=notes), PLAIN)
    tail = out.split("\n\n")[-2:]
    assert tail[0] == (  # in report order: about no file first, then by file
        "error: path does not exist\n"
        "note: src/broken.rs:3: syntax error near line 3\n"
        "error: src/x.rs: crashed (BL003)"
    )
    assert tail[1] == "found 1 problem (1 error) in 12 files checked\n"


def test_text_quiet_drops_the_summary() -> None:
    quiet = ReportContext(color=False, project_root=Path("."), tool_version="0", quiet=True)
    assert text.render(result(), quiet) == ""
    assert text.render(result(finding()), quiet).endswith("^^^\n")


def test_colour_only_when_asked() -> None:
    res = result(finding(help="h"), notifications=(Notification(at("a.rs"), "m"),))
    for render in (text.render, concise.render):
        plain = render(res, PLAIN)
        coloured = render(res, COLOR)
        assert "\x1b[" not in plain
        assert "\x1b[" in coloured
        assert ANSI.sub("", coloured) == plain


def test_concise_one_line_each() -> None:
    res = result(
        finding(),
        finding(path="a.rs", line=1, col=2, level=Level.WARNING, rule_id="BL002", message="m\nx"),
        notifications=(
            Notification(at("src/broken.rs"), "syntax error", level=Level.NOTE, line=3),
            Notification(None, "bad config", NotificationKind.CONFIG, Level.ERROR),
        ),
    )
    assert concise.render(res, PLAIN) == (
        "a.rs:1:2: warning[BL002] m x\n"
        "src/train.rs:42:17: error[BL001] the `Result` of `save_into` is discarded;"
        " a failed save goes unnoticed\n"
        "burnlint: error: bad config\n"
        "src/broken.rs:3: note: syntax error\n"
        "found 2 problems in 12 files checked\n"
    )


def test_concise_lines_match_the_documented_patterns() -> None:
    finding_line = re.compile(r"^(.+):(\d+):(\d+): (error|warning|note)\[(BL\d+)\] (.+)$")
    note_line = re.compile(r"^(.+?)(?::(\d+))?: (error|warning|note): (.+)$")
    res = result(
        finding(path="dir with space/x.rs"),
        notifications=(Notification(at("p.rs"), "why", line=2),),
    )
    lines = concise.render(res, PLAIN).splitlines()
    assert finding_line.match(lines[0])
    assert note_line.match(lines[1])


def test_concise_without_findings() -> None:
    assert concise.render(result(), PLAIN) == "no problems found in 12 files checked\n"
    quiet = ReportContext(color=False, project_root=Path("."), tool_version="0", quiet=True)
    assert concise.render(result(), quiet) == ""


@given(
    snippet=st.text(max_size=80),
    line=st.integers(min_value=1, max_value=10_000),
    col=st.integers(min_value=-5, max_value=120),
    end_col=st.integers(min_value=-5, max_value=120),
    extra_lines=st.integers(min_value=0, max_value=4),
    label=st.none() | st.text(max_size=10),
)
def test_reporters_never_fail_on_odd_spans(
    snippet: str, line: int, col: int, end_col: int, extra_lines: int, label: str | None
) -> None:
    f = finding(
        line=line,
        col=col,
        end_col=end_col,
        end_line=line + extra_lines,
        snippet=snippet,
        label=label,
    )
    for render in (text.render, concise.render):
        out = render(result(f), PLAIN)
        assert out.endswith("\n")
    rendered = text.render(result(f), PLAIN)
    assert "^" in rendered or not snippet
