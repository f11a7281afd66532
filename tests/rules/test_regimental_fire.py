"""Regimental fire (3.3, 3.3.1) and artillery fire (3.3.3) as actions in a real Elchingen
session: dice per front-line base, ranges, hit and save values, casualty markers, bases
removed, the forced morale test, and the orders test's action count (2.2)."""

from __future__ import annotations

from fractions import Fraction

from battlestudio.replay.combat_events import Casualties, Fired, MoraleTest
from battlestudio.replay.flow_events import OrderStateChanged
from battlestudio.replay.order_events import CommandStateChanged
from battlestudio.rules.regimental.morale import MarkersPlaced

from regimental_world import Script, act, activate, preview, session

AV = "austrian-avantgarde"  # 34 figures in line: 6 bases at 6 figures a base (assumed)
VIL = "french-bde-villatte"
GUNS = "french-vi-corps-horse-guns-1"
FACING = {VIL: {"position": (112.0, 58.0), "facing": 90.0, "formation": "line"}}


def new_events(s, n):
    return s.battle.events[n:]


def test_infantry_fires_one_die_per_front_base_hits_1_3_saves_1_3():
    s = session(Script(), FACING)
    activate(s, "austrian", "austrian-1st-div", ["fire", "move", "fire"])
    pv = preview(s, "fire", AV, target=VIL)
    # 6 bases in line, each die a marker with 3/6 × 3/6
    assert pv.legal and "6 front-line bases" in pv.explanation and "1/4" in pv.explanation
    assert dict(pv.odds)["expected casualty markers"] == Fraction(3, 2)
    assert dict(pv.odds)["at least one casualty marker"] == 1 - Fraction(3, 4) ** 6
    assert dict(pv.outcomes)["2 markers"] == 15 * Fraction(1, 4) ** 2 * Fraction(3, 4) ** 4
    s.dice.add("regimental-fire:austrian-avantgarde:t1:a1", [1, 2, 3, 4, 5, 6], [3, 4, 6])
    n = len(s.battle.events)
    out = act(s, "fire", AV, target=VIL)
    assert out.status == "resolved", out.explanation
    assert "3 hits" in out.explanation and "1 saved, 2 casualty markers" in out.explanation
    evs = new_events(s, n)
    assert isinstance(evs[0], Fired) and evs[0].result == "2 casualty markers" and evs[0].range_cm == 3.0
    assert [e.added for e in evs if isinstance(e, MarkersPlaced)] == [2]
    assert s.state.units[VIL].attributes["markers"] == 2
    assert not any(isinstance(e, (Casualties, MoraleTest)) for e in evs)


def test_column_fires_with_its_front_base_only_and_the_reading_is_overridable():
    s = session(Script(), {**FACING, AV: {"formation": "column"}})
    activate(s, "austrian", "austrian-1st-div", ["fire"])
    assert "1 front-line base in column" in preview(s, "fire", AV, target=VIL).explanation
    s2 = session(Script(), {**FACING, AV: {"formation": "column"}}, params={"column_front_bases": 2})
    activate(s2, "austrian", "austrian-1st-div", ["fire"])
    pv = preview(s2, "fire", AV, target=VIL)
    assert "2 front-line bases" in pv.explanation and dict(pv.odds)["expected casualty markers"] == Fraction(1, 2)


def test_fire_beyond_5_cm_is_refused_with_the_distance():
    s = session(Script(), {VIL: {"position": (112.0, 50.0), "facing": 90.0, "formation": "line"}})
    activate(s, "austrian", "austrian-1st-div", ["fire"])
    spec = next(a for a in s.actions(AV) if a.id == "fire")
    assert spec.unavailable.startswith("no enemy unit within its 5 cm range (3.3): the nearest, ")
    assert "11.0 cm away" in spec.unavailable and spec.parameters[0].choices == ()
    out = act(s, "fire", AV, target=VIL)
    assert out.status == "refused" and "11.0 cm" in out.explanation and "5 cm" in out.explanation


def test_fire_offers_only_the_enemy_units_in_range():
    s = session(Script(), FACING)
    activate(s, "austrian", "austrian-1st-div", ["fire"])
    spec = next(a for a in s.actions(AV) if a.id == "fire")
    assert spec.legal and spec.parameters[0].choices == (VIL,)  # the one French brigade within 5 cm


def test_actions_are_counted_the_fourth_refused_and_unannounced_ones_too():
    s = session(Script(), FACING)
    activate(s, "austrian", "austrian-1st-div", ["fire", "fire", "fire"], die=2)  # 1-2: three actions
    for i in range(1, 4):
        s.dice.add(f"regimental-fire:austrian-avantgarde:t1:a{i}", [6, 6, 6, 6, 6, 6])
        assert act(s, "fire", AV, target=VIL).status == "resolved"
    spec = next(a for a in s.actions(AV) if a.id == "fire")
    assert "used all 3 actions" in spec.unavailable
    fourth = act(s, "fire", AV, target=VIL)
    assert fourth.status == "refused" and "used all 3 actions" in fourth.explanation
    # a unit of a division that is not activated, and the enemy, may not fire now
    assert (
        "not in the brigade or division activated"
        in next(a for a in s.actions("austrian-avantgarde-2") if a.id == "fire").unavailable
    )
    assert "austrian's activation" in next(a for a in s.actions(VIL) if a.id == "fire").unavailable


def test_one_action_from_the_orders_test_and_an_action_not_announced():
    s = session(Script(), FACING)
    activate(s, "austrian", "austrian-1st-div", ["move", "fire"], die=5)  # 5-6: one action, the first
    out = act(s, "fire", AV, target=VIL)
    assert out.status == "refused" and "gave 1 of the 2 announced: move, fire" in out.explanation
    s = session(Script(), FACING)
    activate(s, "austrian", "austrian-1st-div", ["move"])
    assert "'fire' is not among" in act(s, "fire", AV, target=VIL).explanation


def test_square_saves_on_1_2_and_skirmishers_are_hit_on_1_2():
    s = session(Script(), {VIL: {**FACING[VIL], "formation": "square"}})
    activate(s, "austrian", "austrian-1st-div", ["fire"])
    s.dice.add("regimental-fire:austrian-avantgarde", [1, 1, 1, 1, 1, 1], [1, 2, 3, 3, 3, 3])
    out = act(s, "fire", AV, target=VIL)
    assert "2 saved, 4 casualty markers" in out.explanation and "save on 1-2" in out.explanation

    s = session(Script(), {VIL: {**FACING[VIL], "subtype": "skirmishers", "formation": "skirmish"}})
    activate(s, "austrian", "austrian-1st-div", ["fire"])
    pv = preview(s, "fire", AV, target=VIL)
    assert "hits on 1-2" in pv.explanation and dict(pv.odds)["expected casualty markers"] == 6 * Fraction(
        2, 6
    ) * Fraction(1, 2)


def test_light_infantry_hits_on_1_4_or_rolls_an_extra_die_when_overridden():
    # Пехота: «Легкая пехота +1 к стрельбе» (Ambiguity 20)
    units = {AV: {"subtype": "light_infantry"}, **FACING}
    s = session(Script(), units)
    activate(s, "austrian", "austrian-1st-div", ["fire"])
    assert dict(preview(s, "fire", AV, target=VIL).odds)["expected casualty markers"] == 6 * Fraction(4, 6) * Fraction(
        1, 2
    )
    s = session(Script(), units, params={"light_infantry_fire": "extra_die"})
    activate(s, "austrian", "austrian-1st-div", ["fire"])
    assert dict(preview(s, "fire", AV, target=VIL).odds)["expected casualty markers"] == 7 * Fraction(3, 6) * Fraction(
        1, 2
    )


def test_six_markers_remove_an_infantry_base_lose_its_figures_and_force_a_morale_test():
    units = {VIL: {**FACING[VIL], "attributes": {"markers": 4, "markers_since_test": 4, "markers_received": 4}}}
    s = session(Script(), units)
    activate(s, "austrian", "austrian-1st-div", ["fire"])
    s.dice.add("regimental-fire:austrian-avantgarde", [1, 1, 6, 6, 6, 6], [6, 6])
    s.dice.add("regimental-morale:french-bde-villatte", [4, 4])
    n = len(s.battle.events)
    out = act(s, "fire", AV, target=VIL)
    evs = new_events(s, n)
    loss = next(e for e in evs if isinstance(e, Casualties))
    assert loss.figures == 6 and loss.cause == "fire"  # one base of 6 figures (1.1; figures_per_base)
    assert s.state.units[VIL].figures == 28 and s.state.units[VIL].attributes["markers"] == 0
    test = next(e for e in evs if isinstance(e, MoraleTest))
    assert test.passed and "2D6 ≤ 8" in test.explanation and "base removed" in out.explanation
    assert s.state.units[VIL].state != "disorganised"


def test_artillery_canister_shots_test_hits_1_4_saves_on_1_and_forces_morale():
    units = {GUNS: {"position": (112.0, 50.0), "facing": 270.0}, AV: {"facing": 90.0}}
    s = session(Script(), units, oob={GUNS: "french-2eme-division"})
    s.advance_to("activation", "french")
    activate(s, "french", "french-2eme-division", ["fire"])
    pv = preview(s, "fire", GUNS, target=AV, ammunition="canister")
    q = Fraction(4, 6) * Fraction(5, 6)  # hits on 1-4 (assumed, Ambiguity 8), save only on 1
    none = Fraction(1, 3) * sum((1 - q) ** (3 * k) for k in (1, 2, 3))
    assert pv.legal and dict(pv.odds)["at least one casualty marker"] == 1 - none
    roundshot = preview(s, "fire", GUNS, target=AV, ammunition="roundshot")
    assert dict(roundshot.odds)["expected casualty markers"] == Fraction(1, 3) * (9 + 6 + 3) * Fraction(1, 4)
    s.dice.add("regimental-fire:french-vi-corps-horse-guns-1:t1:a1:shots", [1])  # 3 shots: 9 dice
    s.dice.add("regimental-fire:french-vi-corps-horse-guns-1:t1:a1", [1, 2, 3, 4, 5, 6, 1, 2, 5], [1, 2, 2, 3, 1, 6])
    s.dice.add("regimental-morale:austrian-avantgarde", [5, 4])
    n = len(s.battle.events)
    out = act(s, "fire", GUNS, target=AV, ammunition="canister")
    assert out.status == "resolved", out.explanation
    assert (
        "3 shots, 9 dice" in out.explanation and "6 hits" in out.explanation and "4 casualty markers" in out.explanation
    )
    evs = new_events(s, n)
    test = next(e for e in evs if isinstance(e, MoraleTest))
    assert not test.passed and "canister" in test.explanation
    assert any(isinstance(e, OrderStateChanged) and e.state == "disorganised" for e in evs)
    assert s.state.units[AV].state == "disorganised"


def test_canister_beyond_15_cm_is_refused_roundshot_reaches_30():
    units = {GUNS: {"position": (112.0, 40.0), "facing": 270.0}}
    s = session(Script(), units, oob={GUNS: "french-2eme-division"})
    activate(s, "french", "french-2eme-division", ["fire"])
    assert "beyond its 15 cm" in act(s, "fire", GUNS, target=AV, ammunition="canister").explanation
    assert preview(s, "fire", GUNS, target=AV, ammunition="roundshot").legal


def test_foot_artillery_needs_the_whole_base_count():
    s = session(Script(), {VIL: {**FACING[VIL]}})
    activate(s, "austrian", "austrian-1st-div", ["fire"])
    # every Elchingen gun model counts its bases (1); an infantry unit's are derived: 34 / 6 → 6
    assert "6 front-line bases" in preview(s, "fire", AV, target=VIL).explanation


def test_twelve_markers_at_once_force_two_morale_tests_or_one_counted_per_resolution():
    units = {VIL: {**FACING[VIL], "attributes": {"markers": 0, "markers_since_test": 6}}}
    s = session(Script(), units)
    activate(s, "austrian", "austrian-1st-div", ["fire"])
    s.dice.add("regimental-fire:austrian-avantgarde", [1] * 6, [6] * 6)  # 6 markers: 12 since the last test
    s.dice.add("regimental-morale:french-bde-villatte", [1, 1], [6, 6])
    n = len(s.battle.events)
    act(s, "fire", AV, target=VIL)
    tests = [e for e in s.battle.events[n:] if isinstance(e, MoraleTest)]
    assert [t.passed for t in tests] == [True, False]
    assert s.state.units[VIL].attributes["markers_since_test"] == 0

    s = session(Script(), units, params={"marker_counting": "per_resolution"})
    activate(s, "austrian", "austrian-1st-div", ["fire"])
    s.dice.add("regimental-fire:austrian-avantgarde", [1] * 6, [6] * 6)
    s.dice.add("regimental-morale:french-bde-villatte", [1, 1])
    n = len(s.battle.events)
    act(s, "fire", AV, target=VIL)
    assert len([e for e in s.battle.events[n:] if isinstance(e, MoraleTest)]) == 1


def test_with_its_hq_captured_a_unit_may_only_fire_or_withdraw():
    s = session(Script(), FACING)
    activate(s, "austrian", "austrian-1st-div", ["melee", "fire"])
    s.record(s.stamped(CommandStateChanged, subject="austrian", state="hq_captured", value=True))  # the umpire
    melee = next(a for a in s.actions(AV) if a.id == "melee")
    assert "HQ is captured" in melee.unavailable
    assert next(a for a in s.actions(AV) if a.id == "fire").legal


def test_canister_read_as_a_shift_of_the_shots_die_gives_more_shots_and_hits_on_1_3():
    units = {GUNS: {"position": (112.0, 50.0), "facing": 270.0}, AV: {"facing": 90.0}}
    s = session(Script(), units, params={"canister_die_shift": "shots_test"}, oob={GUNS: "french-2eme-division"})
    activate(s, "french", "french-2eme-division", ["fire"])
    pv = preview(s, "fire", GUNS, target=AV, ammunition="canister")
    # shots die 1-3 three shots, 4-5 two, 6 one: 7 dice expected; hits 1-3, save on 1
    assert dict(pv.odds)["expected casualty markers"] == 7 * Fraction(3, 6) * Fraction(5, 6)


def test_the_other_skirmisher_save_reading_has_the_skirmishers_save_on_1():
    sk = {"subtype": "skirmishers", "formation": "skirmish"}
    s = session(Script(), {**FACING, VIL: {**FACING[VIL], **sk}}, params={"skirmisher_save_reading": "skirmishers"})
    activate(s, "austrian", "austrian-1st-div", ["fire"])
    pv = preview(s, "fire", AV, target=VIL)  # at skirmishers: hits 1-2, and they save only on 1
    assert dict(pv.odds)["expected casualty markers"] == 6 * Fraction(2, 6) * Fraction(5, 6)
