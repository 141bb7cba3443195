"""Macro arguments and ``macro_rules!`` transcribers read as code (``rust/expand.py``,
``model/macros.py``): at the file's own byte offsets, with metavariables as placeholders, and
with the use a known macro makes of its argument."""

from __future__ import annotations

from pathlib import Path

from burnlint.model.file_model import FileModel
from burnlint.model.result_forms import UseClass
from burnlint.rust.expand import reparse_arguments, reparse_transcriber
from burnlint.rust.source import SourceFile
from burnlint.rust.syntax import BODY_FUNCTION, nodes_of_type, parse, text, walk


def _model(code: str) -> FileModel:
    data = code.encode()
    return FileModel(SourceFile(Path("src/lib.rs"), data, parse(data)))


def _invocation(data: bytes, name: str):  # type: ignore[no-untyped-def]
    tree = parse(data)
    found = [
        n
        for n in nodes_of_type(tree.root_node, "macro_invocation")
        if text(n.child_by_field_name("macro")) == name
    ]
    assert len(found) == 1
    return tree, found[0]


def test_arguments_keep_their_offsets() -> None:
    data = b'fn f() {\n    assert!(m.load_from(&mut s).is_ok(), "cannot load {}", p);\n}\n'
    _tree, invocation = _invocation(data, "assert")
    reparsed = reparse_arguments(data, invocation)
    assert reparsed is not None
    first, message, path = reparsed.nodes
    assert first.type == "call_expression" and message.type == "string_literal"
    assert first.start_byte == data.index(b"m.load_from")
    assert first.text == b"m.load_from(&mut s).is_ok()"
    assert first.start_point == (1, 12)  # the file's line and column too
    assert path.start_byte == data.index(b"p);") and path.type == "identifier"


def test_vec_brackets_and_braces_are_arguments_too() -> None:
    data = b"fn f() { let v = vec![m.save_into(&mut s), m.save_into(&mut t)]; }"
    _tree, invocation = _invocation(data, "vec")
    reparsed = reparse_arguments(data, invocation)
    assert reparsed is not None
    assert [n.text for n in reparsed.nodes] == [b"m.save_into(&mut s)", b"m.save_into(&mut t)"]


def test_arguments_that_are_not_expressions_are_not_read() -> None:
    # tracing's field syntax and `vec![x; n]` are no call's arguments
    for code in (
        b'fn f() { tracing::info!(?r, path = %p, "saved"); }',
        b"fn f() { let v = vec![m.save_into(&mut s); 3]; }",
    ):
        tree = parse(code)
        invocation = nodes_of_type(tree.root_node, "macro_invocation")[0]
        assert reparse_arguments(code, invocation) is None


def test_transcriber_placeholders_and_one_repetition() -> None:
    data = (
        b"macro_rules! load_all {\n"
        b"    ($m:expr, $($p:expr),+) => {\n"
        b"        $( let mut s = $crate::St::from_file($p); $m.load_from(&mut s); )+\n"
        b"    };\n"
        b"}\n"
    )
    tree = parse(data)
    rule = nodes_of_type(tree.root_node, "macro_rule")[0]
    reparsed = reparse_transcriber(data, rule)
    assert reparsed is not None
    (function,) = reparsed.nodes
    assert function.type == "function_item"
    assert text(function.child_by_field_name("name")) == BODY_FUNCTION.decode()
    calls = [n for n in walk(function) if n.type == "call_expression"]
    load = next(c for c in calls if b"load_from" in (c.text or b""))
    assert load.start_byte == data.index(b"$m.load_from")
    assert load.text == b"__.load_from(&mut s)"
    # `$p` and `$m` are placeholders at their own offsets; `$crate` is the crate
    assert reparsed.placeholders == {data.index(b"$p)"), data.index(b"$m.")}
    constructor = next(c for c in calls if b"from_file" in (c.text or b""))
    assert constructor.text == b"crate::St::from_file(__)"


def test_ops_in_macros_are_ops_with_a_known_or_unknown_use() -> None:
    model = _model(
        "use burn_store::{ModuleSnapshot, SafetensorsStore};\n"
        "fn f(m: &mut M) -> anyhow::Result<()> {\n"
        '    let mut s = SafetensorsStore::from_file("a").allow_partial(true);\n'
        "    assert!(m.load_from(&mut s).is_ok());\n"
        "    debug_assert!(m.load_from(&mut s).is_ok());\n"
        "    dbg!(m.load_from(&mut s));\n"
        "    anyhow::ensure!(m.load_from(&mut s).is_ok());\n"
        "    timed!(m.load_from(&mut s));\n"
        "    Ok(())\n"
        "}\n"
    )
    ops = model.ops
    assert [model.source.line_of(op.node.start_byte) + 1 for op in ops] == [4, 5, 6, 7, 8]
    # each op's store is the one the `let` builds, found through the macro's tokens
    assert all(op.store is not None and op.store.kind.value == "SafetensorsStore" for op in ops)
    uses = [model.result_use(op) for op in ops]
    assert [u.use for u in uses] == [
        UseClass.PANICKING,  # assert!
        UseClass.PROPAGATED,  # debug_assert!: not in release builds, unknown
        UseClass.LOGGED_ONLY,  # dbg! prints and hands the value on, to a statement
        UseClass.HANDLED,  # ensure! returns the error
        UseClass.PROPAGATED,  # a macro of unknown expansion
    ]
    assert uses[0].ok_dropped and not uses[0].ok_escapes
    assert uses[1].ok_escapes and uses[2].ok_escapes and uses[4].ok_escapes
    # the `ApplyResult` is read by none of the `is_ok()` forms; printed whole by `dbg!`
    checks = [model.apply_checks(op) for op in ops]
    assert checks[0] == frozenset() and checks[3] == frozenset()
    assert checks[1] == checks[2] == checks[4] == frozenset({"missing", "errors"})


def test_quote_templates_stay_opaque() -> None:
    model = _model(
        "use burn_store::{ModuleSnapshot, SafetensorsStore};\n"
        "fn f() -> TokenStream { quote! { m.save_into(&mut SafetensorsStore::from_file(p)); } }\n"
    )
    assert model.ops == []
    assert model.store_builds == []


def test_macro_body_ops_and_placeholder_facts() -> None:
    model = _model(
        "use burn_store::{ModuleSnapshot, PytorchStore};\n"
        "macro_rules! load {\n"
        "    ($m:expr, $store:expr, $r:ident) => {\n"
        '        let mut own = PytorchStore::from_file("a.pt").allow_partial(true);\n'
        "        $m.load_from(&mut own).unwrap();\n"
        "        $m.load_from(&mut $store);\n"
        "        let mut given = $store;\n"
        "        $m.load_from(&mut given);\n"
        "        let $r = $m.load_from(&mut own).unwrap();\n"
        "    };\n"
        "}\n"
    )
    ops = model.ops
    assert [model.source.line_of(op.node.start_byte) + 1 for op in ops] == [5, 6, 8, 9]
    own, direct, bound, named = ops
    assert own.store is not None and own.store.kind.value == "PytorchStore"
    assert model.result_use(own).use is UseClass.PANICKING
    assert model.apply_checks(own) == frozenset()  # dropped by `unwrap()`: BL007's case
    # a metavariable store, itself or through a `let`: the caller's, facts unknown
    for op in (direct, bound):
        assert model.result_use(op).use is UseClass.PROPAGATED
        assert model.result_use(op).ok_escapes
    # bound to a metavariable name: the caller reads it
    assert model.apply_checks(named) == frozenset({"missing", "errors"})
    # a finding's path names the macro
    assert model.ancestry.enclosing_item(own.node) == "macro_rules! load"


def test_asserting_the_failure_and_printing_it() -> None:
    model = _model(
        "use burn_store::{ModuleSnapshot, SafetensorsStore};\n"
        "fn f(m: &M) {\n"
        '    assert!(m.save_into(&mut SafetensorsStore::from_file("a")).is_err());\n'
        '    println!("{}", m.save_into(&mut SafetensorsStore::from_file("b")).is_err());\n'
        '    assert!(true, "{}", m.save_into(&mut SafetensorsStore::from_file("c")).is_err());\n'
        "}\n"
    )
    asserted, printed, message = (model.result_use(op) for op in model.ops)
    assert asserted.use is UseClass.HANDLED and asserted.failure_expected
    assert printed.use is UseClass.LOGGED_ONLY and not printed.failure_expected
    # an assertion's message runs only when it fails: unknown
    assert message.use is UseClass.PROPAGATED and not message.failure_expected
