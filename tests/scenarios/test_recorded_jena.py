"""The recorded game in the bundled Jena scenario: at least 24 turns with orders, command rolls
explained by the Torden over Europa engine, moves of corps generals under their orders, the
umpire's combat results and the narrative; random access agrees with folding the log; and
rebuilding (build_jena.py, then record_jena.py) gives the committed game.
"""

from __future__ import annotations

import importlib.util
import math
import sys
from collections import Counter
from pathlib import Path

import pytest

from battlestudio import store
from battlestudio.replay.battle import Battle
from battlestudio.replay.game import GameLog
from battlestudio.rules import RollRecord

SCEN = Path(__file__).resolve().parents[2] / "scenarios"
JENA = SCEN / "jena-1806.battle.json"


def _script(name: str):
    sys.path.insert(0, str(SCEN))
    spec = importlib.util.spec_from_file_location(name, SCEN / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def battle() -> Battle:
    return store.load(JENA)


@pytest.fixture(scope="module")
def log(battle) -> GameLog:
    return GameLog.from_battle(battle)


def test_at_least_24_turns_of_both_sides_from_0600(battle, log):
    assert battle.scenario.info.first_turn == "06:00" and battle.scenario.info.date == "1806-10-14"
    turns = log.turns()
    assert turns == list(range(1, len(turns) + 1)) and len(turns) >= 24
    for t in turns:
        sides = {k.side for k in log.phases() if k.turn == t}
        assert sides == {"french", "prussian"}, t
    assert [k.phase for k in log.phases()[:7]] == [
        "orders",
        "movement",
        "visual_contact",
        "attack_declaration",
        "fire",
        "attack",
        "reorganisation",
    ]


def test_orders_rolls_and_moves_are_the_engines(battle):
    kinds = Counter(e.kind for e in battle.events)
    assert kinds["order_written"] >= 20 and kinds["order_delivered"] >= 10 and kinds["order_failed"] >= 10
    # every delivery and failure follows a roll, except orders carried on the march and the
    # automatic retreats (2.9, delivered without a roll: assumed auto_retreat_needs_roll false)
    automatic = {e.order_id for e in battle.events if e.kind == "order_written" and e.parameters.get("automatic")}
    assert automatic
    unrolled = _arrival_orders(battle) + sum(
        1 for e in battle.events if e.kind == "order_delivered" and e.order_id in automatic
    )
    assert kinds["command_roll"] == kinds["order_delivered"] - unrolled + kinds["order_failed"]
    for e in battle.events:
        if e.kind == "command_roll":
            roll = RollRecord.from_dict(e.roll)
            assert e.explanation == roll.explain() and e.explanation.startswith("Command control")
            assert roll.success == (roll.total >= roll.threshold)
            assert roll.dice.sides == 10 and 0 <= roll.raw[0] <= 9
    # corps generals move in their movement phase, by at most an attack step or a march length
    corps = {c for c, rec in battle.scenario.commanders.items() if rec.echelon in ("corps", "division")}
    state = GameLog.from_battle(battle).initial
    moved = 0
    for e in battle.events:
        if e.kind == "moved" and e.id in corps and e.phase == "movement":
            assert math.dist(state.commanders[e.id].position, e.path[-1]) <= 45.0 + 1e-6
            moved += 1
        state = e.apply(state)
    assert moved >= 100


def _arrival_orders(battle: Battle) -> int:
    return sum(1 for e in battle.events if e.kind == "order_delivered" and e.order_id.startswith("arrival-"))


def test_umpire_results_and_the_narrative(battle, log):
    kinds = Counter(e.kind for e in battle.events)
    assert kinds["melee"] >= 10 and kinds["morale_test"] >= 10 and kinds["casualties"] >= 50
    assert kinds["reinforcement_arrived"] >= 8
    melee = next(e for e in battle.events if e.kind == "melee")
    assert "umpire" in melee.explanation.lower() and "d10 =" in melee.explanation
    notes = [e for e in battle.events if e.kind == "annotation"]
    text = " ".join(e.text for e in notes)
    for needle in ("Closewitz", "Cospeda", "Soult", "Vierzehnheiligen", "Augereau", "Isserstedt", "Rüchel", "fog"):
        assert needle.lower() in text.lower(), needle
    assert any("Petre" in s.title for s in battle.scenario.sources)
    # the French end the day west of where they began, the Prussian army is broken
    end = log.head
    start = log.initial
    lannes = "french-v-corps"
    assert end.commanders[lannes].position[0] < start.commanders[lannes].position[0] - 100.0
    lost = {s: 0 for s in battle.scenario.sides}
    for e in battle.events:
        if e.kind == "casualties":
            lost[battle.scenario.units[e.unit].side] += e.figures
    gone = Counter(battle.scenario.units[u].side for u, rec in end.units.items() if rec.state == "eliminated")
    assert gone["prussian"] > gone["french"]
    assert lost["prussian"] > 0 and lost["french"] > 0


def test_state_at_every_phase_boundary_equals_the_fold(log):
    starts = set(log.phase_starts()) | {p - 1 for p in log.phase_starts()} | {len(log)}
    state = log.initial
    for pos, e in enumerate(log.events, start=1):
        state = e.apply(state)
        if pos in starts:
            assert log.state_at(pos) == state, pos
    assert log.state_at(log.cursor_at(len(log))) == state


def _turn_ends(log: GameLog) -> dict[int, object]:
    """State at the end of every turn (after its TurnEnded), and the final state as turn 40."""
    out = {}
    state = log.initial
    for e in log.events:
        state = e.apply(state)
        if e.kind == "turn_ended":
            out[e.turn] = state
    out[max(log.turns())] = log.head
    return out


@pytest.fixture(scope="module")
def ends(log):
    return _turn_ends(log)


def test_formations_do_not_stack_on_each_other(ends):
    from shapely.strtree import STRtree

    stacked = 0
    for st in ends.values():
        units = [u for u in st.units.values() if u.id not in st.off_table and u.state != "eliminated"]
        shapes = [u.footprint() for u in units]
        tree = STRtree(shapes)
        for i, a in enumerate(shapes):
            for j in tree.query(a):
                if j > i and units[i].side == units[j].side and a.intersection(shapes[j]).area > 0.5:
                    stacked += 1
    # troops following their generals keep apart (follow_moves keep_apart_cm); over 40 turn ends
    # of about 100 units only the odd umpire's melee move may leave two units touching
    assert stacked <= 10


def test_beaten_prussians_retreat_away_from_the_french(battle, log):
    assert battle.scenario.info.parameters["toe.retreat_direction"] == "enemy_front"
    assert "directly away from the enemy front" in battle.scenario.info.parameters["toe.note.retreat_direction"]
    state = log.initial
    retreats = 0
    for e in battle.events:
        if e.kind == "order_written" and e.order_type == "T" and e.recipient.startswith("prussian"):
            here = state.commanders[e.recipient].position
            dx, dy = e.objective[0] - here[0], e.objective[1] - here[1]
            # never back towards Jena and the Saale, where the French came from
            assert not (dx > 1.0 and dy < -1.0), (e.turn, e.recipient, here, e.objective)
            # an objective is a point on the table (2.6, 2.9: auto_retreat_off_table = "edge")
            w, h = battle.scenario.info.table_width, battle.scenario.info.table_height
            assert 0.0 < e.objective[0] < w and 0.0 < e.objective[1] < h, (e.turn, e.recipient, e.objective)
            retreats += 1
        state = e.apply(state)
    assert retreats >= 6
    # beaten formations whose retreat brought them to the table edge leave the table there (the
    # umpire's ruling, record_jena._retreated_to_edge) instead of sitting on it behind the French
    gone = [e for e in battle.events if e.kind == "annotation" and e.title == "Retreat off the table"]
    assert len(gone) >= 2


def test_the_advance_guards_automatic_retreat_is_held_on_the_table_and_off_is_the_override(battle, log):
    """Turn 4: Tauentzien's advance guard, beaten at Closewitz, retreats automatically 1 m directly
    away from the French; 1 m would lie 2.2 cm beyond the 300 cm table, so the objective is held
    1 cm inside it (2.6, 2.9); the old reading 'off' keeps it beyond the edge."""
    from battlestudio.rules.toe.checks import auto_retreat_objective
    from battlestudio.rules.toe.common import params_for

    state = log.initial
    for e in battle.events:
        if e.kind == "order_written" and e.order_type == "T" and e.parameters.get("automatic"):
            break
        state = e.apply(state)
    assert (e.turn, e.recipient) == (4, "prussian-adv-guard-div")
    info = battle.scenario.info
    params = {"table_cm": [info.table_width, info.table_height], **info.parameters}
    held = auto_retreat_objective(state, params_for(params), e.recipient)
    assert held == pytest.approx(e.objective) and held[1] == pytest.approx(info.table_height - 1.0)
    off = auto_retreat_objective(state, params_for({**params, "toe.auto_retreat_off_table": "off"}), e.recipient)
    assert off[1] == pytest.approx(302.2, abs=0.05) and off[0] == pytest.approx(held[0])


def test_the_historical_course_is_recognisable(battle, ends):
    towns = {t.name: t.polygon.centroid for t in battle.scenario.towns.values()}

    def dist(st, cid, town):
        return math.dist(st.commanders[cid].position, (towns[town].x, towns[town].y))

    def closest(cid, town, turns):
        return min(
            dist(ends[t], cid, town) for t in turns if cid in ends[t].commanders and cid not in ends[t].off_table
        )

    assert closest("french-v-corps", "Closewitz", range(4, 14)) <= 15.0  # Lannes at Closewitz in the fog
    assert closest("french-vi-corps", "Vierzehnheiligen", range(17, 30)) <= 25.0  # Ney's attack
    assert closest("french-vii-corps", "Isserstedt", range(15, 31)) <= 15.0  # Augereau by Isserstedt
    assert closest("french-iv-corps", "Krippendorf", range(20, 41)) <= 30.0  # Soult towards Krippendorf
    ruchel = "prussian-reserve-ruchel"
    arrived = next(
        e.turn for e in battle.events if e.kind == "reinforcement_arrived" and e.reinforcement == f"arrive-{ruchel}"
    )
    assert arrived >= 30  # Rüchel comes late ...
    assert any(
        e.kind == "order_written" and e.order_type == "T" and e.recipient == ruchel and e.turn > arrived
        for e in battle.events
    )  # ... and is beaten
    # the afternoon rout: by the end the Prussians have lost or left more than half their units,
    # and what remains stands in the west, by Kapellendorf and the Weimar road
    end = ends[max(ends)]
    start = [u for u in battle.scenario.units.values() if u.side == "prussian"]
    left = [
        u for u in end.units.values() if u.side == "prussian" and u.id not in end.off_table and u.state != "eliminated"
    ]
    assert len(left) * 2 < len(start)
    assert all(u.position[0] < 200.0 or u.position[1] > 280.0 for u in left)
