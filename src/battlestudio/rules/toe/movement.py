"""Order execution help: this turn's legal move of a general under a standing order
(Torden over Europa 2.7–2.11, glossary T-6, T-8), and who must close up afterwards.

Attack (A): straight from where the order began to the objective, 20–30 cm, stopping where an
enemy unit ahead comes within 20 cm (engaged) or at the objective; the engagement stop and the
objective override the 20 cm minimum and a general who starts engaged does not move (A8).
March (M): at the slowest unit's march length, never within 75 cm of the enemy. Retreat (T):
at the slowest unit's march length (A19). Hold and defence: no move. A detachment goes to its
point under M by the march rules, under H or T at its slowest unit's pace (assumed, as A19),
then stays there.

The stop search is exact for convex footprints (rectangles): the distance from a point moving
on a line to a convex polygon is convex in the distance travelled, so the first point at a
given distance is found by ternary search then bisection. (A candidate for
``model/predicates.py``; it lives here until merged.)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from shapely.geometry import Point as SPoint
from shapely.geometry.base import BaseGeometry

from battlestudio.model.geometry import EPS, TINY, Point
from shapely.affinity import translate as shapely_translate

from battlestudio.model.units import Arm, Commander, Formation, Unit
from battlestudio.replay.events import BattleEvent
from battlestudio.replay.flow_events import Moved
from battlestudio.replay.order_events import DEFENCE, CommandStateChanged, OrderCompleted
from battlestudio.replay.state import GameState
from battlestudio.rules.params import RuleParameters, RuleRefused
from battlestudio.rules.protocol import OutOfCommandFinding
from battlestudio.rules.toe.command import check_command, fmt_cm
from battlestudio.rules.toe.common import (
    commander,
    corps_units,
    enemies_of,
    is_detached,
    march_length,
    name_of,
    position_of,
    standing_order,
)

_ITER = 100


def first_within(p0: Point, u: Point, length: float, poly: BaseGeometry, limit: float, ahead: bool) -> float | None:
    """Smallest ``t`` in [0, length] with ``distance(p0 + t·u, poly) ≤ limit`` (cm), or None.

    With ``ahead`` the polygon must also have some part ahead of the moving point (G-11), which
    holds for ``t`` below ``max_v (v − p0)·u``. ``u`` is a unit vector; ``poly`` convex.
    """

    def d(t: float) -> float:
        return float(poly.distance(SPoint(p0[0] + t * u[0], p0[1] + t * u[1])))

    end = length
    if ahead:
        v = np.asarray(poly.exterior.coords if hasattr(poly, "exterior") else poly.coords, dtype=float)
        reach = float(((v - np.asarray(p0)) @ np.asarray(u)).max())
        end = min(end, reach - TINY)
        if end < 0:
            return None
    if d(0.0) <= limit + TINY:
        return 0.0
    lo, hi = 0.0, end
    for _ in range(_ITER):  # ternary search for the minimum of the convex d(t)
        m1, m2 = lo + (hi - lo) / 3, hi - (hi - lo) / 3
        if d(m1) <= d(m2):
            hi = m2
        else:
            lo = m1
    tmin = (lo + hi) / 2
    if d(tmin) > limit + TINY:
        return None
    lo, hi = 0.0, tmin
    for _ in range(_ITER):  # bisection: d(lo) > limit >= d(hi), to the exact crossing
        mid = (lo + hi) / 2
        if d(mid) <= limit:
            hi = mid
        else:
            lo = mid
    return hi


@dataclass(frozen=True, slots=True)
class MoveHelp:
    """This turn's legal move of a general under his standing order.

    ``direction`` in degrees (counter-clockwise from +x), ``min_cm``–``max_cm`` the band he may
    move, ``end`` where the longest legal move ends (cm), ``stop_reason`` why it ends there,
    ``completes`` when that reaches the objective, ``close_up`` the subordinates outside
    command distance once he stands at ``end``, ``events`` the longest legal move as battle
    events (move, engaged flag, completion), ready for the umpire to apply.
    """

    commander: str
    order_type: str
    start: Point
    direction: float | None
    min_cm: float
    max_cm: float
    end: Point
    stop_reason: str
    completes: bool
    close_up: tuple[OutOfCommandFinding, ...]
    explanation: str
    events: tuple[BattleEvent, ...] = field(default_factory=tuple)


def slowest_march(state: GameState, p: RuleParameters, cid: str) -> tuple[float, str]:
    """March length (cm) of the slowest unit under ``cid`` and its id (2.10, A19)."""
    units = [state.units[cid]] if cid in state.units else corps_units(state, cid)
    if not units:
        raise RuleRefused(f"{name_of(state, cid)} has no units on the table to set his march speed (2.10)")
    lengths = [(march_length(p, u), u.id) for u in units]
    return min(lengths)


def legal_move(state: GameState, p: RuleParameters, cid: str) -> MoveHelp:
    """The move ``cid`` must/may make this turn under his standing order (2.7–2.11).

    Raises
    ------
    MissingParameterError
        when march lengths (M, T) or command distances are not supplied.
    """
    c: Unit | Commander
    if cid in state.units:  # a detached independent brigade moving to its point (2.11)
        c = state.units[cid]
        if not is_detached(state, cid):
            raise RuleRefused(
                f"{c.name} gets no orders of its own: it keeps within its general's command distance (2.1)"
            )
    else:
        c = commander(state, cid)
    order = standing_order(state, cid)
    here = c.position
    kind = order.order_type if order is not None else "H"
    detachment = kind == "D"
    if detachment and order is not None:  # to its point: M (march), H/T (slowest pace); stays (2.11)
        kind = str(order.parameters.get("mode", "H"))
        kind = "T" if kind == "H" else kind
    if order is None or kind in ("H", DEFENCE) or order.objective is None:
        what = "no order: hold" if order is None else ("defence" if kind == DEFENCE else "hold")
        return _still(state, p, cid, kind, f"{c.name} is on {what} and may not move (2.8)")
    target = order.objective
    vx, vy = target[0] - here[0], target[1] - here[1]
    remaining = math.hypot(vx, vy)
    if remaining <= EPS:
        if detachment:
            return _still(state, p, cid, "D", f"{c.name} stands at his detachment point and may not move (2.11)")
        return _still(state, p, cid, kind, f"{c.name} stands at his objective; the order is complete", completes=True)
    u = (vx / remaining, vy / remaining)
    enemies = [e.footprint() for e in enemies_of(state, c.side)]
    names = [e.name for e in enemies_of(state, c.side)]
    stop_reason, lo_band = "", 0.0
    if kind == "A":
        if p.get("engage_direction") != "half_plane":
            raise RuleRefused(f"engage_direction {p.get('engage_direction')!r} is not supported; use 'half_plane' (A9)")
        eng = float(p.get("engage_distance_cm"))
        if any(e.distance(SPoint(here)) <= eng + TINY for e in enemies):
            return _still(
                state,
                p,
                cid,
                kind,
                f"{c.name} is engaged (an enemy unit within {eng:g} cm) and does not advance (2.7, A8)",
                engaged=True,
            )
        top = min(float(p.get("attack_step_max_cm")), remaining)
        lo_band = min(float(p.get("attack_step_min_cm")), remaining)
        stop, who = _first_stop(here, u, top, enemies, names, eng, ahead=True)
        if stop is not None:
            top, lo_band = stop, min(lo_band, stop)
            stop_reason = f"engaged: {who} comes within {eng:g} cm in his direction of march (2.7)"
        elif top >= remaining - TINY:
            stop_reason = "objective reached (2.7)"
        else:
            stop_reason = f"at most {top:g} cm per turn (2.7)"
    elif kind in ("M", "T"):
        speed, slow = slowest_march(state, p, cid)
        top = min(speed, remaining)
        stop_reason = (
            "objective reached"
            if top >= remaining - TINY
            else f"march length of the slowest unit, {name_of(state, slow)}: {speed:g} cm"
        ) + (" (2.10)" if kind == "M" else " (2.9, A19)")
        if kind == "M":
            lim = float(p.get("march_exclusion_cm"))
            stop, who = _first_stop(here, u, top, enemies, names, lim, ahead=False)
            if stop is not None:
                top = stop
                stop_reason = (
                    f"march limit: {who} would be within {lim:g} cm; reaching this point turns the "
                    "order into defence (2.10)"
                )
            if cid in state.commanders:
                unlimbered = [
                    x.name
                    for x in corps_units(state, cid)
                    if x.arm is Arm.ARTILLERY and x.formation is Formation.UNLIMBERED
                ]
                if unlimbered:
                    return _still(
                        state,
                        p,
                        cid,
                        kind,
                        f"{c.name} does not march: artillery must be limbered ('Artilleri skal være påprodset', "
                        f"2.10): {', '.join(sorted(unlimbered))}",
                    )
                t_corps, unit_name, enemy_name = _corps_march_stop(state, cid, u, top, lim)
                if t_corps is not None and t_corps < top - TINY:
                    top = t_corps
                    stop_reason = (
                        f"march limit: {unit_name} of the corps would come within {lim:g} cm of {enemy_name}; "
                        "the march movement never comes within 0.75 m of the enemy (2.10, ERRATA 3)"
                    )
        lo_band = top
    else:
        raise RuleRefused(f"no movement rule for order type {kind!r}")
    end = (here[0] + top * u[0], here[1] + top * u[1])
    completes = top >= remaining - TINY
    close = _close_up(state, p, cid, end)
    direction = math.degrees(math.atan2(u[1], u[0])) % 360.0
    events: list[BattleEvent] = []
    if top > TINY:
        events.append(Moved(turn=state.turn, side=state.side, phase="movement", id=cid, path=(here, end)))
    if kind == "A" and stop_reason.startswith("engaged"):
        events.append(
            CommandStateChanged(
                turn=state.turn,
                side=state.side,
                phase="movement",
                subject=cid,
                state="engaged",
                value=True,
                reason=stop_reason,
            )
        )
    if completes and detachment:
        stop_reason += "; there the formation stays, detached (2.11)"
    elif completes:
        events.append(
            OrderCompleted(
                turn=state.turn,
                side=state.side,
                phase="movement",
                order_id=order.id,
                reason="objective reached",
                defence_objective=end,
            )
        )
    text = (
        f"{c.name} ({kind}) moves {lo_band:.1f}–{top:.1f} cm on bearing {direction:.0f}° from "
        f"({here[0]:.1f}, {here[1]:.1f}) to at most ({end[0]:.1f}, {end[1]:.1f}): {stop_reason}."
    )
    if close:
        text += (
            " Must close up: "
            + "; ".join(f"{name_of(state, f.subject)} ({fmt_cm(f.distance)} cm, limit {f.reach:g})" for f in close)
            + "."
        )
    return MoveHelp(cid, kind, here, direction, lo_band, top, end, stop_reason, completes, close, text, tuple(events))


def _corps_march_stop(state: GameState, cid: str, u: Point, top: float, limit: float) -> tuple[float | None, str, str]:
    """How far (cm, ≤ ``top``) the corps of ``cid`` may march along the unit vector ``u`` before
    one of its units comes within ``limit`` cm of an enemy unit (2.10: "Bevægelsen med
    marchordre kan ikke ske indenfor en afstand af 0,75 m fra fjendtlige enheder" — the march
    movement, not only the general; ERRATA 3). The units move as the general does; a unit's
    swept ground over ``[0, t]`` is the hull of its footprint at both ends (footprints are
    convex), so the first ``t`` is found by bisection. ``(None, "", "")`` when nothing stops it."""
    from shapely.ops import unary_union

    foes = enemies_of(state, state.commanders[cid].side)
    if not foes:
        return None, "", ""
    everyone = unary_union([e.footprint() for e in foes])
    best: tuple[float, str] | None = None
    for x in corps_units(state, cid):
        a = x.footprint()

        def near(t: float, a: BaseGeometry = a) -> bool:
            moved = shapely_translate(a, t * u[0], t * u[1])
            return bool(unary_union([a, moved]).convex_hull.distance(everyone) <= limit)

        if not near(top):
            continue
        lo, hi = 0.0, top
        if near(0.0):
            lo = hi = 0.0
        for _ in range(40):
            if hi - lo <= 1e-9:
                break
            mid = (lo + hi) / 2.0
            lo, hi = (lo, mid) if near(mid) else (mid, hi)
        if best is None or lo < best[0]:
            best = (lo, x.name)
    if best is None:
        return None, "", ""
    t, who = best
    x_at = shapely_translate(next(x for x in corps_units(state, cid) if x.name == who).footprint(), t * u[0], t * u[1])
    enemy = min(foes, key=lambda e: e.footprint().distance(x_at))
    return t, who, enemy.name


def _first_stop(
    here: Point, u: Point, top: float, enemies: list[BaseGeometry], names: list[str], limit: float, ahead: bool
) -> tuple[float | None, str]:
    best: tuple[float, str] | None = None
    for poly, name in zip(enemies, names, strict=True):
        t = first_within(here, u, top, poly, limit, ahead)
        if t is not None and (best is None or t < best[0]):
            best = (t, name)
    return (best[0], best[1]) if best else (None, "")


def _close_up(state: GameState, p: RuleParameters, cid: str, end: Point) -> tuple[OutOfCommandFinding, ...]:
    if cid not in state.commanders:
        return ()
    report = check_command(state, p, side=state.commanders[cid].side, positions={cid: end})
    below = set(state.oob.all_subordinates(cid))
    return tuple(f for f in report.findings if f.subject in below and f.consequence.startswith("must-return"))


def _still(
    state: GameState, p: RuleParameters, cid: str, kind: str, why: str, engaged: bool = False, completes: bool = False
) -> MoveHelp:
    here = position_of(state, cid)
    close = _close_up(state, p, cid, here)
    text = why + "."
    if close:
        text += (
            " Must close up: "
            + "; ".join(f"{name_of(state, f.subject)} ({fmt_cm(f.distance)} cm, limit {f.reach:g})" for f in close)
            + "."
        )
    return MoveHelp(cid, kind, here, None, 0.0, 0.0, here, why, completes, close, text)
