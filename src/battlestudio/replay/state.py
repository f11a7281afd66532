"""GameState: the battle as it stands at one point of the game log.

A GameState is immutable by convention: events build a new state with ``evolve`` and replace
only the containers they touch, so a keyframe is a cheap shallow copy. The order of battle is
shared between states until an attach/detach event replaces it with a changed copy.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, Mapping

from battlestudio.model.oob import OrderOfBattle
from battlestudio.model.orders import Order
from battlestudio.model.scenario import Scenario
from battlestudio.model.units import Commander, Unit


@dataclass(frozen=True, slots=True)
class GameState:
    """Everything that changes during a game.

    Attributes
    ----------
    units, commanders : Mapping[str, Unit] / Mapping[str, Commander]
        records by id (removed units are absent; eliminated ones keep state ``eliminated``).
    orders : Mapping[str, Order]
        every order written so far, by id, with its current status.
    oob : OrderOfBattle
        the command hierarchy now (never mutate it; replace it).
    turn : int
        current turn (0 before the first phase starts).
    side : str
        active side id ("" before the game starts).
    phase : str
        current phase id.
    flags : Mapping[str, Any]
        ruleset state that fits no record (e.g. ``{"engaged:c-davout": True}``).
    """

    units: Mapping[str, Unit]
    commanders: Mapping[str, Commander]
    orders: Mapping[str, Order]
    oob: OrderOfBattle
    turn: int = 0
    side: str = ""
    phase: str = ""
    flags: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def from_scenario(cls, scenario: Scenario) -> "GameState":
        """The state at the start of the game: the scenario's units, commanders, orders, OOB."""
        return cls(
            units=MappingProxyType(dict(scenario.units)),
            commanders=MappingProxyType(dict(scenario.commanders)),
            orders=MappingProxyType(dict(scenario.orders)),
            oob=scenario.oob.copy(),
        )

    def evolve(self, **changes: Any) -> "GameState":
        """A new state with the given fields replaced (mappings are frozen on the way in)."""
        for key, value in list(changes.items()):
            if isinstance(value, dict):
                changes[key] = MappingProxyType(value)
        return replace(self, **changes)

    def with_unit(self, unit: Unit) -> "GameState":
        """A new state where ``unit`` replaces the record with its id."""
        units = dict(self.units)
        units[unit.id] = unit
        return self.evolve(units=units)

    def with_commander(self, commander: Commander) -> "GameState":
        """A new state where ``commander`` replaces the record with its id."""
        commanders = dict(self.commanders)
        commanders[commander.id] = commander
        return self.evolve(commanders=commanders)

    def with_order(self, order: Order) -> "GameState":
        """A new state where ``order`` is added or replaces the order with its id."""
        orders = dict(self.orders)
        orders[order.id] = order
        return self.evolve(orders=orders)
