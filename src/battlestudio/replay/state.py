"""GameState: the battle as it stands at one point of the game log.

A GameState is immutable by convention: events build a new state with ``evolve`` and replace
only the containers they touch, so a keyframe is a cheap shallow copy. Units, commanders and
orders are held in ``ChunkedMap``s (``replay.pmap``), so replacing one record copies one small
leaf and its path, not the whole container: applying an event does not grow with the number of
units. The order of battle is shared between states until an attach/detach event replaces it
with a changed copy.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import Any
from collections.abc import Iterable, Mapping

from battlestudio.model.oob import OrderOfBattle
from battlestudio.model.orders import Order
from battlestudio.model.scenario import Scenario
from battlestudio.model.units import Commander, Unit
from battlestudio.replay.pmap import ChunkedMap

RECORD_CONTAINERS = ("units", "commanders", "orders")
"""The fields held as ``ChunkedMap`` (a plain dict given to ``evolve`` is converted)."""


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
    off_table : frozenset[str]
        ids of units and commanders that exist but are not on the table yet (reinforcements
        that have not arrived). Their records keep the scenario's placement until they enter.
    """

    units: Mapping[str, Unit]
    commanders: Mapping[str, Commander]
    orders: Mapping[str, Order]
    oob: OrderOfBattle
    turn: int = 0
    side: str = ""
    phase: str = ""
    flags: Mapping[str, Any] = field(default_factory=dict)
    off_table: frozenset[str] = frozenset()

    @classmethod
    def from_scenario(cls, scenario: Scenario) -> GameState:
        """The state at the start of the game: the scenario's units, commanders, orders, OOB.

        Every formation named by a ``Reinforcement`` (its commander or lone unit and everything
        below it in the order of battle) starts in ``off_table``.
        """
        waiting: set[str] = set()
        for r in scenario.reinforcements.values():
            waiting.add(r.formation)
            waiting.update(scenario.oob.all_subordinates(r.formation))
        known = scenario.units.keys() | scenario.commanders.keys()
        return cls(
            units=ChunkedMap.from_mapping(scenario.units),
            commanders=ChunkedMap.from_mapping(scenario.commanders),
            orders=ChunkedMap.from_mapping(scenario.orders),
            oob=scenario.oob.copy(),
            off_table=frozenset(waiting & known),
        )

    def evolve(self, **changes: Any) -> GameState:
        """A new state with the given fields replaced (mappings are frozen on the way in: a
        dict of units, commanders or orders becomes a ``ChunkedMap``, any other dict a read-only
        proxy)."""
        for key, value in list(changes.items()):
            if isinstance(value, dict):
                changes[key] = ChunkedMap.from_mapping(value) if key in RECORD_CONTAINERS else MappingProxyType(value)
        return _replaced(self, changes)

    def with_unit(self, unit: Unit) -> GameState:
        """A new state where ``unit`` replaces the record with its id."""
        return _replaced(self, {"units": _chunked(self.units).set(unit.id, unit)})

    def with_commander(self, commander: Commander) -> GameState:
        """A new state where ``commander`` replaces the record with its id."""
        return _replaced(self, {"commanders": _chunked(self.commanders).set(commander.id, commander)})

    def with_order(self, order: Order) -> GameState:
        """A new state where ``order`` is added or replaces the order with its id."""
        return _replaced(self, {"orders": _chunked(self.orders).set(order.id, order)})

    def with_records(self, records: Iterable[Unit | Commander]) -> GameState:
        """A new state where each unit or commander replaces the record with its id.

        Each touched chunk of each container is copied once however many records change (a
        whole reinforcement).
        """
        units: list[tuple[str, Unit]] = []
        commanders: list[tuple[str, Commander]] = []
        for r in records:
            (units if isinstance(r, Unit) else commanders).append((r.id, r))  # type: ignore[arg-type]
        changes: dict[str, Any] = {}
        if units:
            changes["units"] = _chunked(self.units).set_many(units)
        if commanders:
            changes["commanders"] = _chunked(self.commanders).set_many(commanders)
        return _replaced(self, changes) if changes else self

    def without(self, node_id: str) -> GameState:
        """A new state with the unit or commander ``node_id`` gone (and no longer off table).

        The order of battle keeps the node, so the chain of command stays readable.

        Raises
        ------
        KeyError
            if there is no unit or commander with that id.
        """
        changes: dict[str, Any] = {}
        if node_id in self.units:
            changes["units"] = _chunked(self.units).delete(node_id)
        elif node_id in self.commanders:
            changes["commanders"] = _chunked(self.commanders).delete(node_id)
        else:
            raise KeyError(node_id)
        if node_id in self.off_table:
            changes["off_table"] = self.off_table - {node_id}
        return self.evolve(**changes)

    def record(self, node_id: str) -> Unit | Commander | None:
        """The unit or commander with this id, or None."""
        return self.units.get(node_id) or self.commanders.get(node_id)


_FIELDS = tuple(f.name for f in fields(GameState))


def _replaced(state: GameState, changes: dict[str, Any]) -> GameState:
    """``dataclasses.replace`` without its per-call field introspection (~5x faster; a state
    is replaced by every event).

    Raises
    ------
    TypeError
        for a name that is not a field, as ``dataclasses.replace`` does.
    """
    unknown = changes.keys() - _FIELDS
    if unknown:
        raise TypeError(f"GameState has no field(s) {', '.join(sorted(unknown))}")
    new = object.__new__(GameState)
    for name in _FIELDS:
        object.__setattr__(new, name, changes[name] if name in changes else getattr(state, name))
    return new


def _chunked(mapping: Mapping[str, Any]) -> ChunkedMap[Any]:
    """``mapping`` itself when it is a ``ChunkedMap``, else a new one holding its items (a
    state built by hand with plain mappings is converted on its first update)."""
    return mapping if isinstance(mapping, ChunkedMap) else ChunkedMap.from_mapping(mapping)
