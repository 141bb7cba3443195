"""Pathological files: very long lines, 100,000-element arrays, deep nesting, thousands of
findings in one file. Each is checked by ``burnlint`` in a child process with a CPU-time
budget (``BUDGET_CPU`` seconds: the cases that pass take 0.4 to 1.6 CPU seconds here, start-up
included, so the budget is generous, and CPU time does not depend on how busy the machine is)
and an address-space cap (``MEMORY_CAP``), then its SARIF is validated and measured.

A file must be handled within the budget, or skipped with a notice: either way the run exits 0
or 1 (never 2: no crash), the SARIF validates, the report stays small, and a finding placed
after the pathological part (``SENTINEL``) is reported unless the file was skipped.

Cases that burnlint cannot handle today are ``xfail(strict=True)`` with the reason: when the
bug is fixed the test passes, strict makes that an error, and the mark must go.

The child processes need ``resource`` (POSIX); elsewhere those tests are skipped.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from burnlint.engine import lint_source
from burnlint.findings import Finding, Level, LintResult, Location, RunStats, Span
from burnlint.options import EngineOptions
from burnlint.report import ReportContext, sarif, text
from burnlint.rules.registry import resolve
from burnlint.rust.source import MAX_SNIPPET, SNIPPET_CONTEXT, SourceFile
from burnlint.rust.syntax import parse
from rust_strategies import sarif_errors, time_limit

try:
    import resource
except ImportError:  # not POSIX: no CPU or memory limits for the child processes
    resource = None  # type: ignore[assignment]

BUDGET_CPU = 5  # CPU seconds per file, interpreter start-up included
MEMORY_CAP = 2 * 1024**3  # bytes of address space
WALL_GUARD = 120  # seconds: a hang guard, not a benchmark
HEADER = "use burn_store::{BurnpackStore, ModuleSnapshot, PytorchStore, SafetensorsStore};\n"
SAVE = 'let _ = model.save_into(&mut SafetensorsStore::from_file("m.safetensors"));'


@pytest.fixture(autouse=True)
def _hang_guard() -> Iterator[None]:
    """Fail a test of this module that runs longer than ``WALL_GUARD`` seconds."""
    with time_limit(WALL_GUARD):
        yield


# --- the files ----------------------------------------------------------------------------------


def long_line_of_saves(n: int = 1_000) -> str:
    """``n`` discarded saves on one 60 kB line: 2n findings, each on the same line."""
    return HEADER + "fn f(model: &M) { " + (SAVE + " ") * n + "}\n"


def long_string_literal(size: int = 1_000_000) -> str:
    return HEADER + f'static BLOB: &str = "{"x" * size}";\nfn f(model: &M) {{ {SAVE} }}\n'


def long_comment_line(size: int = 1_000_000) -> str:
    return HEADER + "// " + "\U0001f525é" * (size // 6) + f"\nfn f(model: &M) {{ {SAVE} }}\n"


def array_100k() -> str:
    numbers = ", ".join(str(i % 997) for i in range(100_000))
    return (
        HEADER
        + f"static TABLE: [u32; 100000] = [{numbers}];\n"
        + f"fn f(model: &M) {{ for _ in 0..3 {{ {SAVE} }} }}\n"
    )


def deep_brackets(depth: int = 20_000) -> str:
    return HEADER + f"fn f(model: &M) {{ let a = {'[' * depth}1{']' * depth}; {SAVE} }}\n"


def unbalanced_braces(depth: int = 20_000) -> str:
    return HEADER + "fn f(model: &M) " + "{ for _ in 0..2 " * depth + SAVE + "\n"


def stray_closing_braces(count: int = 20_000) -> str:
    return HEADER + "}" * count + f"fn f(model: &M) {{ {SAVE} }}\n"


def many_match_arms(n: int = 2_000) -> str:
    arms = "".join(
        f'{i} => model.save_into(&mut SafetensorsStore::from_file("a")).unwrap(),\n'
        for i in range(n)
    )
    return HEADER + f"fn f(model: &M, k: u32) {{ match k {{ {arms} _ => () }} }}\n"


def many_module_structs(n: int = 2_000) -> str:
    items = "".join(
        f"#[derive(Module, Debug)]\npub struct S{i}<B: Backend> {{ l: Vec<Linear<B>> }}\n"
        for i in range(n)
    )
    load = 'model.load_from(&mut PytorchStore::from_file("w.pt")).unwrap();'
    return HEADER + items + f"fn f(model: &mut M) {{ {load} }}\n"


def deep_blocks(depth: int = 10_000) -> str:
    return HEADER + "fn f(model: &M) " + "{" * depth + SAVE + "}" * depth + "\n"


def else_if_chain(n: int = 1_000) -> str:
    branch = 'if c { model.save_into(&mut SafetensorsStore::from_file("a")).unwrap(); } else '
    return HEADER + "fn f(model: &M, c: bool) { " + branch * n + "{} }\n"


def else_if_chain_in_a_loop(n: int = 1_000) -> str:
    branch = 'if c { model.save_into(&mut SafetensorsStore::from_file("a")).unwrap(); } else '
    return HEADER + "fn f(model: &M, c: bool) { for _ in 0..3 { " + branch * n + "{} } }\n"


def deep_blocks_in_a_loop(depth: int = 10_000) -> str:
    body = "{" * depth + SAVE + "}" * depth
    return HEADER + f"fn f(model: &M) {{ for _ in 0..3 {body} }}\n"


def stacked_allows(n: int = 2_000) -> str:
    allows = "// burnlint: allow(BL003, BL001)\n" * n
    return HEADER + f"fn f(model: &M) {{ for _ in 0..2 {{\n{allows}{SAVE}\n}} }}\n"


def adapter_loads_of_many_modules(n: int = 5_000) -> str:
    """``n`` module structs and ``n`` PyTorch-facing Safetensors loads in one function."""
    items = "".join(
        f"#[derive(Module, Debug)]\npub struct S{i}<B: Backend> {{ l: Vec<Linear<B>> }}\n"
        for i in range(n)
    )
    loads = "".join(
        f'model.load_from(&mut SafetensorsStore::from_file("w{i}.st")'
        ".with_from_adapter(PyTorchToBurnAdapter)).unwrap();\n"
        for i in range(n)
    )
    return HEADER + items + f"fn f(model: &mut M) {{ {loads}}}\n"


def comments_before_an_item(n: int = 40_000) -> str:
    """An item after ``n`` comment lines: whether it is a test is read once per parent."""
    return HEADER + "// a comment\n" * n + f"fn f(model: &M) {{ {SAVE} }}\n"


def many_stacked_allows(n: int = 20_000) -> str:
    return HEADER + "fn f(model: &M) {\n" + "// burnlint: allow(BL001)\n" * n + SAVE + "\n}\n"


def unbalanced_brace_parens(n: int = 100_000) -> str:
    return HEADER + "fn f(model: &M) " + "{(" * n + "\n}\n"


def long_method_chain(n: int = 40_000) -> str:
    """80,000 levels deep: a save inside the innermost call must still be found."""
    return HEADER + f"fn f(model: &M) {{ let x = a.b(|| {{ {SAVE} }})" + ".b()" * n + "; }\n"


def allowed_saves(n: int = 5_000) -> str:
    allowed = f"// burnlint: allow(BL001, BL003, BL004) -- baseline\n{SAVE}\n" * n
    return HEADER + f"fn f(model: &M) {{ for _ in 0..2 {{\n{allowed}}} }}\n"


def saves_in_one_loop(n: int = 1_000) -> str:
    return HEADER + "fn f(model: &M) { for e in 0..3 {\n" + (SAVE + "\n") * n + "} }\n"


def many_helpers(n: int = 2_000) -> str:
    helpers = "".join(
        f"fn h{i}(m: &M, p: &Path) -> Result<()> {{ "
        "m.save_into(&mut SafetensorsStore::from_file(p))?; Ok(()) }\n"
        for i in range(n)
    )
    calls = "".join(f"h{i}(model, p).unwrap(); " for i in range(0, n, 10))
    return HEADER + helpers + f"fn g(model: &M, p: &Path) {{ for _ in 0..2 {{ {calls}}} }}\n"


def long_builder_chain(n: int = 1_000) -> str:
    chain = "SafetensorsStore::from_file(p)" + ".validate(true)" * n
    body = f"let mut s = {chain}; model.save_into(&mut s);"
    return HEADER + f"fn f(model: &M, p: &str) {{ {body} }}\n"


def rebinding_chain(n: int = 300) -> str:
    lets = "".join(f"let s{i + 1} = s{i}.validate(true);\n" for i in range(n))
    return (
        HEADER
        + "fn f(model: &M, p: &str) { let s0 = SafetensorsStore::from_file(p);\n"
        + lets
        + f"model.save_into(&mut s{n}).unwrap(); }}\n"
    )


def shadowing_chain(n: int = 500) -> str:
    return (
        HEADER
        + "fn f(model: &M, p: &str) { let s = SafetensorsStore::from_file(p);\n"
        + "let s = s;\n" * n
        + "model.save_into(&mut s).unwrap(); }\n"
    )


def reassignments(n: int = 3_000) -> str:
    return (
        HEADER
        + "fn f(model: &M, p: &str) { let mut s = SafetensorsStore::from_file(p);\n"
        + "s = s.validate(true);\n" * n
        + "for _ in 0..2 { model.save_into(&mut s).unwrap(); } }\n"
    )


@dataclass(frozen=True)
class Case:
    make: Callable[[], str]
    known: str = ""  # why it fails today (empty: it must pass)


CASES: dict[str, Case] = {
    "long-line-of-saves": Case(long_line_of_saves),
    "1MB-string-literal": Case(long_string_literal),
    "1MB-comment-line": Case(long_comment_line),
    "100k-element-arrays": Case(array_100k),
    "20k-nested-brackets": Case(deep_brackets),
    "20k-unclosed-blocks": Case(unbalanced_braces),
    "20k-stray-closing-braces": Case(stray_closing_braces),
    "2k-match-arms": Case(many_match_arms),
    "2k-module-structs": Case(many_module_structs),
    "10k-nested-blocks": Case(deep_blocks),
    "1k-else-if-chain": Case(else_if_chain),
    "1k-else-if-chain-in-a-loop": Case(else_if_chain_in_a_loop),
    "10k-nested-blocks-in-a-loop": Case(deep_blocks_in_a_loop),
    "2k-stacked-allows": Case(stacked_allows),
    "5k-allowed-saves": Case(allowed_saves),
    "40k-comment-lines-before-an-item": Case(comments_before_an_item),
    "20k-stacked-allows": Case(many_stacked_allows),
    "100k-unbalanced-brace-parens": Case(unbalanced_brace_parens),
    "40k-call-method-chain": Case(long_method_chain),
    "5k-adapter-loads": Case(adapter_loads_of_many_modules),
    "1k-saves-in-one-loop": Case(saves_in_one_loop),
    "2k-helper-functions": Case(many_helpers),
    "1k-builder-chain": Case(long_builder_chain),
    "300-rebindings": Case(rebinding_chain),
    "500-shadowings": Case(shadowing_chain),
    "3k-reassignments": Case(reassignments),
}
# Appended to every file: the file counts as checked only if this finding is reported.
SENTINEL = (
    'fn sentinel(model: &M) { let _ = model.save_into(&mut BurnpackStore::from_file("s")); }\n'
)


def _limits() -> None:  # pragma: no cover - runs in the child
    resource.setrlimit(resource.RLIMIT_CPU, (BUDGET_CPU, BUDGET_CPU + 1))
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def run_burnlint(root: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "burnlint", "check", ".", "--project-root", ".", *args],
        cwd=root,
        capture_output=True,
        timeout=WALL_GUARD - 10,
        preexec_fn=_limits,
        env={**os.environ, "BURNLINT_DEBUG": "1"},  # a crash shows its traceback
        check=False,
    )


def _params() -> list[object]:
    return [
        pytest.param(
            name,
            marks=pytest.mark.xfail(strict=True, reason=case.known) if case.known else (),
            id=name,
        )
        for name, case in CASES.items()
    ]


@pytest.mark.skipif(resource is None, reason="needs POSIX resource limits")
@pytest.mark.parametrize("name", _params())
def test_pathological_file(name: str, tmp_path: Path) -> None:
    code = (CASES[name].make() + SENTINEL).encode("utf-8")
    sentinel_line = code.count(b"\n")
    (tmp_path / "big.rs").write_bytes(code)
    proc = run_burnlint(
        tmp_path, "--select", "ALL", "--format", "sarif", "--output", "out.sarif", "--quiet"
    )
    died = -proc.returncode if proc.returncode < 0 else 0
    assert died != signal.SIGXCPU, f"over the budget of {BUDGET_CPU} CPU seconds"
    assert proc.returncode in (0, 1), proc.stderr.decode(errors="replace")[-3000:]
    report = (tmp_path / "out.sarif").read_text(encoding="utf-8")
    errors = sarif_errors(report)
    assert not errors, errors[:5]
    run = json.loads(report)["runs"][0]
    notes = run["invocations"][0].get("toolExecutionNotifications", [])
    crashes = [n for n in notes if n["level"] == "error"]
    assert not crashes, crashes[:3]
    assert run["invocations"][0]["executionSuccessful"] is True
    findings = len(run["results"])
    skipped = any("skipped" in n["message"]["text"] for n in notes)
    sentinel = [
        r
        for r in run["results"]
        if r["ruleId"] == "BL001"
        and r["locations"][0]["physicalLocation"]["region"]["startLine"] == sentinel_line
    ]
    assert sentinel or skipped, "the file was neither checked to its end nor skipped"
    # the report grows with the findings, not with the length of their lines
    assert len(report) <= 1_000_000 + 4_000 * findings, f"{len(report):,} bytes of SARIF"


# --- the reporters on long lines ----------------------------------------------------------------


def _bl001(span: Span, snippet: str, snippet_start: int = 0, snippet_cut: bool = False) -> Finding:
    return Finding(
        Location(CTX.project_root / "big.rs", span),
        "BL001",
        "discarded-store-result",
        Level.ERROR,
        "the result is discarded",
        label="here",
        snippet=snippet,
        snippet_start=snippet_start,
        snippet_cut=snippet_cut,
    )


def _finding_on_long_line(prefix: int, needle: str, suffix: int) -> Finding:
    line = "a" * prefix + needle + "b" * suffix
    start = prefix + 1
    span = Span(
        prefix, prefix + len(needle), 1, start, 1, start + len(needle), start, start + len(needle)
    )
    return _bl001(span, line)


def _result(*findings: Finding) -> LintResult:
    return LintResult(findings=findings, notifications=(), stats=RunStats(files_checked=1))


CTX = ReportContext(color=False, project_root=Path("/p"), tool_version="0.1.0")


@pytest.mark.parametrize(("prefix", "suffix"), [(0, 100_000), (100_000, 0), (50_000, 50_000)])
def test_text_report_shows_a_window_of_a_long_line(prefix: int, suffix: int) -> None:
    needle = "model.save_into(&mut store)"
    out = text.render(_result(_finding_on_long_line(prefix, needle, suffix)), CTX)
    code_line = next(line for line in out.splitlines() if line.startswith("1 | "))
    caret_line = next(line for line in out.splitlines() if "^" in line)
    assert len(code_line) <= text.MAX_SHOWN + 20
    assert code_line.startswith("1 | ...") == (prefix > 0)
    assert code_line.endswith("...") == (suffix > 0)
    column = caret_line.index("^")
    assert code_line[column : column + len(needle)] == needle
    assert caret_line[column:].split(" ")[0] == "^" * len(needle)


def test_text_report_cuts_a_span_longer_than_the_window() -> None:
    needle = "x" * 10_000
    out = text.render(_result(_finding_on_long_line(10, needle, 10)), CTX)
    caret_line = next(line for line in out.splitlines() if "^" in line)
    assert 0 < caret_line.count("^") <= text.MAX_SHOWN


def test_text_report_keeps_a_normal_line_whole() -> None:
    needle = "model.save_into(&mut store)"
    out = text.render(_result(_finding_on_long_line(20, needle, 20)), CTX)
    assert "a" * 20 + needle + "b" * 20 in out
    assert "..." not in out


def test_sarif_leaves_out_snippets_of_long_lines() -> None:
    long = _finding_on_long_line(100_000, "model.save_into(&mut store)", 10)
    short = _finding_on_long_line(10, "model.save_into(&mut store)", 10)
    log = json.loads(sarif.render(_result(long), CTX))
    physical = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]
    assert "contextRegion" not in physical
    assert physical["region"]["snippet"]["text"] == "model.save_into(&mut store)"
    assert physical["region"]["startColumn"] == 100_001
    log = json.loads(sarif.render(_result(short), CTX))
    physical = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]
    assert physical["contextRegion"]["snippet"]["text"] == short.snippet
    assert not sarif_errors(sarif.render(_result(long, short), CTX))


# --- snippets of long lines ---------------------------------------------------------------------


def test_findings_on_a_long_line_keep_a_bounded_snippet() -> None:
    """Each finding keeps a window of its line, not the line: 2,000 findings on a 76 kB line
    would otherwise keep 150 MB of copies (3 GB for 10,000 on 300 kB)."""
    data = long_line_of_saves().encode("utf-8")
    root = Path(tempfile.gettempdir()) / "burnlint-pathological"  # never written
    options = EngineOptions(rule_ids=resolve(select=["ALL"]), project_root=root)
    result = lint_source(root / "src" / "big.rs", data, options)
    assert len(result.findings) >= 2_000
    assert len(data) > 8 * MAX_SNIPPET
    for finding in result.findings:
        span = finding.location.span
        assert len(finding.snippet) <= MAX_SNIPPET
        assert span.start_line == span.end_line == 2
        # the window still points at the span: its columns, moved by what was left out
        start = span.start_col - 1 - finding.snippet_start
        code = finding.snippet[start : start + span.end_col - span.start_col]
        assert code == data[span.start_byte : span.end_byte].decode("utf-8")
        assert sarif.region_text(finding) == code
    last = max(result.findings, key=lambda f: f.location.span.start_col)
    assert last.snippet_start > 0
    out = text.render(_result(last), CTX)
    code_line = next(line for line in out.splitlines() if line.startswith("2 | "))
    caret_line = next(line for line in out.splitlines() if "^" in line)
    column = caret_line.index("^")
    needle = sarif.region_text(last)
    assert code_line.startswith("2 | ...")
    assert code_line[column : column + len(needle)] == needle


def test_the_snippet_window_holds_what_reporters_show() -> None:
    # a span whose text SARIF shows fits in the window after the context kept before it; so
    # does the text reporter's window of a long line, which starts less than MAX_SHOWN
    # characters before its carets
    assert MAX_SNIPPET >= SNIPPET_CONTEXT + sarif.SNIPPET_LIMIT
    assert MAX_SNIPPET >= SNIPPET_CONTEXT + text.MAX_SHOWN
    assert SNIPPET_CONTEXT >= text.MAX_SHOWN


def _cut_and_whole(line_texts: list[str], start: int, end: int) -> tuple[Finding, Finding]:
    """The finding on ``[start, end)`` (character offsets into the lines joined by newlines),
    with the snippet burnlint keeps and with the whole lines."""
    joined = "\n".join(line_texts)
    data = joined.encode("utf-8")
    source = SourceFile(Path("big.rs"), data, parse(b""))  # spans and snippets need no tree
    span = source.span(len(joined[:start].encode("utf-8")), len(joined[:end].encode("utf-8")))
    cut = source.snippet(span)
    lines = joined.split("\n")[span.start_line - 1 : span.end_line]
    return _bl001(span, cut.text, cut.start, cut.cut), _bl001(span, "\n".join(lines))


NEEDLE = "model.save_into(&mut store)"


@pytest.mark.parametrize(
    ("line_texts", "start", "length"),
    [
        pytest.param(["a" * 50_000 + NEEDLE + "b" * 50_000], 50_000, len(NEEDLE), id="middle"),
        pytest.param([NEEDLE + "b" * 50_000], 0, len(NEEDLE), id="line-start"),
        pytest.param(["a" * 50_000 + NEEDLE], 50_000, len(NEEDLE), id="line-end"),
        pytest.param(["\U0001f525é检" * 10_000 + NEEDLE + "🔥" * 9_000], 30_000, 27, id="unicode"),
        pytest.param(["a" * 20_000 + "x" * 5_000 + "b" * 20_000], 20_000, 5_000, id="long-span"),
        pytest.param(
            ["a" * 50_000 + "model", "        .save_into(&mut store);"],
            50_000,
            len("model\n        .save_into(&mut store)"),
            id="two-lines",
        ),
    ],
)
def test_reports_of_a_cut_snippet_are_those_of_the_whole_line(
    line_texts: list[str], start: int, length: int
) -> None:
    cut, whole = _cut_and_whole(line_texts, start, start + length)
    assert len(cut.snippet) <= MAX_SNIPPET
    assert cut.snippet_start > 0 or cut.snippet_cut
    assert text.render(_result(cut), CTX) == text.render(_result(whole), CTX)
    assert sarif.render(_result(cut), CTX) == sarif.render(_result(whole), CTX)


def test_a_cut_snippet_without_the_span_end_still_shows_its_start() -> None:
    """A span longer than the window: the report shows its first line, cut where text is left
    out, and SARIF leaves out the text it does not have."""
    line_texts = ["a" * 10_000 + "model", "x" * 20_000 + ".save_into(&mut store);"]
    cut, _whole = _cut_and_whole(line_texts, 10_000, 10_005 + 1 + 20_000 + 22)
    assert cut.snippet_cut
    assert sarif.region_text(cut) == ""
    assert sarif.context_text(cut) == ""
    out = text.render(_result(cut), CTX)
    code_line = next(line for line in out.splitlines() if line.startswith("1 | "))
    caret_line = next(line for line in out.splitlines() if "^" in line)
    assert code_line.startswith("1 | ...")
    assert code_line[caret_line.index("^") :].startswith("model")
