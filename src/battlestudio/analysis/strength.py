"""Strength per side and per corps over turns: men and figures at the end of every turn.

Counts units on the table or waiting off it (reinforcements count from the start: they are part
of the army's strength), excluding eliminated units and units removed from the game.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from battlestudio.analysis.common import corps_of, turn_end_positions
from battlestudio.model.units import Unit
from battlestudio.replay.game import GameLog
from battlestudio.replay.state import GameState


@dataclass(frozen=True, slots=True)
class StrengthPoint:
    """Strength of one ``group`` (a side id, or a corps id) at the end of ``turn``.

    ``side`` is the group's side; ``men`` and ``figures`` are sums over its units; ``turn`` 0
    is the deployment.
    """

    turn: int
    side: str
    group: str
    men: int
    figures: int


def _alive(state: GameState) -> Iterator[Unit]:
    for u in state.units.values():
        if u.state != "eliminated":
            yield u


def strength_over_turns(log: GameLog, by: str = "side") -> list[StrengthPoint]:
    """Men and figures per side (``by="side"``) or per corps (``by="corps"``) at the end of each
    turn, turn 0 first; within a turn groups are sorted by (side, group).

    The corps of a unit is taken from the order of battle at the deployment (``corps_of``), so
    a detachment during the game does not move its men from one corps' line to another's.

    Raises
    ------
    ValueError
        for ``by`` other than ``"side"`` or ``"corps"``.
    """
    if by not in ("side", "corps"):
        raise ValueError(f"strength is grouped by 'side' or 'corps', got {by!r}")
    initial = log.initial
    corps = {uid: corps_of(initial, uid) for uid in initial.units}
    out: list[StrengthPoint] = []
    for turn, pos in turn_end_positions(log):
        state = log.state_at(pos)
        sums: dict[tuple[str, str], list[int]] = {}
        for u in _alive(state):
            key = (u.side, u.side if by == "side" else corps.get(u.id) or corps_of(state, u.id))
            acc = sums.setdefault(key, [0, 0])
            acc[0] += u.men
            acc[1] += u.figures
        # groups that were wiped out still appear, with zero strength
        for uid, c in corps.items():
            side = initial.units[uid].side
            sums.setdefault((side, side if by == "side" else c), [0, 0])
        for (side, group), (men, figs) in sorted(sums.items()):
            out.append(StrengthPoint(turn, side, group, men, figs))
    return out
