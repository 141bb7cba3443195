"""BL007 when the `ApplyResult` is handed to a crate function that reads only part of it:
the finding names that function, where it is defined, and what it reads."""

from __future__ import annotations

from pathlib import Path

from burnlint.engine import lint_source
from burnlint.options import EngineOptions
from burnlint.rules.registry import resolve

SOURCE = b"""\
use burn_store::{ApplyResult, ModuleSnapshot, SafetensorsStore};

fn ensure_no_errors(result: &ApplyResult) -> anyhow::Result<()> {
    anyhow::ensure!(result.errors.is_empty(), "errors: {:?}", result.errors);
    Ok(())
}

pub fn load<M: ModuleSnapshot>(model: &mut M) -> anyhow::Result<()> {
    let mut store = SafetensorsStore::from_file("m.safetensors").allow_partial(true);
    let result = model.load_from(&mut store)?;
    ensure_no_errors(&result)?;
    Ok(())
}
"""


def test_the_partial_check_is_a_related_location(tmp_path: Path) -> None:
    options = EngineOptions(rule_ids=resolve(), project_root=tmp_path)
    result = lint_source(tmp_path / "lib.rs", SOURCE, options)
    [finding] = result.findings
    assert (finding.rule_id, finding.location.span.start_line) == ("BL007", 10)
    related = [(r.location.span.start_line, r.message) for r in finding.related]
    assert related == [
        (9, "the store is built here"),
        (3, "`ensure_no_errors` is given the result and reads only `errors`"),
    ]


def test_a_full_check_function_leaves_nothing(tmp_path: Path) -> None:
    source = SOURCE.replace(b"result.errors.is_empty()", b"result.missing.is_empty()")
    options = EngineOptions(rule_ids=resolve(), project_root=tmp_path)
    assert lint_source(tmp_path / "lib.rs", source, options).findings == ()
