"""The orders report on the Auerstedt test world: standing orders, OAS, out of command, refusals."""

from __future__ import annotations

from battlestudio.replay.order_events import OrderDelivered, OrderWritten
from battlestudio.rules.toe.report import orders_report, state_at_turn
from tests.rules.toe_runner import CASES, load_case


def _world():
    state, params, _, _ = load_case(CASES / "out-of-command-boundaries")
    return state, params


def test_report_lists_orders_oas_and_out_of_command():
    state, params = _world()
    events = [
        OrderWritten(turn=1, side="french", phase="orders", order_id="o-1-1", issuer="napoleon", recipient="davout",
                     order_type="A", objective=(100, 140), cost=1),
        OrderDelivered(turn=1, side="french", phase="orders", order_id="o-1-1", origin=(100, 50)),
        OrderWritten(turn=3, side="french", phase="orders", order_id="o-3-1", issuer="napoleon", recipient="bernadotte",
                     order_type="H", cost=1),
    ]
    at1 = state_at_turn(state.evolve(turn=0), events, 1)
    text = orders_report(at1, params, {"french": "Grande Armée", "prussian": "Prussian army"})
    assert "at turn 1" in text and "== Grande Armée ==" in text
    assert "Davout (corps): A (attack) to (100, 140), in force since turn 1" in text
    assert "Gudin (division): under Davout's A (attack) to (100, 140)" in text
    assert "Bernadotte (corps): H (hold, no order)" in text
    assert "Napoléon: 1 of 3 spent, 2 left" in text
    assert "Out of command: 4" in text
    assert "[must-return] Gautier's brigade is 15.01 cm from Gudin" in text
    assert "[exempt, fled] Vialannes' light cavalry is 33 cm from Davout" in text
    assert "Brunswick: 0 of 2 spent, 2 left" in text
    assert "assumed command_measure = 'nearest' (A3)" in text
    later = state_at_turn(state.evolve(turn=0), events, None)
    assert "pending H (hold) from Napoléon (written turn 3)" in orders_report(later, params)


def test_report_names_a_missing_parameter_instead_of_failing():
    state, params = _world()
    params = dict(params)
    del params["corps_command_distance_cm"]
    text = orders_report(state, params)
    assert "! not checked: Torden over Europa 2.4, 2.5, national supplements needs scenario parameter " \
           "'corps_command_distance_cm'" in text
    assert "[must-return] Gautier's brigade" in text  # the division distances are still checked
