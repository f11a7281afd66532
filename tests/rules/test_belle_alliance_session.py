"""Belle Alliance at the table on the bundled Elchingen scenario: attack orders to units on the
order sheet and their order roll (1.1.1–1.1.3 as 4.1.1 cites them), played through
``GameSession``."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from battlestudio import store
from battlestudio.model.orders import OrderStatus
from battlestudio.rules import get_ruleset
from battlestudio.rules.actions import ActionRequest
from battlestudio.rules.belle_alliance.attacks import attack_order
from battlestudio.rules.dice import ReplayDice
from battlestudio.rules.protocol import OrderRequest
from battlestudio.session import GameSession

ELCHINGEN = Path(__file__).resolve().parents[2] / "scenarios" / "elchingen-1805.battle.json"
ATTACKER, TARGET, ISSUER = "french-bde-roguet", "austrian-avantgarde", "french-2eme-division"


def session(**params) -> GameSession:
    battle = store.load(ELCHINGEN)
    if params:
        info = battle.scenario.info
        battle.scenario.info = replace(info, parameters={**info.parameters, **params})
    s = GameSession(battle, get_ruleset("belle-alliance"), seed=3)
    s.advance_to("orders", side="french")
    return s


def test_the_attack_order_goes_to_a_unit_not_to_a_general():
    s = session()
    (spec,) = s.order_types(ISSUER, ATTACKER)
    assert spec.id == "attack" and spec.recipient_kind == "unit" and spec.unavailable == ""
    assert {p.name for p in spec.parameters} == {"target", "storm", "against_position"}
    (on_general,) = s.order_types("french-vi-corps", ISSUER)
    assert "general" in on_general.unavailable and "order sheet" in on_general.unavailable


def test_an_order_never_rolled_is_not_in_force_until_the_umpire_enters_the_roll():
    s = session()
    out = s.issue_order(OrderRequest(ISSUER, ATTACKER, "attack", parameters={"target": TARGET, "storm": "yes"}))
    assert out.status == "pending", out.explanation
    assert "order_roll" in out.explanation
    assert attack_order(s.state, ATTACKER) is None  # D15: written is not in force
    (spec,) = [a for a in s.actions(ATTACKER) if a.id == "order_roll"]
    assert "1.1.3" in spec.umpire_table
    refused = s.act(ActionRequest("order_roll", ATTACKER))
    assert refused.status == "refused" and "enter the table's result" in refused.explanation
    done = s.act(ActionRequest("order_roll", ATTACKER, umpire_result={"result": "passed"}))
    assert done.status == "resolved", done.explanation
    order = attack_order(s.state, ATTACKER)
    assert order is not None and order.status is OrderStatus.DELIVERED
    assert order.parameters["target"] == TARGET and order.parameters["storm"] is True
    assert not [a for a in s.actions(ATTACKER) if a.id == "order_roll"]  # settled


def test_the_scenario_order_roll_is_rolled_when_the_order_is_written():
    s = session(order_roll="2d6 >= 7")
    s.dice = ReplayDice([(f"ba-order-roll:ba-attack-{ATTACKER}-t1:t1", (3, 2))])
    out = s.issue_order(OrderRequest(ISSUER, ATTACKER, "attack", parameters={"target": TARGET}))
    assert out.status == "failed" and "5" in out.explanation
    assert attack_order(s.state, ATTACKER) is None
    s.dice = ReplayDice([(f"ba-order-roll:ba-attack-{ATTACKER}-t1:t1", (4, 4))])
    again = s.act(ActionRequest("order_roll", ATTACKER))  # a failed order is rolled again
    assert again.status == "resolved", again.explanation
    assert attack_order(s.state, ATTACKER) is not None
    assert again.odds == (None,) or again.odds[0] is not None
