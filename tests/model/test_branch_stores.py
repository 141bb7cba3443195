"""Stores chosen by ``if``/``match`` (``StoreBuild.variants``) and closures that a loop calls
(``loops.closure_called_in_loop``)."""

from __future__ import annotations

from pathlib import Path

from burnlint.model.file_model import FileModel
from burnlint.rust.source import SourceFile
from burnlint.rust.syntax import parse


def _model(code: str) -> FileModel:
    data = code.encode()
    return FileModel(SourceFile(Path("src/lib.rs"), data, parse(data)))


HEADER = "use burn_store::{ModuleSnapshot, SafetensorsStore, PytorchStore};\n"


def test_every_branch_is_a_variant() -> None:
    model = _model(
        HEADER + "fn f(m: &M, a: bool, k: u8) {\n"
        '    let mut s = if a { SafetensorsStore::from_file("x") } '
        'else { SafetensorsStore::from_file("y").allow_partial(true) };\n'
        "    m.load_from(&mut s).unwrap();\n"
        "    let mut t = match k {\n"
        '        0 => SafetensorsStore::from_file("p"),\n'
        "        1 => return,\n"
        '        _ => SafetensorsStore::from_file("q").overwrite(true),\n'
        "    };\n"
        "    m.save_into(&mut t).unwrap();\n"
        '    let mut u = if a { SafetensorsStore::from_file("x") } else { make() };\n'
        "    m.save_into(&mut u).unwrap();\n"
        "}\n"
    )
    load, save, unknown = model.ops
    assert load.store is not None and save.store is not None
    paths = [model.source.text(v.path_argument) for v in load.store.variants if v.path_argument]
    assert paths == ['"x"', '"y"']
    assert [v.is_set_true("allow_partial") for v in load.store.variants] == [False, True]
    # the arm that returns gives no store; the other two do
    assert [v.option("overwrite") is not None for v in save.store.variants] == [False, True]
    # a branch whose store is not known: the store is not known
    assert unknown.store is None


def test_a_closure_that_a_loop_calls() -> None:
    model = _model(
        HEADER + "fn f(m: &M, n: usize) {\n"
        '    let save = |m: &M| m.save_into(&mut SafetensorsStore::from_file("c"));\n'
        "    for _ in 0..n { save(m).unwrap(); }\n"
        '    let once = |m: &M| m.save_into(&mut SafetensorsStore::from_file("d"));\n'
        "    once(m).unwrap();\n"
        "}\n"
    )
    in_loop, once = model.ops
    loop = model.loop_of(in_loop.node)
    assert loop is not None and loop.kind == "closure"
    assert loop.called_from is not None and loop.called_from.kind == "for"
    assert loop.call is not None and model.source.text(loop.call) == "save(m)"
    assert model.loop_of(once.node) is None
