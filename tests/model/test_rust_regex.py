"""What the Rust `regex` crate rejects (``model/rust_regex.py``) and how Rust decodes a string
literal (``rust/literals.py``): the cases of the crate's syntax documentation
(docs.rs/regex, "Syntax"; regex 1.12 with regex-syntax 0.8), each accepted or rejected as the
crate does, and properties any pattern has."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from burnlint.model.rust_regex import RegexProblem, regex_error
from burnlint.rust.literals import string_value

# Patterns the crate compiles: its documented syntax, and what other engines reject but it
# accepts (nested repetitions, `]` first in a class).
ACCEPTED = [
    r"a*?",
    r"a+?b??",
    r"a**",
    r"a{2}",
    r"a{2,}",
    r"a{2,5}?",
    r"a{ 2 , 5 }",
    r"(?P<name>exp)",
    r"(?<name>exp)",
    r"(?<a.b[0]>x)",
    r"(?:exp)",
    r"(?i)a+(?-i)b+",
    r"(?imsRUu:exp)",
    r"(?i:)*",
    r"((?i))*",
    r"[[:alpha:]]",
    r"[[:^digit:]]",
    r"[[:foo:]]",
    r"[x[^xyz]]",
    r"[a-y&&xyz]",
    r"[0-9&&[^4]]",
    r"[0-9--4]",
    r"[a-g~~b-h]",
    r"[\[\]]",
    r"[]a]",
    r"[^]a]",
    r"[?-[]",
    r"\pN",
    r"\p{Greek}",
    r"\x7F",
    r"\x{10FFFF}",
    r"\u007F",
    r"\u{7F}",
    r"\U0000007F",
    r"\b{start}\b{end}\b{start-half}\b{end-half}",
    r"\<\>",
    r"^\A\z$\b\B",
    r"\d\D\s\S\w\W",
    r"\a\f\t\n\r\v",
    r"\.\+\*\?\(\)\|\[\]\{\}\^\$\#\&\-\~",
    r"\/\_\ \:\=\@\%",
    r"^encoder\.(.*)$",
    r"(|a)",
    r"a||b",
    r"^*",
    r"\b*",
    r"(?x) a ( b ) # a comment's ( is no group",
]

# Patterns the crate rejects, with the problem each is reported for.
REJECTED = [
    (r"(?=a)", RegexProblem.LOOK_AROUND),
    (r"x(?!a)", RegexProblem.LOOK_AROUND),
    (r"(?<=a)b", RegexProblem.LOOK_AROUND),
    (r"(?<!a)b", RegexProblem.LOOK_AROUND),
    (r"(\w)\1", RegexProblem.BACKREFERENCE),
    (r"(?P<n>a)(?P=n)", RegexProblem.BACKREFERENCE),
    (r"*a", RegexProblem.REPETITION_MISSING),
    (r"+", RegexProblem.REPETITION_MISSING),
    (r"a|*", RegexProblem.REPETITION_MISSING),
    (r"(+)", RegexProblem.REPETITION_MISSING),
    (r"(?i)*", RegexProblem.REPETITION_MISSING),
    (r"{2}", RegexProblem.REPETITION_MISSING),
    (r"a{", RegexProblem.COUNTED_REPETITION),
    (r"a{2", RegexProblem.COUNTED_REPETITION),
    (r"a{,2}", RegexProblem.COUNTED_REPETITION),
    (r"a{}", RegexProblem.COUNTED_REPETITION),
    (r"a{3,2}", RegexProblem.COUNTED_REPETITION),
    (r"a{1,2,3}", RegexProblem.COUNTED_REPETITION),
    (r"(a", RegexProblem.UNCLOSED_GROUP),
    (r"(?:a", RegexProblem.UNCLOSED_GROUP),
    (r"(?i", RegexProblem.UNCLOSED_GROUP),
    (r"a)", RegexProblem.UNOPENED_GROUP),
    (r"[a", RegexProblem.UNCLOSED_CLASS),
    (r"[]", RegexProblem.UNCLOSED_CLASS),
    (r"[^]", RegexProblem.UNCLOSED_CLASS),
    (r"[[:alpha:]", RegexProblem.UNCLOSED_CLASS),
    (r"[a[b]", RegexProblem.UNCLOSED_CLASS),
    (r"[\]", RegexProblem.UNCLOSED_CLASS),
    (r"(?>a)", RegexProblem.UNSUPPORTED_GROUP),
    (r"(?#comment)", RegexProblem.UNSUPPORTED_GROUP),
    (r"(?a)", RegexProblem.FLAG),
    (r"(?ii)", RegexProblem.FLAG),
    (r"(?i-)", RegexProblem.FLAG),
    (r"(?-i-s)", RegexProblem.FLAG),
    (r"(?<>a)", RegexProblem.GROUP_NAME),
    (r"(?P<1a>a)", RegexProblem.GROUP_NAME),
    (r"(?<a-b>a)", RegexProblem.GROUP_NAME),
    (r"(?<n>a)(?<n>b)", RegexProblem.GROUP_NAME),
    (r"(?<n", RegexProblem.GROUP_NAME),
    (r"\Z", RegexProblem.ESCAPE),
    (r"\e", RegexProblem.ESCAPE),
    (r"\Q", RegexProblem.ESCAPE),
    (r"\G", RegexProblem.ESCAPE),
    (r"\0", RegexProblem.ESCAPE),
    (r"[\b]", RegexProblem.ESCAPE),
    (r"[\A]", RegexProblem.ESCAPE),
    ("\\", RegexProblem.ESCAPE),
    (r"\xZZ", RegexProblem.ESCAPE),
    (r"\x4", RegexProblem.ESCAPE),
    (r"\x{}", RegexProblem.ESCAPE),
    (r"\x{110000}", RegexProblem.ESCAPE),
    (r"\x{D800}", RegexProblem.ESCAPE),
    (r"\u004", RegexProblem.ESCAPE),
]

# What the reading does not decide: it reports nothing there, whatever the crate says.
UNDECIDED = [
    r"\p{Foo}",  # Unicode property names are not checked
    r"\é",  # a non-ASCII escape
    r"(?x) ( ",  # verbose mode
    r"[a-\d]",  # a class escape as a range end
    r"[z-a]",  # range order
]


@pytest.mark.parametrize("pattern", ACCEPTED)
def test_accepted(pattern: str) -> None:
    assert regex_error(pattern) is None


@pytest.mark.parametrize(("pattern", "problem"), REJECTED)
def test_rejected(pattern: str, problem: RegexProblem) -> None:
    error = regex_error(pattern)
    assert error is not None, pattern
    assert error.problem is problem
    assert error.detail and pattern[error.offset :].startswith(error.detail)


@pytest.mark.parametrize("pattern", UNDECIDED)
def test_undecided_says_nothing(pattern: str) -> None:
    assert regex_error(pattern) is None


def test_the_first_problem_is_the_one_reported() -> None:
    error = regex_error(r"ab(?=c)\1")
    assert error is not None
    assert (error.problem, error.offset, error.detail) == (RegexProblem.LOOK_AROUND, 2, "(?=")


def _escape(text: str) -> str:
    """What `regex::escape` does: a backslash before every meta character."""
    return "".join("\\" + c if c in "\\.+*?()|[]{}^$#&-~" else c for c in text)


@given(st.text())
def test_escaped_text_is_accepted(text: str) -> None:
    assert regex_error(_escape(text)) is None


@given(st.text())
def test_a_leading_star_is_always_rejected(text: str) -> None:
    error = regex_error("*" + text)
    assert error is not None and error.problem is RegexProblem.REPETITION_MISSING


@given(st.text(alphabet="()[]{}|*+?\\^$.-:<>=!P0123aibxzZ{},# "))
def test_any_pattern_is_read_without_an_exception(text: str) -> None:
    error = regex_error(text)
    assert error is None or 0 <= error.offset < len(text)


# -- Rust string literals -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("literal", "value"),
    [
        (r'"\\("', "\\("),
        (r'r"\("', "\\("),
        (r'r#"a"b"#', 'a"b'),
        (r'r##"x"#y"##', 'x"#y'),
        (r'"\x41\u{1F600}\u{1_F6_00}"', "A\U0001f600\U0001f600"),
        (r'"\n\t\r\0\'\""', "\n\t\r\0'\""),
        ('"a\\\n    b"', "ab"),
        ('"a\\\r\n  b"', "ab"),
        ('"plain"', "plain"),
    ],
)
def test_string_value(literal: str, value: str) -> None:
    assert string_value(literal) == value


@pytest.mark.parametrize(
    "literal",
    [r'"\q"', r'"\x80"', r'"\u{D800}"', r'"\u{110000}"', r'"\u41"', '"\\"', 'b"x"', 'c"x"'],
)
def test_string_value_of_what_does_not_compile_or_is_no_str(literal: str) -> None:
    assert string_value(literal) is None
