"""Failed orders in Torden over Europa (A6, 2.12, 3.3) as the session records them: a failed order
is rolled again when the side's next order phase opens, shown as its own roll (the explanation
says so) and never silently skipped; a new order to the same corps replaces the pending one,
and one that goes through supersedes the order in force, each with an explicit cancellation."""

from __future__ import annotations

import pytest

from battlestudio.rules import OrderRequest
from battlestudio.session.text import describe
from battlestudio import store
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


def _texts(s, start: int) -> list[str]:
    return [describe(e, s.log.state_at(start + i)) for i, e in enumerate(s.log.events[start:])]


def test_a_failed_order_is_rolled_again_as_the_next_order_phase_opens(jena_scenario):
    s = fresh(jena_scenario, dice=FixedDice(0, 9))
    s.start()
    first = s.issue_order(OrderRequest(NAPOLEON, LANNES, "A", objective=OBJECTIVE))
    assert first.status == "failed" and "rolled for again next order phase (A6)" in first.explanation
    oid = first.outcome.order_id
    start = _to_next_order_phase(s)
    kinds = [e.kind for e in s.log.events[start:]]
    assert kinds == ["phase_started", "command_roll", "order_delivered"]
    roll = s.log.events[start + 1]
    assert roll.order_id == oid and roll.roll["purpose"] == f"toe-command-control:{oid}:order:t2"
    assert "failed order rolled again, A6" in roll.explanation and "order passes" in roll.explanation
    texts = _texts(s, start)
    assert texts[1].startswith(f"roll for {oid}: Command control (failed order rolled again, A6)")
    assert texts[2] == f"order {oid} (Lannes, A) delivered"
    assert s.state.orders[oid].status.value == "delivered"
    (out,) = s.reroll_outcomes
    assert out.status == "delivered" and out.order_id == oid and out.rolls[0].success
    # the phase's own declarations do not roll it a second time
    again = s.issue_orders([])
    assert again == [] and [e.kind for e in s.log.events[start:]] == kinds


def test_failing_again_keeps_it_pending_and_undo_of_next_phase_takes_the_roll_back(jena_scenario):
    s = fresh(jena_scenario, dice=FixedDice(0, 1))
    s.start()
    oid = s.issue_order(OrderRequest(NAPOLEON, LANNES, "A", objective=OBJECTIVE)).outcome.order_id
    start = _to_next_order_phase(s)
    assert [e.kind for e in s.log.events[start:]] == ["phase_started", "command_roll", "order_failed"]
    assert s.state.orders[oid].status.value == "failed" and s.state.orders[oid].parameters["failed_turn"] == 2
    assert "It stays pending" in s.reroll_outcomes[0].explanation
    failed = s.log.events[start + 2]
    assert describe(failed, s.log.state_at(start + 2)) == (
        f"order {oid} (Lannes, A) failed: order fails again; it stays pending (A6)"
    )
    s.undo(3)  # the phase start and its entry step are one "next phase"
    assert s.state.orders[oid].parameters["failed_turn"] == 1


def test_an_order_out_of_reach_fails_again_with_the_reason_not_silently(jena_scenario):
    s = fresh(jena_scenario, dice=FixedDice(0))
    s.start()
    oid = s.issue_order(OrderRequest(NAPOLEON, LANNES, "A", objective=OBJECTIVE)).outcome.order_id
    far = s.state.commanders[NAPOLEON].position
    s.move(LANNES, [s.state.commanders[LANNES].position, (far[0] + 200.0, far[1])])  # umpire: far away
    s.params["toe.zones_cm.c_in_c"] = [20, 40, 60]  # zone 3 closed at 60 cm
    start = _to_next_order_phase(s)
    events = s.log.events[start:]
    assert [e.kind for e in events] == ["phase_started", "order_failed"]
    assert "not rolled again this turn" in events[1].reason and "beyond zone 3" in events[1].reason
    assert s.state.orders[oid].status.value == "failed"


def test_a_new_order_replaces_the_pending_one_with_an_explicit_cancellation(jena_scenario):
    s = fresh(jena_scenario, dice=FixedDice(0, 0, 9))
    s.start()
    old = s.issue_order(OrderRequest(NAPOLEON, LANNES, "A", objective=OBJECTIVE)).outcome.order_id
    start = _to_next_order_phase(s)  # rolled again: fails
    assert s.state.orders[old].status.value == "failed"
    n = len(s.log)
    new = s.issue_order(OrderRequest(NAPOLEON, LANNES, "H"))
    kinds = [e.kind for e in s.log.events[n:]]
    assert kinds[:2] == ["order_written", "order_cancelled"] and new.status == "delivered"
    cancel = s.log.events[n + 1]
    assert cancel.order_id == old and cancel.superseded_by == new.outcome.order_id
    assert "replaced by order" in cancel.reason and "before it went through" in cancel.reason
    text = describe(cancel, s.log.state_at(n + 1))
    assert text.startswith(f"order {old} (") and "cancelled: replaced by order" in text
    assert s.state.orders[old].status.value == "cancelled"
    assert start < n


def test_an_order_that_goes_through_supersedes_the_one_in_force_explicitly(jena_scenario):
    s = fresh(jena_scenario, dice=FixedDice(9, 9))
    s.start()
    first = s.issue_order(OrderRequest(NAPOLEON, LANNES, "A", objective=OBJECTIVE)).outcome.order_id
    _to_next_order_phase(s)
    n = len(s.log)
    second = s.issue_order(OrderRequest(NAPOLEON, LANNES, "H")).outcome.order_id
    events = s.log.events[n:]
    i = [e.kind for e in events].index("order_cancelled")
    assert events[i].order_id == first and events[i].superseded_by == second
    assert events[i + 1].kind == "order_delivered" and "which went through" in events[i].reason


def test_cancellation_is_offered_and_no_new_order_follows_it_in_the_same_turn(jena_scenario):
    s = fresh(jena_scenario, dice=FixedDice(0, 0, 9))
    s.start()
    old = s.issue_order(OrderRequest(NAPOLEON, LANNES, "A", objective=OBJECTIVE)).outcome.order_id
    _to_next_order_phase(s)
    types = {t.id: t for t in s.order_types(NAPOLEON, LANNES)}
    assert "cancel" in types and types["cancel"].unavailable == "" and types["cancel"].cost == 1
    out = s.issue_order(OrderRequest(NAPOLEON, LANNES, "cancel"))  # the pending order, found for him
    assert out.status == "cancelled" and out.outcome.order_id == old
    assert "cancellation_written" in [e.kind for e in s.log.events[-4:]]
    refused = s.issue_order(OrderRequest(NAPOLEON, LANNES, "H"))
    assert refused.status == "refused" and "same turn (3.3)" in refused.explanation


@pytest.mark.parametrize("persist", [False])
def test_without_persisting_failed_orders_lapse_when_the_phase_opens(jena_scenario, persist):
    s = fresh(jena_scenario, dice=FixedDice(0))
    s.params["toe.failed_orders_persist"] = persist
    s.start()
    oid = s.issue_order(OrderRequest(NAPOLEON, LANNES, "A", objective=OBJECTIVE)).outcome.order_id
    start = _to_next_order_phase(s)
    events = s.log.events[start:]
    assert [e.kind for e in events] == ["phase_started", "order_cancelled"] and events[1].order_id == oid
    assert "lapses" in events[1].reason
