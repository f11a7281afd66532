"""Per-turn command checks of a Torden over Europa corps (2.7–2.10, 4.9; glossary T-7–T-9, T-30).

No roll is needed: standing orders carry on. The check reports and, through events, applies:
engaged (an enemy unit within 20 cm of the general) and the half-corps-within-40 cm duty while
engaged; automatic retreat when more than half the corps' non-artillery units are in U/FU or an
enemy has taken the general's position (objective 1 m directly away from the enemy); a march
order meeting an enemy within 75 cm turns into defence; an order whose objective is reached is
complete and turns into defence. Cavalry outside command distance (4.9) has its own checks.
"""

from __future__ import annotations

import math
from typing import Any, TypeVar

from shapely.geometry import Point as SPoint

from battlestudio.model.geometry import EPS, TINY
from battlestudio.model.units import Arm, OrderState
from battlestudio.replay.events import BattleEvent
from battlestudio.replay.order_events import DEFENCE, CommandStateChanged, OrderCompleted, OrderDelivered, OrderWritten
from battlestudio.replay.state import GameState
from battlestudio.rules.params import RuleParameters, RuleRefused
from battlestudio.rules.protocol import CheckResult
from battlestudio.rules.toe.command import check_command
from battlestudio.rules.toe.common import (
    commander,
    corps_units,
    enemies_of,
    is_detached,
    name_of,
    non_artillery,
    standing_order,
)
from battlestudio.rules.toe.control import new_order_id
from battlestudio.rules.toe.orders import retreat_direction


E = TypeVar("E", bound=BattleEvent)


def _ev(gs: GameState, cls: type[E], phase: str = "orders", **kw: Any) -> E:
    return cls(turn=gs.turn, side=gs.side, phase=phase, **kw)


def half_corps(state: GameState, p: RuleParameters, cid: str) -> tuple[int, int, int]:
    """``(near, needed, counted)``: non-artillery units of the corps within 40 cm of an enemy,
    how many must be (half, rounded up), and how many were counted (2.7, T-7)."""
    units = non_artillery(corps_units(state, cid, include_detached=not p.get("half_corps_excludes_detached")))
    lim = float(p.get("engaged_half_corps_distance_cm"))
    enemies = [e.footprint() for e in enemies_of(state, commander(state, cid).side)]
    near = sum(1 for u in units if any(u.footprint().distance(e) <= lim + TINY for e in enemies))
    return near, math.ceil(len(units) / 2), len(units)


def auto_retreat_reason(state: GameState, p: RuleParameters, cid: str) -> str:
    """Why the corps must retreat automatically ("" when it need not) (2.9, A10, T-9)."""
    c = commander(state, cid)
    units = non_artillery(corps_units(state, cid))
    bad = [u for u in units if u.state in (OrderState.U.value, OrderState.FU.value)]
    if units and len(bad) * 2 > len(units):
        return f"{len(bad)} of {len(units)} non-artillery units are in U/FU, more than half (2.9)"
    for e in enemies_of(state, c.side):
        if e.footprint().intersects(SPoint(c.position)):
            return f"the enemy ({e.name}) has taken {c.name}'s position (2.9)"
    return ""


def command_check(state: GameState, p: RuleParameters, cid: str) -> CheckResult:
    """The corps' per-turn check (Protocol method 5) at the start of its order phase."""
    c = commander(state, cid)
    order = standing_order(state, cid)
    flags: dict[str, object] = {"order": order.order_type if order else "H"}
    restrictions: list[str] = []
    notes: list[str] = []
    events: list[BattleEvent] = []
    eng_d = float(p.get("engage_distance_cm"))
    enemies = enemies_of(state, c.side)
    engaged = any(e.footprint().distance(SPoint(c.position)) <= eng_d + TINY for e in enemies)
    if order is not None and order.order_type == "A":
        flags["engaged"] = engaged
        if engaged != bool(state.flags.get(f"engaged:{cid}")):
            events.append(
                _ev(
                    state,
                    CommandStateChanged,
                    subject=cid,
                    state="engaged",
                    value=True if engaged else None,
                    reason=f"enemy {'within' if engaged else 'no longer within'} {eng_d:g} cm (2.7)",
                )
            )
        if engaged:
            near, need, n = half_corps(state, p, cid)
            flags["half_corps"] = (near, need, n)
            notes.append(
                f"engaged; {near} of {n} non-artillery units within "
                f"{p.get('engaged_half_corps_distance_cm')} cm of an enemy (needs {need})"
            )
            if near < need:
                restrictions.append(
                    f"the corps must bring {need - near} more non-artillery unit(s) within "
                    f"{p.get('engaged_half_corps_distance_cm')} cm of an enemy as fast as possible (2.7)"
                )
        else:
            notes.append("not engaged: the general moves on towards his objective (2.7)")
    why = auto_retreat_reason(state, p, cid)
    flags["auto_retreat"] = bool(why)
    if why and not (order is not None and order.order_type == "T"):
        how = str(p.get("auto_retreat_assignment"))
        if how not in AUTO_RETREAT_ASSIGNMENTS:
            raise RuleRefused(
                f"auto_retreat_assignment {how!r} is not supported; use one of {', '.join(AUTO_RETREAT_ASSIGNMENTS)} "
                "(2.9, ERRATA 4)"
            )
        if at_table_edge(state, p, cid, why):
            flags["auto_retreat_at_edge"] = True
            notes.append(
                f"automatic retreat due ({why}), but {c.name} stands at the table edge on his line of retreat: "
                "the objective is a point on the table (2.6, 2.9) and there is none further back, so no "
                "retreat order is written and the corps holds"
            )
        elif how == "forced":
            events += _auto_retreat(state, p, cid, why)
            notes.append(f"automatic retreat: {why}" + off_table_note(p, auto_retreat_objective(state, p, cid, why)))
        else:
            obj = auto_retreat_objective(state, p, cid, why)
            flags["auto_retreat_objective"] = obj
            notes.append(
                f"an automatic retreat may be assigned ({why}; 2.9 'kan der tildeles'): {c.name}'s own retreat "
                f"order (T) with the parameter automatic, to ({obj[0]:.1f}, {obj[1]:.1f}) "
                f"{p.get('auto_retreat_distance_cm')} cm directly away from the enemy, without OAS"
                + ("" if p.get("auto_retreat_needs_roll") else " or roll")
                + off_table_note(p, obj)
            )
    elif order is not None and order.order_type == "M" and not events:
        lim = float(p.get("march_exclusion_cm"))
        close = [e for e in enemies if e.footprint().distance(SPoint(c.position)) <= lim + TINY]
        if close:
            flags["march_converted"] = True
            done = _ev(
                state,
                OrderCompleted,
                order_id=order.id,
                defence_objective=c.position,
                reason=f"{close[0].name} within {lim:g} cm of the general: the march turns into "
                "defence at his position (2.10)",
            )
            events.append(done)
            notes.append(done.reason)
    if (
        order is not None
        and order.objective is not None
        and order.order_type in ("A", "T", "M")
        and not any(isinstance(e, OrderCompleted) for e in events)
        and not why
    ):
        if math.hypot(order.objective[0] - c.position[0], order.objective[1] - c.position[1]) <= EPS:
            flags["completed"] = True
            done = _ev(
                state,
                OrderCompleted,
                order_id=order.id,
                defence_objective=c.position,
                reason="objective reached: the corps now has a defence order (2.7, 2.9, 2.10)",
            )
            events.append(done)
            notes.append(done.reason)
    if order is not None and order.order_type == "D" and detached_at_point(state, cid):
        flags["at_point"] = True
        restrictions.append(
            f"{c.name} has reached his detachment point and may not move; his units act within his "
            "command distance (2.11)"
        )
    if order is not None and order.order_type == DEFENCE:
        notes.append("defence: treated as hold at its objective (A7)")
    text = f"{c.name}: {order.order_type if order else 'H (no order)'}" + ("; " + "; ".join(notes) if notes else "")
    return CheckResult(cid, flags, tuple(restrictions), text + ".", tuple(events), (), tuple(p.assumptions()))


AUTO_RETREAT_ASSIGNMENTS = ("offered", "forced")
"""Readings of 2.9's "kan der tildeles en automatisk tilbageordre" (``auto_retreat_assignment``):
``offered`` (ERRATA 4: it *may* be assigned) reports it and lets the corps general's own T
order with ``parameters["automatic"]`` assign it; ``forced`` writes it at the check."""


def auto_retreat_objective(state: GameState, p: RuleParameters, cid: str, why: str = "") -> tuple[float, float]:
    """The objective of ``cid``'s automatic retreat: ``auto_retreat_distance_cm`` (1 m) from
    his position directly away from the enemy front (2.9), and a point on the table (2.6 "et
    givent punkt på terrænet", ERRATA 4): where the session gives the table size (``table_cm``)
    and 1 m would lie beyond its edge, the objective is held on the retreat line 1 cm inside
    the edge (``auto_retreat_off_table = "edge"``, the default). The assumed reading "off" keeps
    the 1 m point beyond the edge (a corps that marches there leaves the table and is lost, 4.4).

    Raises
    ------
    RuleRefused
        when no enemy is on the table to retreat from, or for an ``auto_retreat_off_table``
        that is not one of ``AUTO_RETREAT_OFF_TABLE``.
    """
    c = commander(state, cid)
    away = retreat_direction(state, cid, p)
    if away is None:
        raise RuleRefused(f"{c.name} must retreat ({why}) but no enemy is on the table to retreat from (2.9)")
    dist = float(p.get("auto_retreat_distance_cm"))
    obj = (c.position[0] + dist * away[0], c.position[1] + dist * away[1])
    how = p.get("auto_retreat_off_table")
    if how not in AUTO_RETREAT_OFF_TABLE:
        raise RuleRefused(
            f"auto_retreat_off_table {how!r} is not supported; use one of {', '.join(AUTO_RETREAT_OFF_TABLE)} "
            "(2.6, 2.9)"
        )
    table = p.lookup("table_cm")
    if table is None or how != "edge":
        return obj
    return on_table_along(c.position, obj, (float(table[1][0]), float(table[1][1])))


AUTO_RETREAT_OFF_TABLE = ("edge", "off")
"""Readings of where an automatic retreat's 1 m objective beyond the table edge lies
(``auto_retreat_off_table``): ``edge`` holds it on the table (2.6, ERRATA 4), ``off`` keeps it."""


def at_table_edge(state: GameState, p: RuleParameters, cid: str, why: str = "") -> bool:
    """True when ``cid``'s automatic retreat, held on the table, has less than 1 cm to go: he
    already stands at the table edge on his line of retreat (2.6, 2.9), so no order is written."""
    if p.get("auto_retreat_off_table") != "edge" or p.lookup("table_cm") is None:
        return False
    obj = auto_retreat_objective(state, p, cid, why)
    return math.dist(obj, commander(state, cid).position) < EDGE_MARGIN_CM


def off_table_note(p: RuleParameters, obj: tuple[float, float]) -> str:
    """A clause saying the retreat objective ``obj`` lies beyond the table the session gave
    (``table_cm``) and what follows (4.4), or "" when it lies on it or the table is unknown."""
    table = p.lookup("table_cm")
    if table is None:
        return ""
    w, h = float(table[1][0]), float(table[1][1])
    if 0.0 <= obj[0] <= w and 0.0 <= obj[1] <= h:
        return ""
    return (
        f"; the objective lies beyond the {w:g} × {h:g} cm table: a corps that retreats over the edge is lost for "
        "the rest of the game (4.4 'frivilligt eller tvungent'; scenario parameter auto_retreat_off_table = "
        "'edge' holds it on the table)"
    )


EDGE_MARGIN_CM = 1.0
"""How far inside the table edge an objective held on the table lies (``auto_retreat_off_table``)."""


def on_table_along(
    start: tuple[float, float], end: tuple[float, float], table: tuple[float, float]
) -> tuple[float, float]:
    """``end``, or where the line from ``start`` to it comes within ``EDGE_MARGIN_CM`` of the
    table's edge (``table`` = width, height in cm), whichever is nearer ``start``."""
    lo, hi = EDGE_MARGIN_CM, (table[0] - EDGE_MARGIN_CM, table[1] - EDGE_MARGIN_CM)
    t = 1.0
    for axis in (0, 1):
        d = end[axis] - start[axis]
        if d > 0 and end[axis] > hi[axis]:
            t = min(t, max(0.0, (hi[axis] - start[axis]) / d))
        elif d < 0 and end[axis] < lo:
            t = min(t, max(0.0, (lo - start[axis]) / d))
    return (round(start[0] + t * (end[0] - start[0]), 2), round(start[1] + t * (end[1] - start[1]), 2))


def _auto_retreat(state: GameState, p: RuleParameters, cid: str, why: str) -> list[BattleEvent]:
    c = commander(state, cid)
    obj = auto_retreat_objective(state, p, cid, why)
    oid = new_order_id(state, set())
    out: list[BattleEvent] = [
        _ev(
            state,
            OrderWritten,
            order_id=oid,
            issuer=cid,
            recipient=cid,
            order_type="T",
            objective=obj,
            parameters={"automatic": True, "reason": why},
            cost=0,
        )
    ]
    if not p.get("auto_retreat_needs_roll"):
        out.append(_ev(state, OrderDelivered, order_id=oid, origin=c.position))
    return out


# -- cavalry outside command distance (4.9) --------------------------------------------------
def cavalry_leaves_command(state: GameState, p: RuleParameters, unit_id: str, target: str) -> CheckResult:
    """A cavalry unit leaves command distance voluntarily; legal only with an attack declared on
    an enemy unit in the same turn (4.9; A50: it must be in base contact to declare, 5.1).

    Returns a result whose events start its raid (``raid:<unit>`` flag), or restrictions saying
    why the move out of command distance is illegal.
    """
    u = state.units.get(unit_id)
    if u is None:
        raise RuleRefused(f"no unit {unit_id!r} in this game")
    tgt = state.units.get(target)
    why = ""
    if u.arm != Arm.CAVALRY:
        why = f"{u.name} is not cavalry; only cavalry may leave command distance voluntarily (2.4, 4.9)"
    elif u.state != OrderState.O.value:
        why = f"{u.name} is in {u.state}; only a unit in order may declare an attack (5.1)"
    elif tgt is None or tgt.side == u.side:
        why = f"{u.name} must declare an attack on an enemy unit in the same turn (4.9)"
    elif u.footprint().distance(tgt.footprint()) > EPS + TINY:
        why = f"{u.name} is not in base contact with {tgt.name}, so it cannot declare the attack (5.1, A50)"
    if why or tgt is None:
        return CheckResult(unit_id, {"legal": False}, (why,), f"Illegal: {why}.")
    raid = {"left_turn": state.turn, "last_attack_turn": state.turn, "returning": False}
    ev = _ev(
        state,
        CommandStateChanged,
        phase="attack_declaration",
        subject=unit_id,
        state="raid",
        value=raid,
        reason=f"leaves command distance to attack {tgt.name} (4.9)",
    )
    return CheckResult(
        unit_id, {"legal": True}, (), f"{u.name} leaves command distance to attack {tgt.name} (4.9).", (ev,)
    )


def cavalry_raid_turn(state: GameState, p: RuleParameters, unit_id: str, attacked: bool) -> CheckResult:
    """A raiding cavalry unit's turn (4.9): if it attacked at least one enemy unit it may stay
    out; otherwise it must at once move towards its chief's command distance, facing him."""
    raid = state.flags.get(f"raid:{unit_id}")
    name = name_of(state, unit_id)
    if not raid:
        return CheckResult(unit_id, {"raid": False}, (), f"{name} is not outside command distance on an attack.")
    if attacked and not raid.get("returning"):
        new = dict(raid, last_attack_turn=state.turn)
        streak = state.turn - int(raid["left_turn"]) + 1
        ev = _ev(
            state,
            CommandStateChanged,
            phase="attack_declaration",
            subject=unit_id,
            state="raid",
            value=new,
            reason="attacks again outside command distance (4.9)",
        )
        return CheckResult(
            unit_id,
            {"raid": True, "streak": streak},
            (),
            f"{name} attacks again; {streak} turn(s) outside command distance (4.9).",
            (ev,),
        )
    sup = state.oob.superior(unit_id) or ""
    new = dict(raid, returning=True)
    ev = _ev(
        state,
        CommandStateChanged,
        phase="attack_declaration",
        subject=unit_id,
        state="raid",
        value=new,
        reason="no attack this turn: must return (4.9)",
    )
    must = (
        f"{name} must move at once towards {name_of(state, sup)}'s command distance, facing him, "
        "normally with its back to the enemy (4.9, T-30)"
    )
    return CheckResult(unit_id, {"raid": True, "returning": True}, (must,), must + ".", (ev,))


def raid_end_events(state: GameState, p: RuleParameters) -> list[BattleEvent]:
    """Clear the raid of every cavalry unit back within its chief's command distance (4.9)."""
    report = check_command(state, p)
    return [
        _ev(
            state,
            CommandStateChanged,
            phase="movement",
            subject=f.subject,
            state="raid",
            value=None,
            reason="back within command distance: normal command again (4.9)",
        )
        for f in report.findings
        if f.consequence == "back-in-command"
    ]


def detached_at_point(state: GameState, node: str) -> bool:
    """A detached formation that has reached its point may no longer move (2.11)."""
    if not is_detached(state, node):
        return False
    o = standing_order(state, node)
    if o is None or o.objective is None:
        return False
    rec = state.commanders.get(node) or state.units.get(node)
    return rec is not None and math.hypot(o.objective[0] - rec.position[0], o.objective[1] - rec.position[1]) <= EPS
