"""``SummaryTable`` and ``HelperSummary``: the summaries a target sees, and what they say."""

from __future__ import annotations

from burnlint.findings import Location, Span
from burnlint.model.helpers import Direction, HelperSummary, OkFlow, SummaryTable
from snippet_crate import fn_key

SAVE = fn_key("save", ("io",))
LOAD = fn_key("load", (), "Trainer")
NOWHERE = Location("src/lib.rs", Span(0, 0, 1, 1, 1, 1, 1, 1))


def _flow() -> OkFlow:
    return OkFlow((("result", (1,)),), frozenset({"missing"}), frozenset(), ("why",), NOWHERE)


def test_table_get() -> None:
    save = HelperSummary(SAVE, errors=("save_into",), directions=frozenset({Direction.SAVE}))
    table = SummaryTable({SAVE: save})
    assert table.get(SAVE) is save
    assert table.get(None) is None
    assert table.get(LOAD) is None
    # another module's function of the same name is another function
    assert table.get(fn_key("save")) is None
    assert table.get(fn_key("save", ("io",), "Io")) is None


def test_table_names_and_signature() -> None:
    save = HelperSummary(SAVE, errors=("save_into",))
    load = HelperSummary(LOAD, ok=_flow())
    table = SummaryTable({SAVE: save, LOAD: load})
    assert table.names() == frozenset({"save", "load"})
    assert table.signature() == frozenset({(SAVE, save), (LOAD, load)})
    assert SummaryTable().names() == frozenset()
    assert SummaryTable(None).by_key == {}


def test_table_copies_what_it_is_given() -> None:
    given = {SAVE: HelperSummary(SAVE, errors=("save_into",))}
    table = SummaryTable(given)
    given.clear()
    assert table.get(SAVE) is not None


def test_checks_of_parameter() -> None:
    summary = HelperSummary(SAVE, param_checks=((0, frozenset({"errors"})), (2, frozenset())))
    assert summary.checks_of_parameter(0) == frozenset({"errors"})
    assert summary.checks_of_parameter(2) == frozenset()  # reads none of it: known
    assert summary.checks_of_parameter(1) is None  # not known to read less than all
    assert summary.checks_of_parameter(3) is None
    assert summary.checks_of_parameter(-1) is None
    assert HelperSummary(SAVE).checks_of_parameter(0) is None


def test_is_op() -> None:
    assert HelperSummary(SAVE, errors=("save_into",)).is_op
    assert HelperSummary(SAVE, ok=_flow()).is_op
    assert not HelperSummary(SAVE).is_op
    assert not HelperSummary(SAVE, param_checks=((0, frozenset()),)).is_op
    assert not HelperSummary(SAVE, path_params=(0,)).is_op


def test_direction() -> None:
    assert HelperSummary(SAVE, directions=frozenset({Direction.SAVE})).direction is Direction.SAVE
    both = frozenset({Direction.SAVE, Direction.LOAD})
    assert HelperSummary(SAVE, directions=both).direction is Direction.LOAD
    assert HelperSummary(SAVE, directions=frozenset({Direction.LOAD})).direction is Direction.LOAD
    assert HelperSummary(SAVE).direction is Direction.SAVE


def test_name() -> None:
    assert HelperSummary(SAVE).name == "save"
    assert HelperSummary(LOAD).name == "Trainer::load"


def test_summaries_compare_by_value() -> None:
    # the engine stops its rounds when the summaries stop changing
    assert HelperSummary(SAVE, errors=("save_into",)) == HelperSummary(SAVE, errors=("save_into",))
    assert HelperSummary(SAVE, errors=("save_into",)) != HelperSummary(SAVE, errors=("load_from",))
    assert hash(HelperSummary(LOAD, ok=_flow())) == hash(HelperSummary(LOAD, ok=_flow()))
