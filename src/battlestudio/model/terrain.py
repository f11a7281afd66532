"""Terrain features and town zones on the table (Torden over Europa 4.7–4.8)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any
from collections.abc import Mapping

from shapely.geometry import Polygon, box
from shapely.geometry.base import BaseGeometry


class TerrainKind(StrEnum):
    """Kinds of terrain the rulesets distinguish (Torden over Europa 4.7)."""

    WOODS = "woods"
    HILL = "hill"
    RIVER = "river"
    STREAM = "stream"
    FORD = "ford"
    BRIDGE = "bridge"
    ROAD = "road"
    HEDGE = "hedge"
    WALL = "wall"
    MARSH = "marsh"
    IMPASSABLE = "impassable"
    BUILT_UP = "built_up"


LINEAR_KINDS = frozenset({TerrainKind.RIVER, TerrainKind.STREAM, TerrainKind.ROAD, TerrainKind.HEDGE, TerrainKind.WALL})
"""Kinds usually drawn as a line (a LineString, optionally with a ``width`` property)."""

AREA_KINDS = frozenset(set(TerrainKind) - LINEAR_KINDS)
"""Kinds usually drawn as an area (a Polygon)."""


@dataclass(frozen=True, slots=True)
class TerrainFeature:
    """One terrain feature.

    Attributes
    ----------
    id : str
    kind : TerrainKind
    geometry : BaseGeometry
        shapely geometry in table cm: a Polygon for areas, a LineString for linear features,
        a Point or Polygon for fords and bridges.
    name : str
    level : int | None
        height level of a hill (1 = lowest), None for other kinds.
    width : float | None
        drawn width in cm of a linear feature (river, road), None for areas.
    properties : Mapping[str, Any]
        further typed properties (JSON-compatible), e.g. ``{"passable_by": "infantry"}``.
    """

    id: str
    kind: TerrainKind
    geometry: BaseGeometry
    name: str = ""
    level: int | None = None
    width: float | None = None
    properties: Mapping[str, Any] = field(default_factory=dict)


DEFAULT_TOWN_SIDE = 15.0
"""Side in cm of the default square town zone: 15 × 15 = 225 cm² (Torden over Europa 4.8)."""


def default_town_polygon(centre: tuple[float, float]) -> Polygon:
    """A 225 cm² square town zone centred on ``centre`` (cm), per Torden over Europa 4.8."""
    h = DEFAULT_TOWN_SIDE / 2.0
    return box(centre[0] - h, centre[1] - h, centre[0] + h, centre[1] + h)


@dataclass(frozen=True, slots=True)
class TownZone:
    """A town zone (byzone, Torden over Europa 4.8): built-up area that holds troops.

    Attributes
    ----------
    id, name : str
    polygon : Polygon
        outline in table cm (default 15 × 15 cm = 225 cm²).
    capacity : int
        how many units may occupy it at once (Torden over Europa 4.8.2: one brigade).
    """

    id: str
    name: str
    polygon: Polygon
    capacity: int = 1

    @property
    def area(self) -> float:
        """Area in cm²."""
        return float(self.polygon.area)
