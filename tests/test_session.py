"""GameSession records a game of the bundled Jena scenario through the Torden over Europa engine:
the turn and phase sequence, orders with seeded and replayed dice and exact odds, the legal move
under a standing order with the troops following, the umpire's entries, undo and resuming.
"""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from battlestudio import store
from battlestudio.replay.battle import Battle
from battlestudio.replay.events import Casualties, Moved, PhaseStarted, TurnEnded
from battlestudio.replay.game import GameLog
from battlestudio.replay.order_events import CommandRolled
from battlestudio.rules import OrderRequest, ReplayDice, RollRecord
from battlestudio.rules.dice import DiceSpec
from battlestudio.session import GameSession, SessionError, game_time
from battlestudio.session.umpire import umpire_roll

JENA = Path(__file__).resolve().parents[1] / "scenarios" / "jena-1806.battle.json"
NAPOLEON, LANNES, SUCHET = "french-imperial-guard", "french-v-corps", "french-1eme-division"

# the engine keys for the scenario's Table 1 placeholders (notes/toe-parameters.md), and march
# lengths, which the scenario does not give yet
ENGINE = {
    "toe.zones_cm.c_in_c": [20, 40, "60+"],
    "toe.zones_cm.army": [20, 40, "60+"],
    "toe.command_thresholds": [4, 6, 8],
    "toe.command_modifiers": {},
    "toe.corps_command_distance_cm": 30,
    "toe.march_length_cm.infantry": 30,
    "toe.march_length_cm.cavalry": 45,
    "toe.march_length_cm.artillery": 30,
    "initiative": "french",
}


class FixedDice:
    """Throws the given faces in turn (the highest face once they run out)."""

    def __init__(self, *faces: int) -> None:
        self.faces = list(faces)
        self.asked: list[str] = []

    def roll(self, purpose: str, dice: DiceSpec) -> tuple[int, ...]:
        self.asked.append(purpose)
        return tuple(self.faces.pop(0) if self.faces else dice.high for _ in range(dice.count))


@pytest.fixture(scope="module")
def jena_scenario():
    return store.load(JENA).scenario


def fresh(scenario, **kw) -> GameSession:
    kw.setdefault("params", ENGINE)
    return GameSession(Battle(scenario, []), **kw)


def test_turn_sequence_is_both_player_turns_of_seven_phases(jena_scenario):
    s = fresh(jena_scenario, seed=1)
    first = s.start()
    assert (first.turn, first.side, first.phase) == (1, "french", "orders")
    steps = s.steps(1)
    assert [st.side for st in steps] == ["french"] * 7 + ["prussian"] * 7
    assert [st.phase for st in steps[:7]] == [
        "orders",
        "movement",
        "visual_contact",
        "attack_declaration",
        "fire",
        "attack",
        "reorganisation",
    ]
    for _ in range(13):
        s.next_phase()
    assert tuple(s.key) == (1, "prussian", "reorganisation")
    s.next_phase()
    assert tuple(s.key) == (2, "french", "orders")
    kinds = [type(e) for e in s.battle.events]
    assert kinds.count(PhaseStarted) == 15 and kinds.count(TurnEnded) == 1
    assert isinstance(s.battle.events[-2], TurnEnded) and s.battle.events[-2].turn == 1
    assert (s.clock(1), s.clock()) == ("06:00", "06:15")
    assert game_time(jena_scenario.info, 37) == "15:00"
    with pytest.raises(SessionError, match="already started"):
        s.start()


def test_a_refused_order_says_why_once(jena_scenario):
    """The Order dialog writes "Refused:" before the reason; a fresh tester saw it twice."""
    s = fresh(jena_scenario, seed=1806)
    s.start()
    far = OrderRequest(NAPOLEON, LANNES, "A", objective=(420.0, 2000.0))
    preview = s.preview(far)
    assert not preview.legal and "must lie within" in preview.reason
    assert not preview.reason.startswith("Refused")


def test_order_is_rolled_with_exact_odds_and_recorded(jena_scenario):
    s = fresh(jena_scenario, seed=1806)
    s.start()
    req = OrderRequest(NAPOLEON, LANNES, "A", objective=(420.0, 200.0))
    preview = s.preview(req)
    # zone 1 (8 cm), d10 read 0-9 + KE 2 of Napoleon >= 4: faces 2-9 pass
    assert preview.legal and preview.probability == Fraction(4, 5)
    assert "zone 1" in preview.text and "80%" in preview.text
    result = s.issue_order(req)
    assert result.odds == (Fraction(4, 5),)
    rolled = [e for e in s.battle.events if isinstance(e, CommandRolled)]
    assert len(rolled) == 1 and rolled[0].explanation.startswith("Command control, Napoleon → Lannes")
    record = RollRecord.from_dict(rolled[0].roll)
    assert record.success == (result.status == "delivered") == (record.raw[0] + 2 >= 4)
    assert list(s.battle.events) == list(s.log.events)
    # the same seed gives the same game; the recorded faces replay it exactly
    again = fresh(jena_scenario, seed=1806)
    again.start()
    again.issue_order(req)
    assert again.battle.events == s.battle.events
    replayed = fresh(jena_scenario, dice=ReplayDice.from_records([record]))
    replayed.start()
    assert replayed.issue_order(req).explanation == result.explanation


def test_orders_only_in_the_order_phase_and_refusals_record_nothing(jena_scenario):
    s = fresh(jena_scenario, seed=2)
    s.start()
    refused = s.issue_order(OrderRequest(NAPOLEON, "prussian-1st-div", "A", objective=(300.0, 230.0)))
    assert refused.status == "refused" and "Refused" in refused.explanation
    assert len(s.battle.events) == 1
    s.next_phase()
    with pytest.raises(SessionError, match="orders are issued in the orders phase"):
        s.issue_order(OrderRequest(NAPOLEON, LANNES, "H"))
    stray = Moved(turn=1, side="prussian", phase="movement", id=LANNES, path=((400.0, 126.0),))
    with pytest.raises(SessionError, match="open phase is turn 1, french, movement"):
        s.record(stray)
    with pytest.raises(SessionError, match="no unit or commander"):
        s.move("no-such-brigade", [(1.0, 1.0)])
    assert len(s.battle.events) == len(s.log) == 2


def test_attack_order_moves_the_corps_general_and_his_troops_follow(jena_scenario):
    s = fresh(jena_scenario, dice=FixedDice(9))
    s.start()
    obj = (420.0, 200.0)
    assert s.issue_order(OrderRequest(NAPOLEON, LANNES, "A", objective=obj)).status == "delivered"
    s.advance_to("movement")
    before = s.state
    help_ = s.execute_order(LANNES)
    after = s.state
    start, end = before.commanders[LANNES].position, after.commanders[LANNES].position
    step = math.dist(start, end)
    assert 20.0 - 1e-6 <= step <= 30.0 + 1e-6 and end == pytest.approx(help_.end)
    # straight towards the objective (2.7)
    d_obj = (obj[0] - start[0], obj[1] - start[1])
    assert (end[0] - start[0]) * d_obj[1] - (end[1] - start[1]) * d_obj[0] == pytest.approx(0.0, abs=1e-6)
    delta = (end[0] - start[0], end[1] - start[1])
    stayed = []
    for uid in before.oob.all_subordinates(LANNES):
        if uid in before.units:
            u, p0, p1 = before.units[uid], before.units[uid].position, after.units[uid].position
            if u.formation.value in ("unlimbered", "square"):  # 4.4, 4.6.3: they do not march (D7)
                assert p1 == p0, uid
                stayed.append(u.name)
            else:
                assert p1 == pytest.approx((p0[0] + delta[0], p0[1] + delta[1]), abs=0.01), uid
    assert stayed and all(any(n.startswith(f"{name} stays") for n in s.march_notes) for name in stayed)
    assert after.commanders[SUCHET].position == pytest.approx(
        (before.commanders[SUCHET].position[0] + delta[0], before.commanders[SUCHET].position[1] + delta[1]), abs=0.01
    )


def test_umpire_entries_change_the_state(jena_scenario):
    s = fresh(jena_scenario, dice=FixedDice(3))
    s.advance_to("attack")
    uid = next(u for u in s.state.oob.all_subordinates(SUCHET) if u in s.state.units)
    figs = s.state.units[uid].figures
    s.casualties(uid, 2, men=180, cause="fire of the Prussian advance guard (umpire)")
    assert s.state.units[uid].figures == figs - 2
    u = s.state.units[uid]
    n = len(s.log)
    for too_much, field in (({"figures": u.figures + 1}, "figures"), ({"figures": 1, "guns": u.guns + 1}, "guns")):
        with pytest.raises(SessionError, match=rf"{u.name}: {field} lost \d+ — it has \d+"):
            s.casualties(uid, too_much.pop("figures"), **too_much)
    assert len(s.log) == n
    roll = umpire_roll(
        s.dice,
        f"umpire-morale:{uid}:t1",
        "Morale test (umpire's table)",
        DiceSpec(1, 10, True),
        threshold=5,
        modifiers=[(1, "veteran")],
    )
    test = s.morale_test(
        uid,
        bool(roll.success),
        "holds" if roll.success else "falls back in disorder",
        "Umpire: Table 10 is missing from the seed.",
        roll,
    )
    assert roll.raw == (3,) and roll.success is False and "d10 = 3, +1 veteran = 4 < 5" in test.explanation
    s.set_order_state(uid, "U", "morale test failed")
    assert s.state.units[uid].state == "U"
    s.change_formation(uid, "line")
    s.rotate(uid, 45.0)
    assert s.state.units[uid].facing == 45.0
    s.annotate("Fog over the plateau.", title="Fog", at=(420.0, 190.0), ids=(uid,))
    waiting = "arrive-french-vii-corps"
    assert "french-vii-corps" in s.state.off_table
    s.arrive(waiting)
    assert "french-vii-corps" not in s.state.off_table
    with pytest.raises(SessionError, match="no units or commanders off table"):
        s.arrive(waiting)
    assert s.log.state_at(len(s.log)) == s.state


def test_undo_takes_back_only_the_open_phase(jena_scenario):
    s = fresh(jena_scenario, seed=3)
    s.advance_to("movement")
    n = len(s.battle.events)
    uid = next(u for u in s.state.oob.all_subordinates(SUCHET) if u in s.state.units)
    here = s.state.units[uid].position
    s.move(uid, [here, (here[0], here[1] + 10.0)])
    s.casualties(uid, 1)
    removed = s.undo(2)
    assert [type(e) for e in removed] == [Moved, Casualties]
    assert len(s.battle.events) == n and s.state.units[uid].position == here
    assert s.undoable == 1  # the phase's own start
    with pytest.raises(SessionError):
        s.undo(len(s.log) + 1)
    s.undo()
    assert tuple(s.key) == (1, "french", "orders")


def test_a_saved_game_resumes_where_it_ended(jena_scenario, tmp_path):
    s = fresh(jena_scenario, dice=FixedDice(9))
    s.start()
    s.issue_order(OrderRequest(NAPOLEON, LANNES, "A", objective=(420.0, 200.0)))
    s.advance_to("fire", "prussian")
    path = tmp_path / "game.battle.json"
    store.save(s.battle, path)
    back = GameSession(store.load(path), params=ENGINE, seed=4)
    assert back.key == s.key and back.state.orders == s.state.orders
    back.next_phase()
    assert tuple(back.key) == (1, "prussian", "attack")
    assert GameLog.from_battle(back.battle).head == back.state


def test_the_scenario_length_bounds_the_game(jena_scenario):
    short = replace(jena_scenario, info=replace(jena_scenario.info, turns=1))
    s = fresh(short, seed=5)
    s.advance_to("reorganisation", "prussian")
    with pytest.raises(SessionError, match="lasts 1 turns"):
        s.next_phase()


def test_troops_halt_at_contact_and_at_the_table_edge(jena_scenario):
    from battlestudio.rules.following import follow_moves

    s = fresh(jena_scenario, seed=6)
    s.advance_to("movement")
    st = s.state
    # V Corps pushed 60 cm north: the front brigades halt 1 cm short of the Prussian line
    events = follow_moves(st, LANNES, (0.0, 60.0), keep_off_cm=1.0, table=s.table, **s._stamp())
    s.record_all(events)
    enemies = [u.footprint() for u in s.state.units.values() if u.side == "prussian" and u.id not in s.state.off_table]
    moved = {e.id for e in events}
    for uid in moved & set(s.state.units):
        d = min(s.state.units[uid].footprint().distance(e) for e in enemies)
        assert d >= 1.0 - 1e-6, uid
    halted = [
        uid for uid in moved & set(s.state.units) if s.state.units[uid].position[1] < st.units[uid].position[1] + 59.9
    ]
    assert halted  # some were stopped by the enemy
    # pushed off the table to the east: nobody leaves it
    s.record_all(follow_moves(s.state, LANNES, (200.0, 0.0), table=s.table, **s._stamp()))
    w, h = s.table
    for uid in moved & set(s.state.units):
        minx, miny, maxx, maxy = s.state.units[uid].footprint().bounds
        assert minx >= -1e-6 and maxx <= w + 1e-6, uid


def test_stamped_builds_events_of_the_open_phase(jena_scenario):
    from battlestudio.replay.order_events import CommandStateChanged

    s = fresh(jena_scenario, seed=7)
    s.advance_to("attack_declaration", "prussian")
    e = s.stamped(CommandStateChanged, subject=LANNES, state="engaged", value=True, reason="umpire")
    assert (e.turn, e.side, e.phase) == (1, "prussian", "attack_declaration")
    s.record(e)
    assert s.state.flags[f"engaged:{LANNES}"] is True


def test_undoing_the_next_turns_first_phase_does_not_end_the_turn_twice(jena_scenario):
    s = fresh(jena_scenario, seed=3)
    s.start()
    while s.key.turn == 1:
        s.next_phase()
    assert tuple(s.key)[0] == 2
    ended = [e for e in s.battle.events if isinstance(e, TurnEnded)]
    n = len(s.battle.events)
    removed = s.undo()
    assert [type(e) for e in removed] == [PhaseStarted] and s.key.turn == 1
    assert isinstance(s.battle.events[-1], TurnEnded)  # the turn's end stays with the phase it closed
    s.next_phase()
    assert s.key.turn == 2 and len(s.battle.events) == n
    assert [e for e in s.battle.events if isinstance(e, TurnEnded)] == ended and len(ended) == 1
    assert s.log.state_at(len(s.log)) == s.state
    s.next_phase()  # and the game goes on
    assert s.key.turn == 2


def test_undo_reaches_back_into_the_phases_next_phase_closed(jena_scenario):
    s = fresh(jena_scenario, seed=3)
    s.advance_to("movement")
    uid = next(u for u in s.state.oob.all_subordinates(SUCHET) if u in s.state.units)
    here = s.state.units[uid].position
    s.move(uid, [here, (here[0], here[1] + 10.0)])
    moved_state = s.state
    s.next_phase()
    s.next_phase()
    assert s.key.phase not in ("orders", "movement")
    # the two phase starts and the move, newest first, in one call: the movement phase is open again
    removed = s.undo(3)
    assert [type(e) for e in removed] == [Moved, PhaseStarted, PhaseStarted]
    assert tuple(s.key) == (1, "french", "movement") and s.state.units[uid].position == here
    assert s.log.state_at(len(s.log)) == s.state and len(s.battle.events) == len(s.log)
    s.record_all(removed)  # the three again, across the phases they open
    assert s.state.units == moved_state.units and s.key.phase not in ("orders", "movement")
    # a whole turn and its end, as one undo: the turn's end goes too
    while s.key.turn == 1:
        s.next_phase()
    n = len(s.log)
    removed = s.undo(2)
    assert [type(e) for e in removed] == [TurnEnded, PhaseStarted] and s.key.turn == 1
    s.record_all(removed)
    assert len(s.log) == n and s.key.turn == 2


def test_a_retreat_order_moves_troops_facing_the_enemy_backwards_at_half_their_march_length(jena_scenario):
    """D7 (4.4 "Baglæns bevægelse ... med ½ marchlængde"): an executed T order carries the
    general as far as 2.9 lets him, but troops still facing the enemy step back only half
    their march length (Jena: infantry 30 cm, so 15 cm)."""
    s = fresh(jena_scenario, dice=FixedDice(9))
    s.start()
    start = s.state.commanders[LANNES].position
    away = (start[0], start[1] - 40.0)
    out = s.issue_order(OrderRequest(NAPOLEON, LANNES, "T", objective=away))
    assert out.status == "delivered", out.explanation
    s.advance_to("movement")
    before = s.state
    help_ = s.execute_order(LANNES)
    step = math.dist(before.commanders[LANNES].position, s.state.commanders[LANNES].position)
    assert step > 15.0, help_.explanation  # the general goes further than half a march length
    held = [n for n in s.march_notes if "stops after 15.0 of" in n and "half march length" in n]
    assert held, s.march_notes
    for uid in before.oob.all_subordinates(LANNES):
        u = before.units.get(uid)
        if u is not None and u.arm.value == "infantry" and u.formation.value != "square":
            assert math.dist(u.position, s.state.units[uid].position) <= 15.0 + 0.02, u.name


def test_carrying_out_the_order_is_an_action_of_the_movement_phase(jena_scenario):
    """The window's way to execute an order: the ToE action ``execute_order`` for a general of
    the side on the move, the same events as ``GameSession.execute_order``."""
    from battlestudio.rules.actions import ActionRequest

    s = fresh(jena_scenario, dice=FixedDice(9))
    s.start()
    assert s.issue_order(OrderRequest(NAPOLEON, LANNES, "A", objective=(420.0, 200.0))).status == "delivered"
    assert "execute_order" not in [a.id for a in s.actions(LANNES)]  # not in the order phase
    s.advance_to("movement")
    (spec,) = [a for a in s.actions(LANNES) if a.id == "execute_order"]
    assert spec.legal and spec.subject_kind == "commander"
    held = [a for a in s.actions(SUCHET) if a.id == "execute_order"]
    assert held and "no standing order" in held[0].unavailable
    assert "moves" in s.preview_action(ActionRequest("execute_order", LANNES)).explanation
    twin = fresh(jena_scenario, dice=FixedDice(9))
    twin.start()
    twin.issue_order(OrderRequest(NAPOLEON, LANNES, "A", objective=(420.0, 200.0)))
    twin.advance_to("movement")
    n = len(s.log)
    res = s.act(ActionRequest("execute_order", LANNES))
    assert res.status == "resolved" and "follow him (2.5)" in res.explanation
    twin.execute_order(LANNES)
    assert s.state.commanders == twin.state.commanders
    # the action also makes 2.7's turn-of-receipt changes (the unlimbered battery limbers) and
    # moves the battery at its full speed towards the corps: everyone else as the session moves them
    battery = "french-v-corps-foot-guns-1"
    assert s.state.units[battery].formation.value == "limbered" and "unlimbered → limbered" in res.explanation
    assert twin.state.units[battery].formation.value == "unlimbered"
    assert {k: v for k, v in s.state.units.items() if k != battery} == {
        k: v for k, v in twin.state.units.items() if k != battery
    }
    assert len(s.log) > n + 1
