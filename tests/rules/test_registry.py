"""The ruleset registry (entry-point group ``battlestudio.rulesets``) and the ruleset number files."""

from __future__ import annotations

import pytest

from battlestudio.rules import (
    ENTRY_POINT_GROUP, MissingParameterError, RuleParameters, Ruleset, UnknownRuleset, available_rulesets,
    get_ruleset,
)
from battlestudio.rules.params import ASSUMED, MISSING, RULE, RuleRefused, load_ruleset_file


def test_toe_is_found_through_its_entry_point():
    from importlib.metadata import entry_points

    names = {ep.name: ep.value for ep in entry_points(group=ENTRY_POINT_GROUP)}
    assert names["toe"] == "battlestudio.rules.toe:ruleset"
    toe = get_ruleset("toe")
    assert isinstance(toe, Ruleset) and toe.id == "toe"
    assert available_rulesets()["toe"] is toe


def test_unknown_ruleset_names_the_known_ones():
    with pytest.raises(UnknownRuleset, match=r"no ruleset 'warhammer' is installed \(known: .*toe"):
        get_ruleset("warhammer")


def test_describe_lists_echelons_orders_states_phases_and_unknowns():
    d = get_ruleset("toe").describe()
    assert [e.id for e in d.echelons] == ["c_in_c", "army", "corps", "division", "brigade"]
    assert {t.id for t in d.order_types} >= {"A", "H", "T", "M", "D"}
    attack = next(t for t in d.order_types if t.id == "A")
    assert attack.parameters[0].max_distance_cm == 100 and attack.dice and attack.standing
    assert [p.id for p in d.phases][0] == "orders" and len(d.phases) == 7
    assert "command_thresholds" in d.unknown_parameters and "zones_cm.<echelon>" in d.unknown_parameters
    assert {m.id for m in d.state_machines} == {"unit_order_state", "corps_order"}


def test_every_toe_number_has_a_section_and_a_status():
    header, entries = load_ruleset_file("toe")
    assert header["id"] == "toe"
    assert {e.status for e in entries.values()} == {RULE, ASSUMED, MISSING}
    for e in entries.values():
        assert e.section, e.key
        if e.status == MISSING:
            assert e.value is None and e.parameter, e.key
        else:
            assert e.value is not None, e.key
        if e.status == ASSUMED:
            assert e.ambiguity, e.key
    rules = {k: e.value for k, e in entries.items() if e.status == RULE}
    assert rules["attack_step_min_cm"] == 20 and rules["attack_step_max_cm"] == 30
    assert rules["engage_distance_cm"] == 20 and rules["engaged_half_corps_distance_cm"] == 40
    assert rules["march_exclusion_cm"] == 75 and rules["objective_max_cm"] == 100
    assert rules["oas_corps_move_cm"] == 15 and rules["oas_chief_move_cm"] == 40


def test_scenario_overrides_and_assumptions_are_reported():
    p = RuleParameters.for_ruleset("toe", {"attack_step_max_cm": 25})
    assert p.get("attack_step_max_cm") == 25
    assert p.get("d10_zero_based") is True
    assert p.assumptions() == [next(a for a in p.assumptions() if a.startswith("assumed d10_zero_based = True (A1)"))]
    house = RuleParameters.for_ruleset("toe", {"d10_zero_based": False})
    assert house.get("d10_zero_based") is False and house.assumptions() == []
    with pytest.raises(MissingParameterError) as err:
        p.get("command_thresholds")
    assert err.value.parameter == "command_thresholds" and "Table 1" in str(err.value)


def test_a_broken_ruleset_file_is_named(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[rules.x]\nvalue = 1\nstatus = "guess"\nsection = "1"\n')
    with pytest.raises(RuleRefused, match=r"bad.toml: rules.x needs a section and a status"):
        load_ruleset_file("bad", str(bad))
    bad.write_text("[rules.x\n")
    with pytest.raises(RuleRefused, match="bad.toml"):
        load_ruleset_file("bad2", str(bad))
