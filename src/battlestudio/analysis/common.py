"""Shared look-ups of the analysis: where each turn ends in the log, the state after a turn,
and which corps a unit or commander belongs to (the level the charts group by)."""

from __future__ import annotations

from collections.abc import Iterable

from battlestudio.model.units import ECHELON_RANK, Echelon
from battlestudio.replay.events import BattleEvent
from battlestudio.replay.game import GameLog
from battlestudio.replay.state import GameState

CORPS_RANK = ECHELON_RANK[Echelon.CORPS.value]


def turn_end_positions(log: GameLog) -> list[tuple[int, int]]:
    """``(turn, position)`` pairs: turn 0 at position 0 (the deployment), then for every turn
    in the log the position just after its last event, ascending.

    A turn ends where the next turn's first phase begins (or at the end of the log), so a
    ``TurnEnded`` marker is not required.
    """
    out = [(0, 0)]
    ends: dict[int, int] = {}
    for key in log.phases():
        ends[key.turn] = log.phase_range(key)[1]
    for turn in sorted(ends):
        out.append((turn, ends[turn]))
    # a TurnEnded event sits in the last phase of its turn, so phase ends already include it
    return out


def state_at_turn(initial: GameState, events: Iterable[BattleEvent], turn: int | None) -> GameState:
    """The state after every event of turns up to ``turn`` (all events when None), its
    ``turn`` set to ``turn`` (or the last turn logged)."""
    state = initial
    last = 0
    for e in events:
        if turn is not None and e.turn > turn:
            break
        state = e.apply(state)
        last = max(last, e.turn)
    return state.evolve(turn=turn if turn is not None else max(last, state.turn))


def corps_of(state: GameState, node: str) -> str:
    """Id of the corps ``node`` belongs to: the nearest commander at corps echelon or above in
    its chain of command that sits directly under a chief with no corps in between.

    Concretely: walk up the chain and return the first commander whose echelon is ``corps``;
    failing that (a chain with no corps general, e.g. a C-in-C's escort), the highest commander
    below the root; a node with no superior is its own corps. Returns ``""`` for an id not in
    the order of battle.
    """
    if node not in state.oob:
        return ""
    chain = [node] + state.oob.chain_of_command(node)
    for nid in chain:
        c = state.commanders.get(nid)
        if c is not None and ECHELON_RANK.get(c.echelon, 99) == CORPS_RANK:
            return nid
    if len(chain) >= 2:
        return chain[-2]
    return node


def corps_name(state: GameState, corps: str) -> str:
    """Display name of a corps id (the commander's name when it has one)."""
    c = state.commanders.get(corps)
    if c is not None and c.name:
        return c.name
    u = state.units.get(corps)
    return u.name if u is not None and u.name else corps
