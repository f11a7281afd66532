"""Belle Alliance predicates along a movement path and after a melee (geometry glossary §5):
B-3 the first break-in contact along a path, B-6 an intervening unit, B-7 an attack on a
position, B-8 the defender's cover, B-9 the figures counted for losses, B-18 whether a
continued attack can reach a new target inside the continued-advance envelope (B-10).

Lengths table cm, angles degrees (positive = counter-clockwise, a pivot about the front-left
corner, glossary F15), frame of ``model.geometry``. A path is a list of front-edge midpoints;
the unit keeps its facing while it moves along it (a move straight ahead or sideways).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import pairwise
from collections.abc import Sequence

from shapely.geometry import LineString, Polygon
from shapely.ops import nearest_points

from battlestudio.model.geometry import TINY, UnitRect, forward, grid_shape, rotate_point
from battlestudio.model.terrain import TerrainFeature
from battlestudio.model.units import Arm, Unit
from battlestudio.replay.state import GameState
from battlestudio.rules.belle_alliance.geometry import at_break_in, break_in_zone, figure_grid
from battlestudio.rules.params import RuleParameters, RuleRefused

SAMPLE_CM = 0.5
"""Path sampling step (glossary B-3: "sampled at ≤ 0.5 cm"); contact is then bisected to 0.0001 cm."""


@dataclass(frozen=True, slots=True)
class PathStop:
    """Where a move along a path first reaches break-in distance (B-3): the ``enemy`` touched
    (None: the whole path is free), the front-edge midpoint ``at`` and the ``travelled`` cm."""

    enemy: str | None
    at: tuple[float, float]
    travelled: float


def _rect_at(u: Unit, front: tuple[float, float], facing: float | None = None) -> UnitRect:
    r = u.rect()
    return UnitRect(front, r.facing if facing is None else facing, r.width, r.depth)


def _touching(state: GameState, u: Unit, rect: UnitRect, depth: float, eps: float) -> list[str]:
    return sorted(
        e.id
        for e in state.units.values()
        if e.side != u.side
        and e.id not in state.off_table
        and e.state != "eliminated"
        and at_break_in(rect, e.rect(), depth, eps)
    )


def first_break_in(
    state: GameState, mover: str, path: Sequence[tuple[float, float]], params: RuleParameters
) -> PathStop:
    """B-3: the first point along ``path`` (front-edge midpoints, starting where the unit
    stands) at which the mover's break-in zone touches any enemy unit. Before that point it may
    pass through enemy break-in zones freely (4.1.1). Contact found by bisection, reported to 0.001 cm.

    Raises
    ------
    RuleRefused
        for a path of fewer than one point.
    """
    u = state.units[mover]
    depth, eps = float(params.get("break_in_depth_cm")), float(params.get("touch_eps_cm"))
    pts: list[tuple[float, float]] = [(float(u.position[0]), float(u.position[1]))]
    pts += [(float(p[0]), float(p[1])) for p in path]
    if len(pts) < 2:
        raise RuleRefused("a movement path needs at least one point")
    done = 0.0
    first = _touching(state, u, _rect_at(u, pts[0]), depth, eps)
    if first:
        return PathStop(first[0], pts[0], 0.0)
    for a, b in pairwise(pts):
        seg = math.dist(a, b)
        n = max(1, math.ceil(seg / SAMPLE_CM))

        def at(t: float, a: tuple[float, float] = a, b: tuple[float, float] = b) -> tuple[float, float]:
            return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)

        lo = 0.0
        for i in range(1, n + 1):
            hi = i / n
            hit = _touching(state, u, _rect_at(u, at(hi)), depth, eps)
            if hit:
                while (hi - lo) * seg > 1e-4:
                    mid = (lo + hi) / 2
                    if _touching(state, u, _rect_at(u, at(mid)), depth, eps):
                        hi = mid
                    else:
                        lo = mid
                hit = _touching(state, u, _rect_at(u, at(hi)), depth, eps)
                x, y = at(hi)
                return PathStop(hit[0], (round(x, 3), round(y, 3)), round(done + hi * seg, 3))
            lo = hi
        done += seg
    return PathStop(None, pts[-1], done)


def intervening(
    state: GameState, mover: str, target: str | None, path: Sequence[tuple[float, float]], params: RuleParameters
) -> tuple[PathStop, tuple[str, ...], str]:
    """B-6 (4.1.2): the first enemy reached along ``path``; when it is not the ``target`` the
    attacker must either switch the attack to it (as an attack on the unit) or cancel.
    Returns ``(stop, choices, explanation)``; ``choices`` is ``("switch", "cancel")`` for an
    intervening unit, ``()`` otherwise."""
    stop = first_break_in(state, mover, path, params)
    if stop.enemy is None:
        return stop, (), f"{mover} reaches no enemy's break-in distance along its path ({stop.travelled:.1f} cm)"
    if stop.enemy == target:
        return stop, (), f"{mover} reaches break-in distance of its target {target} after {stop.travelled:.1f} cm"
    return (
        stop,
        ("switch", "cancel"),
        (
            f"{stop.enemy} intervenes after {stop.travelled:.1f} cm: {mover} either attacks {stop.enemy} instead "
            f"(an attack on the unit) or cancels its attack (4.1.2)"
        ),
    )


def position_status(
    state: GameState, attacker: Unit, position: Sequence[Sequence[float]], params: RuleParameters
) -> dict[str, object]:
    """B-7 (4.1.2): an attack on a position ``position`` (the target's footprint recorded when
    the attack was announced, a list of corners). ``reached``: the attacker's break-in zone
    touches it or the attacker stands in it; ``abandoned``: no enemy footprint overlaps it;
    ``stop_cm``: how far forward of its current front the attacker may still go (its front
    edge no farther than the position's far side)."""
    poly = Polygon([tuple(p) for p in position])
    rect = attacker.rect()
    depth, eps = float(params.get("break_in_depth_cm")), float(params.get("touch_eps_cm"))
    reached = float(break_in_zone(rect, depth).distance(poly)) <= eps + TINY or rect.polygon().intersects(poly)
    held = [
        e.id
        for e in state.units.values()
        if e.side != attacker.side and e.id not in state.off_table and e.footprint().intersection(poly).area > TINY
    ]
    far = max(rect.s(p) for p in list(poly.exterior.coords)[:-1])
    return {"reached": reached, "abandoned": not held, "held_by": sorted(held), "stop_cm": max(0.0, far)}


def figures_of(u: Unit) -> list[Polygon]:
    """The unit's figure rectangles, file j from the left, rank k from the front (glossary §1.4)."""
    files, ranks = grid_shape(u.formation.value, u.figures, u.column_ranks)
    return figure_grid(u.rect(), files, ranks)


def in_cover(
    defender: Unit, attacker: Unit, terrain: Sequence[TerrainFeature], params: RuleParameters
) -> tuple[bool, str]:
    """B-8 (4.1.3): whether the defender's figures at break-in distance of the attacker are in
    cover. Linear cover (kinds ``cover_linear_kinds``): each such figure touches the feature
    and the feature lies between it and the nearest point of the attacker's front edge. Area
    cover (``cover_area_kinds``): the feature holds each such figure's centre. ``cover_mode``
    ``all`` (default) or ``majority`` of the figures. Returns ``(covered, explanation)``."""
    depth, eps = float(params.get("break_in_depth_cm")), float(params.get("touch_eps_cm"))
    zone = break_in_zone(attacker.rect(), depth)
    figs = [g for g in figures_of(defender) if g.intersection(zone).area > TINY or g.distance(zone) <= TINY]
    if not figs:
        return False, f"no figure of {defender.id} is at break-in distance of {attacker.id}"
    linear, area = set(params.get("cover_linear_kinds")), set(params.get("cover_area_kinds"))
    mode = str(params.get("cover_mode"))
    front = attacker.rect().edge("front")
    need = len(figs) if mode == "all" else len(figs) // 2 + 1
    for t in terrain:
        kind = str(getattr(t, "kind", ""))
        g = t.geometry
        if kind in linear:
            ok = sum(
                1
                for f in figs
                if f.distance(g) <= eps + TINY
                and LineString([f.centroid, nearest_points(front, f.centroid)[0]]).intersects(g)
            )
        elif kind in area:
            ok = sum(1 for f in figs if g.contains(f.centroid))
        else:
            continue
        if ok >= need:
            return True, f"{ok} of {len(figs)} figures at break-in distance are covered by {kind} (4.1.3)"
    return False, f"the {len(figs)} figures at break-in distance are not in cover ({mode})"


def counted_figures(u: Unit, situation: str = "front") -> int:
    """B-9 (4.1.3): figures counted for losses and prisoners: the two front ranks (``front``),
    the two outermost files on the attacked flank (``left``/``right``), the two rearmost ranks
    (``rear``); artillery counts all figures. The attacker always counts its front ranks (A23).
    A square is a hollow 2-rank ring: whichever side is attacked counts its two ranks, 2 × side.

    Raises
    ------
    RuleRefused
        for another situation.
    """
    if situation not in ("front", "left", "right", "rear"):
        raise RuleRefused(f"situation {situation!r}: front, left, right or rear")
    files, ranks = grid_shape(u.formation.value, u.figures, u.column_ranks)
    total = u.figures
    if u.arm is Arm.ARTILLERY:
        return total
    if u.formation.value == "square":
        # a 2-rank hollow square (glossary §1.4): every side is a front with its own two ranks
        # of ``a`` figures each, not the rows of a filled a × a block
        return min(total, 2 * files)
    cells = [(j, k) for k in range(ranks) for j in range(files)][:total]  # a short last rank stays short
    if situation == "front":
        keep = {0, 1}
        return sum(1 for _, k in cells if k in keep)
    if situation == "rear":
        keep = {ranks - 1, ranks - 2}
        return sum(1 for _, k in cells if k in keep)
    keep = {0, 1} if situation == "left" else {files - 1, files - 2}
    return sum(1 for j, _ in cells if j in keep)


def continued_attack_reach(
    state: GameState,
    attacker: str,
    new_target: str,
    last_march_rate: float,
    params: RuleParameters,
    opponent_state: str,
) -> tuple[bool, str]:
    """B-18 with B-10 (4.1.4): a continued attack needs the opponent in FU and the new target
    within reach: some pivot of −20°…+20° (1° steps, about the front-left corner for positive
    angles, the front-right for negative) followed by a straight advance, the outer corner's
    arc counting against half a march at ``last_march_rate``, brings the attacker's break-in
    zone to the target. Returns ``(ok, explanation)``."""
    if opponent_state != "FU":
        return False, f"4.1.4: the opponent is {opponent_state}, not FU: no continued attack"
    u, t = state.units[attacker], state.units[new_target]
    depth, eps = float(params.get("break_in_depth_cm")), float(params.get("touch_eps_cm"))
    budget = float(params.get("continued_advance_factor")) * last_march_rate
    max_deg = int(float(params.get("continued_advance_max_pivot_deg")))
    r = u.rect()
    fl, fr, _, _ = r.corners()
    best: tuple[float, int, float] | None = None
    for deg in sorted(range(-max_deg, max_deg + 1), key=abs):
        arc = r.width * math.radians(abs(deg))
        if arc > budget + TINY:
            continue
        pivot = fl if deg > 0 else fr
        front = rotate_point(r.front, deg, pivot) if deg else r.front
        facing = r.facing + deg
        fx, fy = forward(facing)
        left = budget - arc
        n = max(1, math.ceil(left / SAMPLE_CM))
        for i in range(n + 1):
            d = left * i / n
            rect = UnitRect((front[0] + fx * d, front[1] + fy * d), facing, r.width, r.depth)
            if at_break_in(rect, t.rect(), depth, eps):
                if best is None or arc + d < best[0]:
                    best = (arc + d, deg, d)
                break
    if best is None:
        return False, (
            f"4.1.4: {new_target} cannot be brought to break-in distance within half a march "
            f"({budget:g} cm) and one pivot of at most {max_deg}°"
        )
    used, deg, d = best
    return True, (
        f"{new_target} reached by a pivot of {deg:+d}° and {d:.1f} cm straight ahead ({used:.1f} of {budget:g} cm)"
    )
