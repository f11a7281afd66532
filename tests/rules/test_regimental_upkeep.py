"""Regimental morale test, reform, the end-of-turn step and the commander casualty test as
actions in a real Elchingen session (Тест на мораль; 3.2; 2.2; Тест на потери командования)."""

from __future__ import annotations

from fractions import Fraction

from battlestudio.replay.combat_events import MoraleTest
from battlestudio.replay.flow_events import UnitRemoved
from battlestudio.rules.params import RuleParameters
from battlestudio.rules.regimental.morale import casualty_due

from regimental_world import Script, act, activate, preview, session

AV = "austrian-avantgarde"
VIL = "french-bde-villatte"
DIV = "austrian-1st-div"


def spec(s, action, subject):
    return next(a for a in s.actions(subject) if a.id == action)


def test_morale_test_action_2d6_at_most_8_failure_places_the_marker():
    s = session(Script())
    s.advance_to("activation", "austrian")
    pv = preview(s, "morale_test", AV)
    assert dict(pv.odds)["passes"] == Fraction(26, 36)
    assert dict(preview(s, "morale_test", AV, flanks_covered=True).odds)["passes"] == Fraction(30, 36)
    s.dice.add(f"regimental-morale:{AV}", [4, 5])
    out = act(s, "morale_test", AV)
    assert out.status == "resolved" and "9 > 8" in out.explanation
    assert s.state.units[AV].state == "disorganised"
    assert any(isinstance(e, MoraleTest) and not e.passed for e in s.battle.events)
    # a second test the same turn has its own roll
    s.dice.add(f"regimental-morale:{AV}", [1, 1])
    assert act(s, "morale_test", AV).status == "resolved"
    assert len({p for p in s.dice.purposes() if "morale" in p}) == 2


def test_reform_spends_an_action_and_the_marker_comes_off_at_the_end_of_the_turn():
    s = session(Script(), {AV: {"state": "disorganised"}})
    activate(s, "austrian", DIV, ["reform", "fire"])
    assert "no disorganisation marker" in spec(s, "reform", "austrian-centre-bde").unavailable
    out = act(s, "reform", AV)
    assert out.status == "resolved" and "end of the turn" in out.explanation
    assert s.state.units[AV].state == "disorganised"  # not yet: «к концу хода»
    assert "already reformed" in spec(s, "reform", AV).unavailable
    end = spec(s, "end_of_turn", "")
    assert "still to activate" in end.unavailable
    assert act(s, "end_of_turn", "").status == "refused"
    activate(s, "austrian", "austrian-2nd-div", ["move"])
    for div in ("french-2eme-division", "french-3eme-division", "french-4eme-dragoon-division", "french-cav-bde"):
        activate(s, "french", div, ["move"])
    assert spec(s, "end_of_turn", "").legal
    out = act(s, "end_of_turn", "")
    assert out.status == "resolved" and "Avantgarde" in out.explanation
    assert s.state.units[AV].state == "normal"
    assert "done for this turn" in spec(s, "end_of_turn", "").unavailable


def test_a_unit_that_withdrew_disorganised_tests_at_the_start_of_the_next_turn_and_flees_on_failure():
    units = {VIL: {"position": (112.0, 60.5), "facing": 90.0, "formation": "line"}}
    s = session(Script(), units)
    activate(s, "austrian", DIV, ["melee"])
    key = "regimental-melee:austrian-avantgarde:t1:a1"
    s.dice.add(f"{key}:attacker", [6] * 6)
    s.dice.add(f"{key}:defender", [6] * 6)
    s.dice.add(f"{key}:result1:attacker", [6])
    s.dice.add(f"{key}:result1:defender", [1])
    s.dice.add(f"regimental-morale:{VIL}", [1, 1])  # passes
    s.dice.add(f"{key}:loser-d6", [2])  # 1-2: 3 moves disorganised
    act(s, "melee", AV, target=VIL)
    assert s.state.flags[f"withdrew_disorganised:{VIL}"] == 1
    assert "a failure flees" not in spec(s, "morale_test", VIL).note  # not this turn
    s.dice.add("initiative", [6], [1])
    while s.key.turn == 1:
        s.next_phase()
    s.advance_to("activation", "austrian")  # no morale test in the initiative phase (2.1)
    assert "a failure flees" in spec(s, "morale_test", VIL).note
    s.dice.add(f"regimental-morale:{VIL}", [5, 6])
    out = act(s, "morale_test", VIL)
    assert "flees the field" in out.explanation and VIL not in s.state.units
    assert any(isinstance(e, UnitRemoved) and e.id == VIL for e in s.battle.events)


def test_commander_casualty_test_after_more_than_10_division_losses():
    attrs = {"markers_received": 11}
    s = session(Script(), {AV: {"attributes": attrs}})
    s.advance_to("activation", "austrian")
    assert "11 losses" in preview(s, "commander_casualty_test", DIV).explanation
    assert dict(preview(s, "commander_casualty_test", DIV).outcomes) == {
        "killed": Fraction(1, 6),
        "badly wounded": Fraction(1, 6),
        "lightly wounded": Fraction(1, 3),
        "unharmed": Fraction(1, 3),
    }
    assert "not more than 10" in spec(s, "commander_casualty_test", "austrian-2nd-div").unavailable
    s.dice.add(f"regimental-casualty:{DIV}", [1])
    out = act(s, "commander_casualty_test", DIV)
    assert out.status == "resolved" and "killed" in out.explanation
    assert s.state.flags[f"general:{DIV}"] == "killed"
    assert "already killed" in spec(s, "commander_casualty_test", DIV).unavailable
    # his units now have -1 on morale tests
    assert dict(preview(s, "morale_test", AV).odds)["passes"] == Fraction(21, 36)


def test_the_casualty_test_is_taken_again_after_each_further_10_losses_or_once_when_read_so():
    s = session(Script(), {AV: {"attributes": {"markers_received": 25}}})
    state = s.state
    tested = state.evolve(flags={**state.flags, f"casualty_tested:{DIV}": 14})
    p = RuleParameters.for_ruleset("regimental", {})
    assert casualty_due(tested, DIV, p)[0]  # 25 > 14 + 10
    at_20 = state.evolve(flags={**state.flags, f"casualty_tested:{DIV}": 15})
    assert not casualty_due(at_20, DIV, p)[0]
    once = RuleParameters.for_ruleset("regimental", {"casualty_retest": "once"})
    assert not casualty_due(tested, DIV, once)[0]
