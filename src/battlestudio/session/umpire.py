"""What the umpire enters by hand while recording: moves of whole formations, arrivals, and
rolls made on the umpire's own table where the ruleset's tables are missing.

Pure functions from a state to battle events; ``GameSession`` stamps them with the open phase
and records them. Torden over Europa's fire, melee and morale tables (Tables 2–12) are missing
from the seed, so combat outcomes are the umpire's rulings: either decided outright or rolled
with ``umpire_roll`` against a threshold the umpire names, recorded with the roll. Also holds
``SessionError``, the one error of the session package.
"""

from __future__ import annotations

from typing import Sequence

from shapely.affinity import translate
from shapely.geometry import Point as SPoint, box
from shapely.geometry.base import BaseGeometry
from shapely.ops import unary_union

from battlestudio.model.geometry import Point
from battlestudio.model.units import Unit
from battlestudio.replay.events import BattleEvent
from battlestudio.replay.flow_events import Moved, ReinforcementArrived
from battlestudio.replay.state import GameState
from battlestudio.rules.dice import DiceSource, DiceSpec, Modifier, RollRecord


class SessionError(ValueError):
    """A recording step that is not possible now (game not started, wrong phase, event refused)."""


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


def follow_moves(state: GameState, commander_id: str, delta: Point, *, turn: int, side: str, phase: str,
                 skip: Sequence[str] = (), keep_off_cm: float | None = None,
                 table: tuple[float, float] | None = None) -> list[BattleEvent]:
    """``Moved`` events that carry every unit and subordinate commander under
    ``commander_id`` by ``delta`` (cm), keeping their facings: troops closing up behind their
    general so they stay within command distance (Torden over Europa 2.5, 4.9).

    Units in ``FU`` (complete disorder) and eliminated units do not move (1.6), nor do detached
    formations and everything under them (2.11). Nodes in ``skip`` are left where they are.
    With ``table`` (width, height in cm) a unit goes only as far as keeps its footprint on the
    table. With ``keep_off_cm`` a unit goes only as far along
    ``delta`` as keeps its footprint that far from every enemy unit (it halts at contact; the
    furthest such point is found by bisection, taking the approach as steady). An empty list
    when ``delta`` is zero.
    """
    dx, dy = float(delta[0]), float(delta[1])
    if abs(dx) < 1e-9 and abs(dy) < 1e-9:
        return []
    rec0 = state.record(commander_id)
    enemies = None
    if keep_off_cm is not None and rec0 is not None:
        polys = [u.footprint() for u in state.units.values()
                 if u.side != rec0.side and u.id not in state.off_table and u.state != "eliminated"]
        enemies = unary_union(polys) if polys else None
    detached = {n for n in state.oob.all_subordinates(commander_id) if f"detached:{n}" in state.flags}
    for n in list(detached):
        detached.update(state.oob.all_subordinates(n))
    board = box(0.0, 0.0, table[0], table[1]) if table is not None else None
    out: list[BattleEvent] = []
    for node in formation_members(state, commander_id):
        if node in skip or node in detached:
            continue
        rec = state.record(node)
        if isinstance(rec, Unit) and rec.state in ("FU", "eliminated"):
            continue
        t = 1.0
        if enemies is not None and isinstance(rec, Unit):
            t = _free_fraction(rec.footprint(), enemies, dx, dy, float(keep_off_cm))
        if board is not None and t > 0:
            shape = rec.footprint() if isinstance(rec, Unit) else SPoint(rec.position)
            t = min(t, _on_table_fraction(shape, board, dx, dy))
        if t <= 1e-6:
            continue
        x, y = rec.position
        out.append(Moved(turn=turn, side=side, phase=phase, id=node,
                         path=((x, y), (round(x + t * dx, 2), round(y + t * dy, 2)))))
    return out


def _on_table_fraction(shape: BaseGeometry, board: BaseGeometry, dx: float, dy: float) -> float:
    """Largest fraction of ``(dx, dy)`` that keeps ``shape`` inside ``board`` (0 if it is not now)."""
    def inside(t: float) -> bool:
        return board.covers(translate(shape, t * dx, t * dy))

    if inside(1.0):
        return 1.0
    if not inside(0.0):
        return 0.0
    lo, hi = 0.0, 1.0
    for _ in range(30):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if inside(mid) else (lo, mid)
    return lo


def _free_fraction(poly: BaseGeometry, enemies: BaseGeometry, dx: float, dy: float, keep_off: float) -> float:
    """Largest fraction of ``(dx, dy)`` that keeps ``poly`` ``keep_off`` cm from ``enemies``."""
    def clear(t: float) -> bool:
        return translate(poly, t * dx, t * dy).distance(enemies) >= keep_off - 1e-9

    if clear(1.0):
        return 1.0
    if not clear(0.0):
        return 0.0
    lo, hi = 0.0, 1.0
    for _ in range(30):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if clear(mid) else (lo, mid)
    return lo


def arrival_event(state: GameState, reinforcement_id: str, formation: str, *, turn: int, side: str, phase: str,
                  offset: Point = (0.0, 0.0)) -> ReinforcementArrived:
    """The arrival of ``formation`` (a ``Reinforcement``'s commander or lone unit and everything
    below it that is still off table), each record placed where it waits shifted by ``offset``.

    Raises
    ------
    ValueError
        when nothing of the formation is off table (it has arrived already).
    """
    nodes = [formation] + list(state.oob.all_subordinates(formation))
    rows = []
    for node in nodes:
        if node not in state.off_table:
            continue
        rec = state.record(node)
        if rec is None:
            continue
        rows.append((node, rec.position[0] + offset[0], rec.position[1] + offset[1], rec.facing))
    if not rows:
        raise ValueError(f"reinforcement {reinforcement_id!r}: {formation!r} has no units or commanders off table")
    return ReinforcementArrived(turn=turn, side=side, phase=phase, reinforcement=reinforcement_id,
                                arrivals=tuple(rows))


def umpire_roll(dice: DiceSource, purpose: str, label: str, spec: DiceSpec, *, threshold: int | None = None,
                modifiers: Sequence[tuple[int, str]] = (), threshold_source: str = "umpire's ruling",
                passes: str = "passes", fails: str = "fails") -> RollRecord:
    """One roll on the umpire's table, through the game's dice (seeded in play).

    ``threshold`` None makes it a table roll (no pass/fail; ``outcome`` left for the caller).
    ``modifiers`` as ``(value, source)``.
    """
    raw = dice.roll(purpose, spec)
    mods = tuple(Modifier(int(v), str(s)) for v, s in modifiers)
    total = sum(raw) + sum(m.value for m in mods)
    ok = None if threshold is None else total >= threshold
    outcome = "" if ok is None else (passes if ok else fails)
    return RollRecord(purpose=purpose, label=label, dice=spec, raw=tuple(raw), modifiers=mods, threshold=threshold,
                      threshold_source=threshold_source if threshold is not None else "", outcome=outcome,
                      success=ok)
