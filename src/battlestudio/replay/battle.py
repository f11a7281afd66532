"""Battle: a scenario's initial state plus the append-only list of events recorded so far.

This is what a ``.battle`` / ``.battle.json`` file holds. A scenario with no game recorded is a
Battle with an empty event list.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from dataclasses import dataclass, field

from battlestudio.model.scenario import Scenario
from battlestudio.replay.events import BattleEvent


@dataclass
class Battle:
    """``scenario`` (the initial state) and ``events`` (the game log, oldest first)."""

    scenario: Scenario = field(default_factory=Scenario)
    events: MutableSequence[BattleEvent] = field(default_factory=list)  # a RecordedEvents when read lazily

    @property
    def turns_logged(self) -> int:
        """Highest turn number any event belongs to (0 when no game is recorded)."""
        return max((e.turn for e in self.events), default=0)
