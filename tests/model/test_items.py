"""``collect_items``: the functions, types and ``use``s of one file, per module, as plain data."""

from __future__ import annotations

import pickle

import pytest

from burnlint.model.items import FnDef, TypeDef, UseDecl, collect_items, module_of, returned_type
from snippet_crate import items_of, source


def _fn(items_text: str, name: str, module: tuple[str, ...] = ()) -> FnDef:
    found = [f for f in items_of(items_text, module).functions if f.name == name]
    assert len(found) == 1, found
    return found[0]


def test_a_free_function() -> None:
    text = "fn load(path: &str, mut net: &mut a::Net<B>) -> anyhow::Result<Net<B>> { todo!() }"
    assert items_of(text, ("m",)).functions == [
        FnDef(
            module=("m",),
            owner="",
            name="load",
            method=False,
            returns_self=False,
            returns_path=("Net",),
            returns_wrapped=True,
            params=(("path", "str"), ("net", "Net")),
            start_byte=0,
        )
    ]


def test_methods_take_their_owner_from_the_impl() -> None:
    text = """
impl<B: Backend> Net<B> {
    pub fn new(device: &B::Device) -> Self { todo!() }
    fn load(&mut self) -> Result<Self, Error> { todo!() }
    fn same(&self) -> Net<B> { todo!() }
    fn other(self) -> Other { todo!() }
}
impl Display for crate::model::Net<B> {
    fn fmt(&self, f: &mut Formatter) -> fmt::Result { todo!() }
}
"""
    facts = {
        f.name: (f.owner, f.method, f.returns_self, f.returns_path, f.returns_wrapped)
        for f in items_of(text).functions
    }
    assert facts == {
        "new": ("Net", False, True, ("Self",), False),
        "load": ("Net", True, True, ("Self",), True),
        "same": ("Net", True, True, ("Net",), False),
        "other": ("Net", True, False, ("Other",), False),
        "fmt": ("Net", True, False, ("fmt", "Result"), False),
    }


@pytest.mark.parametrize(
    "receiver", ["self", "&self", "&mut self", "mut self", "&'a self", "self: Box<Self>"]
)
def test_every_receiver_makes_a_method_and_is_no_parameter(receiver: str) -> None:
    function = _fn(f"impl Net {{ fn f({receiver}, r: &ApplyResult) {{}} }}", "f")
    assert function.method is True
    assert function.params == (("r", "ApplyResult"),)


def test_parameters_name_and_type() -> None:
    text = "fn f(a: u8, mut b: &mut Vec<Net>, (c, d): (u8, u8), _: Net, e: impl Module) {}"
    assert _fn(text, "f").params == (
        ("a", "u8"),
        ("b", "Vec"),
        ("", ""),
        ("", "Net"),
        ("e", ""),
    )


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        ("Net", (("Net",), False)),
        ("a::b::Net<B>", (("a", "b", "Net"), False)),
        ("&'a mut Net", (("Net",), False)),
        ("Result<Net>", (("Net",), True)),
        ("anyhow::Result<model::Net<B>, E>", (("model", "Net"), True)),
        ("Option<&'a Net>", (("Net",), True)),
        ("Result<Box<Net>>", (("Net",), True)),
        ("Box<Net>", (("Net",), False)),
        ("Arc<Net>", (("Net",), False)),
        ("Vec<Net>", (("Vec",), False)),
        ("(Net, ApplyResult)", ((), False)),
        ("Result<(Net, ApplyResult)>", ((), True)),
        ("impl Module<B>", ((), False)),
        ("Box<dyn Module>", ((), False)),
        ("u8", (("u8",), False)),
    ],
)
def test_returned_type(written: str, expected: tuple[tuple[str, ...], bool]) -> None:
    function = source(f"fn f() -> {written} {{}}").root.named_children[0]
    assert returned_type(function.child_by_field_name("return_type")) == expected


def test_no_return_type() -> None:
    function = _fn("fn f() {}", "f")
    assert (function.returns_path, function.returns_wrapped, function.returns_self) == (
        (),
        False,
        False,
    )


def test_start_byte_finds_the_function_again() -> None:
    text = "use x::y;\n\n/// doc\n#[inline]\npub fn f() {}\nfn g() {}\n"
    assert [f.start_byte for f in items_of(text).functions] == [
        text.index("pub fn f"),
        text.index("fn g"),
    ]


def _uses(text: str) -> set[tuple[str, tuple[str, ...]]]:
    return {(u.name, u.path) for u in items_of(text).uses}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("use a::b;", {("b", ("a", "b"))}),
        ("use a::b as c;", {("c", ("a", "b"))}),
        ("use a::b as _;", set()),
        ("use a;", {("a", ("a",))}),
        ("pub use crate::m::f;", {("f", ("crate", "m", "f"))}),
        ("pub(crate) use super::x;", {("x", ("super", "x"))}),
        ("use self::m::y;", {("y", ("self", "m", "y"))}),
        ("use a::*;", {("", ("a",))}),
        ("use a::{self, b::c};", {("a", ("a",)), ("c", ("a", "b", "c"))}),
        ("use a::{b::{self as bb}, c as d};", {("bb", ("a", "b")), ("d", ("a", "c"))}),
        ("use a::{b::*, c};", {("", ("a", "b")), ("c", ("a", "c"))}),
        (
            "use crate::{m::{f, g}, n::*};",
            {("f", ("crate", "m", "f")), ("g", ("crate", "m", "g")), ("", ("crate", "n"))},
        ),
    ],
)
def test_use_declarations(text: str, expected: set[tuple[str, tuple[str, ...]]]) -> None:
    assert _uses(text) == expected


def test_module_level_uses_have_no_scope() -> None:
    assert items_of("use a::b;", ("m",)).uses == [UseDecl(("m",), "b", ("a", "b"), None)]


def test_a_use_in_a_function_body_is_scoped_to_that_body() -> None:
    text = "fn f() { use a::b; b(); }\nfn g() { b(); }"
    body = source(text).root.named_children[0].child_by_field_name("body")
    assert body is not None
    assert items_of(text).uses == [UseDecl((), "b", ("a", "b"), (body.start_byte, body.end_byte))]


@pytest.mark.parametrize(
    "text",
    [
        "fn f() { if c { use a::b; b(); } b(); }",
        "fn f() { let g = || { use a::b; b() }; b(); }",
        "fn f() { { use a::b; b(); } b(); }",
        "fn f() { for x in y { use a::b; b(); } b(); }",
    ],
)
def test_a_use_in_an_inner_block_is_scoped_to_that_block(text: str) -> None:
    # its name is not visible in the rest of the function
    (use,) = items_of(text).uses
    inner = text.index("{ use a::b;")
    assert (use.name, use.path) == ("b", ("a", "b"))
    assert use.scope == (inner, text.index("}", inner) + 1)


def test_a_use_in_a_method_body_belongs_to_its_module() -> None:
    text = "mod m { impl Net { fn f(&self) { use super::g; g(); } } }"
    (use,) = items_of(text).uses
    assert (use.module, use.name, use.path) == (("m",), "g", ("super", "g"))
    assert use.scope is not None


def test_inline_modules_nest() -> None:
    text = """
mod declared_elsewhere;
pub mod a {
    use super::x;
    pub fn f() {}
    pub struct S;
    mod b {
        impl S { fn m(&self) {} }
        fn g() {}
    }
}
fn top() {}
"""
    items = items_of(text, ("root",))
    assert items.module == ("root",)
    assert items.modules == {("root", "a"), ("root", "a", "b")}
    assert sorted((f.module, f.owner, f.name) for f in items.functions) == [
        (("root",), "", "top"),
        (("root", "a"), "", "f"),
        (("root", "a", "b"), "", "g"),
        (("root", "a", "b"), "S", "m"),
    ]
    assert items.types == [TypeDef(("root", "a"), "S")]
    assert items.uses == [UseDecl(("root", "a"), "x", ("super", "x"))]


def test_types_and_their_fields() -> None:
    text = """
pub struct Net<B: Backend> {
    pub linear: nn::Linear<B>,
    head: &'static Head,
    nets: Vec<Net<B>>,
    pair: (A, B),
}
struct Unit;
struct Tuple(Net);
enum Kind { A, B }
pub type Alias = Net<Wgpu>;
union U { a: u8 }
trait Train { fn train(&self) {} }
"""
    assert items_of(text).types == [
        TypeDef(
            (),
            "Net",
            (("linear", ("nn", "Linear")), ("head", ("Head",)), ("nets", ("Vec",)), ("pair", ())),
        ),
        TypeDef((), "Unit"),
        TypeDef((), "Tuple"),
        TypeDef((), "Kind"),
        TypeDef((), "Alias"),
        TypeDef((), "U"),
        TypeDef((), "Train"),
    ]


def test_trait_default_methods_are_not_functions_a_path_reaches() -> None:
    assert items_of("trait Train { fn train(&self) { self.step() } }").functions == []


def test_functions_declared_inside_a_function_are_not_module_items() -> None:
    items = items_of("fn outer() { fn inner() {} inner(); }")
    assert [f.name for f in items.functions] == ["outer"]


def test_items_are_plain_data() -> None:
    # facts cross processes and rounds: no tree nodes, picklable, comparable
    text = "use a::b;\nmod m { pub fn f(x: u8) -> Result<Net> { todo!() } }\nstruct Net { a: u8 }"
    items = collect_items(source(text).root, ("k",))
    assert pickle.loads(pickle.dumps(items)) == items
    assert collect_items(source(text).root, ("k",)) == items


@pytest.mark.parametrize(
    ("parts", "module"),
    [
        ((), ()),
        (("lib.rs",), ()),
        (("main.rs",), ()),
        (("a.rs",), ("a",)),
        (("a", "mod.rs"), ("a",)),
        (("a", "b.rs"), ("a", "b")),
        (("a", "b", "mod.rs"), ("a", "b")),
        (("a", "lib.rs"), ("a", "lib")),
        (("a", "main.rs"), ("a", "main")),
    ],
)
def test_module_of(parts: tuple[str, ...], module: tuple[str, ...]) -> None:
    assert module_of(parts) == module
