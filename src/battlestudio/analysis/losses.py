"""Losses per turn and phase, per side of the unit that lost them (``Casualties`` events)."""

from __future__ import annotations

from dataclasses import dataclass

from battlestudio.replay.combat_events import Casualties
from battlestudio.replay.game import GameLog


@dataclass(frozen=True, slots=True)
class LossRow:
    """Losses ``side`` suffered in ``phase`` of ``turn`` (the active side's player-turn
    ``active_side``): ``figures``, ``men``, ``guns``, and ``events`` counted."""

    turn: int
    active_side: str
    phase: str
    side: str
    figures: int
    men: int
    guns: int
    events: int


def losses_by_turn_and_phase(log: GameLog) -> list[LossRow]:
    """One row per (turn, active side, phase, losing side) that has casualties, in log order.

    The losing side is the side of the unit at the time of the loss; a ``Casualties`` event for
    a unit no longer in the state (removed) is still counted, with the side it had at the
    deployment.
    """
    initial_side = {uid: u.side for uid, u in log.initial.units.items()}
    rows: dict[tuple[int, str, str, str], list[int]] = {}
    for e in log.events:
        if not isinstance(e, Casualties):
            continue
        side = initial_side.get(e.unit, "")
        acc = rows.setdefault((e.turn, e.side, e.phase, side), [0, 0, 0, 0])
        acc[0] += e.figures
        acc[1] += e.men
        acc[2] += e.guns
        acc[3] += 1
    return [LossRow(t, a, p, s, *v) for (t, a, p, s), v in rows.items()]


def losses_per_turn(rows: list[LossRow]) -> dict[int, dict[str, int]]:
    """``{turn: {side: men}}`` summed over phases, for the per-turn chart."""
    out: dict[int, dict[str, int]] = {}
    for r in rows:
        d = out.setdefault(r.turn, {})
        d[r.side] = d.get(r.side, 0) + r.men
    return out


def losses_per_phase(rows: list[LossRow]) -> dict[str, dict[str, int]]:
    """``{phase: {side: men}}`` summed over turns, phases in the order first met."""
    out: dict[str, dict[str, int]] = {}
    for r in rows:
        d = out.setdefault(r.phase, {})
        d[r.side] = d.get(r.side, 0) + r.men
    return out
