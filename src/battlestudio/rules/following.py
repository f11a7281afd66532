"""Troops following their general: the moves that carry a formation by its general's
displacement, stopping short of the enemy, of friends and of the table edge (Torden over Europa
2.5, 4.4, 4.9; used by order execution of every ruleset).

Pure functions from a state to ``Moved`` events stamped with the phase they are given.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import replace

from shapely.affinity import translate
from shapely.geometry import Point as SPoint, box
from shapely.geometry.base import BaseGeometry
from shapely.ops import unary_union

from battlestudio.model.geometry import Point
from battlestudio.model.terrain import TerrainFeature
from battlestudio.model.units import Commander, Unit
from battlestudio.replay.events import BattleEvent
from battlestudio.replay.flow_events import Moved
from battlestudio.replay.state import GameState
from battlestudio.rules.moves import MoveCheck, MoveRequest
from battlestudio.rules.params import RuleRefused


def formation_members(state: GameState, commander_id: str) -> list[str]:
    """Ids of every unit and commander below ``commander_id`` in the order of battle that is
    on the table now (in the state and not off table), in order-of-battle order."""
    out = []
    for node in state.oob.all_subordinates(commander_id):
        if node in state.off_table:
            continue
        if node in state.units or node in state.commanders:
            out.append(node)
    return out


def follow_moves(
    state: GameState,
    commander_id: str,
    delta: Point,
    *,
    turn: int,
    side: str,
    phase: str,
    skip: Sequence[str] = (),
    keep_off_cm: float | None = None,
    table: tuple[float, float] | None = None,
    keep_apart_cm: float | None = None,
    wheel: bool = False,
) -> list[BattleEvent]:
    """``Moved`` events that carry every unit and subordinate commander under
    ``commander_id`` by ``delta`` (cm), keeping their facings: troops closing up behind their
    general so they stay within command distance (Torden over Europa 2.5, 4.9).

    Units in ``FU`` (complete disorder) and eliminated units do not move (1.6), nor do detached
    formations and everything under them (2.11). Nodes in ``skip`` are left where they are.
    With ``table`` (width, height in cm) a unit goes only as far as keeps its footprint on the
    table. With ``keep_off_cm`` a unit goes only as far along
    ``delta`` as keeps its footprint that far from every enemy unit (it halts at contact; the
    furthest such point is found by bisection, taking the approach as steady). With
    ``keep_apart_cm`` the same holds against friendly units of other formations and against
    the formation's own units already moved (front ones first), so formations do not stack
    on each other: a unit blocked by a neighbour halts behind it (one already overlapping goes
    only if that does not deepen the overlap). With ``wheel`` a formation whose units face
    more than 45° away from ``delta`` first wheels about its general's position to face the
    move (snapped to 90°, the way a column turns onto its line of advance; 4.4), all of it
    or, when that would swing a unit onto an enemy, a friend, another unit of the formation or
    off the table, none of it. Each unit wheels about its own general (its division general,
    or the corps general for corps troops), so no one is carried further than his division's
    radius besides the move, and the generals keep their places in the formation. An empty list when ``delta`` is zero.
    """
    dx, dy = float(delta[0]), float(delta[1])
    if abs(dx) < 1e-9 and abs(dy) < 1e-9:
        return []
    rec0 = state.record(commander_id)
    enemies = None
    if keep_off_cm is not None and rec0 is not None:
        polys = [
            u.footprint()
            for u in state.units.values()
            if u.side != rec0.side and u.id not in state.off_table and u.state != "eliminated"
        ]
        enemies = unary_union(polys) if polys else None
    detached = {n for n in state.oob.all_subordinates(commander_id) if f"detached:{n}" in state.flags}
    for n in list(detached):
        detached.update(state.oob.all_subordinates(n))
    board = box(0.0, 0.0, table[0], table[1]) if table is not None else None
    movers: list[Unit | Commander] = []
    for node in formation_members(state, commander_id):
        if node in skip or node in detached:
            continue
        rec = state.record(node)
        assert rec is not None  # formation_members names records of the state
        if isinstance(rec, Unit) and rec.state in ("FU", "eliminated"):
            continue
        movers.append(rec)
    moving = {r.id for r in movers}
    friends = None
    if keep_apart_cm is not None and rec0 is not None:
        polys = [
            u.footprint()
            for u in state.units.values()
            if u.side == rec0.side and u.id not in moving and u.id not in state.off_table and u.state != "eliminated"
        ]
        friends = unary_union(polys) if polys else None
    heading = math.degrees(math.atan2(dy, dx))
    turn_by = _wheel_angle(movers, heading) if wheel else 0.0
    pivots = {r.id: _pivot(state, r.id, commander_id) for r in movers if isinstance(r, Unit)}
    if turn_by:  # the whole formation wheels, or none of it
        shapes = [_wheeled(r, pivots[r.id], turn_by).footprint() for r in movers if isinstance(r, Unit)]
        if any(
            (enemies is not None and sh.distance(enemies) < float(keep_off_cm or 0.0))
            or (friends is not None and sh.intersects(friends))
            or (board is not None and not board.covers(sh))
            for sh in shapes
        ) or any(a.intersection(b).area > 1e-6 for i, a in enumerate(shapes) for b in shapes[i + 1 :]):
            turn_by = 0.0
    # front units first (furthest along delta), so those behind halt on them, not they on those behind
    length = math.hypot(dx, dy)

    def ahead(rec: Unit | Commander) -> tuple[float, str]:
        x, y = rec.position
        return (-(x * dx + y * dy) / length, rec.id)

    placed: list[BaseGeometry] = []
    out: list[BattleEvent] = []
    for rec in sorted(movers, key=ahead):
        x, y = rec.position
        facing = None
        if turn_by and isinstance(rec, Unit):
            rec = _wheeled(rec, pivots[rec.id], turn_by)
            facing = rec.facing
        t = 1.0
        if isinstance(rec, Unit):
            fp = rec.footprint()
            if enemies is not None and keep_off_cm is not None:  # enemies only with keep_off_cm
                t = _free_fraction(fp, enemies, dx, dy, float(keep_off_cm))
            if keep_apart_cm is not None and t > 0:
                blocks = [g for g in ([friends] if friends is not None else []) + placed]
                if blocks:
                    t = min(t, _apart_fraction(fp, unary_union(blocks), dx, dy, float(keep_apart_cm)))
        if board is not None and t > 0:
            shape = rec.footprint() if isinstance(rec, Unit) else SPoint(rec.position)
            t = min(t, _on_table_fraction(shape, board, dx, dy))
        if isinstance(rec, Unit):
            placed.append(translate(rec.footprint(), t * dx, t * dy))
        if t <= 1e-6 and facing is None and rec.position == (x, y):
            continue
        t = max(t, 0.0)
        nx, ny = rec.position
        out.append(
            Moved(
                turn=turn,
                side=side,
                phase=phase,
                id=rec.id,
                facing=facing,
                path=((x, y), (round(nx + t * dx, 2), round(ny + t * dy, 2))),
            )
        )
    return out


def free_of_friends(state: GameState, unit_id: str, delta: Point, keep_apart_cm: float = 0.5) -> float:
    """Largest fraction (0-1) of a move of ``unit_id`` by ``delta`` (cm) that keeps its footprint
    ``keep_apart_cm`` from every other friendly unit on the table (one already closer may go all
    the way only if it ends no deeper in them), for the umpire's single-unit moves (falling
    back, flight, charges) so they do not stack units on each other."""
    u = state.units[unit_id]
    polys = [
        o.footprint()
        for o in state.units.values()
        if o.side == u.side and o.id != unit_id and o.id not in state.off_table and o.state != "eliminated"
    ]
    if not polys:
        return 1.0
    return _apart_fraction(u.footprint(), unary_union(polys), float(delta[0]), float(delta[1]), keep_apart_cm)


def _angle_between(facing: float, heading: float) -> float:
    """Unsigned difference of two directions in degrees (0-180)."""
    return abs((facing - heading + 180.0) % 360.0 - 180.0)


def _pivot(state: GameState, unit_id: str, commander_id: str) -> Point:
    """Where ``unit_id`` wheels about: its nearest superior general on the table below or at
    ``commander_id`` (cm)."""
    for sup in state.oob.chain_of_command(unit_id):
        if sup in state.commanders and sup not in state.off_table:
            return state.commanders[sup].position
        if sup == commander_id:
            break
    return state.commanders[commander_id].position


def _wheel_angle(movers: Sequence[object], heading: float) -> float:
    """Degrees the formation wheels to face ``heading`` (snapped to 90°, square to the table):
    0 unless most of its infantry and cavalry face more than 45° away from it, and 0 for an
    about-face (a formation moving backwards falls back facing the enemy)."""
    facings = [r.facing for r in movers if isinstance(r, Unit) and r.arm.value != "artillery"]
    if not facings:
        return 0.0
    common = max(sorted(set(facings)), key=facings.count)
    if _angle_between(common, heading) <= 45.0:
        return 0.0
    target = round(heading / 90.0) * 90.0
    angle = (target - common + 180.0) % 360.0 - 180.0
    return angle if abs(angle) <= 90.0 else 0.0  # no about-face: a formation moving back keeps its front


def _wheeled_point(p: Point, pivot: Point, angle: float) -> Point:
    """``p`` turned by ``angle`` degrees about ``pivot`` (cm, rounded to 0.01)."""
    a = math.radians(angle)
    x, y = p[0] - pivot[0], p[1] - pivot[1]
    return (
        round(pivot[0] + x * math.cos(a) - y * math.sin(a), 2),
        round(pivot[1] + x * math.sin(a) + y * math.cos(a), 2),
    )


def _wheeled(u: Unit, pivot: Point, angle: float) -> Unit:
    """``u`` turned by ``angle`` degrees about ``pivot`` (its position and facing together)."""
    return u.moved(_wheeled_point(u.position, pivot, angle), u.facing + angle)


def _apart_fraction(poly: BaseGeometry, others: BaseGeometry, dx: float, dy: float, gap: float) -> float:
    """Largest fraction of ``(dx, dy)`` that keeps ``poly`` ``gap`` cm from ``others``; a
    shape already closer than that moves all the way only if it ends no deeper in them."""
    if poly.distance(others) < gap - 1e-9:
        moved = translate(poly, dx, dy)
        return 1.0 if moved.intersection(others).area <= poly.intersection(others).area + 1e-9 else 0.0
    return _free_fraction(poly, others, dx, dy, gap)


def _on_table_fraction(shape: BaseGeometry, board: BaseGeometry, dx: float, dy: float) -> float:
    """Largest fraction of ``(dx, dy)`` that keeps ``shape`` inside ``board`` (0 if it is not now)."""

    return _largest_fraction(lambda t: bool(board.covers(translate(shape, t * dx, t * dy))))


def _free_fraction(poly: BaseGeometry, enemies: BaseGeometry, dx: float, dy: float, keep_off: float) -> float:
    """Largest fraction of ``(dx, dy)`` that keeps ``poly`` ``keep_off`` cm from ``enemies``."""

    return _largest_fraction(lambda t: bool(translate(poly, t * dx, t * dy).distance(enemies) >= keep_off - 1e-9))


def _largest_fraction(ok: Callable[[float], bool]) -> float:
    """The largest ``t`` in 0..1 with ``ok(t)``, by bisection (taking ``ok`` as true up to a
    point and false after it); 0 when ``ok(0)`` is false."""
    if ok(1.0):
        return 1.0
    if not ok(0.0):
        return 0.0
    lo, hi = 0.0, 1.0
    for _ in range(30):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if ok(mid) else (lo, mid)
    return lo


def held_to_march(
    state: GameState,
    events: Sequence[BattleEvent],
    check: Callable[[MoveRequest], MoveCheck | None],
    table: tuple[float, float] | None = None,
    terrain: Sequence[TerrainFeature] = (),
) -> tuple[list[BattleEvent], list[str]]:
    """The units' ``Moved`` events of an executed order held to the movement rules ``check``
    (a ruleset's ``move_check``; Torden over Europa 4.4, 4.6.3): a unit that may not move stays
    (a square, a unit in complete disorder, an unlimbered battery), one that would go beyond
    what its march length allows this way (backwards at ½) stops there. Returns the events
    and what was held back, in words."""
    notes: list[str] = []
    out: list[BattleEvent] = []
    for e in events:
        u = state.units.get(e.id) if isinstance(e, Moved) else None
        if u is None or not isinstance(e, Moved) or len(e.path) < 2:
            out.append(e)
            continue
        end = (float(e.path[-1][0]), float(e.path[-1][1]))
        try:
            found = check(MoveRequest(u.id, (u.position, end), e.facing, tuple(terrain), table))
        except RuleRefused:
            found = None
        if found is None:
            out.append(e)
        elif found.immobile:
            notes.append(f"{u.name} stays: {' '.join(found.problems)}")
        elif found.allowed_cm is not None and found.used_cm > found.allowed_cm + 1e-6:
            share = max(0.0, found.allowed_cm) / found.used_cm
            (x0, y0), (x1, y1) = u.position, end
            stop = (round(x0 + (x1 - x0) * share, 2), round(y0 + (y1 - y0) * share, 2))
            notes.append(
                f"{u.name} stops after {found.allowed_cm:.1f} of {found.used_cm:.1f} cm: {' '.join(found.notes)}"
            )
            out.append(replace(e, path=(u.position, stop)))
        else:
            out.append(e)
    return out, notes
