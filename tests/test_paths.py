"""``model.paths``: what a path expression names (its last component when it is a literal)."""

from __future__ import annotations

import pytest

from burnlint.model.paths import Extension, PathValue, literal_extension, path_value
from burnlint.model.scopes import LazyResolution
from burnlint.rust.syntax import Ancestry, parse, walk

PRELUDE = """
fn f(dir: &Path, path: &Path, run: &str, name: &str) {
    let latest = dir.join("latest");
    let bpk = dir.join("latest.bpk");
    let mut moving = dir.join("a");
    moving = dir.join("b");
    let sub = Path::new("runs").join("latest");
"""


def _values(*expressions: str) -> list[PathValue]:
    body = "".join(f"    let _v{i} = {e};\n" for i, e in enumerate(expressions))
    data = f"{PRELUDE}{body}}}\n".encode()
    root = parse(data).root_node
    resolution = LazyResolution(root, Ancestry(root))
    found: dict[str, PathValue] = {}
    for node in walk(root):
        if node.type == "let_declaration":
            pattern = node.child_by_field_name("pattern")
            value = node.child_by_field_name("value")
            if (
                pattern is not None
                and value is not None
                and (pattern.text or b"").startswith(b"_v")
            ):
                found[(pattern.text or b"").decode()] = path_value(value, resolution)
    return [found[f"_v{i}"] for i in range(len(expressions))]


@pytest.mark.parametrize(
    ("name", "extension"),
    [
        ("latest", Extension.NONE),
        (".hidden", Extension.NONE),
        ("latest.bpk", Extension.SOME),
        ("latest.", Extension.SOME),
        (".hidden.bpk", Extension.SOME),
        ("..", Extension.UNKNOWN),
        ("", Extension.UNKNOWN),
    ],
)
def test_literal_extension(name: str, extension: Extension) -> None:
    assert literal_extension(name) is extension


@pytest.mark.parametrize(
    ("left", "right"),
    [
        ('dir.join("latest.bpk")', 'dir.join("latest").with_extension("bpk")'),
        ('dir.join("latest.bpk")', "&bpk"),
        ('dir.join("latest.bpk")', 'latest.with_extension("bpk")'),
        ('dir.join("latest")', "latest.clone()"),
        ('dir.join("runs/latest")', 'dir.join("runs").join("latest")'),
        ('"runs/latest"', "sub"),
        ('"runs/latest"', 'PathBuf::from("runs/latest")'),
        ('Path::new("runs").join(name)', 'Path::new("runs").join(name)'),
        ('dir.join("latest.v1").with_extension("bpk")', 'dir.join("latest.bpk")'),
        ('format!("{run}/latest")', 'format!("{run}/latest")'),
        ("moving", "&moving"),
    ],
)
def test_same_path(left: str, right: str) -> None:
    first, second = _values(left, right)
    assert first == second


@pytest.mark.parametrize(
    ("left", "right"),
    [
        ('dir.join("latest")', 'dir.join("latest.bpk")'),
        ('dir.join("latest")', "bpk"),
        ('"runs/latest"', '"latest"'),
        ('format!("{run}/latest")', 'format!("{run}/latest.bpk")'),
        ('format!("{run}/latest")', 'format!("{name}/latest")'),
        ("moving", 'dir.join("b")'),
    ],
)
def test_other_path(left: str, right: str) -> None:
    first, second = _values(left, right)
    assert first != second


@pytest.mark.parametrize(
    ("expression", "extension"),
    [
        ('dir.join("latest")', Extension.NONE),
        ("latest", Extension.NONE),
        ('format!("{run}/latest")', Extension.NONE),
        ('"checkpoints/last"', Extension.NONE),
        ('dir.join("latest.bpk")', Extension.SOME),
        ('dir.join("latest").with_extension("bpk")', Extension.SOME),
        ('dir.join("latest.bpk").with_extension("")', Extension.NONE),
        ("path", Extension.UNKNOWN),
        ("moving", Extension.UNKNOWN),  # re-assigned: its value is not followed
        ('format!("{run}/latest-{name}")', Extension.UNKNOWN),  # `name` may hold a dot
        ('format!("{run}.bpk")', Extension.UNKNOWN),
        ("dir.join(name)", Extension.UNKNOWN),
        ('"runs\\\\latest"', Extension.UNKNOWN),  # a separator on Windows only
    ],
)
def test_extension(expression: str, extension: Extension) -> None:
    assert _values(expression)[0].extension is extension
