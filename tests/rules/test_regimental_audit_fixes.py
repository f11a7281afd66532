"""Rules the audit (docs/rules/regimental-audit.md) found partial and were cheap to finish: the
umpire records a captured HQ with an action when an enemy stands in contact with it (Тест на
потери командования); a unit that withdrew disorganised may do nothing before its morale test
at the start of the next turn (3.4); the commander casualty test needs the formation in its
general's zone; a skirmisher base is 2 × 2 cm and a regiment has one skirmisher base a battalion
(1.1)."""

from __future__ import annotations

from dataclasses import replace

from battlestudio.model.scenario import Scenario
from battlestudio.model.units import Commander, Formation, Subtype, Unit
from battlestudio.rules.params import RuleParameters
from battlestudio.rules.regimental.morale import casualty_due
from battlestudio.rules.regimental.organisation import convert_units, regimental_unit

from gda_world import general, unit
from regimental_world import Script, act, activate, session
from test_regimental import army

P = RuleParameters.for_ruleset("regimental", {})
AV = "austrian-avantgarde"
VIL = "french-bde-villatte"
NEY = "french-vi-corps"


def spec(s, action, subject):
    return next(a for a in s.actions(subject) if a.id == action)


def test_the_hq_is_captured_by_an_enemy_in_contact_and_its_units_then_only_fire_or_withdraw():
    s = session(Script())
    s.advance_to("activation", "austrian")
    far = spec(s, "capture_hq", NEY)
    assert not far.legal and "no enemy unit in contact with the HQ" in far.unavailable
    assert not any(a.id == "capture_hq" for a in s.actions("french-2eme-division"))  # only the HQ
    ney = s.state.commanders[NEY].position
    s2 = session(Script(), {AV: {"position": (ney[0], ney[1] - 0.5), "facing": 90.0}})  # onto his base
    s2.advance_to("activation", "austrian")
    assert spec(s2, "capture_hq", NEY).legal
    out = act(s2, "capture_hq", NEY)
    assert out.status == "resolved" and s2.state.flags["hq_captured:french"] is True
    assert "already" in spec(s2, "capture_hq", NEY).unavailable


def test_a_unit_that_withdrew_disorganised_acts_only_after_its_morale_test():
    s = session(Script(), {VIL: {"position": (112.0, 60.5), "facing": 90.0, "formation": "line"}})
    activate(s, "austrian", "austrian-1st-div", ["melee"])
    key = "regimental-melee:austrian-avantgarde:t1:a1"
    s.dice.add(f"{key}:attacker", [6] * 6)
    s.dice.add(f"{key}:defender", [6] * 6)
    s.dice.add(f"{key}:result1:attacker", [6])
    s.dice.add(f"{key}:result1:defender", [1])
    s.dice.add(f"regimental-morale:{VIL}", [1, 1])
    s.dice.add(f"{key}:loser-d6", [2])  # 1-2: withdraws 3 moves disorganised
    act(s, "melee", AV, target=VIL)
    s.dice.add("initiative", [1], [6])  # turn 2: the French first
    while s.key.turn == 1:
        s.next_phase()
    activate(s, "french", "french-2eme-division", ["reform", "move"])
    why = spec(s, "reform", VIL).unavailable
    assert "its morale test comes first" in why
    s.dice.add(f"regimental-morale:{VIL}", [2, 2])
    assert act(s, "morale_test", VIL).status == "resolved"  # passed: it stays
    assert spec(s, "reform", VIL).legal


def test_the_commander_casualty_test_needs_a_unit_in_the_generals_zone():
    near = army().with_unit(unit("b1-r0", side="russia", x=-16, y=18, markers_received=9))
    assert casualty_due(near, "b1", P)[0]
    g = near.commanders["b1"]
    away = near.evolve(commanders={**near.commanders, "b1": general("b1", side="russia", x=g.position[0], y=80.0)})
    due, why, _, _ = casualty_due(away, "b1", P)
    assert not due and "no unit of his is inside his command zone" in why


def test_a_skirmisher_base_is_2_by_2_cm_and_a_regiment_has_one_a_battalion():
    sk = Unit("sk", "Voltigeurs", "fr", subtype=Subtype.SKIRMISHERS, formation=Formation.SKIRMISH, men=450)
    new, note = regimental_unit(sk, P)
    assert (new.figures, new.bases, new.attributes["base_size_cm"]) == (6, 1, [2.0, 2.0])
    sc = Scenario()
    sc.commanders["bde"] = Commander("bde", "Villatte", "fr", echelon="brigade")
    sc.units["line"] = Unit("line", "6e Léger", "fr", bases=4)  # 2 battalions (1.2)
    sc.units["sk"] = replace(sk, bases=3, men=0)
    for uid in ("line", "sk"):
        sc.oob.add("bde", uid)
    warns = convert_units(sc, P).warnings
    assert (
        "Voltigeurs: 3 skirmisher bases, and Villatte's infantry has 2 battalions: one base a battalion (1.1)" in warns
    )
    sc.units["sk"] = replace(sk, bases=2, men=0)
    assert not [w for w in convert_units(sc, P).warnings if "skirmisher" in w]


def test_troops_directly_behind_the_guns_fight_for_them_and_the_guns_go_when_they_lose():
    from battlestudio.replay.combat_events import Melee

    from test_regimental_melee import GUNS, played, script_melee

    # the guns face north with their rear edge at y = 56.5; Villatte's front touches it from behind
    s = played(
        units={GUNS: {"position": (112.0, 60.5), "facing": 90.0}, VIL: {"position": (112.0, 56.5), "facing": 90.0}}
    )
    key = "regimental-melee:austrian-avantgarde:t1:a1"
    script_melee(s, key, [6] * 6, None, [6] * 6, None, [(6, 1)])
    s.dice.add(f"regimental-morale:{VIL}", [1, 1])
    s.dice.add(f"{key}:loser-d6", [6])  # the supports stand, but lost
    n = len(s.battle.events)
    out = act(s, "melee", AV, target=GUNS, supported_by=VIL)
    assert out.status == "resolved", out.explanation
    head = s.battle.events[n]
    assert isinstance(head, Melee) and head.defenders == (GUNS,) and head.winner == "attacker"
    assert GUNS not in s.state.units and VIL in s.state.units and "its supports lost" in out.explanation
    # beside the guns, not behind them: refused
    s = played(
        units={GUNS: {"position": (112.0, 60.5), "facing": 90.0}, VIL: {"position": (98.45, 60.5), "facing": 90.0}}
    )  # its right edge on the guns' left
    side = act(s, "melee", AV, target=GUNS, supported_by=VIL)
    assert side.status == "refused" and "not directly behind it" in side.explanation


def test_a_morale_test_forced_by_skirmishers_fire_takes_minus_1_unless_read_for_melee_only():
    from battlestudio.replay.combat_events import MoraleTest

    chain = {"subtype": "skirmishers", "formation": "skirmish", "position": (112.0, 66.0), "facing": 90.0}
    for reading, target in (("fire_and_melee", 7), ("melee", 8)):
        av_attrs = {"markers_since_test": 5}  # one more marker forces the test (Тест на мораль)
        s = session(
            Script(),
            {VIL: chain, AV: {"attributes": av_attrs}},
            params={"skirmisher_morale_by": reading},
        )
        s.advance_to("activation", "french")
        base = f"regimental-fire:{VIL}:t1:free1"
        s.dice.add(base, [1] * 6)  # every die hits
        s.dice.add(f"{base}:save", [6] * 6)  # none saved
        s.dice.add(f"regimental-morale:{AV}", [4, 4])
        out = act(s, "fire", VIL, target=AV)
        assert out.status == "resolved", out.explanation
        test = [e for e in s.battle.events if isinstance(e, MoraleTest) and e.unit == AV][-1]
        assert test.roll["threshold"] == target, (reading, test.explanation)
        assert ("fired on by skirmishers" in test.explanation) == (reading == "fire_and_melee")


def test_infantry_that_rolls_1_but_passes_its_morale_keeps_its_return_fire_at_the_cavalry():
    from battlestudio.replay.combat_events import Fired

    from test_regimental_melee import CAV, played, script_melee

    for reading, fires in ((True, True), (False, False)):
        s = played(params={"square_return_fire": reading})
        key = "regimental-melee:austrian-avantgarde-cavalry:t1:a1"
        s.dice.add(f"{key}:square", [1])  # no square (3.4.2)
        s.dice.add(f"regimental-morale:{VIL}", [1, 1])  # passed: it keeps its return fire
        s.dice.add(f"{key}:return-fire", [6] * 6)  # Villatte's 6 front-line bases in line: no hit
        script_melee(s, key, [6, 6, 6, 6], [], [6] * 6, [], [(6, 1)])
        s.dice.add(f"regimental-morale:{VIL}", [1, 1])
        s.dice.add(f"{key}:loser-d6", [6])
        n = len(s.battle.events)
        out = act(s, "melee", CAV, target=VIL)
        assert out.status == "resolved", out.explanation
        shots = [e for e in s.battle.events[n:] if isinstance(e, Fired) and e.unit == VIL]
        assert bool(shots) == fires, reading
        if fires:
            assert len(shots[0].roll["raw"]) == 6
