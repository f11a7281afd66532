"""Torden over Europa: the geometry of fire (6.1) — fronts, arcs, range, the line of fire, the
artillery safety corridor, firing over units and flank fire. Pure shapely on ``Unit`` records,
all lengths in table cm and angles in degrees (frame of ``model.geometry``).

Readings of the seed ("6 Skydning", booklet p. 24-25) and of the geometry glossary (T-21-T-28):

* arc: "Skyderetningen skal være indenfor en vinkel af 30 grader, dog 45 grader for zone 1 og
  infanteri skydninger, målt fra fronten ... Vinklen måles hvor som helst på enhedens front" —
  a fan with its apex anywhere on the front edge, opening by the half-angle on each side
  (assumed half-angle reading, A2);
* range: infantry "fra det nærmeste punkt mellem den beskydende og beskudte enhed" (nearest
  points, to the part of the target inside the arc); artillery "fra centrum af artilleri
  pjecen til det beskudte punkt" (gun centre to the nearest in-arc point of the target);
* safety corridor: "10% af ... skudafstanden", the shot distance "fra centrum af pjecens front
  til centrum af den beskudte enheds formation", on both sides of that line, "som minimum 1,5
  cm til hver side" (Figure 4: 15 cm → 1.5 cm);
* overshooting: "kun ... såfremt artillerienheden er placeret på et højere niveau"; over a
  friendly unit also "minimum 5 cm fra artilleripjecen" and "10 cm mellem den overskudte og
  beskudte enhed";
* flank fire (6.1.8): "hvis den skydende enheds har figurer bagved den beskudte enheds
  forlængede front" — some part of the firer strictly behind the target's extended front.

A square (and a unit in a town: ``GameState`` holds no town polygons, so its own rectangle
stands for the zone) fires from each of its four sides as a front (A27, glossary T-35).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import shapely
from shapely.geometry import LineString, Polygon
from shapely.geometry import Point as ShapelyPoint
from shapely.geometry.base import BaseGeometry

from battlestudio.model.geometry import EDGE_NAMES, LONG, TINY, EdgeName, Point, direction_angle, rotate_point
from battlestudio.model.terrain import TownZone
from battlestudio.model.units import Formation, Unit

TOWN_ATTRIBUTE = "town_zone"
"""``Unit.attributes`` key holding the id of the town zone a unit occupies (4.8; the state
carries no town polygons, so the scenario or the umpire marks the unit)."""

LEVEL_ATTRIBUTE = "height_level"
"""``Unit.attributes`` key of the terrain level a unit stands on (A22: an integer, 0 = the
plain); the state carries no terrain, so the scenario or the umpire marks it."""


@dataclass(frozen=True, slots=True)
class Front:
    """One side a unit fires from: ``name`` (front, right, rear, left), the edge's end points
    ``left``/``right`` as seen looking out of it, and its outward ``facing`` in degrees."""

    name: EdgeName
    left: Point
    right: Point
    facing: float

    @property
    def segment(self) -> LineString:
        return LineString([self.left, self.right])


def in_town(u: Unit) -> bool:
    """Whether ``u`` is marked as standing in a town zone (``attributes["town_zone"]``)."""
    return bool(u.attributes.get(TOWN_ATTRIBUTE))


def town_zone(u: Unit, towns: Sequence[TownZone]) -> TownZone | None:
    """The scenario's town zone ``u`` stands in (4.8): the one its ``attributes["town_zone"]``
    names, else the one that covers its centre (a unit moved into a town); None outside them."""
    zid = u.attributes.get(TOWN_ATTRIBUTE)
    if zid:
        return next((z for z in towns if z.id == zid), None)
    if not towns:
        return None
    centre = ShapelyPoint(u.rect().centre)
    return next((z for z in towns if z.polygon.covers(centre)), None)


def town_side(zone: TownZone, battery: Unit) -> tuple[LineString, float]:
    """The side of ``zone`` a battery stands on (4.8.6 "placere det på en af siderne af byen"):
    the edge of the zone's outline (its minimum rotated rectangle) nearest the gun centre, and
    that side's outward facing in degrees."""
    box = zone.polygon.minimum_rotated_rectangle
    ring = list(box.exterior.coords)[:4]
    gun = ShapelyPoint(gun_centre(battery))
    c = box.centroid
    best: tuple[float, LineString, float] | None = None
    for a, b in zip(ring, ring[1:] + ring[:1], strict=True):
        edge = LineString([a, b])
        d = float(edge.distance(gun))
        if best is None or d < best[0] - TINY:
            nx, ny = b[1] - a[1], a[0] - b[0]
            mx, my = (a[0] + b[0]) / 2 - c.x, (a[1] + b[1]) / 2 - c.y
            if nx * mx + ny * my < 0:
                nx, ny = -nx, -ny
            best = (d, edge, direction_angle((nx, ny)))
    assert best is not None
    return best[1], best[2]


def beyond_side(side: LineString, facing: float, point: Point) -> bool:
    """Whether ``point`` lies outside the town across ``side`` (in the half-plane its outward
    ``facing`` points into): a line of fire from there passes through that side (4.8.6)."""
    ax, ay = (float(v) for v in side.coords[0])
    fx, fy = math.cos(math.radians(facing)), math.sin(math.radians(facing))
    return (point[0] - ax) * fx + (point[1] - ay) * fy > TINY


def fires_from_sides(u: Unit) -> bool:
    """A square or a unit in a town fires from each of its sides (6.1 "Skydning fra
    by/karré"); a battery in a town fires only from its own side (4.8.6), i.e. its front."""
    return u.formation == Formation.SQUARE or (in_town(u) and u.arm.value != "artillery")


def fronts(u: Unit) -> dict[EdgeName, Front]:
    """The sides ``u`` may fire from: its front edge, or all four edges of a square or a unit
    in a town (A27), each with its outward facing."""
    r = u.rect()
    edges = r.edges()
    # edges run FL->FR (front), FR->RR (right), RR->RL (rear), RL->FL (left): seen from outside
    # each runs left to right
    names = EDGE_NAMES if fires_from_sides(u) else ("front",)
    out: dict[EdgeName, Front] = {}
    for name in names:
        a, b = edges[name]
        n = r.normal(name)
        out[name] = Front(name, a, b, direction_angle(n))
    return out


def arc_region(front: Front, half_angle: float, length: float = LONG) -> Polygon:
    """The fan in front of ``front`` within ``half_angle`` degrees of its outward normal, apex
    anywhere on the edge (glossary T-21): the trapezoid FL, FR, FR + L·rot(f, −α), FL + L·rot(f, +α)."""
    f = (math.cos(math.radians(front.facing)), math.sin(math.radians(front.facing)))
    lf = rotate_point(f, half_angle)
    rf = rotate_point(f, -half_angle)
    fl, fr = front.left, front.right
    return Polygon(
        [fl, fr, (fr[0] + length * rf[0], fr[1] + length * rf[1]), (fl[0] + length * lf[0], fl[1] + length * lf[1])]
    )


def in_arc_part(front: Front, target: Unit | BaseGeometry, half_angle: float) -> BaseGeometry | None:
    """The part of ``target``'s footprint (or of a town zone's outline) inside the arc (None when
    less than ``TINY`` cm² of it is: a touching corner is not in the arc)."""
    area = target if isinstance(target, BaseGeometry) else target.footprint()
    part = arc_region(front, half_angle).intersection(area)
    return part if part.area > TINY else None


def gun_centre(u: Unit) -> Point:
    """Centre of a battery's gun model (range origin, 6.1 "centrum af artilleri pjecen")."""
    return u.rect().centre


def gun_front_centre(u: Unit) -> Point:
    """Centre of the gun model's front (origin of the line of fire, 6.1)."""
    return u.rect().front


def target_centre(u: Unit) -> Point:
    """Centre of the target's formation (end of the line of fire, 6.1)."""
    c = u.footprint().centroid
    return (float(c.x), float(c.y))


def range_from(firer: Unit, front: Front, part: BaseGeometry) -> tuple[float, LineString]:
    """Range in cm to the in-arc ``part`` of the target and the segment measured: artillery
    from the gun centre, other arms from the nearest point of the firing side (the whole
    footprint for a unit with one front, its side edge when firing from a side, A27)."""
    if firer.arm.value == "artillery":
        origin: BaseGeometry = ShapelyPoint(gun_centre(firer))
    elif fires_from_sides(firer):
        origin = front.segment
    else:
        origin = firer.footprint()
    line = shapely.shortest_line(origin, part)
    return float(origin.distance(part)), line


def safety_half_width(shot_distance: float, fraction: float, minimum: float) -> float:
    """Half-width of the artillery safety corridor: ``fraction`` of the shot distance, at least
    ``minimum`` cm each side (6.1: 10 %, at least 1.5 cm; Figure 4: 15 cm → 1.5 cm)."""
    return max(fraction * shot_distance, minimum)


def line_of_fire(battery: Unit, target: Unit) -> LineString:
    """The battery's line of fire (skydelinien): gun front centre → centre of the target."""
    return LineString([gun_front_centre(battery), target_centre(target)])


def safety_corridor(battery: Unit, target: Unit, fraction: float, minimum: float) -> tuple[Polygon, float, float]:
    """The safety corridor around the line of fire (glossary T-22, G-12), with the shot distance
    and the half-width, both cm."""
    line = line_of_fire(battery, target)
    length = float(line.length)
    h = safety_half_width(length, fraction, minimum)
    return line.buffer(h, cap_style="flat"), length, h


def crosses(geom: BaseGeometry, u: Unit) -> bool:
    """Whether ``geom`` (a line of fire or a corridor) passes through ``u``'s footprint by more
    than a touch."""
    inter = geom.intersection(u.footprint())
    return bool(inter.area > TINY or inter.length > TINY)


def level(u: Unit) -> int:
    """The terrain level ``u`` stands on (``attributes["height_level"]``, 0 when unmarked; A22)."""
    try:
        return int(u.attributes.get(LEVEL_ATTRIBUTE, 0) or 0)
    except (TypeError, ValueError):
        return 0


def flank_fire(firer: Unit, target: Unit) -> bool:
    """6.1.8: some part of the firer lies strictly behind the target's extended front (glossary
    T-23). A square or a unit without a front (FU mob) has no flank (A47)."""
    if target.formation in (Formation.SQUARE, Formation.NONE) or target.state == "FU" or in_town(target):
        return False
    r = target.rect()
    coords = list(firer.footprint().exterior.coords)
    return any(r.s(p) < -TINY for p in coords)


def attached_to(battery: Unit, other: Unit, eps: float) -> bool:
    """A battery is attached to a friendly infantry or cavalry unit it is in base contact with
    (glossary T-25)."""
    return other.arm.value in ("infantry", "cavalry") and battery.footprint().distance(other.footprint()) <= eps
