"""Addresses in the game log: phase keys, cursors and positions.

The log is read as **turn → side → phase → event**. A *position* ``p`` is the number of events
applied (0 = the scenario's initial state, ``len(log)`` = the latest state). A ``Cursor`` names
the same place the way players do: "turn 14, Prussian side, firing, event 3". Cursor ``index``
is the index, inside its phase, of the last event applied; ``-1`` means the phase is reached
but none of its events is applied yet.
"""

from __future__ import annotations

from typing import NamedTuple


class PhaseKey(NamedTuple):
    """One phase of one player-turn: ``turn`` (1-based), active ``side`` id, ruleset ``phase`` id."""

    turn: int
    side: str
    phase: str

    def __str__(self) -> str:
        return f"turn {self.turn}, {self.side or 'both sides'}, {self.phase}"


class Cursor(NamedTuple):
    """A place in the game log (see the module docstring).

    Attributes
    ----------
    turn : int
        game turn, 1-based; 0 only for ``START`` (before the first event).
    side : str
        active side id.
    phase : str
        ruleset phase id.
    index : int
        index in the phase of the last event applied, ``-1`` for none.
    """

    turn: int
    side: str
    phase: str
    index: int  # type: ignore[assignment]  # typeshed: a NamedTuple field may shadow tuple.index

    @property
    def key(self) -> PhaseKey:
        """The phase this cursor is in."""
        return PhaseKey(self.turn, self.side, self.phase)

    def __str__(self) -> str:
        if self == START:
            return "start of the game"
        return f"{self.key}, event {self.index + 1}"


START = Cursor(0, "", "", -1)
"""The cursor of position 0: the scenario as deployed, before any event."""
