"""``CallResolver``: which crate function a call calls, by path or by the receiver's type as
the code states it, or none."""

from __future__ import annotations

import re

import pytest

from burnlint.model.resolve import FnKey
from snippet_crate import SnippetCrate, fn_key

NET = """
pub struct Net<B> { b: B }
pub struct Trainer;
pub struct Outer { net: Net<u8>, nets: Vec<Net<u8>>, ext: burn::nn::Linear }
pub struct Linear;
impl Linear { pub fn forward(&self) {} }
impl<B> Net<B> {
    pub fn new() -> Self { todo!() }
    pub fn try_new() -> anyhow::Result<Self> { todo!() }
    pub fn f(&self) {}
    pub fn g(&self) { self.f(/*s1*/); Self::f(self /*s2*/); Self::new(/*s3*/); }
}
impl Trainer { pub fn fit(&self) {} }
impl Outer {
    pub fn run(&self) {
        self.net.f(/*s4*/);
        self.nets[0].f(/*s5*/);
        self.ext.forward(/*s6*/);
    }
}
pub fn generic<B>(x: B) {}
pub fn make() -> Net<u8> { todo!() }
pub fn try_make() -> Result<Net<u8>, Error> { todo!() }
pub fn make_ext() -> burn::nn::Linear { todo!() }
pub trait Tr { fn f(&self); fn d(&self) { self.f(/*t1*/); Self::f(self /*t2*/); } }
"""

CALLS = """
pub fn calls<M: Tr>(m: M, d: &dyn Tr, i: impl Tr, n: &mut Net<u8>, o: Outer, bx: Box<dyn Tr>) {
    generic::<u8>(/*c1*/);
    Net::<u8>::new(/*c2*/);
    m.f(/*c3*/);
    d.f(/*c4*/);
    i.f(/*c5*/);
    n.f(/*c6*/);
    Trainer.fit(/*c7*/);
    Net { b: 1u8 }.f(/*c8*/);
    let lit = Net { b: 2u8 };
    lit.f(/*c9*/);
    let made = Net::<u8>::new();
    made.f(/*c10*/);
    let tried = Net::<u8>::try_new()?;
    tried.f(/*c11*/);
    let unwrapped = Net::<u8>::try_new().unwrap();
    unwrapped.f(/*c12*/);
    let raw = Net::<u8>::try_new();
    raw.f(/*c13*/);
    let inferred = some_fn();
    inferred.f(/*c14*/);
    let closure = |x: u8| x;
    closure(/*c15*/);
    o.net.f(/*c16*/);
    (&n).f(/*c17*/);
    let rebound = made;
    rebound.f(/*c18*/);
    let v = vec![lit];
    v[0].f(/*c19*/);
    Net::f(&lit /*c20*/);
    n.f::<u8>(/*c21*/);
    Self::f(/*c22*/);
    for it in v { it.f(/*c23*/); }
    if let Some(x) = Some(lit) { x.f(/*c24*/); }
    let t: Trainer = Trainer;
    t.fit(/*c25*/);
    bx.f(/*c26*/);
    make().f(/*c27*/);
    make()?.f(/*c28*/);
    try_make()?.f(/*c29*/);
    try_make().expect("net").f(/*c30*/);
    try_make().f(/*c31*/);
    let e = make_ext();
    e.forward(/*c32*/);
    o.ext.forward(/*c33*/);
    let typed: Box<Net<u8>> = todo!();
    typed.f(/*c34*/);
    let opt: Option<Net<u8>> = None;
    opt.f(/*c35*/);
    let mut shadowed = Net::<u8>::new();
    let shadowed = 3u8;
    shadowed.f(/*c36*/);
    unknown::path(/*c37*/);
    Unknown::new(/*c38*/);
    (make)(/*c39*/);
}
"""

NET_F = fn_key("f", (), "Net")
EXPECTED: dict[str, FnKey | None] = {
    "s1": NET_F,
    "s2": NET_F,
    "s3": fn_key("new", (), "Net"),
    "s4": NET_F,
    "s5": None,  # an element of a `Vec` field
    "s6": None,  # a field of another crate's type named like the crate's
    "t1": None,  # a trait's default method: `self` is any implementor
    "t2": None,
    "c1": fn_key("generic"),
    "c2": fn_key("new", (), "Net"),
    "c3": None,  # generic receiver
    "c4": None,  # `dyn Trait`
    "c5": None,  # `impl Trait`
    "c6": NET_F,
    "c7": fn_key("fit", (), "Trainer"),
    "c8": NET_F,
    "c9": NET_F,
    "c10": NET_F,
    "c11": NET_F,
    "c12": NET_F,
    "c13": None,  # a `Result` of a `Net`, not a `Net`
    "c14": None,
    "c15": None,  # a closure named like no function: a binding
    "c16": NET_F,
    "c17": NET_F,
    "c18": NET_F,
    "c19": None,
    "c20": NET_F,
    "c21": NET_F,
    "c22": None,  # `Self` outside an impl
    "c23": None,  # a `for` binding's type is not stated
    "c24": None,  # nor a pattern's
    "c25": fn_key("fit", (), "Trainer"),
    "c26": None,
    "c27": NET_F,
    "c28": None,  # `?` on a function that returns no `Result`
    "c29": NET_F,
    "c30": NET_F,
    "c31": None,
    "c32": None,  # returns another crate's `Linear`
    "c33": None,
    "c34": None,  # `Box<Net>` as written: not followed
    "c35": None,
    "c36": None,  # shadowed by a binding of no stated type
    "c37": None,
    "c38": None,
    "c39": None,  # a parenthesized callee
}


@pytest.fixture(scope="module")
def crate() -> SnippetCrate:
    return SnippetCrate({"src/lib.rs": NET + CALLS})


def test_every_marked_call_is_expected() -> None:
    assert set(re.findall(r"/\*(\w+)\*/", NET + CALLS)) == set(EXPECTED)


@pytest.mark.parametrize("marker", sorted(EXPECTED))
def test_resolve(crate: SnippetCrate, marker: str) -> None:
    assert crate.resolve("src/lib.rs", f"/*{marker}*/)") == EXPECTED[marker]


def test_a_call_in_another_file_through_imports() -> None:
    crate = SnippetCrate(
        {
            "src/lib.rs": "pub mod model; pub mod train;",
            "src/model.rs": NET,
            "src/train.rs": """
use crate::model::{Net, Trainer as T};
use crate::model;
fn f(n: Net<u8>, t: T, m: model::Net<u8>, q: crate::model::Trainer) {
    n.f(/*1*/);
    t.fit(/*2*/);
    m.f(/*3*/);
    q.fit(/*4*/);
    T.fit(/*5*/);
    model::make().f(/*6*/);
    Net::<u8>::new().f(/*7*/);
    let local: Trainer = todo!();
    local.fit(/*8*/);
}
""",
        }
    )
    net_f, fit = fn_key("f", ("model",), "Net"), fn_key("fit", ("model",), "Trainer")
    got = [crate.resolve("src/train.rs", f"(/*{n}*/)") for n in range(1, 9)]
    # `Trainer` without a `use` is not the crate's
    assert got == [net_f, fit, net_f, fit, fit, net_f, net_f, None]


def test_destructured_bindings_do_not_take_the_written_type() -> None:
    crate = SnippetCrate(
        {
            "src/lib.rs": """
pub struct Wrapper { inner: Net }
pub struct Net;
impl Net { pub fn f(&self) {} }
impl Wrapper { pub fn f(&self) {} }
fn g(Wrapper { inner }: Wrapper, (a, b): (Wrapper, Net), mut w: Wrapper, &r: &Wrapper) {
    inner.f(/*1*/);
    a.f(/*2*/);
    w.f(/*3*/);
    w.inner.f(/*4*/);
    let Wrapper { inner: i2 }: Wrapper = w;
    i2.f(/*5*/);
    let mut plain: Wrapper = todo!();
    plain.f(/*6*/);
    r.f(/*7*/);
}
""",
        }
    )
    got = [crate.resolve("src/lib.rs", f"(/*{n}*/)") for n in range(1, 8)]
    wrapper_f, net_f = fn_key("f", (), "Wrapper"), fn_key("f", (), "Net")
    # `&r: &Wrapper` binds a `Wrapper` too, but a pattern is not followed
    assert got == [None, None, wrapper_f, net_f, None, wrapper_f, None]


def test_items_declared_in_a_function_hide_the_modules() -> None:
    crate = SnippetCrate(
        {
            "src/lib.rs": """
pub struct Net;
impl Net { pub fn f(&self) {} pub fn new() -> Self { Net } }
pub fn save() {}
fn local_fn() {
    fn save() {}
    save(/*1*/);
}
fn local_fn_in_outer_block() {
    fn save() {}
    if x { save(/*2*/); }
}
fn local_fn_elsewhere() {
    { fn save() {} }
    save(/*3*/);
}
fn local_type() {
    struct Net;
    impl Net { fn f(&self) {} fn new() -> Self { Net } }
    let n: Net = Net;
    n.f(/*4*/);
    Net.f(/*5*/);
    Net::new(/*6*/);
    Net::new().f(/*7*/);
}
""",
        }
    )
    got = [crate.resolve("src/lib.rs", f"(/*{n}*/)") for n in range(1, 8)]
    assert got == [None, None, fn_key("save"), None, None, None, None]


def test_self_in_an_impl_inside_a_function_is_not_resolved() -> None:
    crate = SnippetCrate(
        {
            "src/lib.rs": """
pub struct Net;
impl Net { pub fn f(&self) {} }
fn outer() {
    impl Net { fn g(&self) { self.f(/*1*/); } }
}
""",
        }
    )
    assert crate.resolve("src/lib.rs", "(/*1*/)") is None


def test_a_function_local_use_names_the_receiver_type() -> None:
    crate = SnippetCrate(
        {
            "src/lib.rs": """
pub mod model { pub struct Net; impl Net { pub fn f(&self) {} } }
fn g() {
    use crate::model::Net;
    let n: Net = todo!();
    n.f(/*1*/);
}
fn h() {
    let n: Net = todo!();
    n.f(/*2*/);
}
""",
        }
    )
    assert crate.resolve("src/lib.rs", "(/*1*/)") == fn_key("f", ("model",), "Net")
    assert crate.resolve("src/lib.rs", "(/*2*/)") is None


def test_module_at_follows_inline_modules() -> None:
    crate = SnippetCrate(
        {
            "src/lib.rs": "pub mod a;",
            "src/a.rs": "mod b { mod c { fn f() { g(/*1*/); } pub fn g() {} } }",
        }
    )
    model = crate.model("src/a.rs", {})
    from snippet_crate import call_at

    call = call_at(model, "g(/*1*/)")
    assert model.resolver.module_at(call) == ("a", "b", "c")
    assert model.resolver.resolve(call) == fn_key("g", ("a", "b", "c"))


def test_a_bin_calls_its_lib_by_type() -> None:
    crate = SnippetCrate(
        {
            "src/lib.rs": NET,
            "src/main.rs": """
use mycrate::Net;
fn main() { let n = Net::<u8>::new(); n.f(/*1*/); mycrate::make().f(/*2*/); }
""",
        }
    )
    assert crate.resolve("src/main.rs", "(/*1*/)") == NET_F
    assert crate.resolve("src/main.rs", "(/*2*/)") == NET_F
