"""The bundled Elchingen tutorial can issue every order its generals may give (Torden over Europa).

Elchingen has one corps a side and no army general: the scenario names each corps general his
side's acting army chief (``toe.scenario.acting_army_chief``, rules 2.3, 2.12), so Ney and Riesch
give their own corps A, H or M orders with their OAS, besides what a corps general orders himself
(T, detachments, 2.4); the division generals' KE that a detachment needs is set from the data.
Each order type the ruleset lists as available is issued through ``GameSession``.
"""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import pytest

from battlestudio import store
from battlestudio.replay.battle import Battle
from battlestudio.replay.order_events import Attached, Detached, GeneralMoveBought, OrderWritten
from battlestudio.rules import OrderRequest
from battlestudio.rules.params import RuleRefused
from battlestudio.rules.protocol import OrderTypeSpec
from battlestudio.rules.toe.orders import nearest_enemy_point, retreat_direction
from battlestudio.session import GameSession

from tests.test_session import FixedDice

ELCHINGEN = Path(__file__).resolve().parents[1] / "scenarios" / "elchingen-1805.battle.json"
NEY, RIESCH, LOISON = "french-vi-corps", "austrian-riesch-corps", "french-2eme-division"
CHIEFS = {"french": NEY, "austrian": RIESCH}


@pytest.fixture(scope="module")
def elchingen():
    return store.load(ELCHINGEN).scenario


def session(scenario, side: str, **kw) -> GameSession:
    s = GameSession(Battle(scenario, []), **kw)
    s.advance_to("orders", side)
    return s


def request(s: GameSession, issuer: str, recipient: str, spec: OrderTypeSpec) -> OrderRequest:
    """A legal-looking order of ``spec``'s type: an attack 20 cm towards the nearest enemy, a
    retreat 20 cm straight away from him, a bought move 10 cm aside, a detachment to hold 10 cm
    behind the division (points in cm)."""
    state = s.state
    x, y = state.record(recipient).position
    if spec.id == "A":
        (ex, ey), _ = nearest_enemy_point(state, recipient)
        n = math.hypot(ex - x, ey - y)
        return OrderRequest(issuer, recipient, "A", objective=(x + 20 * (ex - x) / n, y + 20 * (ey - y) / n))
    if spec.id == "T":
        ax, ay = retreat_direction(state, recipient, s.ruleset.parameters(s.params))
        return OrderRequest(issuer, recipient, "T", objective=(x + 20 * ax, y + 20 * ay))
    if spec.id == "move":
        return OrderRequest(issuer, recipient, "move", objective=(x + 10, y), parameters={"to": (x + 10, y)})
    if spec.id == "D":
        back = (x, y - 10) if state.record(recipient).side == "french" else (x, y + 10)
        return OrderRequest(issuer, recipient, "D", objective=back, parameters={"point": back, "mode": "H"})
    return OrderRequest(issuer, recipient, spec.id, objective=(x, y))


def offered(s: GameSession, side: str) -> dict[tuple[str, str], list[OrderTypeSpec]]:
    """(issuer, recipient) → the order types the ruleset lists, for every general of ``side``
    and everyone he may order (himself and the generals under him)."""
    state = s.state
    out = {}
    for c in state.commanders.values():
        if c.side != side:
            continue
        for r in [c.id] + [n for n in state.oob.all_subordinates(c.id) if n in state.commanders]:
            out[(c.id, r)] = list(s.order_types(c.id, r))
    return out


@pytest.mark.parametrize("side", ["french", "austrian"])
def test_every_order_type_the_ruleset_lists_for_a_general_can_be_issued(elchingen, side):
    s = session(elchingen, side, seed=1805)
    types = offered(s, side)
    chief = CHIEFS[side]
    own = {t.id: t for t in types[(chief, chief)]}
    # as acting army chief he orders his own corps A, H, M with 1 OAS each (2.3, 2.12), his own
    # retreat costs nothing (2.4), and he buys moves of himself with OAS
    assert set(own) == {"A", "H", "T", "M", "move"}
    assert {k: t.cost for k, t in own.items()} == {"A": 1, "H": 1, "T": 0, "M": 1, "move": 1}
    assert "within 75 cm of the enemy" in own["M"].unavailable  # 2.10: the Danube is narrow here
    divisions = [r for (i, r) in types if i == chief and r != chief]
    assert divisions and all([t.id for t in types[(chief, d)]] == ["D"] for d in divisions)
    assert all(not ts for (i, _), ts in types.items() if i != chief)  # division generals give none
    issued = 0
    for (issuer, recipient), specs in types.items():
        for spec in specs:
            if spec.unavailable:
                continue
            one = session(elchingen, side, seed=1805)
            budget = s.ruleset.order_budget(one.state, issuer, one.params)
            result = one.issue_order(request(one, issuer, recipient, spec))
            assert result.status in ("delivered", "failed"), (issuer, recipient, spec.id, result.explanation)
            assert result.outcome.events and one.battle.events[-len(result.outcome.events) :] == list(
                result.outcome.events
            )
            after = s.ruleset.order_budget(one.state, issuer, one.params)
            assert budget.left - after.left == spec.cost  # OAS spent as listed (2.12)
            issued += 1
    assert issued == 4 + len(divisions)


def test_without_an_acting_army_chief_a_corps_general_has_only_retreat_and_detachment(elchingen):
    params = {k: v for k, v in elchingen.info.parameters.items() if k != "toe.scenario.acting_army_chief"}
    plain = replace(elchingen, info=replace(elchingen.info, parameters=params))
    s = session(plain, "french", seed=1)
    assert [t.id for t in s.order_types(NEY, NEY)] == ["T"]
    assert s.ruleset.order_budget(s.state, NEY, s.params) is None
    refused = s.issue_order(OrderRequest(NEY, NEY, "A", objective=(130.0, 40.0)))
    assert refused.status == "refused" and "only a retreat (T)" in refused.explanation


def test_the_acting_chiefs_order_rolls_in_his_army_zones_and_spends_his_oas(elchingen):
    s = session(elchingen, "french", dice=FixedDice(3, 2, 9))
    here = s.state.commanders[NEY].position
    first = s.issue_order(request(s, NEY, NEY, next(t for t in s.order_types(NEY, NEY) if t.id == "A")))
    # zone 1 of zones_cm.army (he orders himself, 0 cm): d10 3 + KE 1 >= 4
    assert first.status == "delivered" and "zone 1 at 0 cm" in first.explanation
    assert first.odds[0] == pytest.approx(7 / 10)
    hold = s.issue_order(OrderRequest(NEY, NEY, "H"))
    assert hold.status == "failed"  # 2 + 1 < 4: it stays pending (A6)
    third = s.issue_order(OrderRequest(NEY, NEY, "move", parameters={"to": (here[0] + 5, here[1])}))
    assert third.status == "refused" and "no order capacity left (2 of OAS 2 spent" in third.explanation
    written = [e for e in s.battle.events if isinstance(e, OrderWritten)]
    assert [(e.order_type, e.cost) for e in written] == [("A", 1), ("H", 1)]


def test_a_detachment_rolls_with_the_division_kes_and_a_march_order_lifts_it(elchingen):
    s = session(elchingen, "french", dice=FixedDice(9, 9, 9, 9))
    d = next(t for t in s.order_types(NEY, LOISON) if t.id == "D")
    res = s.issue_order(request(s, NEY, LOISON, d))
    assert res.status == "delivered"
    assert "+0 command ability (KE) of Louis Henri Loison, used for detachments (2.12)" in res.explanation
    assert any(isinstance(e, Detached) for e in s.battle.events)
    s.next_phase()
    s.advance_to("orders", "french")
    m = {t.id: t for t in s.order_types(NEY, LOISON)}
    assert set(m) == {"D", "M"} and m["M"].unavailable == "" and m["M"].cost == 0
    lifted = s.issue_order(OrderRequest(NEY, LOISON, "M"))
    assert lifted.status == "delivered" and any(isinstance(e, Attached) for e in lifted.outcome.events)


def test_the_acting_chiefs_march_order_away_from_the_enemy(elchingen):
    """2.10 forbids a march within 75 cm of the enemy: in the south-west corner Ney is clear."""
    far = replace(elchingen, commanders={**elchingen.commanders, NEY: elchingen.commanders[NEY].moved((5.0, 5.0))})
    s = session(far, "french", dice=FixedDice(9))
    m = next(t for t in s.order_types(NEY, NEY) if t.id == "M")
    assert m.unavailable == "" and m.cost == 1
    res = s.issue_order(OrderRequest(NEY, NEY, "M", objective=(5.0, 60.0)))
    assert res.status == "delivered"


def test_the_acting_chief_moves_himself_as_a_corps_general_unless_overridden(elchingen):
    s = session(elchingen, "french", seed=3)
    x, y = s.state.commanders[NEY].position
    far = OrderRequest(NEY, NEY, "move", parameters={"to": (x + 20.0, y)})
    assert "1 OAS buys at most 15 cm" in s.preview(far).reason  # acting_chief_moves_as "corps"
    chief = session(elchingen, "french", seed=3, params={"acting_chief_moves_as": "chief"})
    assert chief.preview(far).legal
    moved = chief.issue_order(far)
    assert moved.status == "delivered" and isinstance(moved.outcome.events[0], GeneralMoveBought)


def test_the_divisions_get_orders_of_their_own_only_when_the_scenario_says_so(elchingen):
    s = session(elchingen, "french", seed=3, params={"toe.acting_chief_orders_divisions": True})
    offered_ = {t.id: t for t in s.order_types(NEY, LOISON)}
    assert set(offered_) == {"A", "H", "T", "M", "D"}
    assert (offered_["H"].cost, offered_["D"].cost) == (1, 0)
    res = s.issue_order(OrderRequest(NEY, LOISON, "H"))
    assert res.status in ("delivered", "failed")
    assert res.explanation.startswith("Command control, Marshal Michel Ney → Louis Henri Loison, zone ")


def test_an_acting_army_chief_must_be_a_corps_general_of_his_side(elchingen):
    bad = {**elchingen.info.parameters, "toe.scenario.acting_army_chief": {"french": LOISON}}
    s = session(replace(elchingen, info=replace(elchingen.info, parameters=bad)), "french", seed=1)
    with pytest.raises(RuleRefused, match="toe.scenario.acting_army_chief names 'french-2eme-division'"):
        s.order_types(NEY, NEY)
