"""Failed orders in Torden over Europa (A6, 2.12, 3.3) as the session records them: a failed order
stays pending and is rolled again in the side's next order phase, after that phase's
declarations (3.3): when the phase closes (Next Phase), shown as its own roll whose explanation
says so, never silently skipped; a new order to the same corps replaces the pending one, and one
that goes through supersedes the order in force, each with an explicit cancellation."""

from __future__ import annotations

import pytest

from battlestudio import store
from battlestudio.rules import OrderRequest
from battlestudio.session.text import describe
from tests.test_session import JENA, LANNES, NAPOLEON, FixedDice, fresh

OBJECTIVE = (420.0, 200.0)


@pytest.fixture(scope="module")
def jena_scenario():
    return store.load(JENA).scenario


def _to_next_order_phase(s) -> int:
    """Next phase until the French orders phase of the next turn is open; the log position
    where that phase began."""
    turn = s.key.turn
    while not (s.key.turn == turn + 1 and s.key.phase == "orders" and s.key.side == "french"):
        s.next_phase()
    return s.log.phase_range(s.key)[0]


def _texts(s, start: int, end: int) -> list[str]:
    return [describe(e, s.log.state_at(p)) for p, e in enumerate(s.log.events[start:end], start)]


def _failed_in_turn_1(s) -> str:
    s.start()
    first = s.issue_order(OrderRequest(NAPOLEON, LANNES, "A", objective=OBJECTIVE))
    assert first.status == "failed" and "rolled for again next order phase (A6)" in first.explanation
    return first.outcome.order_id


def test_a_failed_order_is_rolled_again_when_the_next_order_phase_closes(jena_scenario):
    s = fresh(jena_scenario, dice=FixedDice(0, 9))
    oid = _failed_in_turn_1(s)
    start = _to_next_order_phase(s)
    # the phase opens with the order still pending: cancellations and new orders come first (3.3)
    assert [e.kind for e in s.log.events[start:]] == ["phase_started"]
    assert s.state.orders[oid].status.value == "failed"
    s.next_phase()  # the phase closes: the pending order is rolled, then the movement phase opens
    end = s.log.phase_range((2, "french", "orders"))[1]
    assert [e.kind for e in s.log.events[start:end]] == ["phase_started", "command_roll", "order_delivered"]
    assert s.key.phase == "movement" and end == len(s.log) - 1
    roll = s.log.events[start + 1]
    assert roll.order_id == oid and roll.roll["purpose"] == f"toe-command-control:{oid}:order:t2"
    texts = _texts(s, start, end)
    assert texts[1].startswith(f"roll for {oid}: Command control (failed order rolled again, A6), Napoleon → Lannes")
    assert texts[1].endswith("order passes") and texts[2] == f"order {oid} (Lannes, A) delivered"
    assert s.state.orders[oid].status.value == "delivered"
    (out,) = s.reroll_outcomes
    assert out.status == "delivered" and out.order_id == oid and out.rolls[0].success


def test_the_phases_own_declarations_roll_it_once_and_closing_does_not_again(jena_scenario):
    s = fresh(jena_scenario, dice=FixedDice(0, 1))
    oid = _failed_in_turn_1(s)
    _to_next_order_phase(s)
    (out,) = s.issue_orders([])  # a whole order phase with no new declaration: the pending roll
    assert out.outcome.order_id == oid and out.status == "failed"
    assert "failed order rolled again, A6" in out.explanation
    n = len(s.log)
    s.next_phase()
    assert len(s.log) == n + 1 and s.reroll_outcomes == []  # just the movement phase's start


def test_failing_again_keeps_it_pending_and_undo_takes_the_roll_back(jena_scenario):
    s = fresh(jena_scenario, dice=FixedDice(0, 1))
    oid = _failed_in_turn_1(s)
    start = _to_next_order_phase(s)
    s.next_phase()
    assert [e.kind for e in s.log.events[start:]] == ["phase_started", "command_roll", "order_failed", "phase_started"]
    assert s.state.orders[oid].status.value == "failed" and s.state.orders[oid].parameters["failed_turn"] == 2
    failed = s.log.events[start + 2]
    assert describe(failed, s.log.state_at(start + 2)) == (
        f"order {oid} (Lannes, A) failed: order fails again; it stays pending (A6)"
    )
    assert "It stays pending" in s.reroll_outcomes[0].explanation
    s.undo(3)  # the movement phase's start and the roll
    assert s.key.phase == "orders" and s.state.orders[oid].parameters["failed_turn"] == 1
    s.next_phase()  # rolled once more (the dice give 9 now): no roll is ever skipped or doubled
    kinds = [e.kind for e in s.log.events[start:]]
    assert kinds == ["phase_started", "command_roll", "order_delivered", "phase_started"]


def test_an_order_out_of_reach_fails_again_with_the_reason_not_silently(jena_scenario):
    s = fresh(jena_scenario, dice=FixedDice(0))
    oid = _failed_in_turn_1(s)
    far = s.state.commanders[NAPOLEON].position
    s.move(LANNES, [s.state.commanders[LANNES].position, (far[0] + 200.0, far[1])])  # umpire: far away
    s.params["toe.zones_cm.c_in_c"] = [20, 40, 60]  # zone 3 closed at 60 cm
    start = _to_next_order_phase(s)
    s.next_phase()
    events = s.log.events[start:]
    assert [e.kind for e in events] == ["phase_started", "order_failed", "phase_started"]
    assert "not rolled again this turn" in events[1].reason and "beyond zone 3" in events[1].reason
    assert s.state.orders[oid].status.value == "failed"


def test_a_new_order_replaces_the_pending_one_with_an_explicit_cancellation(jena_scenario):
    s = fresh(jena_scenario, dice=FixedDice(0, 9))
    old = _failed_in_turn_1(s)
    _to_next_order_phase(s)
    n = len(s.log)
    new = s.issue_order(OrderRequest(NAPOLEON, LANNES, "H"))
    assert [e.kind for e in s.log.events[n:]] == ["order_written", "order_cancelled", "command_roll", "order_delivered"]
    cancel = s.log.events[n + 1]
    assert cancel.order_id == old and cancel.superseded_by == new.outcome.order_id
    assert describe(cancel, s.log.state_at(n + 1)) == (
        f"order {old} (Lannes, A) cancelled: replaced by order {new.outcome.order_id} (H) of Napoleon "
        "before it went through"
    )
    assert s.state.orders[old].status.value == "cancelled"
    m = len(s.log)
    s.next_phase()
    assert len(s.log) == m + 1  # nothing left to roll again


def test_an_order_that_goes_through_supersedes_the_one_in_force_explicitly(jena_scenario):
    s = fresh(jena_scenario, dice=FixedDice(9, 9))
    s.start()
    first = s.issue_order(OrderRequest(NAPOLEON, LANNES, "A", objective=OBJECTIVE)).outcome.order_id
    _to_next_order_phase(s)
    n = len(s.log)
    second = s.issue_order(OrderRequest(NAPOLEON, LANNES, "H")).outcome.order_id
    events = s.log.events[n:]
    assert [e.kind for e in events] == ["order_written", "command_roll", "order_cancelled", "order_delivered"]
    assert events[2].order_id == first and events[2].superseded_by == second
    assert "which went through" in events[2].reason


def test_cancellation_is_offered_and_no_new_order_follows_it_in_the_same_turn(jena_scenario):
    s = fresh(jena_scenario, dice=FixedDice(0, 9))
    old = _failed_in_turn_1(s)
    _to_next_order_phase(s)
    types = {t.id: t for t in s.order_types(NAPOLEON, LANNES)}
    assert "cancel" in types and types["cancel"].unavailable == "" and types["cancel"].cost == 1
    out = s.issue_order(OrderRequest(NAPOLEON, LANNES, "cancel"))  # his pending order, found for him
    assert out.status == "cancelled" and out.outcome.order_id == old
    assert [e.kind for e in s.log.events[-3:]] == ["cancellation_written", "command_roll", "order_cancelled"]
    refused = s.issue_order(OrderRequest(NAPOLEON, LANNES, "H"))
    assert refused.status == "refused" and "same turn (3.3)" in refused.explanation
    assert "same turn (3.3)" in {t.id: t for t in s.order_types(NAPOLEON, LANNES)}["H"].unavailable


def test_without_persisting_failed_orders_lapse_when_the_phase_closes(jena_scenario):
    s = fresh(jena_scenario, dice=FixedDice(0))
    s.params["toe.failed_orders_persist"] = False
    oid = _failed_in_turn_1(s)
    start = _to_next_order_phase(s)
    s.next_phase()
    events = s.log.events[start:]
    assert [e.kind for e in events] == ["phase_started", "order_cancelled", "phase_started"]
    assert events[1].order_id == oid and "lapses" in events[1].reason


def test_an_order_beyond_zone_3_is_refused_when_written_and_the_phase_goes_on():
    """Issue 16 D6 (2.2, 3.2): one order to a corps beyond zone 3 aborted the whole order
    phase; now it is refused with the reason and the other declarations are rolled."""
    from dataclasses import replace as _replace
    from pathlib import Path

    from battlestudio import store
    from battlestudio.replay.battle import Battle
    from battlestudio.rules import OrderRequest
    from battlestudio.session import GameSession

    jena = Path(__file__).resolve().parents[1] / "scenarios" / "jena-1806.battle.json"
    battle = Battle(store.load(jena).scenario)
    sc = battle.scenario
    nap = sc.commanders["french-imperial-guard"]
    far = sc.commanders["french-iv-corps"]
    sc.commanders[far.id] = _replace(far, position=(nap.position[0] + 300.0, nap.position[1]))
    for rid, r in list(sc.reinforcements.items()):  # Soult is on the table from the start, far away
        if r.formation == far.id:
            del sc.reinforcements[rid]
    s = GameSession(battle, seed=3, params={"toe.zones_cm.c_in_c": [30, 60, 90]})  # zone 3 closed at 90 cm
    s.start()
    out = s.issue_orders(
        [
            OrderRequest(nap.id, far.id, "H"),
            OrderRequest(nap.id, "french-v-corps", "H"),
        ]
    )
    assert out[0].status == "refused" and "beyond zone 3" in out[0].explanation
    assert out[1].status in ("delivered", "failed") and out[1].outcome.rolls
