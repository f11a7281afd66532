"""Every D6 table of the Regimental rules, face by face, through the actions on Elchingen: the
artillery shots test (3.3.3), the loser's result (3.4), the square test (3.4.2), the square
loser's two tables (3.4.2) and skirmishers charged by cavalry (Застрельщики). The orders test,
out-of-zone test and commander casualty tables are in ``test_regimental.py``."""

from __future__ import annotations

import math

import pytest

from battlestudio.replay.flow_events import Moved

from regimental_world import Script, act, activate, session
from test_regimental_melee import CONTACT, KEY, VIL, AV, CAV, played, script_melee

GUNS = "french-vi-corps-horse-guns-1"
CAV_KEY = "regimental-melee:austrian-avantgarde-cavalry:t1:a1"


def moved_cm(events, uid):
    return sum(math.dist(*e.path) for e in events if isinstance(e, Moved) and e.id == uid)


@pytest.mark.parametrize("face, shots", [(1, 3), (2, 3), (3, 2), (4, 2), (5, 1), (6, 1)])
def test_shots_test_face_by_face(face, shots):
    units = {GUNS: {"position": (112.0, 50.0), "facing": 270.0}, AV: {"facing": 90.0}}
    s = session(Script(), units, oob={GUNS: "french-2eme-division"})
    activate(s, "french", "french-2eme-division", ["fire"])
    s.dice.add(f"regimental-fire:{GUNS}:t1:a1:shots", [face])
    s.dice.add(f"regimental-fire:{GUNS}:t1:a1", [6] * (3 * shots))
    out = act(s, "fire", GUNS, target=AV, ammunition="roundshot")
    assert f"{shots} shot{'s' if shots > 1 else ''}, {3 * shots} dice" in out.explanation


@pytest.mark.parametrize(
    "face, withdrawn, disorganised",
    [(1, 30.0, True), (2, 30.0, True), (3, 20.0, True), (4, 20.0, True), (5, 0.0, False), (6, 0.0, False)],
)
def test_loser_table_face_by_face(face, withdrawn, disorganised):
    s = played()
    script_melee(s, KEY, [1, 1, 1, 6, 6, 6], [4, 5, 6], [6] * 6, [], [(2, 4)])
    s.dice.add(f"regimental-morale:{VIL}", [2, 2])  # passes: 1-2 withdraws, not broken
    s.dice.add(f"{KEY}:loser-d6", [face])
    n = len(s.battle.events)
    act(s, "melee", AV, target=VIL)
    assert round(moved_cm(s.battle.events[n:], VIL), 6) == withdrawn  # 3 or 2 moves of 10 cm
    assert (s.state.units[VIL].state == "disorganised") is disorganised


@pytest.mark.parametrize(
    "face, formation, disorganised, defender_dice",
    [
        (1, "line", False, 6),
        (2, "square", False, 4),
        (3, "square", False, 4),
        (4, "square", False, 4),
        (5, "square", False, 4),
        (6, "square", True, 2),
    ],
)
def test_square_test_face_by_face(face, formation, disorganised, defender_dice):
    s = played()
    s.dice.add(f"{CAV_KEY}:square", [face])
    if 2 <= face <= 5:
        s.dice.add(f"{CAV_KEY}:return-fire", [6])  # the front base fires one die: a miss
    if face == 1:  # no square, but the morale test passed: its 6 front-line bases fire, misses
        s.dice.add(f"{CAV_KEY}:return-fire", [6] * 6)
    s.dice.add(f"regimental-morale:{VIL}", [1, 1], [1, 1])  # the square test's (on 1), the loser's
    script_melee(s, CAV_KEY, [6] * 4, [], [6] * defender_dice, [], [(6, 1)])
    s.dice.add(f"{CAV_KEY}:loser-d6", [6])  # stands
    out = act(s, "melee", CAV, target=VIL)
    assert out.status == "resolved", out.explanation
    assert s.state.units[VIL].formation.value == formation
    assert (s.state.units[VIL].state == "disorganised") is disorganised
    assert any(p.endswith(":return-fire") for p in s.dice.purposes()) is (face <= 5)


IN_SQUARE = {VIL: {**CONTACT[VIL], "formation": "square"}, CAV: {"position": (112.0, 61.0), "facing": 270.0}}


@pytest.mark.parametrize(
    "passed, face, withdrawn, formation, disorganised",
    [
        (False, 1, 10.0, "line", True),
        (False, 2, 10.0, "line", True),
        (False, 3, 5.0, "square", True),
        (False, 4, 5.0, "square", True),
        (False, 5, 0.0, "square", True),
        (False, 6, 0.0, "square", True),
        (True, 1, 5.0, "square", True),
        (True, 2, 5.0, "square", True),
        (True, 3, 5.0, "square", False),
        (True, 4, 5.0, "square", False),
        (True, 5, 0.0, "square", False),
        (True, 6, 0.0, "square", False),
    ],
)
def test_square_loser_tables_face_by_face(passed, face, withdrawn, formation, disorganised):
    s = played(units=IN_SQUARE)
    script_melee(s, CAV_KEY, [6, 6, 6, 6], [], [6, 6, 6, 6], [], [(6, 1)])
    s.dice.add(f"regimental-morale:{VIL}", [1, 1] if passed else [6, 6])
    s.dice.add(f"{CAV_KEY}:loser-d6", [face])
    n = len(s.battle.events)
    out = act(s, "melee", CAV, target=VIL)
    assert out.status == "resolved", out.explanation
    assert round(moved_cm(s.battle.events[n:], VIL), 6) == withdrawn  # 1 move = 10 cm, half = 5
    assert s.state.units[VIL].formation.value == formation
    assert (s.state.units[VIL].state == "disorganised") is disorganised


@pytest.mark.parametrize(
    "face, result", [(1, "flee"), (2, "withdraw"), (3, "withdraw"), (4, "withdraw"), (5, "withdraw"), (6, "stand")]
)
def test_skirmishers_charged_by_cavalry_face_by_face(face, result):
    s = played(units={VIL: {**CONTACT[VIL], "subtype": "skirmishers", "formation": "skirmish"}})
    s.dice.add(f"regimental-morale:{VIL}", [1, 1])  # passed: the table is rolled
    s.dice.add(f"{CAV_KEY}:skirm-d6", [face])
    if result == "stand":  # disorganised, they fight: the melee follows
        script_melee(s, CAV_KEY, [6] * 4, [], [6] * 6, [], [(1, 6)])
        s.dice.add(f"regimental-morale:{CAV}", [1, 1])
        s.dice.add(f"{CAV_KEY}:loser-d6", [6])
    n = len(s.battle.events)
    out = act(s, "melee", CAV, target=VIL)
    assert out.status == "resolved", out.explanation
    evs = s.battle.events[n:]
    if result == "flee":
        assert VIL not in s.state.units
    else:
        assert s.state.units[VIL].state == "disorganised"
        assert (moved_cm(evs, VIL) > 0) is (result == "withdraw")
        assert any(p.endswith(":attacker") for p in s.dice.purposes()) is (result == "stand")
