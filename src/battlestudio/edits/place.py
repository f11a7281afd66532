"""Placing units and commanders dropped on the map from the order-of-battle tree.

Dropped units are deployed side by side in one line centred on the drop point, 1 cm apart,
in their arm's default formation (infantry and cavalry in line, artillery unlimbered) and
facing the enemy (to the nearest 15°): the centre of the other sides' deployment zones, else of
their units on the table, else the far side of the table from where they stand (up the table in the lower half,
down it in the upper half). Dropped commanders stand 6 cm behind that line, spread 4 cm apart.
The whole drop is one undo step, "Place 3 units". Distances in table cm, facings in degrees
counter-clockwise from +x.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any
from collections.abc import Iterable

from shapely.ops import unary_union

from battlestudio.edits.base import Edit, combine, count_text
from battlestudio.edits.records import PutRecords
from battlestudio.model.geometry import Point, direction_angle, forward, normalize_angle, right_of
from battlestudio.model.scenario import Scenario
from battlestudio.model.units import Arm, Commander, Formation, Unit

GAP_CM = 1.0
"""Interval between placed units, cm."""

DROP_STEP_DEG = 15.0
"""A drop's facing towards the enemy is rounded to this step, degrees (a square line, not 93.4°)."""

COMMANDER_BEHIND_CM = 6.0
"""How far behind the placed line dropped commanders stand, cm."""

COMMANDER_SPREAD_CM = 4.0
"""Interval between placed commanders, cm."""

DEFAULT_FORMATION = {
    Arm.INFANTRY: Formation.LINE,
    Arm.CAVALRY: Formation.LINE,
    Arm.ARTILLERY: Formation.UNLIMBERED,
    Arm.OTHER: Formation.LINE,
}
"""Formation a unit gets when placed."""


def default_facing(point: Point, table_height: float) -> float:
    """Facing (degrees CCW from +x) towards the far side: 90 in the lower half, 270 in the upper."""
    return 90.0 if point[1] <= table_height / 2.0 else 270.0


def enemy_target(scenario: Scenario, side: str) -> Point | None:
    """Where the enemy of ``side`` stands: the centre of the other sides' deployment zones, else
    of their units on the table (units left at the origin by an import are not counted); None
    when neither exists."""
    zones = [z.polygon for z in scenario.deployment_zones.values() if z.side != side and not z.polygon.is_empty]
    if zones:
        c = unary_union(zones).centroid
        return (c.x, c.y)
    w, h = scenario.info.table_width, scenario.info.table_height
    pts = [
        u.position
        for u in scenario.units.values()
        if u.side != side and u.position != (0.0, 0.0) and 0.0 <= u.position[0] <= w and 0.0 <= u.position[1] <= h
    ]
    if not pts:
        return None
    return (sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts))


def facing_towards_enemy(scenario: Scenario, side: str, point: Point) -> float:
    """Facing (degrees) from ``point`` towards the enemy of ``side`` (``enemy_target``); without
    an enemy on the map, towards the far side of the table (``edits.place.default_facing``)."""
    target = enemy_target(scenario, side)
    if target is None or math.dist(target, point) < 1e-6:
        return default_facing(point, scenario.info.table_height)
    return direction_angle((target[0] - point[0], target[1] - point[1]))


def placed_units(units: list[Unit], point: Point, facing: float) -> dict[str, Unit]:
    """``units`` deployed in one line centred on ``point`` (cm), all facing ``facing``."""
    formed = [replace(u, formation=DEFAULT_FORMATION[u.arm], facing=facing) for u in units]
    widths = [u.rect().width for u in formed]
    total = sum(widths) + GAP_CM * (len(formed) - 1)
    rx, ry = right_of(facing)
    offset = -total / 2.0
    out: dict[str, Unit] = {}
    for u, w in zip(formed, widths, strict=True):
        c = offset + w / 2.0
        out[u.id] = u.moved((point[0] + rx * c, point[1] + ry * c), facing)
        offset += w + GAP_CM
    return out


def placed_records(scenario: Scenario, ids: Iterable[str], point: Point) -> dict[str, dict[str, Any]]:
    """Container (``units``, ``commanders``) → id → the record placed at ``point`` (cm), for the
    dropped ``ids`` known to ``scenario`` (empty when none is)."""
    ids = list(dict.fromkeys(ids))
    units = [scenario.units[i] for i in ids if i in scenario.units]
    commanders: list[Commander] = [scenario.commanders[i] for i in ids if i in scenario.commanders]
    first = units[0] if units else commanders[0] if commanders else None
    facing = 90.0
    if first is not None:
        facing = normalize_angle(
            round(facing_towards_enemy(scenario, first.side, point) / DROP_STEP_DEG) * DROP_STEP_DEG
        )
    out: dict[str, dict[str, Any]] = {}
    if units:
        out["units"] = dict(placed_units(units, point, facing))
    if commanders:
        fx, fy = forward(facing)
        rx, ry = right_of(facing)
        back = COMMANDER_BEHIND_CM if units else 0.0
        moved: dict[str, Any] = {}
        for k, c in enumerate(commanders):
            off = (k - (len(commanders) - 1) / 2.0) * COMMANDER_SPREAD_CM
            moved[c.id] = c.moved((point[0] - fx * back + rx * off, point[1] - fy * back + ry * off))
        out["commanders"] = moved
    return out


def place_text(placed: dict[str, dict[str, Any]]) -> str:
    """The undo label of a drop (``placed_records``): "Place Bde Roguet", "Place 3 units"."""
    kinds = {rid: kind for kind, recs in placed.items() for rid in recs}
    names = {rid: rec.name for recs in placed.values() for rid, rec in recs.items()}
    return count_text("Place", kinds, kinds, names)


def place_edit(scenario: Scenario, ids: Iterable[str], point: Point) -> Edit | None:
    """The edit placing the dropped ``ids`` at ``point`` (cm); None when none is known."""
    placed = placed_records(scenario, ids, point)
    if not placed:
        return None
    return combine([PutRecords(kind, recs, "Place") for kind, recs in placed.items()], place_text(placed))
