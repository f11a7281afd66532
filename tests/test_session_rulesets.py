"""One full turn of the command phase of each ruleset, end to end through ``GameSession``: a small
scenario per ruleset (the rule-case worlds of tests/rules/*_cases/_bases) is started, its
orders, command checks and initiative are recorded with seeded dice, the turn is closed, and
the recorded battle replays to the same state. Torden over Europa's turn runs on the bundled
Jena scenario in tests/test_session.py; here it runs on the Auerstedt case world.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from battlestudio.model.scenario import Scenario, ScenarioInfo, Side
from battlestudio.replay.battle import Battle
from battlestudio.replay.game import GameLog
from battlestudio.replay.order_events import CommandRolled, CommandStateChanged
from battlestudio.rules import OrderRequest, ReplayDice, SeededDice
from battlestudio.rules.actions import ActionRequest
from battlestudio.session import GameSession, SessionError

from tests.rules.case_runner import load_case

RULES = Path(__file__).parent / "rules"


def scenario_from_case(
    ruleset: str, cases: str, base_case: str, params: dict | None = None, turns: int = 3
) -> Scenario:
    """A Scenario holding the world of a rule case (its units, commanders, order of battle)."""
    folder = RULES / cases / base_case
    state, case_params, _, _, _ = load_case(folder, RULES / cases)
    sides = sorted({c.side for c in state.commanders.values()})
    info = ScenarioInfo(
        title=f"{ruleset} command phase", ruleset=ruleset, parameters={**case_params, **(params or {})}, turns=turns
    )
    return Scenario(
        info=info,
        sides={s: Side(s, s.capitalize()) for s in sides},
        units=dict(state.units),
        commanders=dict(state.commanders),
        oob=state.oob,
    )


def replayed(session: GameSession):
    return GameLog.from_battle(Battle(session.battle.scenario, list(session.battle.events))).head


def test_gda_full_command_turn():
    scen = scenario_from_case("gda", "gda_cases", "command-roll-3-obeys-2-hesitant")
    s = GameSession(Battle(scen, []), dice=SeededDice(1809))
    assert [p.id for p in s.ruleset.turn_sequence(s.state)][:3] == ["adc", "command", "initiative"]
    s.advance_to("adc", "allies")  # scenario side order: allies first until someone holds the initiative
    out = s.issue_order(OrderRequest("dullitz", "ab1", "infantry_assault"))
    assert out.status == "pending" and "2 ADCs sent" in out.explanation
    s.advance_to("adc", "french")
    assert s.issue_order(OrderRequest("girard", "fb1", "brigade_attachment")).status == "pending"
    s.advance_to("command", "french")
    results = {b: s.command_check(b) for b in ("fb1", "fb2", "ab1")}
    assert all(r.flags["state"] in ("steady", "hesitant") for r in results.values())
    assert results["fb1"].flags["odds"] == "8/9"  # the attached ADC's reroll
    with pytest.raises(SessionError, match="initiative phase"):
        s.initiative()
    s.advance_to("initiative")  # once a turn, in the holder's name (the turn goes phase by phase)
    assert s.key.side == "allies" and [x.phase for x in s.steps(1)].count("initiative") == 1
    ini = s.initiative()
    assert ini.side in ("french", "allies") and s.state.flags["initiative:holder"] == ini.side
    hesitant = [b for b, r in results.items() if r.flags["state"] == "hesitant"]
    while s.key.turn == 1:
        s.next_phase()
    # the end of turn 1 cleared every Hesitant marker (КОЛЕБЛЮЩАЯСЯ) and the holder leads turn 2
    assert all(s.state.flags[f"gda:{b}"]["state"] == "steady" for b in hesitant)
    assert s.key.side == ini.side
    kinds = [e.kind for e in s.battle.events]
    assert kinds.count("command_roll") >= 5 and "turn_ended" in kinds
    assert replayed(s).flags == s.state.flags


def test_gda_turn_replays_with_the_same_dice():
    scen = scenario_from_case("gda", "gda_cases", "command-roll-3-obeys-2-hesitant")

    def play(dice):
        s = GameSession(Battle(scen, []), dice=dice)
        s.advance_to("command", "french")
        texts = [s.command_check(b).explanation for b in ("fb1", "fb2", "ab1")]
        s.advance_to("initiative")
        return s, texts + [s.initiative().explanation]

    seeded = SeededDice(7)
    first, log = play(seeded)
    again, log2 = play(ReplayDice(seeded.drawn))
    assert log == log2 and again.state.flags == first.state.flags


def test_regimental_full_command_turn():
    scen = scenario_from_case("regimental", "regimental_cases", "orders-test-table")
    s = GameSession(Battle(scen, []), dice=SeededDice(1812))
    s.advance_to("initiative", "france")
    ini = s.initiative()
    assert s.state.flags["initiative:holder"] == ini.side
    assert sum(isinstance(e, CommandRolled) for e in s.battle.events) >= 2
    first = ini.side
    other = "russia" if first == "france" else "france"
    s.advance_to("activation", "france")
    act = s.issue_order(OrderRequest("fhq", "fdiv", "activate", parameters={"actions": ["move", "fire"]}))
    assert act.status in ("delivered", "failed") and "Orders test" in act.explanation
    s.advance_to("activation", "russia")
    act = s.issue_order(OrderRequest("hq", "div", "activate", parameters={"actions": ["move", "fire", "reform"]}))
    assert act.status == "delivered" and act.outcome.spent["actions"] in (1, 2, 3)
    assert s.ruleset.next_activation(s.state) == "turn over"
    s.next_phase()
    assert s.key.turn == 2 and s.key.side == first and other != first
    assert replayed(s).flags == s.state.flags


def test_belle_alliance_full_order_phase():
    scen = scenario_from_case("belle-alliance", "belle_alliance_cases", "attack-orders-and-command")
    scen.orders.clear()
    s = GameSession(Battle(scen, []), dice=SeededDice(1815))
    assert [st.side for st in s.steps(1)][0] == "allies"  # no initiative roll: the scenario's first side
    s.advance_to("orders", "allies")
    assert s.issue_order(OrderRequest("ac", "d", "attack", parameters={"target": "a"})).status == "pending"
    s.advance_to("orders", "french")
    out = s.issue_order(OrderRequest("fc", "a", "attack", parameters={"target": "d", "storm": True}))
    assert out.status == "pending" and "order_roll" in out.explanation
    assert s.command_check("fc").flags == {"a": "break-in distance only"}  # never rolled: not in force
    rolled = s.act(ActionRequest("order_roll", "a", umpire_result={"result": "passed"}))
    assert rolled.status == "resolved", rolled.explanation
    chk = s.command_check("fc")
    assert chk.flags == {"a": "may attack"}
    refused = s.issue_order(OrderRequest("fc", "nobody", "attack", parameters={"target": "d"}))
    assert refused.status == "refused"
    while s.key.turn == 1:
        s.next_phase()
    assert set(s.state.orders) == {"ba-attack-a-t1", "ba-attack-d-t1"}
    assert replayed(s).orders == s.state.orders


def test_toe_full_order_phase_on_the_auerstedt_case_world():
    folder = RULES / "toe_cases" / "order-types-and-reach"
    from tests.rules.toe_runner import load_case as toe_case

    state, params, _, _ = toe_case(folder)
    sides = sorted({c.side for c in state.commanders.values()})
    info = ScenarioInfo(ruleset="toe", parameters={**params, "initiative": "french"}, turns=2)
    scen = Scenario(
        info=info,
        sides={x: Side(x, x) for x in sides},
        units=dict(state.units),
        commanders=dict(state.commanders),
        oob=state.oob,
    )
    s = GameSession(Battle(scen, []), dice=SeededDice(1806))
    s.advance_to("orders", "french")
    out = s.issue_orders([OrderRequest("napoleon", "davout", "A", objective=(150.0, 120.0))])
    assert out[0].status in ("delivered", "failed") and out[0].odds
    assert any(isinstance(e, CommandRolled) for e in s.battle.events)
    with pytest.raises(SessionError, match="no initiative phase"):
        s.initiative()
    while s.key.turn == 1:
        s.next_phase()
    assert s.key.side == "french" and not any(
        isinstance(e, CommandStateChanged) and e.subject == "holder" for e in s.battle.events
    )
    assert replayed(s).orders == s.state.orders
