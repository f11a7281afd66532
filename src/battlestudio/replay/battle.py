"""Battle: a scenario's initial state plus the append-only list of events recorded so far.

This is what a ``.battle`` / ``.battle.json`` file holds. A scenario with no game recorded is a
Battle with an empty event list. ``bookmarks`` are the places in the game a reader marked;
``keyframes`` the game states a ``.battle`` file stored (read when used), from which an
unfinished game opens without replaying.
"""

from __future__ import annotations

from collections.abc import Callable, MutableSequence
from dataclasses import dataclass, field
from typing import Any

from battlestudio.model.scenario import Scenario
from battlestudio.replay.events import BattleEvent
from battlestudio.replay.state import GameState


@dataclass(frozen=True, slots=True)
class StoredKeyframe:
    """The game state a file stored at ``position`` (events applied; a phase start).

    ``read()`` builds the state from the stored text; it raises ``ValueError`` naming the file
    and the bad value when the text cannot be read.
    """

    position: int
    read: Callable[[], GameState]

    def state(self) -> GameState:
        """The stored state (``ValueError`` when it cannot be read)."""
        return self.read()


@dataclass(frozen=True, slots=True)
class Bookmark:
    """A named place in the recorded game: ``position`` is the number of events applied there
    (0 = as deployed), ``note`` free text."""

    name: str
    position: int
    note: str = ""


@dataclass
class Battle:
    """``scenario`` (the initial state), ``events`` (the game log, oldest first), the
    ``bookmarks`` in the game (in position order), the ``keyframes`` read from a file, and the
    ``ruleset_record``: the rule numbers in force when the game was recorded
    (``rules.fingerprint``; None when not known)."""

    scenario: Scenario = field(default_factory=Scenario)
    events: MutableSequence[BattleEvent] = field(default_factory=list)  # a RecordedEvents when read lazily
    bookmarks: list[Bookmark] = field(default_factory=list)
    ruleset_record: dict[str, Any] | None = None  # the rule numbers in force when recorded (rules.fingerprint)
    keyframes: list[StoredKeyframe] = field(default_factory=list, compare=False)  # read from a .battle file: a cache

    @property
    def turns_logged(self) -> int:
        """Highest turn number any event belongs to (0 when no game is recorded)."""
        return max((e.turn for e in self.events), default=0)
