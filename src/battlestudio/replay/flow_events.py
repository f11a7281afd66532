"""Battle events of the game's flow and of movement: phases, moves, rotations, formations,
order states, arrivals, removals and annotations.

Each event names units and commanders by id and applies itself to a ``GameState``, returning a
new state. Points are ``(x, y)`` tuples in table cm, facings degrees counter-clockwise from +x
(``model/geometry.py``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any, cast

from battlestudio.model.geometry import Point, normalize_angle
from battlestudio.model.units import Commander, Formation, Unit
from battlestudio.replay.events import BattleEvent, EventError, register
from battlestudio.replay.state import GameState


def _set(event: BattleEvent, name: str, value: object) -> None:
    object.__setattr__(event, name, value)


def _point(value: object) -> Point:
    x, y = cast("Iterable[Any]", value)  # a pair from the event (a list once read from a file)
    return (float(x), float(y))


def record_of(state: GameState, event: BattleEvent, node_id: str) -> Unit | Commander:
    """The unit or commander ``node_id`` in ``state``.

    Raises
    ------
    EventError
        if the state has neither a unit nor a commander with that id.
    """
    rec = state.units.get(node_id) or state.commanders.get(node_id)
    if rec is None:
        raise EventError(event, f"no unit or commander {node_id!r}")
    return rec


def unit_of(state: GameState, event: BattleEvent, unit_id: str) -> Unit:
    """The unit ``unit_id`` in ``state``.

    Raises
    ------
    EventError
        if the state has no unit with that id.
    """
    unit = state.units.get(unit_id)
    if unit is None:
        raise EventError(event, f"no unit {unit_id!r}")
    return unit


@register
@dataclass(frozen=True, slots=True)
class PhaseStarted(BattleEvent):
    """A phase of a player-turn begins (Torden over Europa 1.2: phases 1–7 per side).

    Sets the state's ``turn``, ``side`` and ``phase``. ``name`` is the phase's display name
    in the ruleset's language, e.g. ``"Skydning"`` (firing).
    """

    kind = "phase_started"
    name: str = ""

    def apply(self, state: GameState) -> GameState:
        return state.evolve(turn=self.turn, side=self.side, phase=self.phase)


@register
@dataclass(frozen=True, slots=True)
class TurnEnded(BattleEvent):
    """Both player-turns of game turn ``turn`` are over (15 minutes in Torden over Europa 1.1).

    Changes nothing on the table; it marks the turn boundary in the log.
    """

    kind = "turn_ended"

    def apply(self, state: GameState) -> GameState:
        return state


@register
@dataclass(frozen=True, slots=True)
class Moved(BattleEvent):
    """A unit or commander moved along ``path``.

    Attributes
    ----------
    id : str
        unit or commander id.
    path : tuple[Point, ...]
        the points passed, cm, oldest first; the last one is where it stands now (a unit's
        front-edge midpoint, a commander's base centre). At least one point.
    facing : float | None
        facing at the end of the move in degrees, or None to keep it.
    """

    kind = "moved"
    id: str = ""
    path: tuple[Point, ...] = ()
    facing: float | None = None

    def __post_init__(self) -> None:
        if not self.path:
            raise ValueError(f"event 'moved' ({self.where()}): path of {self.id!r} is empty")
        _set(self, "path", tuple(_point(p) for p in self.path))
        if self.facing is not None:
            _set(self, "facing", normalize_angle(float(self.facing)))

    def apply(self, state: GameState) -> GameState:
        rec = record_of(state, self, self.id)
        end = self.path[-1]
        if isinstance(rec, Unit):
            return state.with_unit(rec.moved(end, self.facing))
        facing = rec.facing if self.facing is None else self.facing
        return state.with_commander(replace(rec, position=end, facing=facing))

    def touched(self) -> tuple[str, ...]:
        return (self.id,)

    def positions_of(self, node_id: str) -> tuple[Point, ...]:
        return self.path if node_id == self.id else ()


@register
@dataclass(frozen=True, slots=True)
class Rotated(BattleEvent):
    """A unit or commander turned in place to ``facing`` (degrees, counter-clockwise from +x)."""

    kind = "rotated"
    id: str = ""
    facing: float = 90.0

    def __post_init__(self) -> None:
        _set(self, "facing", normalize_angle(float(self.facing)))

    def apply(self, state: GameState) -> GameState:
        rec = record_of(state, self, self.id)
        if isinstance(rec, Unit):
            return state.with_unit(replace(rec, facing=self.facing))
        return state.with_commander(replace(rec, facing=self.facing))

    def touched(self) -> tuple[str, ...]:
        return (self.id,)


@register
@dataclass(frozen=True, slots=True)
class FormationChanged(BattleEvent):
    """A unit took up another formation about its front-edge midpoint (Torden over Europa 4.5).

    Attributes
    ----------
    unit : str
    formation : str
        a ``Formation`` value (``line``, ``column``, ``square``, …).
    column_ranks : int | None
        3 or 4 when forming column (Torden over Europa 1.7); None keeps the unit's choice.
    facing : float | None
        new facing in degrees, or None to keep it.
    """

    kind = "formation_changed"
    unit: str = ""
    formation: str = Formation.LINE.value
    column_ranks: int | None = None
    facing: float | None = None

    def __post_init__(self) -> None:
        if self.formation not in Formation._value2member_map_:
            raise ValueError(
                f"event 'formation_changed' ({self.where()}): unknown formation {self.formation!r}; "
                f"known: {', '.join(f.value for f in Formation)}"
            )
        if self.column_ranks is not None and self.column_ranks not in (3, 4):
            raise ValueError(
                f"event 'formation_changed' ({self.where()}): column ranks must be 3 or 4, got {self.column_ranks}"
            )
        if self.facing is not None:
            _set(self, "facing", normalize_angle(float(self.facing)))

    def apply(self, state: GameState) -> GameState:
        u = unit_of(state, self, self.unit)
        return state.with_unit(
            replace(
                u,
                formation=Formation(self.formation),
                column_ranks=u.column_ranks if self.column_ranks is None else self.column_ranks,
                facing=u.facing if self.facing is None else self.facing,
            )
        )

    def touched(self) -> tuple[str, ...]:
        return (self.unit,)


@register
@dataclass(frozen=True, slots=True)
class OrderStateChanged(BattleEvent):
    """A unit's order state changed: Torden over Europa's ``O`` (in order), ``U`` (disorder),
    ``FU`` (complete disorder), ``eliminated`` (1.6), or a ruleset's own state string.

    ``reason`` says why (e.g. ``"morale test failed"``).
    """

    kind = "order_state_changed"
    unit: str = ""
    state: str = "O"
    reason: str = ""

    def apply(self, state: GameState) -> GameState:
        u = unit_of(state, self, self.unit)
        return state.with_unit(replace(u, state=self.state))

    def touched(self) -> tuple[str, ...]:
        return (self.unit,)


@register
@dataclass(frozen=True, slots=True)
class ReinforcementArrived(BattleEvent):
    """Units and commanders enter the table (a scenario ``Reinforcement`` or any other arrival).

    Attributes
    ----------
    reinforcement : str
        id of the scenario's ``Reinforcement`` record, "" when none.
    arrivals : tuple[tuple[str, float, float, float], ...]
        ``(id, x, y, facing)`` per unit or commander entering: position in cm (a unit's
        front-edge midpoint, a commander's base centre) and facing in degrees.
    """

    kind = "reinforcement_arrived"
    reinforcement: str = ""
    arrivals: tuple[tuple[str, float, float, float], ...] = ()

    def __post_init__(self) -> None:
        try:
            rows = tuple((str(i), float(x), float(y), normalize_angle(float(f))) for i, x, y, f in self.arrivals)
        except (TypeError, ValueError):
            raise ValueError(
                f"event 'reinforcement_arrived' ({self.where()}): arrivals must be "
                f"(id, x, y, facing) rows, got {self.arrivals!r}"
            ) from None
        _set(self, "arrivals", rows)

    def apply(self, state: GameState) -> GameState:
        records: list[Unit | Commander] = []
        for node_id, x, y, facing in self.arrivals:
            rec = record_of(state, self, node_id)
            records.append(replace(rec, position=(x, y), facing=facing))
        new = state.with_records(records)
        entering = {a[0] for a in self.arrivals}
        if entering & state.off_table:
            new = new.evolve(off_table=state.off_table - entering)
        return new

    def touched(self) -> tuple[str, ...]:
        return tuple(a[0] for a in self.arrivals)

    def positions_of(self, node_id: str) -> tuple[Point, ...]:
        return tuple((x, y) for i, x, y, _ in self.arrivals if i == node_id)


@register
@dataclass(frozen=True, slots=True)
class UnitRemoved(BattleEvent):
    """A unit or commander leaves the game (routed off the table, captured, general killed).

    The record disappears from the state; the order of battle keeps the node. An eliminated
    unit that stays on the table is an ``OrderStateChanged`` to ``eliminated`` instead.
    """

    kind = "unit_removed"
    id: str = ""
    reason: str = ""

    def apply(self, state: GameState) -> GameState:
        record_of(state, self, self.id)
        return state.without(self.id)

    def touched(self) -> tuple[str, ...]:
        return (self.id,)


@register
@dataclass(frozen=True, slots=True)
class Annotation(BattleEvent):
    """Free text pinned to this place in the log and, optionally, a place on the table.

    Attributes
    ----------
    text : str
        the note (the umpire's narrative, a historical remark).
    at : Point | None
        where it is pinned, cm; None for a note about the whole table.
    ids : tuple[str, ...]
        units or commanders it is about.
    title : str
        short heading for lists.
    """

    kind = "annotation"
    text: str = ""
    at: Point | None = None
    ids: tuple[str, ...] = ()
    title: str = ""

    def __post_init__(self) -> None:
        if self.at is not None:
            _set(self, "at", _point(self.at))
        _set(self, "ids", tuple(self.ids))

    def apply(self, state: GameState) -> GameState:
        return state

    def touched(self) -> tuple[str, ...]:
        return self.ids
