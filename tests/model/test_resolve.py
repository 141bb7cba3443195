"""``CrateView``: a call path or a type path resolved through the module tree and the ``use``s
in scope, to one definition, or to nothing (an unresolved call yields no finding)."""

from __future__ import annotations

import pytest

from burnlint.model.resolve import CrateView, FnKey, scan_type_names
from burnlint.project.targets import Target
from snippet_crate import LIB, SnippetCrate, fn_key, items_of

TOOL = Target("/crate", "bin:tool")

MODULE_TREE = SnippetCrate(
    {
        "src/lib.rs": """
pub mod a;
pub mod b;
pub mod g1;
pub mod g2;
pub mod cycle;
pub use a::helper as reexported;
pub use a::inner as inner_again;
pub fn top() {}
""",
        "src/a.rs": """
pub fn helper() {}
pub fn in_a() {
    super::top(/*a1*/);
    crate::top(/*a2*/);
    self::helper(/*a3*/);
    helper(/*a4*/);
    b::x(/*a5*/);
    crate::b::x(/*a6*/);
    super::b::x(/*a7*/);
    top(/*a8*/);
    inner::deep(/*a9*/);
    crate::a::inner::deep(/*a10*/);
    crate::nowhere::f(/*a11*/);
    super::super::top(/*a12*/);
    std::fs::remove_file(/*a13*/);
    crate::inner_again::deep(/*a14*/);
}
pub mod inner {
    pub fn deep() {
        super::helper(/*i1*/);
        super::super::top(/*i2*/);
        helper(/*i3*/);
    }
}
""",
        "src/b.rs": """
use crate::a::helper;
use crate::a::inner::deep as dd;
use crate::a::inner;
use crate::g1::*;
use crate::g2::*;
use burn::prelude::*;
pub fn x() {
    helper(/*b1*/);
    dd(/*b2*/);
    deep(/*b3*/);
    inner::deep(/*b4*/);
    only_g1(/*b5*/);
    only_g2(/*b6*/);
    both(/*b7*/);
    defined_here_and_in_g1(/*b8*/);
    crate::reexported(/*b9*/);
    top(/*b10*/);
    mycrate::top(/*b11*/);
}
fn defined_here_and_in_g1() {}
""",
        "src/g1.rs": "pub fn only_g1() {} pub fn both() {} pub fn defined_here_and_in_g1() {}",
        "src/g2.rs": "pub fn only_g2() {} pub fn both() {}",
        "src/cycle.rs": """
pub mod p { pub use super::q::*; }
pub mod q { pub use super::p::*; pub fn in_q() {} }
fn f() { p::in_q(/*c1*/); p::nothing(/*c2*/); q::nothing(/*c3*/); }
""",
        "src/bin/tool.rs": """
use mycrate::a::helper;
mod local { pub fn here() {} }
fn main() {
    helper(/*t1*/);
    mycrate::top(/*t2*/);
    mycrate::reexported(/*t3*/);
    crate::top(/*t4*/);
    othercrate::top(/*t5*/);
    local::here(/*t6*/);
    crate::local::here(/*t7*/);
    mycrate::a::inner::deep(/*t8*/);
}
""",
    }
)


@pytest.mark.parametrize(
    ("path", "marker", "expected"),
    [
        ("src/a.rs", "a1", fn_key("top")),
        ("src/a.rs", "a2", fn_key("top")),
        ("src/a.rs", "a3", fn_key("helper", ("a",))),
        ("src/a.rs", "a4", fn_key("helper", ("a",))),
        # `b` is not in scope in `a` (2018 paths): no module of that name there
        ("src/a.rs", "a5", None),
        ("src/a.rs", "a6", fn_key("x", ("b",))),
        ("src/a.rs", "a7", fn_key("x", ("b",))),
        # the root's functions are not in scope in a child module without a `use`
        ("src/a.rs", "a8", None),
        ("src/a.rs", "a9", fn_key("deep", ("a", "inner"))),
        ("src/a.rs", "a10", fn_key("deep", ("a", "inner"))),
        ("src/a.rs", "a11", None),
        # `super` above the crate root
        ("src/a.rs", "a12", None),
        ("src/a.rs", "a13", None),
        # a module re-exported by `pub use`
        ("src/a.rs", "a14", fn_key("deep", ("a", "inner"))),
        ("src/a.rs", "i1", fn_key("helper", ("a",))),
        ("src/a.rs", "i2", fn_key("top")),
        ("src/a.rs", "i3", None),
        ("src/b.rs", "b1", fn_key("helper", ("a",))),
        ("src/b.rs", "b2", fn_key("deep", ("a", "inner"))),
        # imported under another name only
        ("src/b.rs", "b3", None),
        ("src/b.rs", "b4", fn_key("deep", ("a", "inner"))),
        # globs: a name exactly one glob of a crate module defines
        ("src/b.rs", "b5", fn_key("only_g1", ("g1",))),
        ("src/b.rs", "b6", fn_key("only_g2", ("g2",))),
        ("src/b.rs", "b7", None),
        # the module's own item hides a glob's
        ("src/b.rs", "b8", fn_key("defined_here_and_in_g1", ("b",))),
        ("src/b.rs", "b9", fn_key("helper", ("a",))),
        ("src/b.rs", "b10", None),
        # a lib does not name itself by its crate name
        ("src/b.rs", "b11", None),
        # globs that import each other: no endless chase
        ("src/cycle.rs", "c1", fn_key("in_q", ("cycle", "q"))),
        ("src/cycle.rs", "c2", None),
        ("src/cycle.rs", "c3", None),
        # a bin sees its package's lib by the lib's name, and its own root as `crate`
        ("src/bin/tool.rs", "t1", fn_key("helper", ("a",))),
        ("src/bin/tool.rs", "t2", fn_key("top")),
        ("src/bin/tool.rs", "t3", fn_key("helper", ("a",))),
        ("src/bin/tool.rs", "t4", None),
        ("src/bin/tool.rs", "t5", None),
        ("src/bin/tool.rs", "t6", fn_key("here", ("local",), target=TOOL)),
        ("src/bin/tool.rs", "t7", fn_key("here", ("local",), target=TOOL)),
        ("src/bin/tool.rs", "t8", fn_key("deep", ("a", "inner"))),
    ],
)
def test_paths_through_the_module_tree(path: str, marker: str, expected: FnKey | None) -> None:
    assert MODULE_TREE.resolve(path, f"(/*{marker}*/)") == expected


def test_a_glob_of_the_lib_in_a_bin() -> None:
    crate = SnippetCrate(
        {
            "src/lib.rs": "pub mod a; pub use a::helper; pub fn top() {}",
            "src/a.rs": "pub fn helper() {}",
            "src/bin/tool.rs": """
use mycrate::*;
fn helper() {}
fn main() { top(/*1*/); crate::top(/*2*/); helper(/*3*/); a::helper(/*4*/); nowhere(/*5*/); }
""",
        }
    )
    got = [crate.resolve("src/bin/tool.rs", f"(/*{n}*/)") for n in range(1, 6)]
    # what the glob brings is in the bin's root (`crate::top`); its own `helper` hides the
    # lib's; a module a glob brings is not followed (unresolved: no finding, never a wrong one)
    assert got == [fn_key("top"), fn_key("top"), fn_key("helper", (), target=TOOL), None, None]


def test_a_function_local_use_applies_in_that_function_only() -> None:
    crate = SnippetCrate(
        {
            "src/lib.rs": """
mod a { pub fn helper() {} }
mod b { pub fn helper() {} }
use b::helper;
fn with_local() { use crate::a::helper; helper(/*1*/); }
fn without() { helper(/*2*/); }
fn inner_block() { if x { use crate::a::helper; helper(/*3*/); } helper(/*4*/); }
fn in_closure() { let c = || { use crate::a::helper; helper(/*5*/) }; helper(/*6*/); }
fn nested_blocks() { use crate::b::helper; { use crate::a::helper; helper(/*7*/); } helper(/*8*/); }
""",
        }
    )
    a, b = fn_key("helper", ("a",)), fn_key("helper", ("b",))
    got = [crate.resolve("src/lib.rs", f"(/*{n}*/)") for n in range(1, 9)]
    assert got == [a, b, a, b, a, b, a, b]


def test_a_function_declared_twice_is_unresolved() -> None:
    # `#[cfg(..)]` variants: which one is compiled is not known
    crate = SnippetCrate(
        {
            "src/lib.rs": """
#[cfg(feature = "a")]
pub fn save() {}
#[cfg(not(feature = "a"))]
pub fn save() {}
#[cfg(unix)]
mod imp { pub fn load() {} }
#[cfg(not(unix))]
mod imp { pub fn load() {} }
pub struct Net;
impl Net {
    #[cfg(feature = "a")]
    pub fn fit(&self) {}
    #[cfg(not(feature = "a"))]
    pub fn fit(&self) {}
}
fn f(n: Net) { save(/*1*/); imp::load(/*2*/); Net::fit(&n /*3*/); n.fit(/*4*/); }
""",
        }
    )
    assert [crate.resolve("src/lib.rs", f"/*{n}*/)") for n in range(1, 5)] == [None] * 4
    view = crate.view()
    assert view.definition(fn_key("save")) is None
    assert view.definition(fn_key("load", ("imp",))) is None
    assert view.method("Net", "fit") is None


def test_a_method_is_found_in_the_impls_of_its_type() -> None:
    crate = SnippetCrate(
        {
            "src/lib.rs": "pub mod m; pub struct Net; impl Net { pub fn fit(&self) {} }",
            "src/m.rs": """
impl super::Net { pub fn save(&self) {} }
impl Train for super::Net { fn step(&self) {} }
""",
        }
    )
    view = crate.view()
    assert view.method("Net", "fit") == fn_key("fit", (), "Net")
    assert view.method("Net", "save") == fn_key("save", ("m",), "Net")
    assert view.method("Net", "step") == fn_key("step", ("m",), "Net")
    assert view.method("Net", "missing") is None
    assert view.method("Other", "fit") is None


def test_a_method_name_in_two_impls_of_the_type_is_unresolved() -> None:
    crate = SnippetCrate(
        {
            "src/lib.rs": """
pub struct Net;
impl Net { pub fn save(&self) {} }
impl Checkpoint for Net { fn save(&self) {} }
""",
        }
    )
    assert crate.view().method("Net", "save") is None


def test_a_type_name_defined_twice_has_no_methods() -> None:
    crate = SnippetCrate(
        {
            "src/lib.rs": "pub mod a; pub mod b;",
            "src/a.rs": "pub struct Net; impl Net { pub fn fit(&self) {} }",
            "src/b.rs": "pub struct Net;",
        }
    )
    view = crate.view()
    assert view.local_type("Net") is False
    assert view.method("Net", "fit") is None
    assert view.resolve_type(("a",), ["Net"]) is None


def test_a_type_in_a_bin_and_in_its_lib_is_two_types_for_the_bin() -> None:
    crate = SnippetCrate(
        {
            "src/lib.rs": "pub struct Net; impl Net { pub fn fit(&self) {} }",
            "src/bin/tool.rs": "struct Net;",
        }
    )
    assert crate.view(LIB).method("Net", "fit") == fn_key("fit", (), "Net")
    assert crate.view(TOOL).method("Net", "fit") is None


def test_a_type_an_unparsed_file_may_define_is_ambiguous() -> None:
    crate = SnippetCrate(
        {
            "src/lib.rs": """
pub mod a;
pub mod skipped;
pub struct Net;
impl Net { pub fn fit(&self) {} }
""",
            "src/a.rs": "use crate::Net; fn f(n: Net) { n.fit(/*1*/); }",
        },
        unparsed={"src/skipped.rs": "// no trigger word here\npub(crate) struct Net<B> { b: B }"},
    )
    view = crate.view()
    assert view.unparsed_types == {"Net": 1}
    assert view.local_type("Net") is False
    assert view.method("Net", "fit") is None
    assert crate.resolve("src/a.rs", "(/*1*/)") is None


def test_an_unparsed_file_is_still_a_module() -> None:
    crate = SnippetCrate(
        {"src/lib.rs": "pub mod skipped; fn f() { skipped::g(/*1*/); }"},
        unparsed={"src/skipped.rs": "pub fn g() {}"},
    )
    # its module is known, its functions are not: unresolved, and no other `g` is taken
    assert crate.resolve("src/lib.rs", "(/*1*/)") is None


@pytest.mark.parametrize(
    ("data", "names"),
    [
        (b"pub struct Net<B: Backend> { a: u8 }", ["Net"]),
        (
            b"pub(crate) enum Kind { A }\ntype Alias = u8;\ntrait Train {}\nunion U {}",
            ["Kind", "Alias", "Train", "U"],
        ),
        # lower-case names are not types; `struct` inside a word is not the keyword
        (b"struct lower; mystruct Foo; let structure = 1;", []),
        # a byte scan: comments and strings count too (only more ambiguity, never a resolution)
        (b'// struct InComment\nlet s = "enum InString";', ["InComment", "InString"]),
        (b'fn train() {} const MAX: u8 = 1; static NAME: &str = "";', []),
        (b"struct\n    Spread\n{}", ["Spread"]),
    ],
)
def test_scan_type_names(data: bytes, names: list[str]) -> None:
    assert list(scan_type_names(data)) == names


def test_resolve_type() -> None:
    crate = SnippetCrate(
        {
            "src/lib.rs": """
pub mod model;
pub mod other;
use model::Net;
use burn::nn::Linear;
use other::*;
fn f() {}
""",
            "src/model.rs": "pub struct Net; pub struct Linear; pub mod deep { pub struct Deep; }",
            "src/other.rs": "pub struct Globbed; pub enum Kind {}",
        }
    )
    view = crate.view()
    assert view.resolve_type((), ["Net"]) == "Net"
    assert view.resolve_type((), ["model", "Net"]) == "Net"
    assert view.resolve_type((), ["crate", "model", "Net"]) == "Net"
    assert view.resolve_type((), ["model", "deep", "Deep"]) == "Deep"
    assert view.resolve_type((), ["Globbed"]) == "Globbed"
    assert view.resolve_type(("model",), ["Net"]) == "Net"
    assert view.resolve_type(("model",), ["self", "Net"]) == "Net"
    assert view.resolve_type(("other",), ["super", "model", "Net"]) == "Net"
    # `Linear` here is burn's, though the crate has a `Linear` too
    assert view.resolve_type((), ["Linear"]) is None
    assert view.resolve_type((), ["burn", "nn", "Linear"]) is None
    assert view.resolve_type(("model",), ["Linear"]) == "Linear"
    # not in scope, or not a type
    assert view.resolve_type((), ["Deep"]) is None
    assert view.resolve_type(("other",), ["Net"]) is None
    assert view.resolve_type((), ["f"]) is None
    assert view.resolve_type((), ["u8"]) is None
    assert view.resolve_type((), []) is None
    # from a signature in another module
    assert view.type_at(LIB, ("model",), ["Net"]) == "Net"
    assert view.type_at(LIB, (), ["Linear"]) is None


def test_field_types_are_resolved_where_the_struct_is() -> None:
    crate = SnippetCrate(
        {
            "src/lib.rs": """
pub mod mine;
use burn::nn::Linear;
use crate::mine::Head;
pub struct Holder {
    ext: Linear,
    by_path: burn::nn::Linear,
    own: crate::mine::Linear,
    head: Head<B>,
    heads: Vec<Head>,
}
""",
            "src/mine.rs": "pub struct Linear; pub struct Head;",
        }
    )
    view = crate.view()
    assert view.field_type("Holder", "own") == "Linear"
    assert view.field_type("Holder", "head") == "Head"
    assert view.field_type("Holder", "ext") == ""
    assert view.field_type("Holder", "by_path") == ""
    assert view.field_type("Holder", "heads") == ""
    assert view.field_type("Holder", "none") == ""
    assert view.field_type("Missing", "own") == ""


def test_a_crate_of_one_file_sees_its_own_items() -> None:
    # how a file checked without its crate is modelled (``FileModel``'s default view)
    target = Target("x.rs", "file")
    items = items_of("mod m { pub fn f() {} }\nfn g() { m::f(); }")
    view = CrateView(target, {target: [items]})
    assert view.resolve_call((), ["m", "f"]) == FnKey(target, ("m",), "", "f")
    assert view.resolve_call((), ["g"]) == FnKey(target, (), "", "g")
    assert view.resolve_call((), ["h"]) is None
    assert view.resolve_call((), []) is None


def test_self_paths_are_left_to_the_impl() -> None:
    view = SnippetCrate({"src/lib.rs": "pub struct Net; impl Net { fn f() {} }"}).view()
    assert view.resolve_call((), ["Self", "f"]) is None
    assert view.resolve_call((), ["Net", "f"]) == fn_key("f", (), "Net")


def test_fn_key_display() -> None:
    assert fn_key("save", ("a",)).display() == "save"
    assert fn_key("save", ("a",), "Trainer").display() == "Trainer::save"
