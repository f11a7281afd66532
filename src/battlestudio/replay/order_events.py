"""Order-related battle events: written, command roll, delivered, failed, cancelled, completed,
command-state changes (engaged, cavalry raids), detachment and attachment, and general moves bought with
order capacity.

Each is a frozen record registered by ``kind`` with ``apply(state) -> state``; none mutates the
state it is given. Order capacity spent is kept in ``GameState.flags`` under
``"oas_spent:<commander id>"`` as ``(turn, points)``; order-state flags under
``"<state>:<commander or unit id>"``; a detachment under ``"detached:<id>"`` as a dict holding
the superior to revert to. Importing this module registers the kinds.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any
from collections.abc import Mapping

from battlestudio.model.geometry import Point
from battlestudio.model.orders import Order, OrderStatus
from battlestudio.replay.events import BattleEvent, EventError, json_value, register
from battlestudio.replay.flags import flags_with
from battlestudio.replay.state import GameState

DEFENCE = "defence"
"""Order type id of the defence order a completed order turns into (Torden over Europa 2.7–2.10)."""


def oas_spent(state: GameState, commander_id: str) -> int:
    """Order capacity points ``commander_id`` has spent in ``state.turn``."""
    rec = state.flags.get(f"oas_spent:{commander_id}")
    if not rec or rec[0] != state.turn:
        return 0
    return int(rec[1])


def _spend(state: GameState, who: str, cost: int, turn: int) -> GameState:
    if cost <= 0 or not who:
        return state
    key = f"oas_spent:{who}"
    rec = state.flags.get(key)
    spent = int(rec[1]) if rec and rec[0] == turn else 0
    return state.evolve(flags=flags_with(state.flags, {key: (turn, spent + cost)}))


def _order(state: GameState, event: BattleEvent, order_id: str) -> Order:
    order = state.orders.get(order_id)
    if order is None:
        raise EventError(event, f"no order {order_id!r}")
    return order


def _norm(event: BattleEvent, *names: str) -> None:
    for name in names:
        object.__setattr__(event, name, json_value(getattr(event, name)))


def _set_status(state: GameState, event: BattleEvent, order_id: str, status: OrderStatus, **params: Any) -> GameState:
    order = _order(state, event, order_id)
    new_params = dict(order.parameters)
    new_params.update(params)
    return state.with_order(replace(order, status=status, parameters=new_params))


@register
@dataclass(frozen=True, slots=True)
class OrderWritten(BattleEvent):
    """An issuer wrote an order (or an automatic order was assigned); it awaits command control.

    ``cost`` order-capacity points are charged to ``issuer`` (0 for corps generals' own orders
    and automatic retreats). ``objective`` in table cm.
    """

    kind = "order_written"

    order_id: str = ""
    issuer: str = ""
    recipient: str = ""
    order_type: str = ""
    objective: Point | None = None
    parameters: Mapping[str, Any] = field(default_factory=dict)
    cost: int = 0

    def __post_init__(self) -> None:
        _norm(self, "objective", "parameters")

    def apply(self, state: GameState) -> GameState:
        order = Order(
            id=self.order_id,
            issuer=self.issuer,
            recipient=self.recipient,
            order_type=self.order_type,
            objective=None if self.objective is None else (float(self.objective[0]), float(self.objective[1])),
            status=OrderStatus.WRITTEN,
            turn_issued=self.turn,
            parameters=dict(self.parameters),
        )
        return _spend(state.with_order(order), self.issuer, self.cost, self.turn)

    def touched(self) -> tuple[str, ...]:
        return (self.issuer, self.recipient)


@register
@dataclass(frozen=True, slots=True)
class CancellationWritten(BattleEvent):
    """``issuer`` declared the cancellation of ``order_id``, paying ``cost`` points (2.12); the
    order's ``cancellation_turn`` parameter holds the turn (its recipient gets no new order in
    it, Torden over Europa 3.3)."""

    kind = "cancellation_written"

    order_id: str = ""
    issuer: str = ""
    cost: int = 1

    def apply(self, state: GameState) -> GameState:
        order = state.orders.get(self.order_id)
        if order is not None:
            state = state.with_order(replace(order, parameters={**order.parameters, "cancellation_turn": self.turn}))
        return _spend(state, self.issuer, self.cost, self.turn)


@register
@dataclass(frozen=True, slots=True)
class CommandRolled(BattleEvent):
    """A command roll for ``order_id``: ``roll`` is the full roll record as plain data
    (``rules.dice.RollRecord.to_dict``) and ``explanation`` its sentence. Changes no state."""

    kind = "command_roll"

    order_id: str = ""
    roll: Mapping[str, Any] = field(default_factory=dict)
    explanation: str = ""

    def __post_init__(self) -> None:
        _norm(self, "roll")


@register
@dataclass(frozen=True, slots=True)
class OrderDelivered(BattleEvent):
    """``order_id`` went through and is in force. ``origin`` is the recipient general's position
    at delivery (the start of his straight path, 2.7); any other pending or in-force order of
    the same recipient is cancelled as superseded, and its engaged flag cleared."""

    kind = "order_delivered"

    order_id: str = ""
    origin: Point | None = None

    def __post_init__(self) -> None:
        _norm(self, "origin")

    def apply(self, state: GameState) -> GameState:
        order = _order(state, self, self.order_id)
        orders = dict(state.orders)
        for oid, other in state.orders.items():
            if (
                oid != self.order_id
                and other.recipient == order.recipient
                and other.status
                in (
                    OrderStatus.DELIVERED,
                    OrderStatus.WRITTEN,
                    OrderStatus.FAILED,
                )
            ):
                orders[oid] = replace(
                    other, status=OrderStatus.CANCELLED, parameters={**other.parameters, "superseded_by": self.order_id}
                )
        params = dict(order.parameters)
        if self.origin is not None:
            params["origin"] = (float(self.origin[0]), float(self.origin[1]))
        params["delivered_turn"] = self.turn
        orders[self.order_id] = replace(order, status=OrderStatus.DELIVERED, parameters=params)
        flags = flags_with(state.flags, remove=(f"engaged:{order.recipient}",))
        return state.evolve(orders=orders, flags=flags)


@register
@dataclass(frozen=True, slots=True)
class OrderFailed(BattleEvent):
    """``order_id`` did not go through this time; ``reason`` in words. It stays pending."""

    kind = "order_failed"

    order_id: str = ""
    reason: str = ""

    def apply(self, state: GameState) -> GameState:
        return _set_status(state, self, self.order_id, OrderStatus.FAILED, failed_turn=self.turn)


@register
@dataclass(frozen=True, slots=True)
class OrderCancelled(BattleEvent):
    """``order_id`` is cancelled: a cancellation went through, the umpire lifted it, it lapsed,
    or (``superseded_by`` the id) a newer order to the same recipient went through; ``reason``
    in words."""

    kind = "order_cancelled"

    order_id: str = ""
    reason: str = ""
    superseded_by: str = ""

    def apply(self, state: GameState) -> GameState:
        order = _order(state, self, self.order_id)
        extra = {"superseded_by": self.superseded_by} if self.superseded_by else {}
        state = _set_status(state, self, self.order_id, OrderStatus.CANCELLED, cancelled_turn=self.turn, **extra)
        flags = flags_with(state.flags, remove=(f"engaged:{order.recipient}",))
        return state.evolve(flags=flags)


@register
@dataclass(frozen=True, slots=True)
class OrderCompleted(BattleEvent):
    """``order_id`` is done (objective reached, or a march met the enemy). When
    ``defence_objective`` is given, a defence order with that objective comes into force for the
    same recipient, with id ``<order_id>/defence`` (2.7, 2.9, 2.10)."""

    kind = "order_completed"

    order_id: str = ""
    reason: str = ""
    defence_objective: Point | None = None

    def __post_init__(self) -> None:
        _norm(self, "defence_objective")

    def apply(self, state: GameState) -> GameState:
        order = _order(state, self, self.order_id)
        state = _set_status(
            state, self, self.order_id, OrderStatus.COMPLETED, completed_turn=self.turn, reason=self.reason
        )
        if self.defence_objective is None:
            return state
        defence = Order(
            id=f"{self.order_id}/defence",
            issuer=order.issuer,
            recipient=order.recipient,
            order_type=DEFENCE,
            objective=(float(self.defence_objective[0]), float(self.defence_objective[1])),
            status=OrderStatus.DELIVERED,
            turn_issued=self.turn,
            parameters={"follows": self.order_id, "delivered_turn": self.turn},
        )
        flags = flags_with(state.flags, remove=(f"engaged:{order.recipient}",))
        return state.with_order(defence).evolve(flags=flags)


@register
@dataclass(frozen=True, slots=True)
class CommandStateChanged(BattleEvent):
    """A formation's command state changed: ``flags["<state>:<subject>"] = value`` (None clears).

    (A unit's O/U/FU order state is ``flow_events.OrderStateChanged``; this one is the state of
    a standing order or of a unit's command situation.)

    States used by Torden over Europa: ``engaged`` (2.7), ``raid`` (cavalry outside command
    distance, 4.9; value ``{"left_turn": t, "last_attack_turn": t, "returning": bool}``).
    """

    kind = "command_state_changed"

    subject: str = ""
    state: str = ""
    value: Any = None
    reason: str = ""

    def __post_init__(self) -> None:
        _norm(self, "value")

    def apply(self, state: GameState) -> GameState:
        key = f"{self.state}:{self.subject}"
        if self.value is None:
            return state.evolve(flags=flags_with(state.flags, remove=(key,)))
        return state.evolve(flags=flags_with(state.flags, {key: self.value}))

    def touched(self) -> tuple[str, ...]:
        return (self.subject,)


@register
@dataclass(frozen=True, slots=True)
class Detached(BattleEvent):
    """``node`` is detached by ``order_id``: re-parented from ``superior_before`` to
    ``superior_after`` for the order's life (2.11); the old superior is kept to revert to."""

    kind = "detached"

    node: str = ""
    superior_before: str = ""
    superior_after: str = ""
    order_id: str = ""

    def apply(self, state: GameState) -> GameState:
        oob = state.oob.copy()
        if self.superior_after and self.superior_after != self.superior_before:
            oob.add(self.superior_after, self.node)
        flags = flags_with(
            state.flags, {f"detached:{self.node}": {"order": self.order_id, "from": self.superior_before}}
        )
        return state.evolve(oob=oob, flags=flags)

    def touched(self) -> tuple[str, ...]:
        return (self.node,)


@register
@dataclass(frozen=True, slots=True)
class Attached(BattleEvent):
    """``node`` is placed under ``superior`` (a detachment lifted, or an attachment), clearing
    any detachment flag."""

    kind = "attached"

    node: str = ""
    superior: str = ""
    order_id: str = ""

    def apply(self, state: GameState) -> GameState:
        oob = state.oob.copy()
        if self.superior and state.oob.superior(self.node) != self.superior:
            oob.add(self.superior, self.node)
        flags = flags_with(state.flags, remove=(f"detached:{self.node}",))
        return state.evolve(oob=oob, flags=flags)

    def touched(self) -> tuple[str, ...]:
        return (self.node,)


@register
@dataclass(frozen=True, slots=True)
class GeneralMoveBought(BattleEvent):
    """``issuer`` spent ``cost`` order-capacity points to move general ``commander`` from
    ``start`` to ``end`` (cm) in a straight line (2.12: 15 cm corps general, 40 cm chief)."""

    kind = "general_move_bought"

    issuer: str = ""
    commander: str = ""
    start: Point = (0.0, 0.0)
    end: Point = (0.0, 0.0)
    cost: int = 1

    def __post_init__(self) -> None:
        _norm(self, "start", "end")

    def apply(self, state: GameState) -> GameState:
        general = state.commanders.get(self.commander)
        if general is None:
            raise EventError(self, f"no commander {self.commander!r}")
        state = state.with_commander(general.moved(self.end))
        state = state.evolve(flags=flags_with(state.flags, {f"moved_by_oas:{self.commander}": self.turn}))
        return _spend(state, self.issuer, self.cost, self.turn)

    def touched(self) -> tuple[str, ...]:
        return (self.commander,)

    def positions_of(self, node_id: str) -> tuple[Point, ...]:
        return (self.start, self.end) if node_id == self.commander else ()
