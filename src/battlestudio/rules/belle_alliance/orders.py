"""Belle Alliance's order roll (1.1.3, not in the excerpt) for a written attack order, and the
``order_roll`` action that settles a written order in the orders phase.

An attack order is in force only once its order roll passed (``OrderDelivered``); a written
order never rolled is not (issue 19, D15). The roll is the scenario's ``order_roll`` (e.g.
``"2d6 >= 7"``); without it the umpire enters the roll's result (passed or failed).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from battlestudio.replay.events import BattleEvent
from battlestudio.replay.order_events import CommandRolled, OrderDelivered, OrderFailed
from battlestudio.replay.state import GameState
from battlestudio.rules.actions import ActionHandler, ActionOutcome, ActionPreview, ActionRequest, ActionSpec
from battlestudio.rules.belle_alliance.attacks import order_roll, written_attack_order
from battlestudio.rules.dice import DiceSource, DiceSpec, RollRecord, distribution
from battlestudio.rules.params import RuleParameters, RuleRefused
from battlestudio.rules.protocol import ParameterSpec

UMPIRE_TABLE = "1.1.3 ordrekast (the order roll is not in the excerpt): scenario parameter order_roll"


def roll_order(
    state: GameState, order_id: str, unit: str, p: RuleParameters, dice: DiceSource, stamp: dict[str, Any]
) -> tuple[RollRecord, list[BattleEvent]]:
    """Roll ``order_id``'s order roll (1.1.3) with the scenario's ``order_roll``: the record and
    the ``CommandRolled`` with ``OrderDelivered`` (passed) or ``OrderFailed``.

    Raises
    ------
    MissingParameterError
        without scenario parameter ``order_roll``.
    """
    n, sides, op, target = order_roll(p)
    spec = DiceSpec(n, sides)
    raw = dice.roll(f"ba-order-roll:{order_id}:t{state.turn}", spec)
    total = sum(raw)
    ok = total >= target if op == ">=" else total <= target
    record = RollRecord(
        f"ba-order-roll:{order_id}:t{state.turn}",
        f"Order roll for {unit}'s attack order (1.1.3)",
        spec,
        tuple(raw),
        threshold=target,
        threshold_source="scenario parameter order_roll",
        outcome="order in force" if ok else "order fails",
        success=ok,
        at_most=op == "<=",
    )
    events: list[BattleEvent] = [
        CommandRolled(**stamp, order_id=order_id, roll=record.to_dict(), explanation=record.explain())
    ]
    events.append(
        OrderDelivered(**stamp, order_id=order_id)
        if ok
        else OrderFailed(**stamp, order_id=order_id, reason=f"order roll {total} fails ({op} {target}, 1.1.3)")
    )
    return record, events


def _spec(state: GameState, p: RuleParameters, subject: str) -> ActionSpec | None:
    if state.phase != "orders" or subject not in state.units:
        return None
    if state.units[subject].side != state.side:
        return None
    order = written_attack_order(state, subject)
    if order is None:
        return None
    missing = p.lookup("order_roll") is None
    return ActionSpec(
        "order_roll",
        "Order roll",
        "ordrekast",
        "1.1.3 (not in the excerpt); 4.1.1",
        parameters=(),
        umpire_result=(ParameterSpec("result", "choice", choices=("passed", "failed"), label="Order roll result"),),
        umpire_table=UMPIRE_TABLE if missing else "",
        note=f"attack order {order.id} is written but not in force until its order roll passes",
    )


def _stamp(state: GameState) -> dict[str, Any]:
    return {"turn": state.turn, "side": state.side, "phase": state.phase}


def _preview(state: GameState, request: ActionRequest, p: RuleParameters) -> ActionPreview:
    order = written_attack_order(state, request.subject)
    assert order is not None
    if p.lookup("order_roll") is None:
        return ActionPreview(
            "order_roll",
            request.subject,
            True,
            explanation=f"{UMPIRE_TABLE}: enter passed or failed",
            umpire_entry=True,
        )
    n, sides, op, target = order_roll(p)
    dist = distribution(DiceSpec(n, sides))
    chance = sum((q for t, q in dist.items() if (t >= target if op == ">=" else t <= target)), Fraction(0))
    return ActionPreview(
        "order_roll",
        request.subject,
        True,
        explanation=f"{n}d{sides} {op} {target} (scenario order_roll) puts attack order {order.id} in force",
        odds=(("order in force", chance),),
    )


def _resolve(state: GameState, request: ActionRequest, p: RuleParameters, dice: DiceSource) -> ActionOutcome:
    order = written_attack_order(state, request.subject)
    assert order is not None
    stamp = _stamp(state)
    if request.umpire_result is not None:
        result = str(request.umpire_result.get("result", ""))
        if result not in ("passed", "failed"):
            raise RuleRefused(f"order roll result must be passed or failed, got {result!r}")
        ev: BattleEvent = (
            OrderDelivered(**stamp, order_id=order.id)
            if result == "passed"
            else OrderFailed(**stamp, order_id=order.id, reason="order roll failed (umpire's entry, 1.1.3)")
        )
        what = "in force" if result == "passed" else "not in force"
        return ActionOutcome(
            "resolved",
            f"Order roll of {order.id} entered by the umpire: {result}; the attack order is {what} (1.1.3)",
            (ev,),
        )
    record, events = roll_order(state, order.id, request.subject, p, dice, stamp)
    return ActionOutcome("resolved", record.explain() + " (1.1.3)", tuple(events), (record,))


HANDLER = ActionHandler("order_roll", _spec, _preview, _resolve)
