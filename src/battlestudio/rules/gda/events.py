"""Battle events only General d'Armée needs: an ADC task coming into force, damage points,
and Low Ammunition. Brigade command states use ``order_events.CommandStateChanged`` (flag
``gda:<brigadier>``), unit states ``flow_events.OrderStateChanged``, dispersal
``flow_events.UnitRemoved``; rolls ``order_events.CommandRolled``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from battlestudio.model.orders import OrderStatus
from battlestudio.replay.events import BattleEvent, EventError, register
from battlestudio.replay.state import GameState


@register
@dataclass(frozen=True, slots=True)
class TaskInForce(BattleEvent):
    """ADC task ``order_id`` is in force: its brigade obeyed this turn (example Б, §7.3).

    Unlike ``OrderDelivered`` it supersedes nothing: a brigade may hold Forward! and Brigade
    Attachment! at once (example A).
    """

    kind = "gda_task_in_force"
    order_id: str = ""

    def apply(self, state: GameState) -> GameState:
        order = state.orders.get(self.order_id)
        if order is None:
            raise EventError(self, f"no order {self.order_id!r}")
        params = {**order.parameters, "delivered_turn": self.turn}
        return state.with_order(replace(order, status=OrderStatus.DELIVERED, parameters=params))


@register
@dataclass(frozen=True, slots=True)
class DamageTaken(BattleEvent):
    """``unit`` takes ``points`` damage points (урон), kept in ``attributes["damage"]``."""

    kind = "gda_damage"
    unit: str = ""
    points: int = 0
    cause: str = ""

    def apply(self, state: GameState) -> GameState:
        u = state.units.get(self.unit)
        if u is None:
            raise EventError(self, f"no unit {self.unit!r}")
        attrs = dict(u.attributes)
        attrs["damage"] = int(attrs.get("damage", 0)) + self.points
        return state.with_unit(replace(u, attributes=attrs))

    def touched(self) -> tuple[str, ...]:
        return (self.unit,)


@register
@dataclass(frozen=True, slots=True)
class LowAmmunition(BattleEvent):
    """Battery ``unit`` is marked Low Ammunition («мало Амуниции»), ``attributes["low_ammunition"]``."""

    kind = "gda_low_ammunition"
    unit: str = ""
    cause: str = ""

    def apply(self, state: GameState) -> GameState:
        u = state.units.get(self.unit)
        if u is None:
            raise EventError(self, f"no unit {self.unit!r}")
        return state.with_unit(replace(u, attributes={**u.attributes, "low_ammunition": True}))

    def touched(self) -> tuple[str, ...]:
        return (self.unit,)
