"""burn-core's record path: which `save_file` / `load_file` / `try_load_file` calls are ops
under which burn release, and what the messages say about them."""

from __future__ import annotations

from pathlib import Path

import pytest

from burnlint.engine import lint_source
from burnlint.model.burn_api import BurnStoreApi
from burnlint.options import EngineOptions
from burnlint.project.versions import release_series
from burnlint.rules.registry import resolve


@pytest.mark.parametrize(
    ("version", "series"),
    [
        ("0.22.0-pre.2", (0, 22)),
        ("0.22", (0, 22)),
        ("=0.21.0", (0, 21)),
        ("^0.21", (0, 21)),
        ("~0.20.1", (0, 20)),
        ("1.2.3+build.4", (1, 2)),
        (">=0.20, <0.23", None),
        ("0.21.0, 0.22.1", None),
        ("0", None),
        (None, None),
    ],
)
def test_release_series(version: str | None, series: tuple[int, int] | None) -> None:
    assert release_series(version) == series


@pytest.mark.parametrize(
    ("method", "arity", "series", "returns_result"),
    [
        # up to 0.21: the recorder (and the device) are arguments, both return a Result
        ("save_file", 2, (0, 21), True),
        ("load_file", 3, (0, 21), True),
        ("save_file", 1, (0, 21), None),
        ("load_file", 1, (0, 21), None),
        ("try_load_file", 1, (0, 21), None),
        # from 0.22: `load_file` panics, `try_load_file` returns the Result
        ("save_file", 1, (0, 22), True),
        ("try_load_file", 1, (0, 22), True),
        ("load_file", 1, (0, 22), False),
        ("save_file", 2, (0, 22), None),
        ("load_file", 3, (0, 22), None),
        ("load_file", 1, (0, 23), False),
        # release unknown: each argument count names one signature
        ("save_file", 1, None, True),
        ("save_file", 2, None, True),
        ("load_file", 3, None, True),
        ("load_file", 1, None, False),
        ("load_file", 2, None, None),
        ("try_load_file", 1, None, True),
    ],
)
def test_record_op_table(
    method: str, arity: int, series: tuple[int, int] | None, returns_result: bool | None
) -> None:
    version = None if series is None else f"{series[0]}.{series[1]}"
    spec = BurnStoreApi.for_version(version).op_spec(method, arity)
    assert (spec.returns_result if spec is not None else None) == returns_result


CRATE = """\
use std::path::Path;

use burn::prelude::*;
use burn::store::RecordError;
use burn_store::ModuleSnapshot;

fn checkpoint(model: &Mlp, path: &Path) -> Result<(), RecordError> {
    model.clone().save_file(path)
}

fn restore(model: Mlp, path: &Path) -> Result<Mlp, RecordError> {
    model.try_load_file(path)
}

pub fn run(model: Mlp, path: &Path) -> Mlp {
    let _ = checkpoint(&model, path);
    let _ = model.clone().save_file(path);
    restore(model.clone(), path).unwrap_or(model)
}
"""


def _messages(tmp_path: Path, version: str) -> list[tuple[int, str, str]]:
    (tmp_path / "Cargo.toml").write_text(
        f'[package]\nname = "a"\nversion = "0.1.0"\n\n[dependencies]\nburn = "{version}"\n'
    )
    options = EngineOptions(rule_ids=resolve(), project_root=tmp_path)
    result = lint_source(tmp_path / "src" / "lib.rs", CRATE.encode(), options)
    return [
        (f.location.span.start_line, f.rule_id, f"{f.message}: {f.label}") for f in result.findings
    ]


def test_messages_name_the_record_op(tmp_path: Path) -> None:
    found = _messages(tmp_path, "0.22")
    assert [(line, rule) for line, rule, _ in found] == [
        (16, "BL001"),
        (17, "BL001"),
        (18, "BL001"),
    ]
    helper_save, save, helper_load = (message for _, _, message in found)
    assert "`checkpoint` (which calls `save_file`)" in helper_save
    assert "save_into" not in helper_save
    assert "truncated" in helper_save and "old contents" not in helper_save
    assert save.startswith("the `Result` of `save_file` is discarded")
    assert "`restore` (which calls `try_load_file`)" in helper_load
    assert "load_from" not in helper_load and "mix of loaded" not in helper_load
    assert "falls back to" in helper_load


def test_the_release_switches_the_table(tmp_path: Path) -> None:
    # in 0.21 neither `save_file(path)` nor `try_load_file(path)` is burn's
    assert _messages(tmp_path, "0.21") == []
