"""Deploying formations: a group turn about a common anchor, a formation along a drawn line,
packed into a deployment zone, or as a column of march along a road; and which way the enemy is.

Every builder returns one edit (one undo step) or raises ``DeployError`` saying what is wrong
and how to fix it, changing nothing. A formation is a commander with every unit below him in
the order of battle, in order-of-battle order (the tree's depth-first order).

None of the bundled rulesets (``resources/rulesets/*.toml``) prints an interval between units
deployed side by side or a gap between units in column, so the interval is the designer's
choice: ``DEFAULT_INTERVAL_CM`` (the gap a drop from the tree leaves, ``edits.place.GAP_CM``),
changed in the deployment tools' option. Lengths in table cm, angles in degrees
counter-clockwise from +x.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any
from collections.abc import Mapping, Sequence

from shapely.affinity import rotate as shapely_rotate
from shapely.geometry import LineString, Polygon, box
from shapely.ops import unary_union

from battlestudio.edits.base import Edit, combine, count_text
from battlestudio.edits.place import COMMANDER_BEHIND_CM, COMMANDER_SPREAD_CM, DEFAULT_FORMATION, GAP_CM
from battlestudio.edits.place import facing_towards_enemy
from battlestudio.edits.records import MoveRecords, PutRecords
from battlestudio.model.geometry import EPS, Point, direction_angle, forward, normalize_angle, right_of, rotate_point
from battlestudio.model.scenario import Scenario
from battlestudio.model.terrain import TerrainKind
from battlestudio.model.units import Arm, Commander, Formation, Unit

DEFAULT_INTERVAL_CM = GAP_CM
"""Interval between units deployed side by side, and gap between units in column, cm (a UI
default: no bundled ruleset gives one)."""

ROW_GAP_CM = 3.0
"""Distance between the rows of a formation packed into a deployment zone, cm."""

MARCH_FORMATION = {
    Arm.INFANTRY: Formation.MARCH_COLUMN,
    Arm.CAVALRY: Formation.MARCH_COLUMN,
    Arm.ARTILLERY: Formation.LIMBERED,
    Arm.OTHER: Formation.MARCH_COLUMN,
}
"""Formation of each arm in a column of march."""


class DeployError(ValueError):
    """A deployment that cannot be made; the message says why and what to do."""


# -- formations --------------------------------------------------------------------------------
def formation_of(scenario: Scenario, root: str) -> tuple[list[Unit], list[Commander]]:
    """The units and commanders of ``root``'s formation in order-of-battle order (``root`` first
    among the commanders; a unit id gives that unit alone). Formations below ``root`` that are
    reinforcements stay off the table and are left out.

    Raises
    ------
    DeployError
        if ``root`` is neither a unit nor a commander, or commands no unit.
    """
    if root in scenario.units:
        return [scenario.units[root]], []
    if root not in scenario.commanders:
        raise DeployError(f"there is no commander or unit {root!r} to deploy")
    units: list[Unit] = []
    commanders: list[Commander] = []
    held = {r.formation for r in scenario.reinforcements.values()} - {root}
    off_table = {n for f in held if f in scenario.oob for n in [f, *scenario.oob.all_subordinates(f)]}
    for node, _depth in scenario.oob.walk(root):
        if node in off_table:
            continue
        if node in scenario.units:
            units.append(scenario.units[node])
        elif node in scenario.commanders:
            commanders.append(scenario.commanders[node])
    if not units:
        name = scenario.commanders[root].name
        raise DeployError(f"{name} commands no unit; attach units to him in the order of battle first")
    return units, commanders


def _formed(units: Sequence[Unit], formations: Mapping[Arm, Formation], facing: float) -> list[Unit]:
    return [replace(u, formation=formations[u.arm], facing=normalize_angle(facing)) for u in units]


def _commanders_behind(
    scenario: Scenario, commanders: Sequence[Commander], placed: Mapping[str, Unit], facing: float
) -> dict[str, Commander]:
    """Each commander behind the middle of his placed units (the formation's head twice as far)."""
    fx, fy = forward(facing)
    rx, ry = right_of(facing)
    out: dict[str, Commander] = {}
    for k, c in enumerate(commanders):
        mine = [placed[i] for i in scenario.oob.all_subordinates(c.id) if i in placed]
        back = COMMANDER_BEHIND_CM * (2.0 if k == 0 else 1.0)
        if mine:
            cx = sum(u.position[0] for u in mine) / len(mine)
            cy = sum(u.position[1] for u in mine) / len(mine)
            side_off = 0.0
        else:  # a commander with no unit of his own stands beside the formation's commander
            cx, cy = next(iter(placed.values())).position
            side_off = COMMANDER_SPREAD_CM * k
        out[c.id] = c.moved((cx - fx * back + rx * side_off, cy - fy * back + ry * side_off))
    return out


def _deploy_edit(units: Mapping[str, Unit], commanders: Mapping[str, Commander], verb: str, name: str) -> Edit:
    text = f"{verb} {name}"
    edits: list[Edit] = [PutRecords("units", dict(units), text)]
    if commanders:
        edits.append(PutRecords("commanders", dict(commanders), text))
    return combine(edits, text)


def _name(scenario: Scenario, root: str) -> str:
    rec = scenario.commanders.get(root) or scenario.units.get(root)
    return rec.name if rec is not None else root


# -- along a line ------------------------------------------------------------------------------
def line_facing(scenario: Scenario, side: str, a: Point, b: Point) -> float:
    """Facing perpendicular to the line a→b, on the side of the line where the enemy of ``side``
    is (``facing_towards_enemy`` from the line's middle)."""
    d = (b[0] - a[0], b[1] - a[1])
    if math.hypot(*d) < 1e-6:
        raise DeployError("the line has no length: click its two ends at different places")
    mid = ((a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0)
    towards = forward(facing_towards_enemy(scenario, side, mid))
    left = direction_angle((-d[1], d[0]))
    n = forward(left)
    return left if n[0] * towards[0] + n[1] * towards[1] >= 0.0 else normalize_angle(left + 180.0)


def line_deployment(
    scenario: Scenario, root: str, a: Point, b: Point, interval: float = DEFAULT_INTERVAL_CM
) -> tuple[Edit, int]:
    """The edit deploying ``root``'s formation with its front on the line from ``a`` to ``b``
    (cm): units in order of battle from ``a`` towards ``b``, ``interval`` cm apart, in their
    arm's default formation, facing perpendicular to the line towards the enemy; when the line
    is full the next units form a second line ``ROW_GAP_CM`` behind the first (and so on);
    commanders behind their units. Also returns the number of lines.

    Raises
    ------
    DeployError
        as ``formation_of`` and ``line_facing``; for a negative interval.
    """
    placed, lines = line_units(scenario, root, a, b, interval)
    _, commanders = formation_of(scenario, root)
    facing = next(iter(placed.values())).facing
    cmd = _commanders_behind(scenario, commanders, placed, facing)
    return _deploy_edit(placed, cmd, "Deploy", _name(scenario, root)), lines


def line_units(
    scenario: Scenario, root: str, a: Point, b: Point, interval: float = DEFAULT_INTERVAL_CM
) -> tuple[dict[str, Unit], int]:
    """The units of ``line_deployment`` as they would stand (id → record), and the number of
    lines; nothing is changed (the tool's preview).

    Raises
    ------
    DeployError
        as ``line_deployment``.
    """
    if interval < 0.0:
        raise DeployError(f"the interval between units must be 0 cm or more, not {interval:g}")
    units, _ = formation_of(scenario, root)
    side = (scenario.commanders.get(root) or scenario.units[root]).side
    facing = line_facing(scenario, side, a, b)
    length = math.dist(a, b)
    d = ((b[0] - a[0]) / length, (b[1] - a[1]) / length)
    fx, fy = forward(facing)
    placed: dict[str, Unit] = {}
    s, back, depth, lines = 0.0, 0.0, 0.0, 1
    for u in _formed(units, DEFAULT_FORMATION, facing):
        rect = u.rect()
        if s > 0.0 and s + rect.width > length + 1e-6:  # this line is full: start one behind it
            s, back, depth, lines = 0.0, back + depth + ROW_GAP_CM, 0.0, lines + 1
        c = s + rect.width / 2.0
        placed[u.id] = u.moved((a[0] + d[0] * c - fx * back, a[1] + d[1] * c - fy * back), facing)
        s += rect.width + interval
        depth = max(depth, rect.depth)
    return placed, lines


# -- in a deployment zone ----------------------------------------------------------------------
def zone_deployment(
    scenario: Scenario,
    root: str,
    zone_id: str,
    interval: float = DEFAULT_INTERVAL_CM,
    at: Point | None = None,
) -> Edit:
    """The edit packing ``root``'s formation inside deployment zone ``zone_id``: rows across the
    direction of the enemy, filled from the zone's edge nearest the enemy backwards, units in
    order of battle and ``interval`` cm apart, rows ``ROW_GAP_CM`` apart; commanders behind
    their units (a commander of the last row may stand just outside the zone). With ``at`` (the
    point clicked, cm) the packed block is then moved as near as it can be to stand centred on
    ``at`` while every unit stays inside the zone.

    Raises
    ------
    DeployError
        for an unknown zone, a zone of another side, or a zone too small for the formation (the
        message counts the units left over).
    """
    zone = scenario.deployment_zones.get(zone_id)
    if zone is None:
        raise DeployError(f"there is no deployment zone {zone_id!r}")
    units, commanders = formation_of(scenario, root)
    side = (scenario.commanders.get(root) or scenario.units[root]).side
    name = _name(scenario, root)
    if zone.side and zone.side != side:
        owner = scenario.sides[zone.side].name if zone.side in scenario.sides else zone.side
        raise DeployError(f"{zone.name} belongs to {owner}; {name} can deploy only in a zone of its own side")
    poly: Polygon = zone.polygon
    facing = zone_front(poly, facing_towards_enemy(scenario, side, (poly.centroid.x, poly.centroid.y)))
    placed = _pack(poly, _formed(units, DEFAULT_FORMATION, facing), facing, interval)
    if len(placed) < len(units):
        left = len(units) - len(placed)
        raise DeployError(
            f"{zone.name} is too small for {name}: {left} of {len(units)} units do not fit; "
            "draw a larger zone or deploy part of the formation"
        )
    if at is not None:
        placed = _towards(placed, poly.buffer(1e-6), at, facing)
    cmd = _commanders_behind(scenario, commanders, placed, facing)
    return _deploy_edit(placed, cmd, "Deploy", f"{name} in {zone.name}")


def zone_front(poly: Polygon, towards: float) -> float:
    """The facing of troops deployed in ``poly``: the outward normal of the zone's edge that
    most faces ``towards`` (degrees), weighing each edge by its length, so a rectangle's troops
    face square to its front edge."""
    coords = list(poly.exterior.coords)
    ccw = poly.exterior.is_ccw
    t = forward(towards)
    best, best_score = towards, 0.0
    for (x0, y0), (x1, y1) in zip(coords, coords[1:], strict=False):
        dx, dy = x1 - x0, y1 - y0
        length = math.hypot(dx, dy)
        if length < 1e-9:
            continue
        n = (dy / length, -dx / length) if ccw else (-dy / length, dx / length)
        score = length * (n[0] * t[0] + n[1] * t[1])
        if score > best_score:
            best, best_score = direction_angle(n), score
    return best


def _pack(poly: Polygon, units: Sequence[Unit], facing: float, interval: float) -> dict[str, Unit]:
    """Units placed row by row inside ``poly`` (see ``zone_deployment``); those that do not fit
    are left out. Local frame: u along the unit's right, v along its front."""
    r, f = right_of(facing), forward(facing)

    def world(u: float, v: float) -> Point:
        return (r[0] * u + f[0] * v, r[1] * u + f[1] * v)

    local = shapely_rotate(poly, 90.0 - facing, origin=(0.0, 0.0))  # facing → +y, right → +x
    umin, vmin, umax, vmax = local.bounds
    zone = poly.buffer(1e-6)
    placed: dict[str, Unit] = {}
    pending = list(units)
    v = vmax
    step = 0.5
    while pending and v > vmin:
        row: list[Unit] = []
        row_depth = 0.0
        u = umin
        while pending and u < umax:
            unit = pending[0]
            rect = unit.rect()
            cand = unit.moved(world(u + rect.width / 2.0, v), facing)
            if cand.footprint().within(zone):
                row.append(cand)
                pending.pop(0)
                row_depth = max(row_depth, rect.depth)
                u += rect.width + interval
            elif row:
                break  # the row's room ends here: the next unit opens the next row
            else:
                u += step
        if not row:
            v -= step
            continue
        for unit in _centred(row, zone, r, step):
            placed[unit.id] = unit
        v -= row_depth + ROW_GAP_CM
    return placed


def _towards(placed: dict[str, Unit], zone: Polygon, at: Point, facing: float) -> dict[str, Unit]:
    """``placed`` moved as one block towards standing centred on ``at``, as far as it can go
    with every unit inside ``zone``: straight there, or across the front and then towards it
    (or the other way round), each leg as far as it fits — whichever ends nearest ``at``."""
    r, f = right_of(facing), forward(facing)

    def centre(block: dict[str, Unit]) -> Point:
        b = unary_union([u.footprint() for u in block.values()]).bounds
        return ((b[0] + b[2]) / 2.0, (b[1] + b[3]) / 2.0)

    def fits(block: dict[str, Unit]) -> bool:
        return all(u.footprint().within(zone) for u in block.values())

    def moved(block: dict[str, Unit], v: Point, t: float) -> dict[str, Unit]:
        return {i: u.moved((u.position[0] + v[0] * t, u.position[1] + v[1] * t)) for i, u in block.items()}

    def far(block: dict[str, Unit], axis: Point | None) -> dict[str, Unit]:
        """``block`` moved towards ``at`` (along ``axis`` only, when given) as far as it fits."""
        c = centre(block)
        d = (at[0] - c[0], at[1] - c[1])
        v = (
            d
            if axis is None
            else (axis[0] * (d[0] * axis[0] + d[1] * axis[1]), axis[1] * (d[0] * axis[0] + d[1] * axis[1]))
        )
        if fits(moved(block, v, 1.0)):
            return moved(block, v, 1.0)
        lo = next((k / 20.0 for k in range(19, 0, -1) if fits(moved(block, v, k / 20.0))), 0.0)
        hi = lo + 0.05
        for _ in range(12):  # the last twentieth, to a few hundredths of a cm
            mid = (lo + hi) / 2.0
            lo, hi = (mid, hi) if fits(moved(block, v, mid)) else (lo, mid)
        return moved(block, v, lo)

    best, best_miss = placed, math.dist(centre(placed), at)
    for cand in (far(placed, None), far(far(placed, r), f), far(far(placed, f), r)):
        miss = math.dist(centre(cand), at)
        if miss < best_miss - 1e-9:
            best, best_miss = cand, miss
    return best


def _centred(row: list[Unit], zone: Polygon, r: Point, step: float) -> list[Unit]:
    """``row`` slid to its right by half the room left after its last unit (all stay in ``zone``)."""

    def slid(by: float) -> list[Unit]:
        return [u.moved((u.position[0] + r[0] * by, u.position[1] + r[1] * by)) for u in row]

    room = 0.0
    while slid(room + step)[-1].footprint().within(zone) and room < 10_000.0:
        room += step
    best = slid(room / 2.0)
    return best if all(u.footprint().within(zone) for u in best) else row


# -- a column of march along a road -------------------------------------------------------------
def nearest_road(scenario: Scenario, p: Point, within: float) -> str | None:
    """Id of the road nearest ``p`` (cm) if it passes within ``within`` cm, else None."""
    here = LineString([p, p]).centroid
    best: tuple[float, str] | None = None
    for fid, t in scenario.terrain.items():
        if t.kind is TerrainKind.ROAD and isinstance(t.geometry, LineString):
            d = t.geometry.distance(here)
            if d <= within and (best is None or d < best[0]):
                best = (d, fid)
    return best[1] if best else None


def _along(line: LineString, s: float) -> tuple[Point, Point]:
    """(point, unit tangent) at arc length ``s`` of ``line``, extended straight beyond its ends."""
    coords = list(line.coords)
    if s <= 0.0:
        (x0, y0), (x1, y1) = coords[0], coords[1]
        t = _unit((x1 - x0, y1 - y0))
        return (x0 + t[0] * s, y0 + t[1] * s), t
    if s >= line.length:
        (x0, y0), (x1, y1) = coords[-2], coords[-1]
        t = _unit((x1 - x0, y1 - y0))
        e = s - line.length
        return (x1 + t[0] * e, y1 + t[1] * e), t
    p = line.interpolate(s)
    q0, q1 = line.interpolate(max(0.0, s - 0.5)), line.interpolate(min(line.length, s + 0.5))
    return (p.x, p.y), _unit((q1.x - q0.x, q1.y - q0.y))


def _unit(v: Point) -> Point:
    n = math.hypot(*v)
    return (v[0] / n, v[1] / n) if n > 1e-9 else (1.0, 0.0)


def column_deployment(
    scenario: Scenario,
    root: str,
    road_id: str,
    p: Point,
    interval: float = DEFAULT_INTERVAL_CM,
    away: bool = False,
) -> tuple[Edit, float]:
    """The edit forming ``root``'s formation into a column of march on road ``road_id``: the head
    at the point of the road nearest ``p`` (cm), marching along the road in the direction that
    leads towards the enemy, the units in order of battle one behind the other ``interval`` cm
    apart (infantry and cavalry in march column, artillery limbered), each following the road's
    bends; commanders ride beside the head of their units. ``away`` marches the other way, away
    from the enemy. Also returns how far (cm) the tail runs past the road's end (0 when the
    road is long enough).

    Raises
    ------
    DeployError
        for an unknown road or as ``formation_of``.
    """
    road = scenario.terrain.get(road_id)
    if road is None or road.kind is not TerrainKind.ROAD or not isinstance(road.geometry, LineString):
        raise DeployError(f"there is no road {road_id!r}: click on a road drawn on the map")
    units, commanders = formation_of(scenario, root)
    side = (scenario.commanders.get(root) or scenario.units[root]).side
    line: LineString = road.geometry
    s0 = line.project(LineString([p, p]).centroid)
    head, tangent = _along(line, s0)
    towards = forward(facing_towards_enemy(scenario, side, head))
    if (tangent[0] * towards[0] + tangent[1] * towards[1] < 0.0) != away:
        line = LineString(list(line.coords)[::-1])
        s0 = line.length - s0
    placed: dict[str, Unit] = {}
    heads: dict[str, tuple[Point, float]] = {}
    s = s0
    prev: Unit | None = None
    for u in units:
        formed = replace(u, formation=MARCH_FORMATION[u.arm])
        for _ in range(400):  # at a bend, step back until the corners clear the unit ahead
            at, t = _along(line, s)
            facing = direction_angle(t)
            marched = formed.moved(at, facing)
            if prev is None or marched.footprint().intersection(prev.footprint()).area < 1e-9:
                break
            s -= 0.25
        placed[u.id] = prev = marched
        heads[u.id] = (at, facing)
        s -= marched.rect().depth + interval
    overrun = max(0.0, -(s + interval))
    w, h = scenario.info.table_width, scenario.info.table_height
    table = box(-EPS, -EPS, w + EPS, h + EPS)
    off = [u for u in placed.values() if not u.footprint().within(table)]
    if off:
        raise DeployError(
            f"the column of {_name(scenario, root)} is {s0 - s - interval:.0f} cm long and {len(off)} of its "
            f"{len(placed)} units would stand off the table past the road's end; click further along "
            "the road, away from its end"
        )
    cmd: dict[str, Commander] = {}
    for k, c in enumerate(commanders):
        first = next((i for i in scenario.oob.all_subordinates(c.id) if i in heads), next(iter(heads)))
        (hx, hy), facing = heads[first]
        lx, ly = -right_of(facing)[0], -right_of(facing)[1]
        aside = COMMANDER_SPREAD_CM * (1.0 + 0.5 * (k == 0))
        cmd[c.id] = c.moved((hx + lx * aside, hy + ly * aside))
    return _deploy_edit(placed, cmd, "March", f"{_name(scenario, root)} along {road.name or 'the road'}"), overrun


# -- a group turn ------------------------------------------------------------------------------
def anchor_of(records: Mapping[str, tuple[str, Any]]) -> Point:
    """The common anchor of a selection (id → (container, record)): the mean of its units'
    footprint centres, or of its commanders' positions when it has no unit ((0, 0) for
    neither). A mean, unlike a bounding box, stays put when the group turns about it."""
    pts = [rec.rect().centre for kind, rec in records.values() if kind == "units"]
    if not pts:
        pts = [rec.position for kind, rec in records.values() if kind == "commanders"]
    if not pts:
        return (0.0, 0.0)
    return (sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts))


def group_rotate_edit(
    records: Mapping[str, tuple[str, Any]], delta: float, anchor: Point, merge_key: object = None
) -> Edit | None:
    """Turn the units and commanders among ``records`` (as at the gesture's start) as one body by
    ``delta`` degrees CCW about ``anchor`` (cm): relative positions are kept, a line stays a
    line. None when there is neither."""
    units = {i: r for i, (k, r) in records.items() if k == "units"}
    commanders = {i: r for i, (k, r) in records.items() if k == "commanders"}
    if not units and not commanders:
        return None
    kinds = {i: k for i, (k, _) in records.items() if k in ("units", "commanders")}
    names = {i: r.name for i, (k, r) in records.items() if i in kinds}
    text = count_text("Rotate", kinds, kinds, names)
    edits: list[Edit] = []
    if units:
        pos = {i: rotate_point(u.position, delta, anchor) for i, u in units.items()}
        edits.append(MoveRecords("units", pos, {i: u.facing + delta for i, u in units.items()}, text, merge_key))
    if commanders:
        pos = {i: rotate_point(c.position, delta, anchor) for i, c in commanders.items()}
        edits.append(MoveRecords("commanders", pos, None, text, merge_key))
    return combine(edits, text, merge_key)
