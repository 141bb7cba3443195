"""``summarise``: what each function of a file does with a store, as its callers see it."""

from __future__ import annotations

import pickle

import pytest

from burnlint.model.helpers import Direction, HelperSummary
from burnlint.model.imports import StoreKind
from burnlint.model.summaries import summarise
from snippet_crate import SnippetCrate

HEAD = """use anyhow::Result;
use std::path::Path;
use burn_store::{ApplyResult, ModuleSnapshot, SafetensorsStore, BurnpackStore};
pub struct Net;
pub struct Loaded { pub net: Net, pub report: ApplyResult }
pub struct Report { pub missing: Vec<String>, pub errors: Vec<String> }
"""
# the first statements of a function: a store that saves, one that loads leniently
STORE = 'let mut s = BurnpackStore::from_file("a");\n'
LENIENT = "let mut net = Net;\nlet mut s = SafetensorsStore::from_file(p).allow_partial(true);\n"
LOAD = "let r = net.load_from(&mut s)?;\n"
ONLY_MISSING = frozenset({"missing"})


def _summary(body: str, name: str = "f", owner: str = "", **kwargs: str) -> HelperSummary | None:
    return SnippetCrate({"src/lib.rs": HEAD + body}, **kwargs).summary(name, owner=owner)


# errors --------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "body",
    [
        f"pub fn f(net: &Net) -> Result<()> {{ {STORE} net.save_into(&mut s)?; Ok(()) }}",
        f"""pub fn f(net: &Net) -> Result<(), burn_store::Error> {{
            {STORE} net.save_into(&mut s)
        }}""",
        f"""pub fn f(net: &Net) -> Result<(), burn_store::Error> {{
            {STORE} return net.save_into(&mut s);
        }}""",
        f"""pub fn f(net: &Net) -> Result<()> {{
            {STORE} net.save_into(&mut s).map_err(|e| anyhow::anyhow!("{{e}}"))?; Ok(())
        }}""",
        f"""pub fn f(net: &Net) -> Result<()> {{
            {STORE} let r = net.save_into(&mut s); r?; Ok(())
        }}""",
    ],
)
def test_errors_propagated(body: str) -> None:
    summary = _summary(body)
    assert summary is not None
    assert summary.errors == ("save_into",)
    assert summary.directions == frozenset({Direction.SAVE})
    assert summary.is_op


@pytest.mark.parametrize(
    "body",
    [
        # logged, panicking, discarded, handled: the caller gets no store error
        f"""pub fn f(net: &Net) {{
            {STORE} if let Err(e) = net.save_into(&mut s) {{ eprintln!("{{e}}"); }}
        }}""",
        f"pub fn f(net: &Net) -> Result<()> {{ {STORE} net.save_into(&mut s).unwrap(); Ok(()) }}",
        f"pub fn f(net: &Net) -> Result<()> {{ {STORE} let _ = net.save_into(&mut s); Ok(()) }}",
        f"""pub fn f(net: &Net) -> Result<()> {{
            {STORE} if net.save_into(&mut s).is_err() {{ return Ok(()); }} Ok(())
        }}""",
        # propagated inside a closure, not out of the function
        f"""pub fn f(net: &Net) -> Result<()> {{
            let go = || -> Result<()> {{ {STORE} net.save_into(&mut s)?; Ok(()) }};
            let _ = go();
            Ok(())
        }}""",
        # builds a store and does nothing else with it
        "pub fn f(p: &str) -> usize { let s = SafetensorsStore::from_file(p); 3 }",
    ],
)
def test_no_summary_when_nothing_reaches_the_caller(body: str) -> None:
    assert _summary(body) is None


def test_an_op_on_no_known_store_without_the_trait_in_scope_is_not_burns() -> None:
    crate = SnippetCrate(
        {"src/lib.rs": "pub fn f(t: &T, img: &mut Img) -> Result<()> { t.apply_to(img)?; Ok(()) }"}
    )
    assert crate.summaries() == {}


def test_errors_by_op_name_in_order_and_direction() -> None:
    summary = _summary(
        f"""pub fn f(net: &mut Net) -> Result<()> {{
            {STORE}
            net.save_into(&mut s)?;
            s.collect_from(net)?;
            net.load_from(&mut s)?;
            Ok(())
        }}"""
    )
    assert summary is not None
    assert summary.errors == ("save_into", "collect_from", "load_from")
    assert summary.directions == frozenset({Direction.SAVE, Direction.LOAD})
    assert summary.direction is Direction.LOAD  # a failed load may leave the model half-loaded


@pytest.mark.parametrize(
    ("version", "body", "errors"),
    [
        (
            "0.22",
            "pub fn f(net: Net, p: &str) -> Result<Net> { let n = net.try_load_file(p)?; Ok(n) }",
            ("try_load_file",),
        ),
        (
            "0.21",
            """pub fn f(net: Net, p: &str, r: &R, d: &D) -> Result<Net> {
                let n = net.load_file(p, r, d)?; Ok(n)
            }""",
            ("load_file",),
        ),
        (
            "0.22",
            "pub fn f(net: Net, p: &str) -> Result<()> { net.save_file(p)?; Ok(()) }",
            ("save_file",),
        ),
        (
            "0.21",
            "pub fn f(net: Net, p: &str, r: &R) -> Result<()> { net.save_file(p, r)?; Ok(()) }",
            ("save_file",),
        ),
        # 0.22's `load_file` panics: no error to hand on
        ("0.22", "pub fn f(net: Net, p: &str) -> Result<Net> { Ok(net.load_file(p)) }", None),
        # a 0.22 signature under 0.21
        ("0.21", "pub fn f(net: Net, p: &str) -> Result<()> { net.save_file(p)?; Ok(()) }", None),
    ],
)
def test_record_path_errors_follow_the_burn_release(
    version: str, body: str, errors: tuple[str, ...] | None
) -> None:
    summary = _summary("use burn::module::Module;\n" + body, burn_version=version)
    assert (summary.errors if summary is not None else None) == errors


def test_errors_through_a_helper_chain() -> None:
    crate = SnippetCrate(
        {
            "src/lib.rs": HEAD
            + """
pub mod io;
pub fn save_all(net: &Net, dir: &Path) -> Result<()> {
    io::save(net, dir)?;
    Ok(())
}
pub fn save_or_log(net: &Net, dir: &Path) {
    if let Err(e) = io::save(net, dir) { eprintln!("{e}"); }
}
""",
            "src/io.rs": """
use burn_store::{ModuleSnapshot, SafetensorsStore};
use crate::Net;
pub fn save(net: &Net, dir: &std::path::Path) -> anyhow::Result<()> {
    let mut store = SafetensorsStore::from_file(dir.join("model.st"));
    net.save_into(&mut store)?;
    Ok(())
}
""",
        }
    )
    summary = crate.summary("save_all")
    assert summary is not None
    assert summary.errors == ("save_into",)
    assert summary.directions == frozenset({Direction.SAVE})
    # the store is built in `io::save`: the caller of `save_all` sees where
    assert summary.saves is not None
    assert summary.saves.helper == "save"
    assert summary.saves.origin.path == "src/io.rs"
    assert summary.path_params == (1,)  # `io::save` builds its path from `dir`
    assert crate.summary("save_or_log") is None
    io = crate.summary("save", ("io",))
    assert io is not None and io.path_params == (1,)


def test_functions_declared_twice_have_no_summary() -> None:
    crate = SnippetCrate(
        {
            "src/lib.rs": HEAD
            + f"""
#[cfg(feature = "a")]
pub fn f(net: &Net) -> Result<()> {{ {STORE} net.save_into(&mut s)?; Ok(()) }}
#[cfg(not(feature = "a"))]
pub fn f(net: &Net) -> Result<()> {{ {STORE} net.save_into(&mut s)?; Ok(()) }}
""",
        }
    )
    assert crate.summaries() == {}


def test_summary_keys_and_location() -> None:
    crate = SnippetCrate(
        {
            "src/lib.rs": "pub mod m;",
            "src/m.rs": HEAD
            + f"""pub struct Trainer;
impl Trainer {{
    pub fn save(&self, net: &Net) -> Result<()> {{ {STORE} net.save_into(&mut s)?; Ok(()) }}
}}""",
        }
    )
    (key,) = crate.summaries()
    assert (key.module, key.owner, key.name) == (("m",), "Trainer", "save")
    summary = crate.summaries()[key]
    assert summary.name == "Trainer::save"
    assert summary.location is not None
    assert summary.location.path == "src/m.rs"
    assert (summary.location.span.start_line, summary.location.span.start_col) == (9, 12)


# ok: where an ApplyResult goes -----------------------------------------------------------------
@pytest.mark.parametrize(
    ("body", "carried"),
    [
        (
            f"pub fn f(p: &str) -> Result<ApplyResult> {{ {LENIENT} {LOAD} Ok(r) }}",
            (("result", ()),),
        ),
        (
            """pub fn f(net: &mut Net, p: &str) -> Result<ApplyResult, burn_store::Error> {
                let mut s = SafetensorsStore::from_file(p).allow_partial(true);
                net.load_from(&mut s)
            }""",
            (("result", ()),),
        ),
        (
            f"pub fn f(p: &str) -> Result<(Net, ApplyResult)> {{ {LENIENT} {LOAD} Ok((net, r)) }}",
            (("result", (1,)),),
        ),
        (
            f"""pub fn f(p: &str) -> Result<(Net, ApplyResult)> {{
                {LENIENT} {LOAD} return Ok((net, r));
            }}""",
            (("result", (1,)),),
        ),
        (
            f"""pub fn f(p: &str) -> Result<(ApplyResult, Net)> {{
                {LENIENT} {LOAD} let out = (r, net); Ok(out)
            }}""",
            (("result", (0,)),),
        ),
        (
            f"""pub fn f(p: &str) -> Result<Loaded> {{
                {LENIENT} let report = net.load_from(&mut s)?; Ok(Loaded {{ net, report }})
            }}""",
            (("result", ("report",)),),
        ),
        (
            f"""pub fn f(p: &str) -> Result<Loaded> {{
                {LENIENT} {LOAD} Ok(Loaded {{ net, report: r }})
            }}""",
            (("result", ("report",)),),
        ),
        (
            f"""pub fn f(p: &str, c: bool) -> Result<(Net, ApplyResult)> {{
                {LENIENT} {LOAD} if c {{ Ok((net, r)) }} else {{ anyhow::bail!("no") }}
            }}""",
            (("result", (1,)),),
        ),
        (
            f"""pub fn f(p: &str) -> (Net, ApplyResult) {{
                {LENIENT} let r = net.load_from(&mut s).unwrap(); (net, r)
            }}""",
            (("result", (1,)),),
        ),
        # the `missing` list, moved into the function's own value
        (
            f"pub fn f(p: &str) -> Result<Vec<String>> {{ {LENIENT} {LOAD} Ok(r.missing) }}",
            (("missing", ()),),
        ),
        (
            f"""pub fn f(p: &str) -> Result<(Net, Vec<String>)> {{
                {LENIENT} {LOAD}
                let mut gone = Vec::new();
                gone.extend(r.missing);
                Ok((net, gone))
            }}""",
            (("missing", (1,)),),
        ),
        (
            f"""pub fn f(p: &str) -> Result<(Net, Report)> {{
                {LENIENT} {LOAD}
                let missing = r.missing.into_iter().map(|m| m.to_string()).collect();
                let report = Report {{ missing, errors: vec![] }};
                Ok((net, report))
            }}""",
            (("missing", (1, "missing")),),
        ),
    ],
)
def test_ok_carries_the_apply_result(body: str, carried: tuple[object, ...]) -> None:
    summary = _summary(body)
    assert summary is not None and summary.ok is not None
    assert summary.ok.carried == carried
    assert summary.ok.required == ONLY_MISSING
    assert summary.ok.checked == frozenset()
    assert summary.ok.reasons == ("the store has `.allow_partial(true)`",)
    assert summary.is_op


def test_ok_both_lists_rebuilt_into_a_report() -> None:
    summary = _summary(
        """pub fn f(p: &str) -> Result<(Net, Report)> {
            let mut net = Net;
            let mut s = SafetensorsStore::from_file(p).allow_partial(true).validate(false);
            let r = net.load_from(&mut s)?;
            let report = Report {
                missing: r.missing.into_iter().map(|m| m.to_string()).collect(),
                errors: r.errors.iter().map(|e| e.to_string()).collect(),
            };
            Ok((net, report))
        }"""
    )
    assert summary is not None and summary.ok is not None
    assert summary.ok.carried == (("errors", (1, "errors")), ("missing", (1, "missing")))
    assert summary.ok.required == frozenset({"missing", "errors"})
    assert summary.ok.reasons == ("the store has `.allow_partial(true)` and `.validate(false)`",)


def test_ok_records_what_the_function_checked_itself() -> None:
    summary = _summary(
        """pub fn f(p: &str) -> Result<(Net, ApplyResult)> {
            let mut net = Net;
            let mut s = SafetensorsStore::from_file(p).allow_partial(true).validate(false);
            let r = net.load_from(&mut s)?;
            if !r.errors.is_empty() { anyhow::bail!("e") }
            Ok((net, r))
        }"""
    )
    assert summary is not None and summary.ok is not None
    assert summary.ok.carried == (("result", (1,)),)
    assert summary.ok.required == frozenset({"missing", "errors"})
    assert summary.ok.checked == frozenset({"errors"})


def test_ok_origin_is_the_load() -> None:
    body = f"pub fn f(p: &str) -> Result<(Net, ApplyResult)> {{\n{LENIENT}{LOAD}Ok((net, r))\n}}"
    summary = _summary(body)
    assert summary is not None and summary.ok is not None
    span = summary.ok.origin.span
    assert summary.ok.origin.path == "src/lib.rs"
    assert (span.start_line, span.start_col) == (HEAD.count("\n") + 4, 9)
    assert (HEAD + body).encode()[span.start_byte : span.end_byte] == b"net.load_from(&mut s)"


def test_ok_of_a_bare_apply() -> None:
    summary = _summary(
        """pub fn f(net: &mut Net, snaps: Vec<u8>) -> ApplyResult {
            net.apply(snaps, None, None, false)
        }"""
    )
    assert summary is not None and summary.ok is not None
    assert summary.ok.carried == (("result", ()),)
    assert summary.ok.required == frozenset({"errors"})  # the others are missing by design
    assert summary.ok.reasons == ("`apply` never fails",)
    assert summary.errors == ()


def test_ok_nested_through_a_helper() -> None:
    crate = SnippetCrate(
        {
            "src/lib.rs": HEAD
            + f"""
pub fn load(p: &str) -> Result<(Net, ApplyResult)> {{ {LENIENT} {LOAD} Ok((net, r)) }}
pub fn wrapped(p: &str) -> Result<(u8, (Net, ApplyResult))> {{
    let pair = load(p)?;
    Ok((1, pair))
}}
pub fn checked(p: &str) -> Result<Net> {{
    let (net, r) = load(p)?;
    anyhow::ensure!(r.missing.is_empty(), "m");
    Ok(net)
}}
pub fn dropped(p: &str) -> Result<Net> {{ let (net, _r) = load(p)?; Ok(net) }}
""",
        }
    )
    wrapped = crate.summary("wrapped")
    assert wrapped is not None and wrapped.ok is not None
    assert wrapped.ok.carried == (("result", (1, 1)),)
    # the lenient load itself, inside `load`, not the call of `load`
    load = crate.summary("load")
    assert load is not None and load.ok is not None
    assert wrapped.ok.origin == load.ok.origin
    assert wrapped.ok.reasons == ("the store has `.allow_partial(true)`",)
    assert wrapped.errors == ("load_from",)
    # keeping it (checked or not) is the function's own business: nothing is handed back
    for name in ("checked", "dropped"):
        summary = crate.summary(name)
        assert summary is not None
        assert summary.ok is None
        assert summary.errors == ("load_from",)


@pytest.mark.parametrize(
    "body",
    [
        # the load's error is propagated and the model returned: no ApplyResult goes back
        f"pub fn f(p: &str) -> Result<Net> {{ {LENIENT} {LOAD} Ok(net) }}",
        # a strict store: nothing to check
        """pub fn f(net: &mut Net, p: &str) -> Result<ApplyResult, burn_store::Error> {
            let mut s = SafetensorsStore::from_file(p);
            net.load_from(&mut s)
        }""",
        # another value under the same name
        f"""pub fn f(p: &str) -> Result<(Net, ApplyResult)> {{
            {LENIENT} {LOAD} let r = other(); Ok((net, r))
        }}""",
        # checked before it is returned
        f"""pub fn f(p: &str) -> Result<(Net, ApplyResult)> {{
            {LENIENT} {LOAD} anyhow::ensure!(r.missing.is_empty(), "m"); Ok((net, r))
        }}""",
        # only a count of the list is returned: reading its length is a check
        f"""pub fn f(p: &str) -> Result<(Net, usize)> {{
            {LENIENT} {LOAD} Ok((net, r.missing.len()))
        }}""",
        # the Ok value is remade by a closure: where the result ends up is not followed
        f"""pub fn f(p: &str) -> Result<(Net, ApplyResult)> {{
            {LENIENT} net.load_from(&mut s).map(|r| (net, r)).map_err(Into::into)
        }}""",
        f"""pub fn f(p: &str) -> Result<ApplyResult> {{
            {LENIENT} Ok(net.load_from(&mut s).map(|r| r)?)
        }}""",
    ],
)
def test_no_ok_flow(body: str) -> None:
    summary = _summary(body)
    assert summary is not None
    assert summary.ok is None
    assert summary.errors == ("load_from",)


# store ---------------------------------------------------------------------------------------
def test_store_returned() -> None:
    body = "pub fn f(p: &str) -> SafetensorsStore {\n    SafetensorsStore::from_file(p)\n}"
    summary = _summary(body)
    assert summary is not None and summary.store is not None
    store = summary.store
    assert summary.store_in_result is False
    assert (store.kind, store.constructor, store.file_backed) == (
        StoreKind.SAFETENSORS,
        "from_file",
        True,
    )
    assert store.options == ()
    assert (store.adapters, store.remaps) == (frozenset(), False)
    assert store.helper == "f"
    text = (HEAD + body).encode()
    constructor = b"SafetensorsStore::from_file(p)"
    start = text.rindex(constructor)
    assert (store.origin.path, store.origin.span.start_byte) == ("src/lib.rs", start)
    assert store.origin.span.end_byte == start + len(constructor)
    assert store.overwrite_edit is not None
    edit = store.overwrite_edit
    assert (edit.path, edit.start_byte, edit.end_byte, edit.content) == (
        "src/lib.rs",
        start + len(constructor),
        start + len(constructor),
        ".overwrite(true)",
    )
    assert summary.errors == () and summary.ok is None and not summary.is_op


@pytest.mark.parametrize(
    ("body", "kind", "constructor", "file_backed", "options", "in_result"),
    [
        (
            "pub fn f(p: &str) -> Result<BurnpackStore> { Ok(BurnpackStore::from_file(p)) }",
            StoreKind.BURNPACK,
            "from_file",
            True,
            (),
            True,
        ),
        (
            """pub fn f(b: Vec<u8>) -> Result<BurnpackStore> {
                Ok(BurnpackStore::from_bytes(Some(b)).overwrite(true))
            }""",
            StoreKind.BURNPACK,
            "from_bytes",
            False,
            (("overwrite", True, True),),
            True,
        ),
        (
            """pub fn f(p: &str) -> SafetensorsStore {
                let s = SafetensorsStore::from_file(p).validate(false);
                s
            }""",
            StoreKind.SAFETENSORS,
            "from_file",
            True,
            (("validate", False, True),),
            False,
        ),
        (
            """pub fn f(p: &str, v: bool) -> SafetensorsStore {
                let mut s = SafetensorsStore::from_file(p).allow_partial(true);
                if v { s = s.overwrite(true); }
                s
            }""",
            StoreKind.SAFETENSORS,
            "from_file",
            True,
            (("allow_partial", True, True), ("overwrite", True, False)),
            False,
        ),
    ],
)
def test_store_shapes(
    body: str,
    kind: StoreKind,
    constructor: str,
    file_backed: bool,
    options: tuple[object, ...],
    in_result: bool,
) -> None:
    summary = _summary(body)
    assert summary is not None and summary.store is not None
    store = summary.store
    assert (store.kind, store.constructor, store.file_backed) == (kind, constructor, file_backed)
    assert store.options == options
    assert summary.store_in_result is in_result


def test_a_store_from_another_helper_keeps_its_origin() -> None:
    crate = SnippetCrate(
        {
            "src/lib.rs": HEAD
            + """
pub fn make(p: &str) -> SafetensorsStore { SafetensorsStore::from_file(p).allow_partial(true) }
pub fn wrap(p: &str) -> SafetensorsStore { make(p) }
pub fn not_returned(p: &str) -> u8 { let _s = make(p); 0 }
pub fn returns_other(p: &str) -> Vec<u8> { let _s = SafetensorsStore::from_file(p); Vec::new() }
""",
        }
    )
    make, wrap = crate.summary("make"), crate.summary("wrap")
    assert make is not None and wrap is not None
    assert wrap.store is not None and make.store is not None
    assert wrap.store.helper == "make"
    assert wrap.store.origin == make.store.origin
    assert wrap.store.overwrite_edit == make.store.overwrite_edit
    assert crate.summary("not_returned") is None
    assert crate.summary("returns_other") is None


# path_params ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("signature", "path", "expected"),
    [
        ("net: &Net, dir: &Path", 'dir.join("m.st")', (1,)),
        ("net: &Net, dir: &Path", '"fixed.st"', ()),
        ("net: &Net, dir: &Path", "PATH", ()),
        ("net: &Net, dir: &str, epoch: usize", 'format!("{}/m-{}.st", dir, epoch)', (1, 2)),
        # a format string's captures are the path's parameters too
        ("net: &Net, dir: &str, epoch: usize", 'format!("{dir}/m-{epoch}.st")', (1, 2)),
        ("net: &Net, dir: &str", 'format!("{dir}/last.st")', (1,)),
        ("net: &Net, dir: &str", 'format!("{dir:?}/{MAX}.st")', (1,)),
        ("net: &Net, dir: &str", 'format!("{dir}/{stamp}.st")', None),
        # built from a local, or by a call that is not known to be pure
        ("net: &Net, dir: &Path", "local", None),
        ("net: &Net, dir: &Path", "make_path(dir)", None),
    ],
)
def test_path_params(signature: str, path: str, expected: tuple[int, ...] | None) -> None:
    summary = _summary(
        f"""const PATH: &str = "x";
const MAX: u8 = 1;
pub fn f({signature}) -> Result<()> {{
    let stamp = now();
    let local = "a";
    let mut s = SafetensorsStore::from_file({path});
    net.save_into(&mut s)?;
    Ok(())
}}"""
    )
    assert summary is not None and summary.saves is not None
    assert summary.path_params == expected


@pytest.mark.parametrize("receiver", ["&self", "self: &Self"])
def test_path_params_count_no_receiver(receiver: str) -> None:
    summary = _summary(
        f"""impl Net {{
            pub fn f({receiver}, dir: &Path, tag: &str) -> Result<()> {{
                let mut s = SafetensorsStore::from_file(dir.join(tag));
                self.save_into(&mut s)?;
                Ok(())
            }}
        }}""",
        owner="Net",
    )
    assert summary is not None
    assert summary.path_params == (0, 1)


# param_checks --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("function", "expected"),
    [
        (
            """fn f(r: &ApplyResult) -> Result<()> {
                anyhow::ensure!(r.errors.is_empty(), "e");
                Ok(())
            }""",
            ((0, frozenset({"errors"})),),
        ),
        (
            """fn f(r: burn_store::ApplyResult) -> Result<()> {
                if !r.missing.is_empty() { anyhow::bail!("m") }
                Ok(())
            }""",
            ((0, frozenset({"missing"})),),
        ),
        ("fn f(n: u8, r: ApplyResult) { let _ = r.applied; }", ((1, frozenset()),)),
        ("fn f(r: &ApplyResult) -> bool { r.is_success() }", ((0, frozenset({"errors"})),)),
        (
            """fn f(a: &ApplyResult, b: &ApplyResult) {
                assert!(a.errors.is_empty() && b.missing.is_empty());
            }""",
            ((0, frozenset({"errors"})), (1, frozenset({"missing"}))),
        ),
        # read in full: nothing to say
        ('fn f(r: &ApplyResult) { println!("{r}"); }', ()),
        ('fn f(r: &ApplyResult) { println!("{:?}", r); }', ()),
        ("fn f(r: &ApplyResult) { assert!(r.errors.is_empty() && r.missing.is_empty()); }", ()),
        ("fn f(r: &ApplyResult) { other_crate::check(r); }", ()),
        ("fn f(r: &ApplyResult) -> &ApplyResult { r }", ()),
        # not an ApplyResult
        ("fn f(r: &Report) { let _ = r.errors; }", ()),
    ],
)
def test_param_checks(function: str, expected: tuple[tuple[int, frozenset[str]], ...]) -> None:
    summary = _summary("pub " + function)
    assert (summary.param_checks if summary is not None else ()) == expected


def test_param_checks_through_a_function_that_passes_it_on() -> None:
    crate = SnippetCrate(
        {
            "src/lib.rs": HEAD
            + """
pub fn errors_only(r: &ApplyResult) -> Result<()> {
    anyhow::ensure!(r.errors.is_empty(), "e");
    Ok(())
}
pub fn critical(r: &ApplyResult, names: &[&str]) -> Result<()> {
    errors_only(r)?;
    for name in names { anyhow::ensure!(r.applied.iter().any(|p| p == name), "{name}"); }
    Ok(())
}
pub fn both(r: &ApplyResult) -> Result<()> {
    errors_only(r)?;
    anyhow::ensure!(r.missing.is_empty(), "m");
    Ok(())
}
""",
        }
    )
    critical, both = crate.summary("critical"), crate.summary("both")
    assert critical is not None and critical.param_checks == ((0, frozenset({"errors"})),)
    assert critical.checks_of_parameter(0) == frozenset({"errors"})
    assert critical.checks_of_parameter(1) is None
    assert both is None  # reads both lists: all of it


@pytest.mark.parametrize("receiver", ["&self", "self: &Self", "self"])
def test_param_checks_count_no_receiver(receiver: str) -> None:
    summary = _summary(
        f"""pub struct Checker;
impl Checker {{
    pub fn f({receiver}, a: &ApplyResult, b: &ApplyResult) {{
        assert!(a.errors.is_empty());
        println!("{{b}}");
    }}
}}""",
        owner="Checker",
    )
    assert summary is not None
    assert summary.param_checks == ((0, frozenset({"errors"})),)


def test_summaries_are_plain_data() -> None:
    crate = SnippetCrate(
        {
            "src/lib.rs": HEAD
            + f"""
pub fn load(p: &str) -> Result<(Net, ApplyResult)> {{ {LENIENT} {LOAD} Ok((net, r)) }}
pub fn make(p: &str) -> SafetensorsStore {{ SafetensorsStore::from_file(p) }}
pub fn check(r: &ApplyResult) {{ assert!(r.errors.is_empty()); }}
""",
        }
    )
    found = crate.summaries()
    assert sorted(k.name for k in found) == ["check", "load", "make"]
    assert pickle.loads(pickle.dumps(found)) == found
    # the same file, modelled again, gives the same summaries
    assert summarise(crate.model("src/lib.rs")) == found
