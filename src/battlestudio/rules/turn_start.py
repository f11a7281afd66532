"""The units as they stood when the open player-turn began, for rules that judge what a unit
did this player-turn (Torden over Europa 5.2: which enemy unit acted; 5.3: where an attack's
move started). The game state does not hold it: ``GameSession`` sets it around each call of a
ruleset's actions (``player_turn_start``), as it fills in the table and terrain of a request;
a ruleset called without it reads None and says what it cannot judge."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar

from battlestudio.model.units import Unit
from battlestudio.replay.state import GameState


class TurnStart:
    """The unit records (``units``, by id) when player-turn ``turn`` of ``side`` began, given as
    the records or as a function that finds them: a long game's log folds to the player-turn's
    start only when a rule first asks (most calls of a phase never do)."""

    __slots__ = ("turn", "side", "_units", "_find")

    def __init__(self, turn: int, side: str, units: Mapping[str, Unit] | Callable[[], Mapping[str, Unit]]) -> None:
        self.turn, self.side = turn, side
        self._units: Mapping[str, Unit] | None = None if callable(units) else units
        self._find: Callable[[], Mapping[str, Unit]] | None = units if callable(units) else None

    @property
    def units(self) -> Mapping[str, Unit]:
        if self._units is None:
            assert self._find is not None
            self._units, self._find = self._find(), None
        return self._units


_START: ContextVar[TurnStart | None] = ContextVar("player_turn_start", default=None)


@contextmanager
def player_turn_start(start: TurnStart | None) -> Iterator[None]:
    """Within the block, ``units_at_turn_start`` reads ``start``."""
    token = _START.set(start)
    try:
        yield
    finally:
        _START.reset(token)


def units_at_turn_start(state: GameState) -> Mapping[str, Unit] | None:
    """The unit records when the open player-turn of ``state`` began, or None when the caller
    did not say (or said it for another player-turn)."""
    start = _START.get()
    if start is None or (start.turn, start.side) != (state.turn, state.side):
        return None
    return start.units
