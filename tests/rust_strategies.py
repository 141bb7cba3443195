"""Hypothesis strategies that make Rust-ish input for the robustness tests.

- ``token_soups``: Rust tokens and burn-store API names in random order: almost never valid
  Rust, always full of the words the prefilter and the model look for.
- ``programs``: small training programs built from a grammar of burn-store usage (stores,
  builder chains, saves and loads, result handling, loops, closures, helpers, `Module`
  structs): mostly valid Rust that reaches deep into the model and the rules.
- ``mutated``: any of those, or a real fixture from ``testdata/``, with lines and bytes
  deleted, duplicated, swapped and inserted.
- ``with_unicode``: a source whose comments and string literals are refilled with random
  Unicode (astral characters, combining marks, right-to-left text, line separators).

``all_problems`` checks the properties every run must have; the test modules share it.

``BURNLINT_PROPERTY_SCALE=N`` multiplies every test's number of examples by N (a nightly or
exploratory run: ``BURNLINT_PROPERTY_SCALE=50 python -m pytest tests/test_properties.py``).
"""

from __future__ import annotations

import json
import os
import signal
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from types import FrameType
from typing import Any

from hypothesis import strategies as st
from jsonschema import Draft4Validator

from burnlint.findings import Finding, Level, LintResult, Span
from burnlint.paths import display_path
from burnlint.report import FORMATS, ReportContext
from burnlint.rust.source import decode_source
from burnlint.rust.syntax import parse, walk

REPO = Path(__file__).resolve().parent.parent
TESTDATA = REPO / "testdata"
ROBUSTNESS = TESTDATA / "robustness"

_SCALE = max(1, int(os.environ.get("BURNLINT_PROPERTY_SCALE", "1") or "1"))


def examples(count: int) -> int:
    """``count`` examples, times ``BURNLINT_PROPERTY_SCALE``."""
    return count * _SCALE


class Hang(BaseException):
    """Raised by ``time_limit``. Not an ``Exception``: hypothesis would replay and shrink a
    hang, hanging again on every attempt."""


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise ``Hang`` in the main thread after ``seconds`` (where ``SIGALRM`` exists): the
    guard of a test against a hang, not a benchmark."""
    if not hasattr(signal, "SIGALRM") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum: int, frame: FrameType | None) -> None:
        raise Hang(f"still running after {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


# --- tokens -------------------------------------------------------------------------------------

_KEYWORDS = (
    "fn let mut for in loop while if else match return impl struct enum use mod pub move"
    " ref where type const static async await break continue self Self crate super dyn"
    " unsafe trait as box yield macro_rules!"
)
_PUNCTUATION = (
    "{ } ( ) [ ] ; , . : :: ? & && = == => -> | || ! # < > <= >= _ .. ..= + - * / % ^ @ $ ~"
)
RUST_TOKENS: tuple[str, ...] = (
    *_KEYWORDS.split(),
    *_PUNCTUATION.split(),
    "'a",
    "'static",
    "'outer:",
    "#[derive(Module, Debug)]",
    "#[test]",
    "#[cfg(test)]",
    "#![allow(unused)]",
    "// comment",
    "/* block */",
    "/// doc",
    "//! inner doc",
    '"m.safetensors"',
    '"{dir}/e{epoch}.bpk"',
    'r#"raw"#',
    'b"bytes"',
    "'c'",
    "0",
    "1",
    "3",
    "1e-3",
    "0..3",
    "true",
    "false",
    "model",
    "store",
    "file",
    "path",
    "dir",
    "epoch",
    "res",
    "e",
    "r",
    "Ok",
    "Err",
    "Some",
    "None",
    "Result",
    "anyhow::Result<()>",
    "Vec<Linear<B>>",
    "Mlp",
    "Backend",
    "Device",
    "println!",
    "eprintln!",
    "log::warn!",
    "format!",
    "vec!",
    "panic!",
    "bail!",
)
BURN_STORE_NAMES: tuple[str, ...] = (
    "SafetensorsStore",
    "BurnpackStore",
    "PytorchStore",
    "burn_store",
    "burn::store",
    "burn_store::SafetensorsStore",
    "ModuleSnapshot",
    "ModuleStore",
    "ApplyResult",
    "PyTorchToBurnAdapter",
    "BurnToPyTorchAdapter",
    "KeyRemapper",
    "from_file",
    "from_bytes",
    "from_static",
    "save_into",
    "load_from",
    "collect_from",
    "apply_to",
    "apply",
    "save_file",
    "load_file",
    "try_load_file",
    "overwrite",
    "allow_partial",
    "validate",
    "skip_enum_variants",
    "map_indices_contiguous",
    "with_from_adapter",
    "with_to_adapter",
    "with_key_remapping",
    "with_top_level_key",
    "metadata",
    "applied",
    "missing",
    "errors",
    "skipped",
    "unwrap",
    "expect",
    "is_ok",
    "is_err",
    "ok",
    "map_err",
    "use burn_store::{ModuleSnapshot, SafetensorsStore, BurnpackStore, PytorchStore};",
    "model.save_into(&mut store)",
    "model.load_from(&mut store)?",
    "SafetensorsStore::from_file(path)",
    ".overwrite(true)",
)
WHITESPACE: tuple[str, ...] = (" ", " ", " ", "", "\n", "\n    ", "\t", "\r\n", "  ")


@st.composite
def token_soups(draw: st.DrawFn, max_tokens: int = 160) -> bytes:
    tokens = draw(
        st.lists(st.sampled_from(RUST_TOKENS + BURN_STORE_NAMES * 2), max_size=max_tokens)
    )
    out: list[str] = []
    for token in tokens:
        out.append(token)
        out.append(draw(st.sampled_from(WHITESPACE)))
    return "".join(out).encode("utf-8")


# --- a grammar of burn-store programs -----------------------------------------------------------

STORES = (
    "SafetensorsStore",
    "BurnpackStore",
    "PytorchStore",
    "burn_store::SafetensorsStore",
    "burn::store::BurnpackStore",
    "Pt",
)
PATHS = (
    "path",
    "&file",
    '"model.safetensors"',
    'dir.join("last.bpk")',
    'format!("{dir}/e{epoch}.bpk")',
    'format!("{}/last.bpk", dir)',
    "out.join(name)",
    "PATH",
    "&paths[i]",
)
BUILDER_CALLS = (
    ".overwrite(true)",
    ".overwrite(false)",
    ".overwrite(force)",
    ".allow_partial(true)",
    ".allow_partial(false)",
    ".validate(false)",
    ".validate(true)",
    ".skip_enum_variants(true)",
    ".skip_enum_variants(false)",
    ".map_indices_contiguous(false)",
    ".map_indices_contiguous(true)",
    ".with_from_adapter(PyTorchToBurnAdapter)",
    ".with_to_adapter(BurnToPyTorchAdapter)",
    '.with_key_remapping(KeyRemapper::new().add_pattern("^a", "b").unwrap())',
    '.with_top_level_key("state_dict")',
    '.metadata("epoch", epoch.to_string())',
    '.with_regex(r"^encoder")',
    "\n        // a comment in the chain\n        .validate(true)",
)
HANDLERS = (
    "{op};",
    "let _ = {op};",
    "{op}?;",
    '{op}.expect("save");',
    "{op}.unwrap();",
    "{op}.ok();",
    "let res = {op};",
    "let _res = {op};",
    'if let Err(e) = {op} {{ eprintln!("failed: {{e}}"); }}',
    'match {op} {{ Ok(r) => println!("{{}}", r.applied.len()), Err(e) => log::warn!("{{e}}") }}',
    'let r = {op}?; println!("{{:?}} {{:?}}", r.missing, r.errors);',
    "let r = {op}?; assert!(r.errors.is_empty());",
    "{op}.map_err(|e| anyhow!(e))?;",
    "if {op}.is_err() {{ return; }}",
    "return {op};",
    "results.push({op});",
    "drop({op});",
    "{op}.unwrap_or_default();",
)
LOOP_HEADS = (
    "for epoch in 0..epochs {{ {body} }}",
    "for (i, m) in models.iter().enumerate() {{ {body} }}",
    "loop {{ {body} break; }}",
    "while step < 10 {{ {body} step += 1; }}",
    "'outer: for epoch in 0..3 {{ for _ in 0..2 {{ {body} continue 'outer; }} }}",
    "(0..epochs).for_each(|epoch| {{ {body} }});",
    "items.iter().try_for_each(|item| {{ {body} Ok(()) }})?;",
    "if cond {{ {body} }} else {{ {body} }}",
    "{{ {body} }}",
    "let f = |p: &Path| {{ {body} }};",
    "let g = move || -> Result<()> {{ {body} Ok(()) }};",
    "unsafe {{ {body} }}",
    "async {{ {body} }};",
    "match kind {{ 0 => {{ {body} }} _ => {{}} }}",
)
SIGNATURES = (
    "pub fn {name}(model: &mut Mlp, path: &Path, dir: &str, epochs: usize) -> Result<()>",
    "fn {name}(model: Mlp, file: PathBuf)",
    "pub fn {name}<B: Backend>(model: &mut Mlp<B>, out: &Path, name: &str) -> anyhow::Result<()>",
    "pub async fn {name}(&mut self, path: &Path) -> Result<(), Error>",
    "fn {name}(&self, paths: &[PathBuf], i: usize) -> Result<ApplyResult, StoreError>",
)
HEADERS = (
    "use std::path::{Path, PathBuf};",
    "use anyhow::{anyhow, Result};",
    "use burn::prelude::*;",
    "use burn_store::{ModuleSnapshot, SafetensorsStore};",
    "use burn_store::{BurnpackStore, ModuleSnapshot, ModuleStore, PytorchStore};",
    "use burn_store::PytorchStore as Pt;",
    "use burn_store::{BurnToPyTorchAdapter, KeyRemapper, PyTorchToBurnAdapter};",
    "use burn_store::*;",
    "use crate::model::Mlp;",
    "use burn::store::{ModuleSnapshot, SafetensorsStore};",
)
ITEMS = (
    "#[derive(Module, Debug)]\npub struct Mlp<B: Backend> {{ layers: Vec<Linear<B>>, "
    "head: Linear<B> }}",
    "#[derive(Module, Debug)]\npub enum Layer<B: Backend> {{ Linear(Linear<B>), Relu(Relu) }}",
    "#[derive(Module, Debug)]\npub struct Net<B: Backend> {{ blocks: Vec<Layer<B>> }}",
    "fn store(path: &Path) -> SafetensorsStore {{ SafetensorsStore::from_file(path) }}",
    "fn lenient(path: &Path) -> BurnpackStore {{ BurnpackStore::from_file(path)"
    ".allow_partial(true) }}",
    "pub fn checkpoint(model: &Mlp, path: &Path) -> Result<()> {{ "
    "model.save_into(&mut SafetensorsStore::from_file(path))?; Ok(()) }}",
    'const PATH: &str = "weights.bpk";',
    'static BUNDLED: &[u8] = include_bytes!("tiny.bpk");',
    "macro_rules! save {{ ($m:expr, $p:expr) => {{ $m.save_into(&mut "
    "SafetensorsStore::from_file($p)) }}; }}",
    "impl Trainer {{ pub fn fit(&mut self) {{ for _ in 0..3 {{ "
    "self.model.save_into(&mut BurnpackStore::from_file(&self.out)).unwrap(); }} }} }}",
)


@st.composite
def store_exprs(draw: st.DrawFn) -> str:
    kind = draw(st.sampled_from(STORES))
    if draw(st.integers(0, 5)) == 0:
        ctor = f"{kind}::from_bytes(None)"
    else:
        ctor = f"{kind}::from_file({draw(st.sampled_from(PATHS))})"
    chain = draw(st.lists(st.sampled_from(BUILDER_CALLS), max_size=3))
    if draw(st.booleans()):
        return ctor + "".join(chain)
    return "store(path)" if draw(st.booleans()) else "lenient(path)"


@st.composite
def statements(draw: st.DrawFn) -> str:
    """One store operation with its result handling, sometimes through a bound store."""
    store = draw(store_exprs())
    bound = draw(st.booleans())
    target = "store" if bound else store
    op = draw(
        st.sampled_from(
            (
                "model.save_into(&mut {s})",
                "model.load_from(&mut {s})",
                "{s}.collect_from(&model)",
                "{s}.apply_to(&mut model)",
                "model.apply(snapshots, None, None, false)",
                "model.clone().save_file(path, &recorder)",
                "model.clone().save_file(path)",
                "model.clone().load_file(path, &recorder, &device)",
                "model.clone().try_load_file(path)",
                "self.model.save_into(&mut {s})",
                "checkpoint(&model, path)",
                "save!(model, path)",
            )
        )
    ).format(s=target if bound else store)
    handled = draw(st.sampled_from(HANDLERS)).format(op=op)
    if bound:
        return f"let mut store = {store};\n        {handled}"
    return handled


@st.composite
def blocks(draw: st.DrawFn, depth: int = 0) -> str:
    parts = draw(st.lists(statements(), min_size=1, max_size=3))
    if depth < 3 and draw(st.booleans()):
        inner = draw(blocks(depth + 1))
        parts.append(draw(st.sampled_from(LOOP_HEADS)).format(body=inner))
    return "\n        ".join(parts)


@st.composite
def functions(draw: st.DrawFn) -> str:
    name = draw(st.sampled_from(("train", "export", "load", "import_weights", "fit", "main")))
    signature = draw(st.sampled_from(SIGNATURES)).format(name=name)
    attribute = draw(st.sampled_from(("", "", "#[test]\n", "#[allow(unused)]\n")))
    body = draw(blocks())
    tail = "\n        Ok(())" if "Result" in signature and draw(st.booleans()) else ""
    return f"{attribute}{signature} {{\n        {body}{tail}\n}}"


@st.composite
def programs(draw: st.DrawFn) -> bytes:
    headers = draw(st.lists(st.sampled_from(HEADERS), max_size=4, unique=True))
    items = draw(st.lists(st.sampled_from(ITEMS), max_size=3)) + draw(
        st.lists(functions(), min_size=1, max_size=3)
    )
    items = [
        item.replace("{{", "{").replace("}}", "}") if item in ITEMS else item for item in items
    ]
    if draw(st.integers(0, 4)) == 0:
        items = [f"#[cfg(test)]\nmod tests {{\n    use super::*;\n{items[-1]}\n}}", *items[:-1]]
    return ("\n".join(headers) + "\n\n" + "\n\n".join(items) + "\n").encode("utf-8")


# --- real fixtures, mutated ---------------------------------------------------------------------


def fixture_paths() -> list[Path]:
    """Every ``.rs`` fixture of the repository (rules, fixes, crates, the demo), sorted; not
    the robustness inputs (some of them are known to break burnlint)."""
    return sorted(p for p in TESTDATA.rglob("*.rs") if ROBUSTNESS not in p.parents)


@cache
def fixture_sources() -> tuple[bytes, ...]:
    return tuple(p.read_bytes() for p in fixture_paths())


def fixtures() -> st.SearchStrategy[bytes]:
    return st.sampled_from(fixture_sources())


def _mutate(data: bytes, op: str, a: int, b: int, byte: int) -> bytes:
    """One mutation; ``a`` and ``b`` pick positions (taken modulo the size)."""
    if op.startswith("line"):
        lines = data.split(b"\n")
        i, j = a % len(lines), b % len(lines)
        if op == "line-delete":
            del lines[i]
        elif op == "line-duplicate":
            lines.insert(i, lines[i])
        elif op == "line-swap":
            lines[i], lines[j] = lines[j], lines[i]
        elif op == "line-move":
            lines.insert(j, lines.pop(i))
        elif op == "line-repeat":  # generated code repeats itself: up to 400 copies
            lines[i:i] = [lines[i]] * (1 + b % REPEAT_MAX)
        return b"\n".join(lines)
    if not data:
        return bytes([byte])
    i, j = sorted((a % len(data), b % len(data)))
    if op == "byte-delete":
        return data[:i] + data[i + 1 :]
    if op == "byte-duplicate":
        return data[:j] + data[i : j + 1] + data[j:]
    if op == "byte-swap":
        out = bytearray(data)
        out[i], out[j] = out[j], out[i]
        return bytes(out)
    if op == "byte-insert":
        return data[:i] + bytes([byte]) + data[i:]
    if op == "range-delete":
        return data[:i] + data[j:]
    if op == "truncate":
        return data[:i]
    raise AssertionError(op)


REPEAT_MAX = 400
MUTATIONS = (
    "line-delete",
    "line-repeat",
    "line-duplicate",
    "line-swap",
    "line-move",
    "byte-delete",
    "byte-duplicate",
    "byte-swap",
    "byte-insert",
    "range-delete",
    "truncate",
)
# Bytes worth inserting: delimiters that change the tree's shape, line endings, a NUL, the
# first byte of a multi-byte UTF-8 sequence and a lone continuation byte.
INTERESTING_BYTES = (*b"{}()[];\"'/*\\\n\r#!?&|<>.:\x00\xe2\x80\xff", 0x20)


@st.composite
def mutated(draw: st.DrawFn, base: st.SearchStrategy[bytes] | None = None) -> bytes:
    data = draw(base if base is not None else fixtures())
    steps = draw(
        st.lists(
            st.tuples(
                st.sampled_from(MUTATIONS),
                st.integers(0, 1 << 20),
                st.integers(0, 1 << 20),
                st.sampled_from(INTERESTING_BYTES) | st.integers(0, 255),
            ),
            min_size=1,
            max_size=6,
        )
    )
    for op, a, b, byte in steps:
        data = _mutate(data, op, a, b, byte)
    return data


# --- unicode in comments and strings ------------------------------------------------------------

_UNICODE = st.lists(
    st.characters(blacklist_categories=("Cs",))
    | st.sampled_from(
        (
            "\u0301",  # combining acute
            "\u200b",  # zero width space
            "\u200d",  # zero width joiner
            "\u202e",  # right-to-left override
            "\u2028",  # line separator
            "\u2029",  # paragraph separator
            "\ufeff",  # byte order mark
            "\U0001f525",  # astral: two UTF-16 code units
            "\U0001f468\u200d\U0001f469\u200d\U0001f467",
            "\u05e9\u05dc\u05d5\u05dd",  # Hebrew
            "\r",
            "\x0b",
            "\x0c",
            "\x85",
        )
    ),
    max_size=24,
).map("".join)
_HOLES = ("line_comment", "block_comment", "string_literal", "raw_string_literal")


def _safe_for(kind: str, text: str) -> str:
    """Keep the literal or comment a literal or comment (its delimiters out of ``text``)."""
    text = text.replace("\x00", "")
    if kind == "line_comment":
        return text.replace("\n", " ").replace("\r", " ")
    if kind == "block_comment":
        return text.replace("*/", "* /").replace("/*", "/ *")
    if kind == "string_literal":
        return text.replace("\\", "/").replace('"', "'")
    return text.replace('"#', "'#")


@st.composite
def with_unicode(draw: st.DrawFn, base: st.SearchStrategy[bytes] | None = None) -> bytes:
    """``base`` (default: a fixture) with the text inside some comments and string literals
    replaced by random Unicode, or extra Unicode comments added at line ends."""
    data = draw(base if base is not None else fixtures())
    holes = [n for n in walk(parse(data).root_node) if n.type in _HOLES]
    chosen = (
        draw(st.lists(st.sampled_from(holes), max_size=6, unique_by=lambda n: n.start_byte))
        if holes
        else []
    )
    chosen.sort(key=lambda n: n.start_byte, reverse=True)
    seen_end = len(data) + 1
    for node in chosen:
        if node.end_byte > seen_end:
            continue  # nested in one already replaced
        seen_end = node.start_byte
        text = _safe_for(node.type, draw(_UNICODE))
        body = text.encode("utf-8")
        if node.type == "line_comment":
            new = b"// " + body
        elif node.type == "block_comment":
            new = b"/* " + body + b" */"
        elif node.type == "string_literal":
            new = b'"' + body + b'"'
        else:
            new = b'r#"' + body + b'"#'
        data = data[: node.start_byte] + new + data[node.end_byte :]
    lines = data.split(b"\n")
    for _ in range(draw(st.integers(0, 3))):
        index = draw(st.integers(0, max(len(lines) - 1, 0)))
        comment = _safe_for("line_comment", draw(_UNICODE)).encode("utf-8")
        lines[index] = lines[index] + b" // " + comment
    return b"\n".join(lines)


def any_rust() -> st.SearchStrategy[bytes]:
    """Every kind of input above, mixed."""
    return st.one_of(
        token_soups(),
        programs(),
        mutated(),
        mutated(programs()),
        with_unicode(),
        with_unicode(programs()),
    )


# --- the properties -----------------------------------------------------------------------------

SCHEMA: dict[str, Any] = json.loads((TESTDATA / "sarif-schema-2.1.0.json").read_text("utf-8"))
VALIDATOR = Draft4Validator(SCHEMA)


def crashes(result: LintResult) -> list[str]:
    """Rule crashes (the engine turns them into ``error`` notifications with a ``rule_id``)
    and any other ``error`` notification: a run that is not successful."""
    return [
        f"{n.path}: {n.message}"
        for n in result.notifications
        if n.rule_id is not None or n.level is Level.ERROR
    ] + ([] if result.successful else ["result.successful is False"])


def render_all(result: LintResult, root: Path) -> dict[str, str]:
    """Every output format, rendered (colour on for the human formats, to run that code too)."""
    plain = ReportContext(color=False, project_root=root, tool_version="0.1.0")
    colour = ReportContext(color=True, project_root=root, tool_version="0.1.0")
    out = {name: render(result, plain) for name, render in FORMATS.items()}
    out["text-color"] = FORMATS["text"](result, colour)
    return out


def sarif_errors(text: str) -> list[str]:
    log = json.loads(text)
    return [
        f"{list(e.path)}: {e.message}"
        for e in sorted(VALIDATOR.iter_errors(log), key=lambda e: list(e.path))
    ]


def _line_starts(data: bytes) -> list[int]:
    starts = [0]
    pos = data.find(b"\n")
    while pos != -1:
        starts.append(pos + 1)
        pos = data.find(b"\n", pos + 1)
    return starts


def _is_boundary(data: bytes, offset: int) -> bool:
    """``offset`` does not cut a UTF-8 sequence in two."""
    return offset in (0, len(data)) or (0 <= offset < len(data) and data[offset] & 0xC0 != 0x80)


def span_problems(span: Span, data: bytes, what: str) -> list[str]:
    """Everything wrong with ``span`` as a region of ``data``: bytes and lines inside the file,
    and every column agreeing with the byte offsets (characters and UTF-16 code units)."""
    problems: list[str] = []
    if not (0 <= span.start_byte <= span.end_byte <= len(data)):
        return [f"{what}: bytes {span.start_byte}..{span.end_byte} outside 0..{len(data)}"]
    for offset in (span.start_byte, span.end_byte):
        if not _is_boundary(data, offset):
            problems.append(f"{what}: byte {offset} splits a UTF-8 character")
    starts = _line_starts(data)
    for label, byte, line, col, col16 in (
        ("start", span.start_byte, span.start_line, span.start_col, span.start_col_utf16),
        ("end", span.end_byte, span.end_line, span.end_col, span.end_col_utf16),
    ):
        expected_line = max(i for i, s in enumerate(starts) if s <= byte) + 1
        prefix = data[starts[expected_line - 1] : byte].decode("utf-8", errors="replace")
        expected = (expected_line, len(prefix) + 1, len(prefix.encode("utf-16-le")) // 2 + 1)
        if (line, col, col16) != expected:
            problems.append(
                f"{what}: {label} (line, col, utf16) {(line, col, col16)} != {expected}"
            )
    if not 1 <= span.start_line <= span.end_line <= len(starts):
        problems.append(
            f"{what}: lines {span.start_line}..{span.end_line} outside 1..{len(starts)}"
        )
    return problems


def finding_problems(finding: Finding, files: dict[str, bytes], root: Path) -> list[str]:
    """Regions of a finding, its related locations and its fix edits, against the files (by
    their paths relative to ``root``)."""
    problems: list[str] = []
    shown = display_path(finding.location.path, root)
    where = f"{finding.rule_id} at {shown}:{finding.location.span.start_line}"
    locations = [(finding.location, "location")] + [
        (r.location, f"related {i}") for i, r in enumerate(finding.related)
    ]
    for location, label in locations:
        data = files.get(display_path(location.path, root))
        if data is None:
            problems.append(f"{where}: {label} names an unknown file {location.path!r}")
            continue
        problems += span_problems(location.span, data, f"{where} {label}")
    if finding.fix is not None:
        for edit in finding.fix.edits:
            data = files.get(display_path(edit.path, root))
            if data is None:
                problems.append(f"{where}: fix edits an unknown file {edit.path!r}")
            elif not (0 <= edit.start_byte <= edit.end_byte <= len(data)):
                problems.append(f"{where}: edit {edit.start_byte}..{edit.end_byte} outside file")
            elif not (_is_boundary(data, edit.start_byte) and _is_boundary(data, edit.end_byte)):
                problems.append(f"{where}: edit {edit.start_byte}..{edit.end_byte} splits UTF-8")
            elif edit.span is not None:  # the same range as lines and columns, for SARIF
                if (edit.span.start_byte, edit.span.end_byte) != (edit.start_byte, edit.end_byte):
                    problems.append(f"{where}: the edit's span is not its byte range")
                problems += span_problems(edit.span, data, f"{where} edit")
    return problems


def sarif_region_problems(text: str, files: dict[str, bytes]) -> list[str]:
    """Every region of the SARIF log lies inside its file: lines within the file, columns
    (UTF-16 code units, 1-based, end exclusive) within their lines, byte ranges within it."""
    problems: list[str] = []
    log = json.loads(text)
    lines16: dict[str, list[int]] = {}
    for uri, data in files.items():
        text_lines = data.decode("utf-8", errors="replace").split("\n")
        lines16[uri] = [len(line.encode("utf-16-le")) // 2 for line in text_lines]

    def check(uri: str, region: dict[str, Any], where: str) -> None:
        lengths = lines16.get(uri)
        if lengths is None:
            problems.append(f"{where}: unknown file {uri!r}")
            return
        if "byteOffset" in region:
            end = region["byteOffset"] + region.get("byteLength", 0)
            if not 0 <= region["byteOffset"] <= end <= len(files[uri]):
                problems.append(f"{where}: bytes {region['byteOffset']}..{end} outside the file")
            return
        start, end = region["startLine"], region.get("endLine", region["startLine"])
        if not 1 <= start <= end <= len(lengths):
            problems.append(f"{where}: lines {start}..{end} outside 1..{len(lengths)}")
            return
        start_col = region.get("startColumn", 1)
        end_col = region.get("endColumn")
        if not 1 <= start_col <= lengths[start - 1] + 1:
            problems.append(f"{where}: startColumn {start_col} past line {start}")
        if end_col is not None:
            if not 1 <= end_col <= lengths[end - 1] + 1:
                problems.append(f"{where}: endColumn {end_col} past line {end}")
            if start == end and end_col < start_col:
                problems.append(f"{where}: endColumn {end_col} < startColumn {start_col}")

    for run in log["runs"]:
        for r_index, result in enumerate(run["results"]):
            for key in ("locations", "relatedLocations"):
                for location in result.get(key, []):
                    physical = location["physicalLocation"]
                    uri = physical["artifactLocation"]["uri"]
                    for region_key in ("region", "contextRegion"):
                        if region_key in physical:
                            check(uri, physical[region_key], f"result {r_index} {key}")
            for fix in result.get("fixes", []):
                for change in fix["artifactChanges"]:
                    uri = change["artifactLocation"]["uri"]
                    for replacement in change["replacements"]:
                        check(uri, replacement["deletedRegion"], f"result {r_index} fix")
        for invocation in run.get("invocations", []):
            for note in invocation.get("toolExecutionNotifications", []):
                for location in note.get("locations", []):
                    physical = location["physicalLocation"]
                    uri = physical["artifactLocation"]["uri"]
                    if "region" in physical and uri in lines16:
                        check(uri, physical["region"], "notification")
    return problems


def decodes(data: bytes) -> bool:
    try:
        decode_source(data)
    except ValueError:
        return False
    return True


def all_problems(result: LintResult, files: dict[str, bytes], root: Path) -> list[str]:
    """Every property of one run, as a list of what is wrong (empty: all good)."""
    problems = crashes(result)
    for finding in result.findings:
        problems += finding_problems(finding, files, root)
    for note in result.notifications:
        shown = display_path(note.path, root) if note.path is not None else ""
        if note.line is not None and shown in files:
            count = files[shown].count(b"\n") + 1
            if not 1 <= note.line <= count:
                problems.append(f"notification line {note.line} outside 1..{count}: {note}")
    outputs = render_all(result, root)
    problems += sarif_errors(outputs["sarif"])
    problems += sarif_region_problems(outputs["sarif"], files)
    return problems


def explain(problems: Sequence[str]) -> str:
    return "\n".join(problems[:20])
