"""Distances and geometric tests of General d'Armée: the metric/imperial choice, the
brigadier's 30 cm [18"] command range, "flanked" (half an enemy within 15 cm [9"] of flank or
rear, nothing between), the battery 30 cm [18"] behind the front line, enemies near, and the
wheel (поворот «колесом») on the inner flank used by the attacker (ПРОЦЕДУРА АТАКИ 2) and the
target (ПРОВЕДЕНИЕ АТАКИ 5 Б I).

Footprints are ``Unit.footprint()`` (table cm); distances are G-1 (nearest points) unless a
rule names a reference point (geometry-glossary §0.2).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

from shapely.geometry import LineString, Point as ShapelyPoint, Polygon
from shapely.geometry.base import BaseGeometry
from shapely.ops import nearest_points, unary_union

from battlestudio.model.geometry import TINY, forward, right_of
from battlestudio.model.terrain import TerrainFeature
from battlestudio.model.units import Arm, Unit
from battlestudio.replay.state import GameState
from battlestudio.rules.gda.brigades import is_skirmisher, members
from battlestudio.rules.params import RuleParameters, RuleRefused

CM_PER_INCH = 2.54


def distance_cm(params: RuleParameters, key: str) -> float:
    """The rule distance ``key`` (without ``_cm``/``_in``) in table cm for the scenario's
    measurement system: ``<key>_cm``, or ``<key>_in`` × 2.54 when imperial (Ambiguity 22).

    Raises
    ------
    RuleRefused
        for a measurement other than metric or imperial.
    """
    system = str(params.get("measurement"))
    if system == "metric":
        return float(params.get(f"{key}_cm"))
    if system == "imperial":
        return float(params.get(f"{key}_in")) * CM_PER_INCH
    raise RuleRefused(f"scenario parameter 'measurement' is {system!r}; General d'Armée needs 'metric' or 'imperial'")


def unit_distance(a: Unit, b: Unit) -> float:
    """G-1 distance between two units' footprints, cm."""
    return float(a.footprint().distance(b.footprint()))


def brigadier_distance(state: GameState, brigade: str, unit: Unit) -> float:
    """Distance from the brigadier's base centre to the nearest point of ``unit``, cm."""
    c = state.commanders[brigade]
    return float(ShapelyPoint(c.position).distance(unit.footprint()))


def under_command(state: GameState, brigade: str, unit: Unit, params: RuleParameters) -> tuple[bool, float, float]:
    """``(within, distance, radius)``: the unit is within the brigadier's command range
    (ОБЪЯВЛЕНИЕ АТАКИ: 30 cm [18"])."""
    radius = distance_cm(params, "brigadier_radius")
    d = brigadier_distance(state, brigade, unit)
    return d <= radius + TINY, d, radius


def enemies_of(state: GameState, unit: Unit) -> list[Unit]:
    """Units of other sides on the table (not dispersed)."""
    return [
        u
        for u in state.units.values()
        if u.side != unit.side and u.id not in state.off_table and u.state.lower() != "dispersed"
    ]


def _blockers(
    state: GameState, unit: Unit, enemy: Unit, terrain: Sequence[TerrainFeature], params: RuleParameters
) -> list[BaseGeometry]:
    kinds = set(params.get("blocking_terrain"))
    out = [t.geometry for t in terrain if str(getattr(t, "kind", "")) in kinds]
    out += [
        u.footprint()
        for u in state.units.values()
        if u.side == unit.side and u.id not in (unit.id, enemy.id) and u.id not in state.off_table
    ]
    return out


def flank_rear_zone(unit: Unit, reach: float) -> Polygon:
    """Points within ``reach`` cm of the unit that are not in front of its extended front."""
    rect = unit.rect()
    fx, fy = forward(rect.facing)
    body = rect.polygon().buffer(reach)
    big = reach * 4 + rect.width + rect.depth
    x, y = rect.front
    rx, ry = -fy, fx  # any perpendicular: the half-plane s <= 0
    half = Polygon(
        [
            (x + rx * big, y + ry * big),
            (x - rx * big, y - ry * big),
            (x - rx * big - fx * big, y - ry * big - fy * big),
            (x + rx * big - fx * big, y + ry * big - fy * big),
        ]
    )
    return body.intersection(half).difference(rect.polygon())


def flanked_by(
    state: GameState,
    unit: Unit,
    params: RuleParameters,
    terrain: Sequence[TerrainFeature] = (),
    reach_key: str = "flanked",
) -> list[str]:
    """Ids of enemy units that flank ``unit`` (ОБЪЯВЛЕНИЕ АТАКИ): at least half of the enemy
    footprint within 15 cm [9"] of its flank or rear, with no blocking terrain or friendly unit
    on the line between them (nearest points). ``reach_key`` names another distance (e.g.
    ``support_flank``, 5 cm [3"], for support prohibition Ж)."""
    reach = distance_cm(params, reach_key)
    frac = float(params.get("flanked_enemy_fraction"))
    zone = flank_rear_zone(unit, reach)
    out = []
    for e in enemies_of(state, unit):
        fp = e.footprint()
        if fp.area <= TINY or fp.intersection(zone).area + TINY < frac * fp.area:
            continue
        a = unit.footprint()
        p1 = a.exterior.interpolate(a.exterior.project(fp.centroid))
        line = LineString([fp.centroid, p1])
        if any(line.crosses(b) or line.within(b) for b in _blockers(state, unit, e, terrain, params)):
            continue
        out.append(e.id)
    return out


def is_close_order(u: Unit) -> bool:
    """Close-order troops: infantry or cavalry, not skirmishers or Cossacks (attribute
    ``close_order`` overrides)."""
    if "close_order" in u.attributes:
        return bool(u.attributes["close_order"])
    return u.arm in (Arm.INFANTRY, Arm.CAVALRY) and not is_skirmisher(u) and not u.attributes.get("cossack")


def must_retire_on_rally(state: GameState, brigade: str, params: RuleParameters) -> tuple[str, ...]:
    """Units of a brigade that rallied which must retire at once: within 15 cm [9"] of
    (enemy, Ambiguity 4) close-order units; garrisons stay (ТАБЛИЦА ДРОГНУВШЕЙ БРИГАДЫ, Сбор)."""
    reach = distance_cm(params, "rally_retire")
    enemy_only = bool(params.get("rally_retire_enemy_only"))
    out = []
    for u in members(state, brigade).present:
        if u.attributes.get("garrison") or u.state.lower() in ("routing", "dispersed"):
            continue
        others = [
            o
            for o in state.units.values()
            if o.id != u.id
            and is_close_order(o)
            and (o.side != u.side if enemy_only else True)
            and o.id not in state.off_table
        ]
        if any(unit_distance(u, o) <= reach + TINY for o in others):
            out.append(u.id)
    return tuple(out)


def battery_exempt(state: GameState, brigade: str, battery: Unit, params: RuleParameters) -> tuple[bool, str]:
    """Whether a battery ignores the Retreat / Low Ammunition result: deployed 30 cm [18"]
    behind the brigade's front line (Ambiguity 6: ``at_least`` or ``within``).

    The front line is the most advanced front edge of the brigade's other units, measured along
    the circular mean of their facings.
    """
    if str(battery.formation) == "limbered":
        return False, "limbered"
    others = [u for u in members(state, brigade).present if u.arm is not Arm.ARTILLERY]
    if not others:
        return False, "no front line"
    sx = sum(math.cos(math.radians(u.facing)) for u in others)
    sy = sum(math.sin(math.radians(u.facing)) for u in others)
    norm = math.hypot(sx, sy) or 1.0
    f = (sx / norm, sy / norm)
    front = max(u.position[0] * f[0] + u.position[1] * f[1] for u in others)
    behind = front - (battery.position[0] * f[0] + battery.position[1] * f[1])
    limit = distance_cm(params, "battery_exemption")
    mode = str(params.get("battery_exemption_mode"))
    ok = behind >= limit - TINY if mode == "at_least" else 0 <= behind <= limit + TINY
    word = "at least" if mode == "at_least" else "within"
    return ok, f"{behind:.1f} cm behind the brigade's front line ({word} {limit:g} cm required)"


def footprints_union(units: Sequence[Unit]) -> BaseGeometry:
    """Union of the units' footprints (shapely geometry)."""
    return unary_union([u.footprint() for u in units])


def attack_aspect(attacker: Unit, target: Unit) -> str:
    """Where ``attacker`` comes in on ``target``: ``front``, ``flank`` or ``rear`` (restriction
    13 "в тыл или фланг"; МОДИФИКАТОРЫ АТАКИ "attacked in flank or rear", digest Ambiguity 11).

    The text draws no line; best reading, as the Belle Alliance flank test (glossary B-11): the
    attacker's front-edge midpoint in front of the target's extended front line is a frontal
    attack; behind its extended rear line a rear attack; between the two lines a flank attack.
    Positions are taken as the attack is declared (start of the attack phase).
    """
    rect = target.rect()
    s, _ = rect.local(attacker.position)
    if s > TINY:
        return "front"
    if s < -rect.depth - TINY:
        return "rear"
    return "flank"


def impassable_between(a: Unit, b: Unit, terrain: Sequence[TerrainFeature], params: RuleParameters) -> str:
    """The kind of the first impassable terrain feature on the line between the nearest points
    of ``a`` and ``b`` ("" when none): support prohibition К. Kinds: ``blocking_terrain``."""
    kinds = set(params.get("blocking_terrain"))
    fa, fb = a.footprint(), b.footprint()
    pa, pb = nearest_points(fa, fb)
    line = LineString([pa, pb]) if pa.distance(pb) > TINY else None
    for t in terrain:
        kind = str(getattr(t, "kind", ""))
        if kind not in kinds:
            continue
        g = t.geometry
        if line is not None and line.intersects(g) and not g.contains(fa.centroid) and not g.contains(fb.centroid):
            return kind
    return ""


def wheel_geometry(u: Unit, turn: float) -> tuple[tuple[float, float], float]:
    """(pivot, outer-flank travel cm) of ``u`` wheeling by ``turn`` degrees of facing: it pivots
    on the flank it turns towards (a positive turn raises the facing) and the other flank travels
    frontage × angle (ПРОЦЕДУРА АТАКИ 2, поворот «колесом»)."""
    rx, ry = right_of(u.facing)
    half = u.rect().width / 2
    side = -1.0 if turn > 0 else 1.0  # a positive turn pivots on the flank opposite the right
    pivot = (u.position[0] + side * rx * half, u.position[1] + side * ry * half)
    return pivot, u.rect().width * math.radians(abs(turn))


def _rotate(pt: tuple[float, float], pivot: tuple[float, float], turn: float) -> tuple[float, float]:
    r = math.radians(turn)
    dx, dy = pt[0] - pivot[0], pt[1] - pivot[1]
    return (pivot[0] + dx * math.cos(r) - dy * math.sin(r), pivot[1] + dx * math.sin(r) + dy * math.cos(r))


def wheeled(u: Unit, pivot: tuple[float, float], turn: float) -> Unit:
    """``u`` turned by ``turn`` degrees about ``pivot`` (its front point and facing)."""
    return replace(u, position=_rotate(u.position, pivot, turn), facing=(u.facing + turn) % 360.0)
