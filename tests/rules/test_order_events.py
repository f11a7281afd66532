"""Order events: each applies to a GameState without mutating it and survives the dict round trip."""

from __future__ import annotations

import pytest

from battlestudio.model.orders import OrderStatus
from battlestudio.replay.events import EventError, event_from_dict
from battlestudio.replay.order_events import (
    Attached,
    CancellationWritten,
    CommandStateChanged,
    Detached,
    GeneralMoveBought,
    OrderCancelled,
    OrderCompleted,
    OrderDelivered,
    OrderFailed,
    OrderWritten,
    oas_spent,
)
from tests.rules.toe_runner import CASES, load_case

T = {"turn": 2, "side": "french", "phase": "orders"}


def _state():
    state, _, _, _ = load_case(CASES / "control-zone2-passes")
    return state.evolve(turn=2)


def test_lifecycle_written_failed_delivered_completed():
    s0 = _state()
    events = [
        OrderWritten(
            **T,
            order_id="o-2-1",
            issuer="napoleon",
            recipient="davout",
            order_type="A",
            objective=(100, 140),
            parameters={"note": "on Hassenhausen"},
            cost=1,
        ),
        OrderFailed(**T, order_id="o-2-1", reason="order fails"),
        OrderDelivered(**T, order_id="o-2-1", origin=(100, 50)),
        CommandStateChanged(**T, subject="davout", state="engaged", value=True, reason="enemy within 20 cm"),
        OrderCompleted(**T, order_id="o-2-1", reason="objective reached", defence_objective=(100, 140)),
    ]
    s = s0
    seen = []
    for e in events:
        assert event_from_dict(e.to_dict()) == e
        s = e.apply(s)
        seen.append(s.orders["o-2-1"].status)
    assert seen == [
        OrderStatus.WRITTEN,
        OrderStatus.FAILED,
        OrderStatus.DELIVERED,
        OrderStatus.DELIVERED,
        OrderStatus.COMPLETED,
    ]
    assert s0.orders == {} and oas_spent(s0, "napoleon") == 0  # nothing mutated
    assert oas_spent(s, "napoleon") == 1
    defence = s.orders["o-2-1/defence"]
    assert defence.order_type == "defence" and defence.objective == (100.0, 140.0) and defence.in_force
    assert "engaged:davout" not in s.flags  # a completed order ends the engagement


def test_cancellation_detachment_and_bought_moves():
    s = _state()
    s = OrderWritten(
        **T,
        order_id="o-2-1",
        issuer="davout",
        recipient="petit",
        order_type="D",
        objective=(150, 20),
        parameters={"mode": "H"},
    ).apply(s)
    s = Detached(**T, node="petit", superior_before="gudin", superior_after="davout", order_id="o-2-1").apply(s)
    assert s.oob.superior("petit") == "davout" and s.flags["detached:petit"] == {"order": "o-2-1", "from": "gudin"}
    s = CancellationWritten(**T, order_id="o-2-1", issuer="napoleon", cost=1).apply(s)
    s = OrderCancelled(**T, order_id="o-2-1", reason="cancelled").apply(s)
    s = Attached(**T, node="petit", superior="gudin", order_id="o-2-1").apply(s)
    assert s.oob.superior("petit") == "gudin" and "detached:petit" not in s.flags
    assert s.orders["o-2-1"].status is OrderStatus.CANCELLED
    move = GeneralMoveBought(**T, issuer="napoleon", commander="davout", start=(100, 50), end=(100, 35), cost=1)
    s = move.apply(s)
    assert s.commanders["davout"].position == (100.0, 35.0) and oas_spent(s, "napoleon") == 2
    assert move.positions_of("davout") == ((100, 50), (100, 35)) and move.touched() == ("davout",)
    assert oas_spent(s.evolve(turn=3), "napoleon") == 0


def test_unknown_order_is_an_event_error_naming_it():
    with pytest.raises(EventError, match=r"order_delivered.*turn 2.*no order 'o-9-9'"):
        OrderDelivered(**T, order_id="o-9-9").apply(_state())
    with pytest.raises(EventError, match="no commander 'murat'"):
        GeneralMoveBought(**T, issuer="napoleon", commander="murat").apply(_state())
