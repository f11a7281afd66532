"""The Scenario aggregate: everything a battle starts from.

Records (units, commanders, terrain, towns, …) are frozen; the Scenario owns the mutable
containers that hold them, keyed by id. Edits replace records; nothing mutates one in place.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from collections.abc import Mapping

from shapely.geometry import Polygon, box
from shapely.geometry.base import BaseGeometry

from battlestudio.model.geometry import Point
from battlestudio.model.georef import Georeference
from battlestudio.model.oob import OobProblem, OrderOfBattle
from battlestudio.model.orders import Order
from battlestudio.model.terrain import TerrainFeature, TownZone
from battlestudio.model.units import Commander, Unit


@dataclass(frozen=True, slots=True)
class Side:
    """A side of the battle: ``id`` (e.g. ``"french"``), display ``name``, its ``nations``,
    and a ``colour`` as ``#rrggbb`` for maps."""

    id: str
    name: str
    nations: tuple[str, ...] = ()
    colour: str = "#3050c0"


@dataclass(frozen=True, slots=True)
class Objective:
    """A place that matters: ``geometry`` in table cm, ``side`` that wants it ("" = both),
    ``value`` in victory points."""

    id: str
    name: str
    geometry: BaseGeometry
    side: str = ""
    value: int = 1


@dataclass(frozen=True, slots=True)
class DeploymentZone:
    """Where a side (or one formation, ``formation`` = commander id) may deploy; cm polygon."""

    id: str
    side: str
    name: str
    polygon: Polygon
    formation: str = ""


@dataclass(frozen=True, slots=True)
class Reinforcement:
    """A formation that arrives during the game.

    ``formation`` is the id of its commander (or of a lone unit); it may arrive from
    ``earliest_turn`` to ``latest_turn`` (turns, 1-based) with ``probability`` (0–1) per
    check, at ``entry_point`` (cm, on a table edge).
    """

    id: str
    side: str
    formation: str
    earliest_turn: int
    latest_turn: int
    entry_point: Point
    probability: float = 1.0
    note: str = ""


@dataclass(frozen=True, slots=True)
class Source:
    """Where scenario data came from: a title, url, licence and what was used from it."""

    title: str
    url: str = ""
    licence: str = ""
    note: str = ""


@dataclass(frozen=True, slots=True)
class ScenarioInfo:
    """The scenario's metadata.

    Attributes
    ----------
    title, place : str
    date : str
        ISO date of the battle, e.g. ``"1806-10-14"``.
    ruleset : str
        id of the ruleset played (an entry point of ``battlestudio.rulesets``); ``""`` when not
        chosen: the registry's default (``rules.DEFAULT_RULESET``).
    parameters : Mapping[str, Any]
        ruleset parameters and house rules, e.g. values the seed leaves unknown.
    table_width, table_height : float
        table size in cm.
    ground_scale : float
        metres of ground per cm of table (Torden over Europa 1.1: 30).
    turn_minutes : int
        game time per turn in minutes (Torden over Europa 1.1: 15).
    first_turn : str
        time of day of turn 1, ``"HH:MM"``.
    turns : int
        number of turns the scenario lasts.
    description : str
    georef : Georeference | None
        where the table lies on the Earth (origin lon/lat, bearing of +x; ``model.georef``), or
        None when the scenario is not georeferenced.
    """

    title: str = "Untitled"
    date: str = ""
    place: str = ""
    ruleset: str = ""
    parameters: Mapping[str, Any] = field(default_factory=dict)
    table_width: float = 240.0
    table_height: float = 180.0
    ground_scale: float = 30.0
    turn_minutes: int = 15
    first_turn: str = "06:00"
    turns: int = 20
    description: str = ""
    georef: Georeference | None = None


@dataclass
class Scenario:
    """The whole starting state of a battle.

    Containers map id → frozen record. ``orders`` are the standing orders in force at the start.
    ``oob`` holds the command hierarchy over commander and unit ids. All lengths are table cm.
    """

    info: ScenarioInfo = field(default_factory=ScenarioInfo)
    sides: dict[str, Side] = field(default_factory=dict)
    units: dict[str, Unit] = field(default_factory=dict)
    commanders: dict[str, Commander] = field(default_factory=dict)
    terrain: dict[str, TerrainFeature] = field(default_factory=dict)
    towns: dict[str, TownZone] = field(default_factory=dict)
    objectives: dict[str, Objective] = field(default_factory=dict)
    deployment_zones: dict[str, DeploymentZone] = field(default_factory=dict)
    reinforcements: dict[str, Reinforcement] = field(default_factory=dict)
    orders: dict[str, Order] = field(default_factory=dict)
    sources: list[Source] = field(default_factory=list)
    oob: OrderOfBattle = field(default_factory=OrderOfBattle)

    def table(self) -> Polygon:
        """The table as a polygon, origin at the bottom-left corner, cm."""
        return box(0.0, 0.0, self.info.table_width, self.info.table_height)

    def record(self, node_id: str) -> Unit | Commander | None:
        """The unit or commander with this id, or None."""
        return self.units.get(node_id) or self.commanders.get(node_id)

    def all_ids(self) -> set[str]:
        """Every id used by any record of the scenario."""
        ids: set[str] = set()
        for d in (
            self.units,
            self.commanders,
            self.terrain,
            self.towns,
            self.objectives,
            self.deployment_zones,
            self.reinforcements,
            self.orders,
        ):
            ids.update(d)
        return ids

    def next_id(self, prefix: str) -> str:
        """A fresh id ``prefix-N`` not used by any record."""
        used = self.all_ids()
        n = 1
        while f"{prefix}-{n}" in used:
            n += 1
        return f"{prefix}-{n}"

    def validate_oob(self) -> list[OobProblem]:
        """Problems of the order of battle (see ``OrderOfBattle.validate``)."""
        return self.oob.validate(self.commanders, self.units)

    def copy(self) -> Scenario:
        """A copy whose containers (and graph) are independent; records are shared (frozen)."""
        return Scenario(
            info=self.info,
            sides=dict(self.sides),
            units=dict(self.units),
            commanders=dict(self.commanders),
            terrain=dict(self.terrain),
            towns=dict(self.towns),
            objectives=dict(self.objectives),
            deployment_zones=dict(self.deployment_zones),
            reinforcements=dict(self.reinforcements),
            orders=dict(self.orders),
            sources=list(self.sources),
            oob=self.oob.copy(),
        )
