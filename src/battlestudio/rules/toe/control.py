"""The command-control procedure of Torden over Europa's order phase (chapter 3, 2.12).

1. Every order and cancellation is declared before any roll; each costs a chief 1 OAS point;
   no corps may get an order and a cancellation in the same turn (3.3).
2. For each, the zone follows from the issuer→recipient distance (3.2), measured before any
   bought general move (A6); out of every zone, it cannot be sent.
3. d10 + the issuer's KE + Table 1 modifiers, read against that zone's threshold (Table 1:
   scenario parameters ``command_thresholds``, ``command_modifiers``).
4. Spare OAS then buys general moves (15 cm corps general, 40 cm chief).
Failed orders stay pending and are rolled again in later order phases (A6), after that phase's
declarations (3.3): ``order_phase`` rolls them with its own, ``reroll_pending`` those left when
the phase closes.
A new order replaces the recipient's orders not yet through when it is written, and one that
goes through supersedes the order in force: each is cancelled by an event of its own.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar
from collections.abc import Sequence

from battlestudio.model.command_geometry import command_distances
from battlestudio.model.orders import Order, OrderStatus
from battlestudio.model.units import Echelon
from battlestudio.replay.events import BattleEvent
from battlestudio.replay.order_events import (
    Attached,
    CancellationWritten,
    CommandRolled,
    Detached,
    GeneralMoveBought,
    OrderCancelled,
    OrderCompleted,
    OrderDelivered,
    OrderFailed,
    OrderWritten,
)
from battlestudio.replay.state import GameState
from battlestudio.rules.dice import DiceSource, DiceSpec, Modifier, RollRecord
from battlestudio.rules.params import RuleParameters, RuleRefused
from battlestudio.rules.protocol import OrderOutcome, OrderRequest
from battlestudio.rules.toe.command import zones_for
from battlestudio.rules.toe.common import (
    base_of,
    command_ability,
    commander,
    is_detached,
    issuing_echelon,
    name_of,
    pending_orders,
    position_of,
    shape_of,
)
from battlestudio.rules.toe.orders import (
    cancel_target,
    check_cancel,
    check_request,
    corps_key,
    goes_as_chief,
    order_cost,
)

PHASE = "orders"


@dataclass
class PhaseOutcome:
    """Everything the order phase did: one ``OrderOutcome`` per declaration (and per pending
    order rolled again), all ``events`` in the order the game applies them, and a text."""

    outcomes: list[OrderOutcome] = field(default_factory=list)
    events: list[BattleEvent] = field(default_factory=list)
    assumed: list[str] = field(default_factory=list)

    def explanation(self) -> str:
        return "\n".join(o.explanation for o in self.outcomes)


def thresholds(p: RuleParameters, echelon: str) -> tuple[str, list[int]]:
    """Table 1 thresholds per zone 1–3 (``command_thresholds.<echelon>`` or ``command_thresholds``)."""
    key, value = p.require("command_thresholds", f"command_thresholds.{echelon}", "command_thresholds")
    if not isinstance(value, (list, tuple)) or len(value) != 3:
        raise RuleRefused(f"scenario parameter {key} must list the d10 needed in zones 1, 2, 3, got {value!r}")
    try:
        return key, [int(v) for v in value]
    except (TypeError, ValueError):
        raise RuleRefused(f"scenario parameter {key} must hold whole numbers, got {value!r}") from None


def table1_modifiers(p: RuleParameters) -> list[Modifier]:
    """Scenario-wide Table 1 modifiers (``command_modifiers``: name → value; {} = none)."""
    key, value = p.require("command_modifiers", "command_modifiers")
    if not isinstance(value, dict):
        raise RuleRefused(f"scenario parameter {key} must map a modifier's name to its value, got {value!r}")
    return [Modifier(int(v), f"{name} (scenario Table 1 modifier)") for name, v in value.items() if int(v) != 0]


def dice_spec(p: RuleParameters) -> DiceSpec:
    """The d10 of command control, 0–9 or 1–10 (1.1: one d10 and two d6; assumed ``d10_zero_based``, A1)."""
    return DiceSpec(1, 10, bool(p.get("d10_zero_based")))


def new_order_id(state: GameState, taken: set[str]) -> str:
    """A fresh order id ``o-<turn>-<n>``."""
    n = 1
    while f"o-{state.turn}-{n}" in state.orders or f"o-{state.turn}-{n}" in taken:
        n += 1
    return f"o-{state.turn}-{n}"


def out_of_reach(state: GameState, p: RuleParameters, issuer_id: str, recipient: str, order_type: str) -> str:
    """Why an order (or cancellation) from ``issuer_id`` cannot be sent to ``recipient`` at all:
    beyond the issuer's zone 3 (2.2, 3.2); "" when it can (or needs no zone). Checked when the
    order is written, so one such order does not stop the rolls of the others (D6)."""
    if not goes_as_chief(state, p, issuer_id, recipient, order_type):
        return ""
    issuer = commander(state, issuer_id)
    d = float(command_distances(base_of(issuer), [shape_of(state, recipient)], "nearest")[0])
    zones = zones_for(p, issuer)
    if any(b.outer is None or d <= b.outer + 1e-9 for b in zones):
        return ""
    return (
        f"{name_of(state, recipient)} is {d:.1f} cm from {issuer.name}, beyond zone 3 "
        f"({zones[-1].outer:g} cm): no order or cancellation can be sent (2.2, 3.2)"
    )


def _roll(
    state: GameState,
    p: RuleParameters,
    dice: DiceSource,
    order: Order,
    what: str,
    extra: Sequence[Modifier],
    again: bool = False,
) -> RollRecord | None:
    """One command-control roll (3.1: every order and cancellation goes through command control)
    for ``order`` (``what`` = "order" or "cancellation"; ``again``
    for a pending order rolled again, A6); None when the order needs no roll (corps order with
    ``corps_orders_roll`` false)."""
    issuer = commander(state, order.issuer)
    mods = [Modifier(command_ability(p, issuer), f"command ability (KE) of {issuer.name} (2.12)")]
    if goes_as_chief(state, p, order.issuer, order.recipient, order.order_type):
        d = float(command_distances(base_of(issuer), [shape_of(state, order.recipient)], "nearest")[0])
        zones = zones_for(p, issuer)
        zone = next((b.zone for b in zones if b.outer is None or d <= b.outer + 1e-9), None)
        if zone is None:
            raise RuleRefused(
                f"{name_of(state, order.recipient)} is {d:.1f} cm from {issuer.name}, beyond zone 3 "
                f"({zones[-1].outer:g} cm): the {what} cannot be sent (2.2, 3.2)"
            )
        kind = " (cancellation)" if what == "cancellation" else f" ({_AGAIN})" if again else ""
        label = f"Command control{kind}, {issuer.name} → {name_of(state, order.recipient)}, zone {zone} at {d:.0f} cm"
        ech = issuing_echelon(p, issuer)
    else:
        if not p.get("corps_orders_roll"):
            return None
        if order.parameters.get("automatic") and not p.get("auto_retreat_needs_roll"):
            return None  # an assigned automatic retreat (2.9, A10)
        zone, ech = 1, issuer.echelon
        if order.order_type == "D" and order.recipient in state.commanders:
            div = state.commanders[order.recipient]
            mods.append(
                Modifier(command_ability(p, div), f"command ability (KE) of {div.name}, used for detachments (2.12)")
            )
        label = (
            f"Command control (corps general's own {order.order_type} order, A20"
            f"{', ' + _AGAIN if again else ''}), {issuer.name} → {name_of(state, order.recipient)}, zone 1"
        )
    _, th = thresholds(p, ech)
    mods += table1_modifiers(p) + list(extra)
    spec = dice_spec(p)
    raw = dice.roll(f"toe-command-control:{order.id}:{what}:t{state.turn}", spec)
    total = sum(raw) + sum(m.value for m in mods)
    ok = total >= th[zone - 1]
    return RollRecord(
        purpose=f"toe-command-control:{order.id}:{what}:t{state.turn}",
        label=label,
        dice=spec,
        raw=raw,
        modifiers=tuple(mods),
        threshold=th[zone - 1],
        threshold_source="scenario Table 1 value",
        outcome=f"{what} {'passes' if ok else 'fails'}",
        success=ok,
    )


_AGAIN = "failed order rolled again, A6"

E = TypeVar("E", bound=BattleEvent)


def _ev(state: GameState, cls: type[E], **kw: Any) -> E:
    return cls(turn=state.turn, side=state.side, phase=PHASE, **kw)


def _delivery_events(state: GameState, order: Order) -> list[BattleEvent]:
    """What delivering ``order`` does: in force from the recipient's position; a detachment
    re-parents; a march to a detached formation lifts the detachment at once (2.11)."""
    out: list[BattleEvent] = [
        _ev(
            state,
            OrderCancelled,
            order_id=other.id,
            superseded_by=order.id,
            reason=f"superseded by order {order.id} ({order.order_type}) of {name_of(state, order.issuer)}, "
            "which went through",
        )
        for other in state.orders.values()
        if other.id != order.id and other.recipient == order.recipient and other.status in _SUPERSEDED
    ]
    out.append(_ev(state, OrderDelivered, order_id=order.id, origin=position_of(state, order.recipient)))
    if order.order_type == "D":
        before = state.oob.superior(order.recipient) or ""
        after = order.issuer if order.recipient in state.units else before
        out.append(
            _ev(state, Detached, node=order.recipient, superior_before=before, superior_after=after, order_id=order.id)
        )
    elif (
        order.order_type == "M"
        and is_detached(state, order.recipient)
        and state.commanders[order.issuer].echelon == Echelon.CORPS.value
    ):
        back = state.flags[f"detached:{order.recipient}"].get("from") or order.issuer
        out.append(_ev(state, Attached, node=order.recipient, superior=back, order_id=order.id))
        out.append(
            _ev(
                state,
                OrderCompleted,
                order_id=order.id,
                reason="detachment lifted: the formation rejoins its corps and must regain command distance",
            )
        )
    return out


_SUPERSEDED = (OrderStatus.DELIVERED, OrderStatus.WRITTEN, OrderStatus.FAILED)
"""The statuses of a recipient's orders a newly delivered order replaces (``OrderDelivered``)."""


def _replaced(state: GameState, req: OrderRequest, oid: str) -> list[BattleEvent]:
    """A new order replaces the recipient's orders that have not gone through (written or
    failed): each is cancelled by an event naming the new one, never silently."""
    return [
        _ev(
            state,
            OrderCancelled,
            order_id=o.id,
            superseded_by=oid,
            reason=f"replaced by order {oid} ({req.order_type}) of {name_of(state, req.issuer)} before it went through",
        )
        for o in sorted(pending_orders(state, req.recipient), key=lambda o: o.id)
    ]


def rerollable(state: GameState) -> list[Order]:
    """The active side's orders pending from earlier turns and not rolled yet this turn, by id."""
    return [
        o
        for o in sorted(pending_orders(state), key=lambda o: o.id)
        if o.turn_issued < state.turn
        and o.parameters.get("failed_turn") != state.turn
        and (iss := state.commanders.get(o.issuer)) is not None
        and (not state.side or iss.side == state.side)
    ]


def reroll_pending(state: GameState, p: RuleParameters, dice: DiceSource) -> PhaseOutcome:
    """The last step of an order phase, run as it closes (A6; after every declaration, 3.3):
    every order of the active side that failed in an earlier turn and was not rolled, cancelled
    or replaced in this phase is rolled again (no OAS). One outcome each: delivered, or failed
    again (still pending); one that cannot be rolled now (out of every zone, a value missing)
    fails again with the reason. With ``failed_orders_persist`` false a failed order lapses
    instead (an ``OrderCancelled``). Nothing is mutated.
    """
    out = PhaseOutcome()
    persist = bool(p.get("failed_orders_persist"))
    for o in rerollable(state):
        if not persist:
            why = "a failed order lapses (failed_orders_persist off, A6)"
            lapse = _ev(state, OrderCancelled, order_id=o.id, reason=why)
            out.events.append(lapse)
            text = f"Order {o.id} ({o.order_type}) lapses (A6)."
            out.outcomes.append(OrderOutcome("cancelled", o.id, text, (lapse,)))
            continue
        try:
            out.outcomes.append(_resolve(state, p, dice, o, False, [], out, again=True))
        except RuleRefused as exc:
            _not_rolled(state, o, exc, out)
    out.assumed = p.assumptions()
    return out


def _not_rolled(state: GameState, o: Order, exc: RuleRefused, out: PhaseOutcome) -> None:
    """A pending order that cannot be rolled again now stays pending, with the reason (A6)."""
    why = f"not rolled again this turn: {exc}"
    ev = _ev(state, OrderFailed, order_id=o.id, reason=why)
    out.events.append(ev)
    text = f"Order {o.id} ({o.order_type}) to {name_of(state, o.recipient)} is {why}; it stays pending (A6)."
    out.outcomes.append(OrderOutcome("failed", o.id, text, (ev,)))


def order_phase(
    state: GameState, p: RuleParameters, requests: Sequence[OrderRequest], dice: DiceSource, reroll_pending: bool = True
) -> PhaseOutcome:
    """Run the order phase for the declarations ``requests`` (3.3). Nothing is mutated.

    Illegal declarations are refused one by one (status ``refused`` with the reason), the rest
    proceed. With ``reroll_pending`` (assumed ``failed_orders_persist``) every earlier pending
    order of the active side not yet rolled this turn (``reroll_pending`` at the phase's start
    rolls them) is rolled again, unless cancelled in this phase.

    Raises
    ------
    MissingParameterError
        when Table 1 values, OAS or KE the phase needs are absent from the scenario.
    """
    out = PhaseOutcome()
    used: dict[str, int] = {}
    taken: set[str] = set()
    cancel_targets: set[str] = set()
    ordered: set[str] = set()
    moved: set[str] = set()
    accepted: list[tuple[OrderRequest, str]] = []
    ordered_corps: set[str] = set()
    cancelled_corps: set[str] = set()
    order_recipients = {  # a corps general ordered now is not bought a move (2.12)
        r.recipient
        for r in requests
        if r.order_type in ("A", "H", "T", "M")
        and r.recipient in state.commanders
        and state.commanders[r.recipient].echelon == Echelon.CORPS.value
        and not check_request(state, p, r)
    }
    for req in requests:  # 1. declare everything first
        is_cancel = req.order_type == "cancel"
        if is_cancel:
            req = replace(req, cancel=cancel_target(state, req))
            target = state.orders.get(req.cancel)
            why = check_cancel(state, p, req, used.get(req.issuer, 0))
            recipient = target.recipient if target is not None else ""
        else:
            why = check_request(state, p, req, used.get(req.issuer, 0))
            recipient = req.recipient
            if not why and req.order_type == "T" and req.parameters.get("automatic") and req.objective is None:
                from battlestudio.rules.toe.checks import auto_retreat_objective

                req = replace(req, objective=auto_retreat_objective(state, p, req.issuer))
        if not why and req.order_type == "move" and p.get("one_oas_move_per_general"):
            if req.recipient in moved:
                why = f"{name_of(state, req.recipient)} is already moved with order capacity this turn (A18)"
            moved.add(req.recipient)
        if not why and req.order_type == "move" and req.recipient in order_recipients:
            why = (
                f"{name_of(state, req.recipient)} receives an order in this phase; 1 OAS moves only a corps "
                "general not carrying out another order (2.12)"
            )
        if not why and req.order_type not in ("move", "mission"):
            clash = ordered_corps if is_cancel else cancelled_corps
            if corps_key(state, recipient) in clash:
                why = (
                    f"{name_of(state, corps_key(state, recipient))} cannot get both an order and a cancellation "
                    "in the same turn (3.3)"
                )
        if not why and req.order_type not in ("move", "mission") and recipient:
            target_type = (
                state.orders[req.cancel].order_type if is_cancel and req.cancel in state.orders else req.order_type
            )
            why = out_of_reach(state, p, req.issuer, recipient, target_type)
        if why:
            out.outcomes.append(OrderOutcome("refused", req.cancel, f"Refused: {why}."))
            continue
        (cancel_targets if is_cancel else ordered).add(recipient)
        (cancelled_corps if is_cancel else ordered_corps).add(corps_key(state, recipient))
        cost = _cost(state, p, req)
        used[req.issuer] = used.get(req.issuer, 0) + cost
        oid = req.cancel if is_cancel else new_order_id(state, taken)
        taken.add(oid)
        accepted.append((req, oid))
    writes: list[BattleEvent] = []
    moves: list[BattleEvent] = []
    for req, oid in accepted:
        cost = _cost(state, p, req)
        if req.order_type == "cancel":
            writes.append(_ev(state, CancellationWritten, order_id=oid, issuer=req.issuer, cost=cost))
        elif req.order_type == "move":
            to = req.parameters.get("to", req.objective)
            moves.append(
                _ev(
                    state,
                    GeneralMoveBought,
                    issuer=req.issuer,
                    commander=req.recipient,
                    start=position_of(state, req.recipient),
                    end=(float(to[0]), float(to[1])),
                    cost=cost,
                )
            )
        else:
            params = dict(req.parameters)
            objective = req.objective if req.order_type != "D" else params.get("point", req.objective)
            writes.append(
                _ev(
                    state,
                    OrderWritten,
                    order_id=oid,
                    issuer=req.issuer,
                    recipient=req.recipient,
                    order_type=req.order_type,
                    objective=objective,
                    parameters=params,
                    cost=cost,
                )
            )
            writes += _replaced(state, req, oid)
    out.events.extend(writes)
    written = state
    for e in writes:
        written = e.apply(written)
    for req, oid in accepted:  # 2-3. roll, positions before any bought move (A6)
        if req.order_type == "move":
            out.outcomes.append(OrderOutcome("delivered", "", _move_text(state, req), spent={req.issuer: 1}))
            continue
        extra = [Modifier(v, s) for v, s in req.modifiers]
        out.outcomes.append(_resolve(written, p, dice, written.orders[oid], req.order_type == "cancel", extra, out))
    if reroll_pending and p.get("failed_orders_persist"):
        for o in rerollable(state):
            if o.id in cancel_targets or o.id in taken or o.recipient in ordered:
                continue  # cancelled now, or a new order of another issuer to the recipient
            try:
                out.outcomes.append(_resolve(written, p, dice, o, False, [], out, again=True))
            except RuleRefused as exc:  # e.g. its corps rode out of zone 3 (D6): it waits, the phase goes on
                why = f"not rolled again this turn: {exc}"
                ev = _ev(state, OrderFailed, order_id=o.id, reason=why)
                out.events.append(ev)
                text = (
                    f"Order {o.id} ({o.order_type}) to {name_of(state, o.recipient)} is {why}; it stays pending (A6)."
                )
                out.outcomes.append(OrderOutcome("failed", o.id, text, (ev,)))
    out.events.extend(moves)  # 4. spare OAS moves
    out.assumed = p.assumptions()
    return out


def _resolve(
    state: GameState,
    p: RuleParameters,
    dice: DiceSource,
    order: Order,
    cancel: bool,
    extra: Sequence[Modifier],
    out: PhaseOutcome,
    again: bool = False,
) -> OrderOutcome:
    what = "cancellation" if cancel else "order"
    if cancel and not p.get("cancellation_needs_roll"):
        roll = None
    else:
        roll = _roll(state, p, dice, order, what, extra, again)
    events: list[BattleEvent] = []
    if roll is not None:
        events.append(_ev(state, CommandRolled, order_id=order.id, roll=roll.to_dict(), explanation=roll.explain()))
    ok = roll is None or bool(roll.success)
    head = (
        roll.explain()
        if roll is not None
        else f"{name_of(state, order.issuer)} → {name_of(state, order.recipient)}: no roll needed"
    )
    if cancel:
        if ok:
            events.append(
                _ev(state, OrderCancelled, order_id=order.id, reason=f"cancelled by {name_of(state, order.issuer)}")
            )
            detached = state.flags.get(f"detached:{order.recipient}")
            if order.order_type == "D" and detached and detached.get("order") == order.id:
                events.append(
                    _ev(
                        state,
                        Attached,
                        node=order.recipient,
                        superior=detached.get("from") or order.issuer,
                        order_id=order.id,
                    )
                )  # the detachment ends with its order (2.11)
        status = "cancelled" if ok else "failed"
        text = f"{head}. Order {order.id} ({order.order_type}) {'is cancelled' if ok else 'stays as it was'}."
    else:
        if ok:
            events += _delivery_events(state, order)
        else:
            why = roll.outcome if roll else ""
            why = f"{why} again; it stays pending (A6)" if again else why
            events.append(_ev(state, OrderFailed, order_id=order.id, reason=why))
        status = "delivered" if ok else "failed"
        text = f"{head}." + ("" if ok else " It stays pending and is rolled for again next order phase (A6).")
    out.events.extend(events)
    return OrderOutcome(
        status,
        order.id,
        text,
        tuple(events),
        (roll,) if roll else (),
        {order.issuer: order_cost(state, p, order.issuer, order.recipient, order.order_type)},
        tuple(p.assumptions()),
    )


def _cost(state: GameState, p: RuleParameters, req: OrderRequest) -> int:
    """OAS points ``req`` costs: a cancellation costs what its order did (2.12)."""
    if req.order_type == "cancel":
        target = state.orders.get(req.cancel)
        if target is None:
            return 0
        return order_cost(state, p, target.issuer, target.recipient, target.order_type)
    return order_cost(state, p, req.issuer, req.recipient, req.order_type)


def _move_text(state: GameState, req: OrderRequest) -> str:
    to = req.parameters.get("to", req.objective)
    here = position_of(state, req.recipient)
    d = math.hypot(to[0] - here[0], to[1] - here[1])
    return (
        f"{name_of(state, req.issuer)} spends 1 OAS to move {name_of(state, req.recipient)} {d:.1f} cm "
        f"to ({to[0]:g}, {to[1]:g}) (2.12)."
    )
