"""The parameter editor's rows and checks (``analysis.parameters``) and its edit
(``edits.info.SetParameters``) on the bundled Elchingen scenario, without Qt."""

from __future__ import annotations

from pathlib import Path

import pytest

from battlestudio import store
from battlestudio.analysis.parameters import check_value, new_refusal, parameter_rows, parse_value, show_value
from battlestudio.edits.info import SetParameters
from battlestudio.replay.state import GameState
from battlestudio.rules import get_ruleset

ELCHINGEN = Path(__file__).resolve().parents[2] / "scenarios" / "elchingen-1805.battle.json"


@pytest.fixture
def elchingen():
    return store.load(ELCHINGEN).scenario


def rows_by_key(scenario, ruleset="toe"):
    return {r.key: r for r in parameter_rows(get_ruleset(ruleset), scenario.info.parameters)}


def test_rows_give_section_status_and_the_value_in_force(elchingen):
    rows = rows_by_key(elchingen)
    d10 = rows["d10_zero_based"]
    assert (d10.status, d10.section, d10.ruleset_value, d10.value) == ("assumed", "1.1, 6.2", True, True)
    assert not d10.overridden
    engage = rows["engage_distance_cm"]
    assert (engage.status, engage.value) == ("rule", 20)
    army = rows["zones_cm.army"]  # a key the scenario sets under the template zones_cm.<echelon>
    assert (army.status, army.scenario_key, army.value) == ("missing", "toe.zones_cm.army", [20, 40, "60+"])
    assert rows["zones_cm.<echelon>"].template and not rows["zones_cm.<echelon>"].unset
    assert rows["command_ability.division"].value == 0  # the tutorial's division KE
    assert rows["order_capacity.<echelon>"].unset  # the records carry Ney's and Riesch's OAS
    statuses = [r.status for r in parameter_rows(get_ruleset("toe"), elchingen.info.parameters)]
    assert statuses == sorted(statuses, key=["missing", "assumed", "rule"].index)


def test_the_plain_spelling_wins_as_the_ruleset_reads_it(elchingen):
    params = {**elchingen.info.parameters, "d10_zero_based": False, "toe.d10_zero_based": True}
    row = {r.key: r for r in parameter_rows(get_ruleset("toe"), params)}["d10_zero_based"]
    assert (row.scenario_key, row.value) == ("d10_zero_based", False)


def test_values_are_read_and_checked_against_the_rulesets_kind(elchingen):
    rows = rows_by_key(elchingen)
    assert [parse_value(t) for t in ("15", "true", '[20, 40, "60+"]', "{}", " nearest ")] == [
        15,
        True,
        [20, 40, "60+"],
        {},
        "nearest",
    ]
    assert show_value([20, 40, "60+"]) == '[20, 40, "60+"]' and show_value("nearest") == "nearest"
    assert check_value(rows["d10_zero_based"], "maybe") == "it must be true or false"
    assert check_value(rows["d10_zero_based"], False) == ""
    assert check_value(rows["engage_distance_cm"], -3) == "it must not be negative"
    assert check_value(rows["zones_cm.army"], [20, 40]) == "it must be a list of 3 values"
    assert check_value(rows["corps_command_distance_cm"], "far") == "it must be a number"  # no example: a number
    # a missing length in cm takes no negative number (a fresh tester set march_length_cm.infantry = -30)
    assert check_value(rows["corps_command_distance_cm"], -30) == "it must not be negative"
    assert check_value(rows["corps_command_distance_cm"], 30) == ""
    assert check_value(rows["command_modifiers"], {"good roads": 1}) == ""


def test_a_reading_named_by_a_word_takes_one_of_its_choices_and_an_empty_list_any_list(elchingen):
    """A fresh tester typed ``unfold_room = bogus`` (accepted, refused only at use) and could not
    set ``prussian_brigade_years`` to ``[1806, 1813]`` ("a list of 0 values")."""
    rows = rows_by_key(elchingen)
    assert rows["unfold_room"].choices == ("square", "all", "none")
    assert check_value(rows["unfold_room"], "bogus") == "it must be one of square, all, none"
    assert check_value(rows["unfold_room"], "all") == ""
    assert check_value(rows["auto_retreat_off_table"], "edge") == ""
    assert check_value(rows["auto_retreat_off_table"], "inside") == "it must be one of off, edge"
    assert check_value(rows["prussian_brigade_years"], [1806, 1813]) == ""
    assert check_value(rows["prussian_brigade_years"], []) == ""
    assert check_value(rows["prussian_brigade_years"], 1815) == "it must be a list"


def test_a_value_the_rules_reject_is_a_new_refusal(elchingen):
    rs, state, params = get_ruleset("toe"), GameState.from_scenario(elchingen), elchingen.info.parameters
    assert new_refusal(rs, state, params, {**params, "toe.division_command_distance_cm": 18}) == ""
    why = new_refusal(rs, state, params, {**params, "toe.division_command_distance_cm": 25})
    assert "2.5" in why and "outside the rule's 10-20 cm" in why
    assert "must increase" in new_refusal(rs, state, params, {**params, "toe.zones_cm.army": [40, 20, 60]})


def test_set_parameters_sets_removes_and_undoes(elchingen):
    before = elchingen.info
    edit = SetParameters({"toe.d10_zero_based": False}, remove={"toe.zones_cm.army"})
    changes = edit.do(elchingen)
    assert [(c.kind, set(c.ids)) for c in changes] == [("info", {"parameters"})]
    assert elchingen.info.parameters["toe.d10_zero_based"] is False
    assert "toe.zones_cm.army" not in elchingen.info.parameters
    edit.undo(elchingen)
    assert elchingen.info == before
