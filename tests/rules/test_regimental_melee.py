"""Regimental melee (3.4, 3.4.1), the square test (3.4.2), cavalry against skirmishers and
artillery overrun as actions in a real Elchingen session: dice per base, casualties, the
combat-result test, the loser's morale test and D6, the modifiers and their readings."""

from __future__ import annotations

import itertools
from fractions import Fraction

from battlestudio.replay.combat_events import Fired, Melee, MoraleTest
from battlestudio.replay.flow_events import FormationChanged, Moved, UnitRemoved
from battlestudio.rules.regimental.melee import win_chance
from battlestudio.rules.regimental.morale import MarkersPlaced

from regimental_world import Script, act, activate, preview, session

AV = "austrian-avantgarde"  # line infantry, 6 bases, in the 1st division's general's zone
CAV = "austrian-avantgarde-cavalry"  # light cavalry (hussars), 4 figures: 2 bases
VIL = "french-bde-villatte"  # line infantry, 6 bases
GUNS = "french-vi-corps-horse-guns-1"
CONTACT = {
    VIL: {"position": (112.0, 60.5), "facing": 90.0, "formation": "line"},
    CAV: {"position": (131.0, 61.0), "facing": 270.0},
}
KEY = "regimental-melee:austrian-avantgarde:t1:a1"


def played(params=None, units=None):
    s = session(Script(), {**CONTACT, **(units or {})}, params=params)
    activate(s, "austrian", "austrian-1st-div", ["melee", "melee"])
    return s


def script_melee(s, key, att, att_saves, dfn, dfn_saves, results):
    s.dice.add(f"{key}:attacker", att)
    if att_saves:
        s.dice.add(f"{key}:attacker:save", att_saves)
    s.dice.add(f"{key}:defender", dfn)
    if dfn_saves:
        s.dice.add(f"{key}:defender:save", dfn_saves)
    for i, (x, y) in enumerate(results, 1):
        s.dice.add(f"{key}:result{i}:attacker", [x])
        s.dice.add(f"{key}:result{i}:defender", [y])


def test_melee_modifiers_and_exact_odds_before_the_roll():
    # 3.4.1 and Пехота: line infantry +1 to the result
    s = played()
    pv = preview(s, "melee", AV, target=VIL)
    assert "result +3" in pv.explanation and "bayonet attack without firing" in pv.explanation
    assert "line infantry" in pv.explanation and "general's command zone" in pv.explanation
    assert dict(pv.odds)["attacker wins"] == win_chance(6, 6, 3, 1, "reroll")[0]


def test_win_chance_matches_an_enumeration_of_every_die():
    # one die each: hit 1-3, save 1-3, then modifiers + enemy casualties + D6, ties rolled again
    win = lose = 0
    for ha, sa, hd, sd, x, y in itertools.product(range(1, 7), repeat=6):
        ma = int(ha <= 3 and sa > 3)  # markers the attacker inflicts
        md = int(hd <= 3 and sd > 3)
        ta, td = 1 + ma + x, 0 + md + y
        win += ta > td
        lose += ta < td
    exact = win_chance(1, 1, 1, 0, "reroll")[0]
    # each (ma, md) pair rerolls its own ties, so compare per pair: the enumeration of the
    # casualties times the enumerated result dice
    total = Fraction(0)
    for ma, pa in ((0, Fraction(3, 4)), (1, Fraction(1, 4))):
        for md, pd in ((0, Fraction(3, 4)), (1, Fraction(1, 4))):
            w = sum(1 for x, y in itertools.product(range(1, 7), repeat=2) if 1 + ma + x > md + y)
            lo = sum(1 for x, y in itertools.product(range(1, 7), repeat=2) if 1 + ma + x < md + y)
            total += pa * pd * Fraction(w, w + lo)
    assert exact == total
    assert win_chance(1, 1, 1, 0, "defender_holds")[0] == Fraction(win, 6**6)
    assert win > lose


def test_loser_fails_morale_and_rolls_1_broken_and_flees():
    s = played()
    script_melee(s, KEY, [1, 1, 1, 6, 6, 6], [4, 5, 6], [6, 6, 6, 6, 6, 1], [6], [(2, 4)])
    s.dice.add(f"regimental-morale:{VIL}", [5, 5])
    s.dice.add(f"{KEY}:loser-d6", [1])
    n = len(s.battle.events)
    out = act(s, "melee", AV, target=VIL)
    assert out.status == "resolved", out.explanation
    evs = s.battle.events[n:]
    melee = evs[0]
    assert isinstance(melee, Melee) and melee.winner == "attacker"
    # attacker 2 + 3 modifiers + 3 casualties = 8 against 4 + 1 + 1 = 6
    assert "combat result 8 against 6" in out.explanation
    placed = {e.unit: e.added for e in evs if isinstance(e, MarkersPlaced)}
    assert placed == {VIL: 3, AV: 1} and s.state.units[AV].attributes["markers"] == 1
    test = next(e for e in evs if isinstance(e, MoraleTest))
    assert not test.passed and test.unit == VIL
    assert any(isinstance(e, UnitRemoved) and e.id == VIL for e in evs)
    assert VIL not in s.state.units


def test_loser_3_4_withdraws_two_moves_disorganised_as_errata_1_reads_it():
    s = played()
    script_melee(s, KEY, [1, 1, 1, 6, 6, 6], [4, 5, 6], [6, 6, 6, 6, 6, 6], [], [(2, 4)])
    s.dice.add(f"regimental-morale:{VIL}", [2, 2])
    s.dice.add(f"{KEY}:loser-d6", [3])
    n = len(s.battle.events)
    out = act(s, "melee", AV, target=VIL)
    evs = s.battle.events[n:]
    move = next(e for e in evs if isinstance(e, Moved))
    (x0, y0), (x1, y1) = move.path
    assert round(((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5, 6) == 20.0 and y1 < y0  # 2 × 10 cm, away
    assert s.state.units[VIL].state == "disorganised" and "ERRATA 1" in out.explanation
    assert s.state.flags[f"withdrew_disorganised:{VIL}"] == 1

    s = played(params={"loser_3_4_disorganised": False})
    script_melee(s, KEY, [1, 1, 1, 6, 6, 6], [4, 5, 6], [6, 6, 6, 6, 6, 6], [], [(2, 4)])
    s.dice.add(f"regimental-morale:{VIL}", [2, 2])
    s.dice.add(f"{KEY}:loser-d6", [3])
    act(s, "melee", AV, target=VIL)
    assert s.state.units[VIL].state != "disorganised" and f"withdrew_disorganised:{VIL}" not in s.state.flags


def test_a_tie_is_rolled_again_or_the_defender_holds():
    s = played()
    # 0 casualties each: attacker 3 + 4 = 7, defender 1 + 6 = 7, then 6 + 3 against 1 + 1
    script_melee(s, KEY, [6] * 6, [], [6] * 6, [], [(4, 6), (6, 1)])
    s.dice.add(f"regimental-morale:{VIL}", [1, 1])
    s.dice.add(f"{KEY}:loser-d6", [6])
    out = act(s, "melee", AV, target=VIL)
    assert "7 each: both roll again" in out.explanation and "9 against 2: the attacker wins" in out.explanation
    assert "stays in place" in out.explanation

    s = played(params={"melee_tie": "defender_holds"})
    script_melee(s, KEY, [6] * 6, [], [6] * 6, [], [(4, 6)])
    s.dice.add(f"regimental-morale:{AV}", [1, 1])
    s.dice.add(f"{KEY}:loser-d6", [6])
    n = len(s.battle.events)
    out = act(s, "melee", AV, target=VIL)
    assert s.battle.events[n].winner == "defender" and "the defender holds" in out.explanation


def test_fortification_gives_the_attacker_2_as_errata_2_reads_it_and_the_defender_1_morale():
    s = played()
    pv = preview(s, "melee", AV, target=VIL, fortified=True)
    assert "result +5" in pv.explanation and "attack on a fortification" in pv.explanation
    s = played(params={"fortification_result_to": "defender"})
    pv2 = preview(s, "melee", AV, target=VIL, fortified=True)
    assert "result +3" in pv2.explanation and "defends a fortification" in pv2.explanation
    assert dict(pv2.odds)["attacker wins"] < dict(pv.odds)["attacker wins"]
    # +1 to the defender's morale when it loses: target 9
    s = played()
    script_melee(s, KEY, [6] * 6, [], [6] * 6, [], [(6, 1)])
    s.dice.add(f"regimental-morale:{VIL}", [4, 5])
    s.dice.add(f"{KEY}:loser-d6", [6])
    n = len(s.battle.events)
    act(s, "melee", AV, target=VIL, fortified=True, attack="rear")  # rear -1, fortification +1
    test = next(e for e in s.battle.events[n:] if isinstance(e, MoraleTest))
    assert test.passed is False and "≤ 8 = 8 + 0" in test.explanation
    assert "-1 attacked in the rear" in test.explanation and "+1 defends a fortification" in test.explanation


def test_flank_and_rear_attacks_and_assault_column():
    s = played(units={AV: {"formation": "column"}})
    assert "result +6" in preview(s, "melee", AV, target=VIL, attack="flank").explanation  # 3 + column + flank 2
    assert "result +7" in preview(s, "melee", AV, target=VIL, attack="rear").explanation


def test_not_in_contact_is_refused():
    s = played(units={VIL: {"position": (112.0, 55.0), "facing": 90.0, "formation": "line"}})
    out = act(s, "melee", AV, target=VIL)
    assert out.status == "refused" and "needs contact" in out.explanation


def test_cavalry_charge_square_test_2_5_forms_square_front_base_fires_and_square_plus_3():
    s = played()
    key = "regimental-melee:austrian-avantgarde-cavalry:t1:a1"
    s.dice.add(f"{key}:square", [3])
    s.dice.add(f"{key}:return-fire", [1], [5])  # one die from the front base: hit, not saved
    # cavalry 2 bases × 2 dice, a square 4 dice
    script_melee(s, key, [1, 1, 1, 1], [6, 6, 6, 6], [6, 6, 6, 6], [], [(6, 1)])
    s.dice.add(f"regimental-morale:{VIL}", [1, 1])
    s.dice.add(f"{key}:loser-d6", [3])
    n = len(s.battle.events)
    out = act(s, "melee", CAV, target=VIL)
    assert out.status == "resolved", out.explanation
    evs = s.battle.events[n:]
    assert any(isinstance(e, FormationChanged) and e.formation == "square" for e in evs)
    assert any(isinstance(e, Fired) and e.unit == VIL for e in evs)
    assert "square: 4 dice" in out.explanation and "in square (3.4.2)" in out.explanation
    # cavalry 6 + 1 zone + 4 casualties = 11 against 1 + 3 square + 1 line + 0 = 5
    assert "combat result 11 against 5" in out.explanation
    assert "half a move without disorganisation" in out.explanation
    assert s.state.units[VIL].state != "disorganised" and s.state.units[VIL].formation.value == "square"


def test_square_test_6_square_disorganised_rolls_2_dice_and_1_no_square_takes_morale():
    s = played()
    key = "regimental-melee:austrian-avantgarde-cavalry:t1:a1"
    s.dice.add(f"{key}:square", [6])
    script_melee(s, key, [6, 6, 6, 6], [], [6, 6], [], [(1, 6)])
    s.dice.add(f"regimental-morale:{CAV}", [1, 1])
    s.dice.add(f"{key}:loser-d6", [6])
    out = act(s, "melee", CAV, target=VIL)
    assert "square with a disorganisation marker: 2 dice" in out.explanation
    assert s.state.units[VIL].state == "disorganised"

    s = played()
    s.dice.add(f"{key}:square", [1])
    s.dice.add(f"regimental-morale:{VIL}", [6, 6], [6, 6])  # the square test's, then the loser's
    script_melee(s, key, [6, 6, 6, 6], [], [6] * 6, [], [(6, 1)])
    s.dice.add(f"{key}:loser-d6", [1])
    n = len(s.battle.events)
    out = act(s, "melee", CAV, target=VIL)
    evs = s.battle.events[n:]
    assert "does not form square" in out.explanation and "may not return fire" in out.explanation
    assert not any(isinstance(e, FormationChanged) for e in evs)
    # it lost, rolled 1 and was disorganised by the failed test: broken
    assert VIL not in s.state.units


def test_square_that_loses_and_fails_rolls_1_2_withdraws_a_move_into_line():
    # already in square: no test; the square's footprint is smaller, the cavalry faces its front
    s = played(units={VIL: {**CONTACT[VIL], "formation": "square"}, CAV: {"position": (112.0, 61.0), "facing": 270.0}})
    key = "regimental-melee:austrian-avantgarde-cavalry:t1:a1"
    script_melee(s, key, [6, 6, 6, 6], [], [6, 6, 6, 6], [], [(6, 1)])
    s.dice.add(f"regimental-morale:{VIL}", [6, 6])
    s.dice.add(f"{key}:loser-d6", [2])
    out = act(s, "melee", CAV, target=VIL)
    assert "Square test" not in out.explanation
    assert s.state.units[VIL].formation.value == "line" and s.state.units[VIL].state == "disorganised"


def test_cavalry_against_skirmishers_that_fail_morale_are_ridden_down():
    s = played(units={VIL: {**CONTACT[VIL], "subtype": "skirmishers", "formation": "skirmish"}})
    key = "regimental-melee:austrian-avantgarde-cavalry:t1:a1"
    s.dice.add(f"regimental-morale:{VIL}", [6, 5])
    out = act(s, "melee", CAV, target=VIL)
    assert "ridden down" in out.explanation and VIL not in s.state.units
    # passed, then 2-5: withdraw behind their infantry, disorganised, no melee
    s = played(units={VIL: {**CONTACT[VIL], "subtype": "skirmishers", "formation": "skirmish"}})
    s.dice.add(f"regimental-morale:{VIL}", [1, 1])
    s.dice.add(f"{key}:skirm-d6", [3])
    n = len(s.battle.events)
    act(s, "melee", CAV, target=VIL)
    evs = s.battle.events[n:]
    assert s.state.units[VIL].state == "disorganised" and any(isinstance(e, Moved) for e in evs)
    assert not any(p.endswith(":attacker") for p in s.dice.purposes())


def test_artillery_without_troops_behind_is_overrun():
    s = played(units={GUNS: {"position": (112.0, 60.5), "facing": 90.0}, VIL: {"position": (60.0, 20.0)}})
    assert dict(preview(s, "melee", AV, target=GUNS).odds)["attacker wins"] == 1
    n = len(s.battle.events)
    out = act(s, "melee", AV, target=GUNS)
    evs = s.battle.events[n:]
    assert isinstance(evs[0], Melee) and evs[0].winner == "attacker" and "overrun" in out.explanation
    assert GUNS not in s.state.units


def test_artillery_cannot_melee_and_a_third_melee_is_refused():
    s = played()
    assert not any(a.id == "melee" for a in s.actions("french-vi-corps-foot-guns-1"))
    s.dice.add("regimental-melee:austrian-avantgarde:t1:a1:attacker", [6] * 6)
    s.dice.add("regimental-melee:austrian-avantgarde:t1:a2:attacker", [6] * 6)
    for k in (1, 2):
        s.dice.add(f"regimental-melee:austrian-avantgarde:t1:a{k}:defender", [6] * 6)
        s.dice.add(f"regimental-melee:austrian-avantgarde:t1:a{k}:result1:attacker", [6])
        s.dice.add(f"regimental-melee:austrian-avantgarde:t1:a{k}:result1:defender", [1])
        s.dice.add(f"regimental-melee:austrian-avantgarde:t1:a{k}:loser-d6", [6])
    s.dice.add(f"regimental-morale:{VIL}", [1, 1], [1, 1])
    assert act(s, "melee", AV, target=VIL).status == "resolved"
    assert act(s, "melee", AV, target=VIL).status == "resolved"
    third = act(s, "melee", AV, target=VIL)
    assert third.status == "refused" and "used all 2 actions" in third.explanation


def test_mounted_chasseurs_fire_one_die_before_the_melee_and_others_may_not():
    # Кавалерия: «Конные егеря могут произвести один выстрел перед ближним боем»
    chasseurs = {"attributes": {"fogofwar_cav_type": "Chasseur"}}
    s = played(units={CAV: {**CONTACT[CAV], **chasseurs}})
    key = "regimental-melee:austrian-avantgarde-cavalry:t1:a1"
    s.dice.add(f"{key}:chasseurs", [2], [5])  # one die as infantry: a hit, not saved
    s.dice.add(f"{key}:square", [3])
    s.dice.add(f"{key}:return-fire", [6])
    script_melee(s, key, [6, 6, 6, 6], [], [6, 6, 6, 6], [], [(6, 1)])
    s.dice.add(f"regimental-morale:{VIL}", [1, 1])
    s.dice.add(f"{key}:loser-d6", [6])
    n = len(s.battle.events)
    out = act(s, "melee", CAV, target=VIL, shoot_first=True)
    assert out.status == "resolved", out.explanation
    shot = next(e for e in s.battle.events[n:] if isinstance(e, Fired))
    assert shot.unit == CAV and shot.result == "1 casualty marker"
    assert "only mounted chasseurs" in act(s, "melee", AV, target=VIL, shoot_first=True).explanation


def test_skirmishers_in_a_wood_cannot_be_attacked():
    s = played(units={VIL: {**CONTACT[VIL], "subtype": "skirmishers", "formation": "skirmish"}})
    out = act(s, "melee", CAV, target=VIL, target_in_woods=True)
    assert out.status == "refused" and "в лесу" in out.explanation


def test_a_square_that_formed_does_not_roll_its_fire_when_the_reading_is_overridden():
    s = played(params={"square_return_fire": False})
    key = "regimental-melee:austrian-avantgarde-cavalry:t1:a1"
    s.dice.add(f"{key}:square", [4])
    script_melee(s, key, [6, 6, 6, 6], [], [6, 6, 6, 6], [], [(1, 6)])
    s.dice.add(f"regimental-morale:{CAV}", [1, 1])
    s.dice.add(f"{key}:loser-d6", [6])
    n = len(s.battle.events)
    out = act(s, "melee", CAV, target=VIL)
    assert out.status == "resolved" and not any(isinstance(e, Fired) for e in s.battle.events[n:])
