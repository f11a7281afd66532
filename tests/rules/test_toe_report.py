"""The orders report on the Auerstedt test world: standing orders, OAS, out of command, refusals."""

from __future__ import annotations

from battlestudio.replay.order_events import OrderDelivered, OrderWritten
from battlestudio.analysis.common import state_at_turn
from battlestudio.rules.toe.report import orders_report
from tests.rules.toe_runner import CASES, load_case


def _world():
    state, params, _, _ = load_case(CASES / "out-of-command-boundaries")
    return state, params


def test_report_lists_orders_oas_and_out_of_command():
    state, params = _world()
    events = [
        OrderWritten(
            turn=1,
            side="french",
            phase="orders",
            order_id="o-1-1",
            issuer="napoleon",
            recipient="davout",
            order_type="A",
            objective=(100, 140),
            cost=1,
        ),
        OrderDelivered(turn=1, side="french", phase="orders", order_id="o-1-1", origin=(100, 50)),
        OrderWritten(
            turn=3,
            side="french",
            phase="orders",
            order_id="o-3-1",
            issuer="napoleon",
            recipient="bernadotte",
            order_type="H",
            cost=1,
        ),
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
    assert (
        "! not checked: Torden over Europa 2.4, 2.5, national supplements needs scenario parameter "
        "'corps_command_distance_cm'" in text
    )
    assert "[must-return] Gautier's brigade" in text  # the division distances are still checked


def _saved(tmp_path, ruleset="toe"):
    from battlestudio import store
    from battlestudio.model.scenario import Scenario, ScenarioInfo, Side
    from battlestudio.replay.battle import Battle

    state, params = _world()
    scen = Scenario(
        info=ScenarioInfo(title="Auerstedt 1806 (test world)", ruleset=ruleset, parameters=params),
        sides={"french": Side("french", "Grande Armée"), "prussian": Side("prussian", "Prussian army")},
        units=dict(state.units),
        commanders=dict(state.commanders),
        oob=state.oob.copy(),
    )
    events = [
        OrderWritten(
            turn=1,
            side="french",
            phase="orders",
            order_id="o-1-1",
            issuer="napoleon",
            recipient="davout",
            order_type="A",
            objective=(100, 140),
            cost=1,
        ),
        OrderDelivered(turn=1, side="french", phase="orders", order_id="o-1-1", origin=(100, 50)),
    ]
    path = tmp_path / "auerstedt.battle.json"
    store.save(Battle(scen, events), path)
    return str(path)


def test_cli_orders_prints_the_report(tmp_path, capsys):
    from battlestudio.cli import main

    path = _saved(tmp_path)
    assert main(["orders", path, "--turn", "0"]) == 0
    text = capsys.readouterr().out
    assert "at turn 0" in text and "Davout (corps): H (hold, no order)" in text and "Out of command: 4" in text
    assert main(["orders", path]) == 0
    assert "Davout (corps): A (attack) to (100, 140), in force since turn 1" in capsys.readouterr().out


def test_cli_orders_refuses_bad_input_in_one_line(tmp_path, capsys):
    from battlestudio.cli import main

    assert main(["orders", _saved(tmp_path), "--turn", "-2"]) == 2
    assert "--turn must be 0 or more, got -2" in capsys.readouterr().err
    other = _saved(tmp_path / "x" if (tmp_path / "x").mkdir() is None else tmp_path, ruleset="gda")
    assert main(["orders", other]) == 1
    err = capsys.readouterr().err
    assert "ruleset 'gda' (General d'Armée) has no orders report" in err and "Traceback" not in err
    assert main(["orders", str(tmp_path / "missing.battle.json")]) == 1
