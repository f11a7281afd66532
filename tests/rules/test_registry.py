"""The ruleset registry (entry-point group ``battlestudio.rulesets``) and the ruleset number files."""

from __future__ import annotations

import pytest

from battlestudio.rules import (
    ENTRY_POINT_GROUP,
    MissingParameterError,
    RuleParameters,
    Ruleset,
    UnknownRuleset,
    available_rulesets,
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


def test_each_ruleset_declares_its_own_event_types():
    from battlestudio.replay.events import event_kinds

    own = {rid: {cls.kind for cls in rs.event_types()} for rid, rs in available_rulesets().items()}
    assert own == {
        "toe": {"toe_combat_marked"},
        "belle-alliance": {"ba_attack_announced", "ba_attack_settled", "ba_melee_status", "ba_melee_subphase"}
        | {"ba_fired", "ba_continued_advanced", "ba_melee_lost", "ba_withdrew"},
        "regimental": {"regimental_markers"},
        "gda": {"gda_task_in_force", "gda_damage", "gda_low_ammunition"},
    }
    kinds = event_kinds()
    assert all(kinds[k] is cls for rs in available_rulesets().values() for cls in rs.event_types() for k in [cls.kind])


def test_load_event_types_registers_them_in_a_fresh_interpreter():
    import os
    import subprocess
    import sys
    from pathlib import Path

    code = (
        "from battlestudio.replay.events import event_kinds\n"
        "import battlestudio.rules as r\n"
        "before = 'gda_task_in_force' in event_kinds() or 'regimental_markers' in event_kinds()\n"
        "problems = r.load_event_types()\n"
        "print(before, problems, 'gda_task_in_force' in event_kinds(), 'regimental_markers' in event_kinds())\n"
    )
    src = str(Path(__file__).resolve().parents[2] / "src")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (src, os.environ.get("PYTHONPATH", "")) if p)}
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60)
    assert run.stdout.split() == ["False", "()", "True", "True"], run.stderr


def test_a_broken_plug_in_is_skipped_by_load_event_types_and_named(monkeypatch):
    from importlib.metadata import EntryPoint

    import battlestudio.rules as registry
    from battlestudio.replay import events
    from battlestudio.replay.events import event_from_dict, event_kinds

    monkeypatch.setattr(events, "_REGISTRY", dict(events._REGISTRY))  # the plug-ins' kinds go with the test
    real = list(registry.entry_points(group=ENTRY_POINT_GROUP))
    fake = [
        EntryPoint("broken", "tests.rules.plugins:not_a_ruleset", ENTRY_POINT_GROUP),
        EntryPoint("clashing", "tests.rules.plugins:clashing", ENTRY_POINT_GROUP),
        EntryPoint("house", "tests.rules.plugins:house", ENTRY_POINT_GROUP),
    ]
    monkeypatch.setattr(registry, "entry_points", lambda group: real + fake)
    monkeypatch.setattr(registry, "_event_problems", None)
    monkeypatch.setattr(registry, "_loaded", None)
    problems = registry.load_event_types()
    assert len(problems) == 2
    assert (
        problems[0].startswith("broken: entry point broken = tests.rules.plugins:not_a_ruleset")
        and "lacks command_check, command_reach, describe" in problems[0]
        and "RulesetDefaults" in problems[0]
    )
    assert problems[1].startswith("clashing: ") and "event kind 'gda_task_in_force' registered twice" in problems[1]
    assert event_kinds()["gda_task_in_force"].__module__ == "battlestudio.rules.gda.events"  # the clash took nothing
    flag = event_from_dict({"kind": "house_flag_raised", "turn": 1, "side": "", "phase": "", "town": "Jena"})
    assert flag.town == "Jena"
    assert registry.load_event_types() is problems  # once
    with pytest.raises(RuleRefused, match="not a Ruleset"):
        registry.available_rulesets(reload=True)


def test_rulesets_without_an_optional_method_answer_none():
    from battlestudio.replay.state import GameState

    from tests.elchingen import elchingen_scenario

    state = GameState.from_scenario(elchingen_scenario())
    ba, reg, gda = get_ruleset("belle-alliance"), get_ruleset("regimental"), get_ruleset("gda")
    assert ba.order_budget(state, "c-ney", {}) is None and reg.order_budget(state, "c-ney", {}) is None
    assert ba.orders_report(state, {}, {}) is None and gda.orders_report(state, {}, {}) is None
    assert get_ruleset("toe").orders_report(state, {}, {}) is not None
    assert ba.parameters({"order_roll": "2d6 >= 7"}).get("order_roll") == "2d6 >= 7"


def test_a_scenario_that_chose_no_ruleset_plays_the_default():
    from battlestudio.model.scenario import ScenarioInfo
    from battlestudio.rules import DEFAULT_RULESET, resolve_ruleset_id

    assert ScenarioInfo().ruleset == "" and DEFAULT_RULESET in available_rulesets()
    assert get_ruleset(ScenarioInfo().ruleset) is get_ruleset(DEFAULT_RULESET)
    assert resolve_ruleset_id("") == DEFAULT_RULESET and resolve_ruleset_id("gda") == "gda"
