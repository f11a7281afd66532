"""Regimental organisation on import (1.1-1.2): the units an import brings into a Regimental
scenario at 75 men a figure with their bases, a brigade-sized unit split into 4-6-base
regiments under its superior (1.2: two regiments a brigade), the units that cannot be split
warned by name, the assumed ``split_brigades`` switched off, units already at the scale left
alone and men another ruleset only estimated counted from the source's bases."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from battlestudio.model.scenario import Scenario, ScenarioInfo, Side
from battlestudio.model.units import Arm, Commander, Subtype, Unit
from battlestudio.rules.params import RuleParameters
from battlestudio.rules.regimental.organisation import SCALE, convert_import, regiment_sizes
from battlestudio.rules.switch import conform_import
from battlestudio.store.importers import import_oob

P = RuleParameters.for_ruleset("regimental", {})
VI_CORPS = Path("/work/shared/data/oob/republique5/scenarios/jena-auerstadt-1806/VI-Corps.oob")


def _brigade(men: int = 4000, arm: Arm = Arm.INFANTRY, bases: int | None = None) -> Scenario:
    sc = Scenario(sides={"fr": Side("fr", "French")})
    sc.commanders["gen"] = Commander("gen", "Marchand", "fr", echelon="division")
    u = Unit("bde", "Marchand's brigade", "fr", arm=arm, men=men, bases=bases, position=(100.0, 50.0), facing=90.0)
    sc.units["bde"] = u
    sc.oob.add("gen", "bde")
    return sc


def test_a_4000_man_brigade_splits_into_regiments_of_5_and_4_bases_under_its_general():
    out, conv = convert_import(_brigade(4000), P)
    assert "bde" not in out.units and "bde" not in out.oob
    parts = [out.units[i] for i in ("bde-1", "bde-2")]
    # 4000 / 75 = 53 figures, ceil(53 / 6) = 9 bases: more than a regiment's 6, so 2 regiments
    assert [u.bases for u in parts] == [5, 4]
    assert [u.figures for u in parts] == [30, 23] and sum(u.men for u in parts) == 4000
    assert [out.oob.superior(u.id) for u in parts] == ["gen", "gen"]
    assert [u.name for u in parts] == ["Marchand's brigade (1 of 2)", "Marchand's brigade (2 of 2)"]
    assert all(u.attributes["scale"] == SCALE and u.attributes["split_from"] == "bde" for u in parts)
    # facing 90° (up the table): side by side across it, 54 cm of bases centred on the old front
    assert [round(u.position[0], 6) for u in parts] == [100.0 - 12.0, 100.0 + 15.0]
    assert all(u.position[1] == 50.0 for u in parts)
    assert set(conv.units) == {"bde-1", "bde-2"}
    assert any("split into 2 regiments of 5, 4" in n for n in conv.notes)
    assert conv.warnings == ()  # a divisional general commands them


def test_seven_bases_fit_no_regiments_and_are_warned_by_name():
    u = Unit("x", "Seven", "fr", bases=7)
    assert regiment_sizes(u, P) == ([], "7 bases fit neither 1 regiment of 4-6 bases nor 2 (1.1)")
    assert regiment_sizes(replace(u, bases=13), P)[0] == [5, 4, 4]
    assert regiment_sizes(replace(u, bases=6), P) == ([], "")
    out, conv = convert_import(_brigade(men=0, bases=7), P)
    assert out.units["bde"].bases == 7 and out.units["bde"].figures == 42
    assert conv.warnings == (
        "Marchand's brigade: 7 bases fit neither 1 regiment of 4-6 bases nor 2 (1.1); kept as one unit",
    )


def test_cavalry_splits_only_into_whole_four_squadron_regiments():
    out, conv = convert_import(_brigade(men=0, bases=8, arm=Arm.CAVALRY), P)
    assert [out.units[i].bases for i in ("bde-1", "bde-2")] == [4, 4]
    out, conv = convert_import(_brigade(men=0, bases=7, arm=Arm.CAVALRY), P)
    assert out.units["bde"].bases == 7
    assert conv.warnings == (
        "Marchand's brigade: 7 squadrons are no whole number of 4-squadron regiments (1.2); kept as one unit",
    )


def test_split_brigades_overridden_to_false_keeps_the_brigade_with_a_warning():
    off = RuleParameters.for_ruleset("regimental", {"split_brigades": False})
    out, conv = convert_import(_brigade(4000), off)
    assert set(out.units) == {"bde"} and out.units["bde"].bases == 9
    assert conv.warnings[0] == "Marchand's brigade: 9 bases make a brigade, and split_brigades is off; kept as one unit"


def test_units_already_at_the_scale_are_left_as_they_are_and_only_limits_the_work():
    sc = _brigade(4000)
    sc.units["bde"] = replace(sc.units["bde"], attributes={"scale": SCALE}, figures=7, bases=2)
    out, conv = convert_import(sc, P)
    assert out.units["bde"] == sc.units["bde"] and not conv.units and not conv.notes
    out, conv = convert_import(_brigade(4000), P, only=())
    assert set(out.units) == {"bde"} and not conv.units


def test_the_republique5_corps_comes_in_as_regiments_of_bases_with_its_warnings():
    res = import_oob([VI_CORPS], "oob")  # with Torden over Europa's scale: men estimated from bases
    target = ScenarioInfo(ruleset="regimental")
    conf = conform_import(res.scenario, target)
    units = conf.scenario.units
    line = units["vi-corps-39eme-ligne"]
    assert res.scenario.units["vi-corps-39eme-ligne"].men == 2400  # Torden over Europa's estimate
    assert (line.bases, line.figures, line.men) == (4, 24, 1800)  # the source's 4 bases × 6 figures × 75
    assert line.attributes["base_size_cm"] == [6.0, 2.0] and line.subtype is Subtype.LINE_INFANTRY
    hussars = units["vi-corps-9eme-hussars"]
    assert (hussars.bases, hussars.figures) == (1, 2)
    assert conf.changed == 11 and conf.ruleset_name == "Regimental rules"  # the battery: state O → normal
    assert set(conf.warnings) == {
        "9eme Hussars: 1 squadron, a cavalry regiment has 4 (1.2)",
        "10eme Chasseur Cheval: 1 squadron, a cavalry regiment has 4 (1.2)",
    }
    assert conf.scenario.info == res.scenario.info  # the importer's info, not the target's
    assert conform_import(res.scenario, ScenarioInfo(ruleset="toe")).scenario is res.scenario


def test_imported_units_start_in_the_regimental_initial_state():
    from battlestudio.rules.regimental import ruleset
    from battlestudio.rules.regimental.organisation import UNIT_STATES
    from battlestudio.validate.ruleset import ruleset_terms

    machine = next(m for m in ruleset.describe().state_machines if m.id == "unit")
    assert set(UNIT_STATES) == set(machine.states)
    res = import_oob([VI_CORPS], "oob", ruleset="regimental")
    sc = res.scenario
    assert sc.units and {u.state for u in sc.units.values()} == {"normal"}  # not Torden over Europa's 'O'
    assert any("Regimental initial state 'normal'" in w.message for w in res.warnings)
    sc.info = replace(sc.info, ruleset="regimental")
    assert not [p for p in ruleset_terms(sc) if p.check == "unit.unknown_state"]
    # a unit already in a Regimental state keeps it
    out, _ = convert_import(
        replace(_brigade(300), units={"bde": replace(_brigade(300).units["bde"], state="disorganised")}), P
    )
    assert out.units["bde"].state == "disorganised"
