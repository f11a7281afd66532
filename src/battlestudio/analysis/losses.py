"""Losses per turn and phase, per side of the unit that lost them (``Casualties`` events), and
the loss ledger that makes the men add up: start − end = lost (casualties + men of eliminated
units) + men who left the table alive (``loss_ledger``)."""

from __future__ import annotations

from dataclasses import dataclass

from battlestudio.analysis.common import corps_of
from battlestudio.replay.combat_events import Casualties
from battlestudio.model.units import Unit
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


@dataclass(frozen=True, slots=True)
class LossLedger:
    """Where the men of one ``group`` (a side id, or a corps id, of side ``side``) went in
    ``turn`` (0: the whole game).

    ``start`` and ``end`` are the men of its units not eliminated (on the table or waiting off
    it) before and after; ``casualties`` the men the ``Casualties`` events took; ``eliminated``
    the men a unit still had when it was eliminated; ``left`` the men of units that left the game
    not eliminated (``UnitRemoved``: routed or retreated off the table); ``other`` any other
    change (units added during the game, a ruleset's own event changing men: negative = more).
    ``start - end == lost + left + other`` always holds.
    """

    turn: int
    side: str
    group: str
    start: int
    end: int
    casualties: int
    eliminated: int
    left: int
    other: int

    @property
    def lost(self) -> int:
        """Men lost: casualties plus the men lost with eliminated units."""
        return self.casualties + self.eliminated


def _men_alive(u: Unit | None) -> int:
    return 0 if u is None or u.state == "eliminated" else u.men


def loss_ledger(log: GameLog, by: str = "side", per_turn: bool = False) -> list[LossLedger]:
    """The ``LossLedger`` of each side (``by="side"``) or corps (``by="corps"``, from the order
    of battle at the deployment, as ``strength_over_turns``) for the whole game, or with
    ``per_turn`` for each turn in the log; sorted by (turn, side, group). A unit counts for the
    side and corps it had at the deployment (or, added later, when first met).

    Raises
    ------
    ValueError
        for ``by`` other than ``"side"`` or ``"corps"``.
    """
    if by not in ("side", "corps"):
        raise ValueError(f"losses are grouped by 'side' or 'corps', got {by!r}")
    state = log.initial
    group_of: dict[str, tuple[str, str]] = {}

    def group(uid: str, u: Unit) -> tuple[str, str]:
        if uid not in group_of:
            side = u.side
            group_of[uid] = (side, side if by == "side" else corps_of(state, uid) or side)
        return group_of[uid]

    for uid, u in state.units.items():
        group(uid, u)
    # acc[(turn, side, group)] = [start, casualties, eliminated, left, other_delta]
    acc: dict[tuple[int, str, str], list[int]] = {}
    men: dict[tuple[str, str], int] = {}
    for uid, u in state.units.items():
        g = group(uid, u)
        men[g] = men.get(g, 0) + _men_alive(u)

    def row(turn: int, g: tuple[str, str]) -> list[int]:
        key = (turn if per_turn else 0, *g)
        if key not in acc:
            acc[key] = [men.get(g, 0), 0, 0, 0, 0]
        return acc[key]

    for g in list(men):
        row(log.events[0].turn if per_turn and len(log) else 0, g)
    for e in log.events:
        old_units = state.units
        state = e.apply(state)
        new_units = state.units
        if old_units is new_units:
            continue
        for uid in old_units.keys() | new_units.keys():
            old, new = old_units.get(uid), new_units.get(uid)
            if old is new:
                continue
            was, now = _men_alive(old), _men_alive(new)
            if was == now:
                continue
            unit = new if new is not None else old
            assert unit is not None  # one of the two differs from the other, so one exists
            g = group(uid, unit)
            r = row(e.turn, g)
            casualty = isinstance(e, Casualties)
            if old is not None and new is not None and was and new.state == "eliminated":
                r[2] += new.men  # lost with the unit
                r[1 if casualty else 4] += was - new.men
            elif old is not None and new is None:
                r[3] += was  # left the game alive
            elif casualty:
                r[1] += was - now
            else:
                r[4] += was - now
            men[g] = men.get(g, 0) - (was - now)
        if per_turn:
            for g in men:
                row(e.turn, g)
    out = []
    for (turn, side, grp), (start, cas, elim, left, other) in sorted(acc.items()):
        end = start - cas - elim - left - other
        out.append(LossLedger(turn, side, grp, start, end, cas, elim, left, other))
    return out
