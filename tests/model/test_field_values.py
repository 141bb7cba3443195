"""``field_values.py``: a store option read from a field of a crate struct takes the literal
every value of the struct holds, over all the files of the crate, or is unknown."""

from __future__ import annotations

from burnlint.model.field_facts import FieldFacts, collect_field_facts
from burnlint.model.field_values import field_literal
from burnlint.model.file_model import FileModel
from snippet_crate import SnippetCrate, source

OPTIONS = """
#[derive(Debug, Clone)]
pub struct Options { pub partial: bool, pub strict: bool, pub name: String }
impl Default for Options {
    fn default() -> Self { Self { partial: false, strict: true, name: String::new() } }
}
"""

LOADER = """
use crate::options::Options;
pub fn load(o: &Options) -> (bool, bool) { (o.partial /*p*/, o.strict /*s*/) }
"""


def _read(model: FileModel, marker: str) -> bool | None:
    """``field_literal`` of the field read just before the comment ``marker``."""
    data = model.source.data
    end = data.index(f" /*{marker}*/".encode())
    node = model.source.root.descendant_for_byte_range(end - 1, end - 1)
    while node is not None and node.type != "field_expression":
        node = node.parent
    assert node is not None and node.end_byte == end
    return field_literal(model, node)


def test_facts_of_a_file() -> None:
    facts = collect_field_facts(
        source(
            OPTIONS
            + """
fn f(mut o: Options, name: String) {
    let a = Options { name, partial: true, ..Default::default() };
    let b = Options { strict: false, ..a };
    o.strict = false;
    toggle(&mut o.name);
}
"""
        ).root
    )
    assert set(facts.literals) >= {
        ("Options", "partial", "false"),  # `Self { .. }` in `impl Default for Options`
        ("Options", "strict", "true"),
        ("Options", "name", "?"),
        ("Options", "partial", "true"),
        ("Options", "strict", "false"),
    }
    assert set(facts.bases) == {
        ("Options", "default", ("name", "partial")),
        ("Options", "?", ("strict",)),
    }
    assert facts.assigned == frozenset({"strict", "name"})
    assert facts.default_impls == (("Options", True),)
    assert collect_field_facts(source("fn f() {}").root) == FieldFacts()


def test_the_literal_of_every_value_across_the_crate() -> None:
    crate = SnippetCrate(
        {
            "src/options.rs": OPTIONS,
            "src/lib.rs": "pub mod options;\npub mod load;\n",
            "src/load.rs": LOADER,
        }
    )
    model = crate.model("src/load.rs")
    assert _read(model, "p") is False
    assert _read(model, "s") is True


def test_another_file_that_sets_another_literal_makes_it_unknown() -> None:
    crate = SnippetCrate(
        {
            "src/options.rs": OPTIONS,
            "src/lib.rs": "pub mod options;\npub mod load;\npub mod fine_tune;\n",
            "src/load.rs": LOADER,
            "src/fine_tune.rs": (
                "use crate::options::Options;\n"
                "pub fn options() -> Options { Options { partial: true, ..Default::default() } }\n"
            ),
        }
    )
    model = crate.model("src/load.rs")
    assert _read(model, "p") is None
    assert _read(model, "s") is True  # taken from `Default`, which says `true`


def test_what_makes_a_field_unknown() -> None:
    cases = {
        "derive": OPTIONS.replace("#[derive(Debug, Clone)]", "#[derive(Debug, Deserialize)]"),
        "assigned": OPTIONS + "fn relax(o: &mut Options) { o.partial = true; }\n",
        "setter": OPTIONS + "impl Options { fn with_partial(self, p: bool) -> Self { self } }\n",
        "unknown base": OPTIONS + "fn g(o: Options) -> Options { Options { strict: true, ..o } }\n",
        "not a literal": OPTIONS
        + "fn g(p: bool) -> Options { Options { partial: p, ..Default::default() } }\n",
    }
    for case, options in cases.items():
        crate = SnippetCrate(
            {
                "src/options.rs": options,
                "src/lib.rs": "pub mod options;\npub mod load;\n",
                "src/load.rs": LOADER,
            }
        )
        assert _read(crate.model("src/load.rs"), "p") is None, case


def test_a_derived_default_is_false() -> None:
    crate = SnippetCrate(
        {
            "src/lib.rs": (
                "#[derive(Default)]\npub struct W { pub lenient: bool }\n"
                "pub fn f(w: &W) -> bool { w.lenient /*p*/ }\n"
            )
        }
    )
    assert _read(crate.model("src/lib.rs"), "p") is False
