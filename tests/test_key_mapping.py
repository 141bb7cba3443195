"""The key-mapping decision across releases, fixes and selections: which of BL012, BL006 and
BL005 reports an option of a loader, and what their fixes may do unseen."""

from __future__ import annotations

from pathlib import Path

import pytest

from burnlint.engine import lint_paths
from burnlint.findings import Applicability, Finding
from burnlint.options import EngineOptions
from burnlint.rules.registry import resolve

MIRROR = """\
use burn::nn::{Linear, Relu};
use burn::prelude::*;
use burn_store::{ModuleSnapshot, PyTorchToBurnAdapter, PytorchStore, SafetensorsStore};

#[derive(Module, Debug)]
pub enum Layer<B: Backend> {
    Linear(Linear<B>),
    Relu(Relu),
}

#[derive(Module, Debug)]
pub struct Mirror<B: Backend> {
    net: Vec<Layer<B>>,
}

#[derive(Module, Debug)]
pub struct Flat<B: Backend> {
    fc: Linear<B>,
}

pub fn pt<B: Backend>(device: &B::Device) -> Mirror<B> {
    let mut model = Mirror::new(device);
    model.load_from(&mut PytorchStore::from_file("m.pt")).unwrap();
    model
}

pub fn st_bytes<B: Backend>(device: &B::Device, bytes: Vec<u8>) -> Flat<B> {
    let mut model = Flat::new(device);
    let mut store =
        SafetensorsStore::from_bytes(Some(bytes)).with_from_adapter(PyTorchToBurnAdapter);
    model.load_from(&mut store).unwrap();
    model
}
"""


def _crate(tmp_path: Path, burn: str | None, code: str = MIRROR) -> Path:
    manifest = '[package]\nname = "km"\nversion = "0.1.0"\nedition = "2021"\n'
    if burn is not None:
        manifest += f'\n[dependencies]\nburn = "{burn}"\n'
    (tmp_path / "Cargo.toml").write_text(manifest, encoding="utf-8")
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "lib.rs").write_text(code, encoding="utf-8")
    return tmp_path


def _findings(root: Path, select: list[str] | None = None) -> list[Finding]:
    rule_ids = resolve(select=select) if select else resolve()
    result = lint_paths([root], EngineOptions(rule_ids=rule_ids, project_root=root))
    assert not result.notifications, result.notifications
    return sorted(result.findings, key=lambda f: (f.location.span.start_line, f.rule_id))


def _at(findings: list[Finding], needle: str, root: Path) -> dict[str, Finding]:
    line = next(
        number
        for number, text in enumerate((root / "src/lib.rs").read_text().splitlines(), 1)
        if needle in text
    )
    return {f.rule_id: f for f in findings if f.location.span.start_line == line}


@pytest.mark.parametrize(
    ("burn", "pt_rules", "bl005_options"),
    [
        # 0.19 has neither option: nothing to say
        ("0.19.1", set(), None),
        # pre.4 and pre.5 have `skip_enum_variants` only: the mirror's index option is no finding
        ("0.20.0-pre.5", {"BL005"}, "`skip_enum_variants`"),
        # pre.6 on, both
        ("0.20.0-pre.6", {"BL005", "BL012"}, "`skip_enum_variants`"),
        ("0.22", {"BL005", "BL012"}, "`skip_enum_variants`"),
        # unknown: the current API
        (None, {"BL005", "BL012"}, "`skip_enum_variants`"),
    ],
)
def test_the_release_decides_which_options_exist(
    tmp_path: Path, burn: str | None, pt_rules: set[str], bl005_options: str | None
) -> None:
    root = _crate(tmp_path, burn)
    at = _at(_findings(root), 'PytorchStore::from_file("m.pt")', root)
    assert set(at) == pt_rules
    if bl005_options is not None:
        assert at["BL005"].message.endswith(f"leaves {bl005_options} implicit")


@pytest.mark.parametrize(
    ("burn", "needle", "applicability"),
    [
        # a known release has the options: writing its defaults changes nothing
        ("0.22", 'PytorchStore::from_file("m.pt")', Applicability.SAFE),
        # an unknown release may lack them: the code might not compile
        (None, 'PytorchStore::from_file("m.pt")', Applicability.UNSAFE),
        # a memory `SafetensorsStore`'s index option needs burn-store's `std`
        ("0.22", "SafetensorsStore::from_bytes", Applicability.UNSAFE),
    ],
)
def test_bl005_fix_is_safe_only_where_the_release_has_the_options(
    tmp_path: Path, burn: str | None, needle: str, applicability: Applicability
) -> None:
    root = _crate(tmp_path, burn)
    finding = _at(_findings(root), needle, root)["BL005"]
    assert finding.fix is not None
    assert finding.fix.applicability is applicability
    assert "burn 0.22" in finding.fix.title if burn else "not known" in finding.fix.title


def test_bl005_fix_writes_the_defaults_right_after_the_constructor(tmp_path: Path) -> None:
    root = _crate(tmp_path, "0.22")
    finding = _at(_findings(root), "SafetensorsStore::from_bytes", root)["BL005"]
    assert finding.fix is not None
    (edit,) = finding.fix.edits
    data = (root / "src/lib.rs").read_bytes()
    assert data[: edit.start_byte].endswith(b"SafetensorsStore::from_bytes(Some(bytes))")
    assert data[edit.start_byte :].startswith(b".with_from_adapter(")
    assert edit.content == ".map_indices_contiguous(false).skip_enum_variants(false)"


def test_the_decision_does_not_depend_on_the_selection(tmp_path: Path) -> None:
    """A store BL012 reports gets no BL005 for that option, whether BL012 runs or not: one
    defect, one finding, the same in every configuration."""
    root = _crate(tmp_path, "0.22")
    every = [f for f in _findings(root) if f.rule_id == "BL005"]
    alone = _findings(root, ["BL005"])
    assert [(f.location, f.message) for f in alone] == [(f.location, f.message) for f in every]
    pt = _at(alone, 'PytorchStore::from_file("m.pt")', root)["BL005"]
    assert pt.message == "a `PytorchStore` leaves `skip_enum_variants` implicit"


MIXED = """\
use burn::nn::{Linear, Relu};
use burn::prelude::*;
use burn_store::{ModuleSnapshot, PytorchStore};

#[derive(Module, Debug)]
pub enum Layer<B: Backend> {
    Linear(Linear<B>),
    Relu(Relu),
}

#[derive(Module, Debug)]
pub struct Mixed<B: Backend> {
    net: Vec<Layer<B>>,
    proj: Vec<Linear<B>>,
}

pub fn pt<B: Backend>(device: &B::Device) -> Mixed<B> {
    let mut model = Mixed::new(device);
    model.load_from(&mut PytorchStore::from_file("m.pt").skip_enum_variants(true)).unwrap();
    model
}
"""


def test_a_mirror_beside_a_vec_of_linear_gets_a_note_and_no_fix(tmp_path: Path) -> None:
    root = _crate(tmp_path, "0.22", MIXED)
    at = _at(_findings(root), "PytorchStore::from_file", root)
    assert set(at) == {"BL005"}
    assert at["BL005"].fix is None
    assert "no single `map_indices_contiguous` value fits both fields" in (at["BL005"].note or "")


PAIRS = """\
use burn::nn::Linear;
use burn::prelude::*;
use burn_store::{ModuleSnapshot, PyTorchToBurnAdapter, PytorchStore, SafetensorsStore};

#[derive(Module, Debug)]
pub struct Flat<B: Backend> {
    fc: Linear<B>,
}

#[derive(Module, Debug)]
pub struct Other<B: Backend> {
    fc: Linear<B>,
}

pub fn pt_a<B: Backend>(model: &mut Flat<B>) {
    model.load_from(&mut PytorchStore::from_file("a.pt")).unwrap();
}

pub fn pt_b<B: Backend>(model: &mut Flat<B>) {
    let mut store = PytorchStore::from_file("b.pt").map_indices_contiguous(false);
    model.load_from(&mut store).unwrap();
}

pub fn pt_other<B: Backend>(model: &mut Other<B>) {
    model.load_from(&mut PytorchStore::from_file("o.pt")).unwrap();
}

pub fn st<B: Backend>(model: &mut Flat<B>) {
    let mut store =
        SafetensorsStore::from_file("m.safetensors").with_from_adapter(PyTorchToBurnAdapter);
    model.load_from(&mut store).unwrap();
}
"""


def test_bl006_names_every_disagreeing_pytorch_loader_of_the_same_type(tmp_path: Path) -> None:
    root = _crate(tmp_path, "0.22", PAIRS)
    findings = _findings(root)
    (disagreement,) = [f for f in findings if f.rule_id == "BL006"]
    assert (
        disagreement.location
        == _at(findings, "SafetensorsStore::from_file", root)["BL006"].location
    )
    related = {r.location.span.start_line for r in disagreement.related}
    lines = (root / "src/lib.rs").read_text().splitlines()
    built = {n for n, text in enumerate(lines, 1) if "PytorchStore::from_file" in text}
    other = next(n for n, text in enumerate(lines, 1) if '"o.pt"' in text)
    # both `Flat` loaders (one agrees on the index option, not on the enum one), never `Other`'s
    assert related == built - {other}
    # the `PytorchStore`s run different index values: no one value ends the disagreement
    assert "map_indices_contiguous" not in (disagreement.fix.title if disagreement.fix else "")
    # the loaders BL006 pairs get no BL005 for the options it reports
    bl005 = {f.location.span.start_line for f in findings if f.rule_id == "BL005"}
    assert other in bl005
