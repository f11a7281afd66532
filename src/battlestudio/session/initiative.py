"""The initiative and end-of-turn entries of a ``GameSession`` for rulesets that roll the
initiative in a phase of the turn (General d'Armée ИНИЦИАТИВА after the command rolls,
Regimental 2.1) rather than agreeing it before the turn (Torden over Europa 1.2).

A mixin: ``GameSession`` provides ``ruleset``, ``state``, ``params``, ``dice``, ``key`` and
``_record``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any
from collections.abc import Mapping, Sequence

from battlestudio.replay.cursor import PhaseKey
from battlestudio.replay.events import BattleEvent
from battlestudio.replay.state import GameState
from battlestudio.rules.dice import DiceSource
from battlestudio.rules.protocol import InitiativeResult, Ruleset
from battlestudio.session.umpire import SessionError


class InitiativeEntries:
    """``initiative()`` in the ruleset's initiative phase, and restamping rule events."""

    ruleset: Ruleset
    params: Mapping[str, Any]
    dice: DiceSource

    if TYPE_CHECKING:  # provided by GameSession (read-only properties there)

        @property
        def state(self) -> GameState: ...

        @property
        def key(self) -> PhaseKey: ...

    def _record(self, events: list[BattleEvent]) -> None:  # provided by GameSession
        raise NotImplementedError

    def _initiative_phase(self) -> str | None:
        """The id of the ruleset's phase that calls ``initiative``, if it has one."""
        for spec in self.ruleset.turn_sequence(self.state):
            if "initiative" in spec.methods:
                return spec.id
        return None

    def _restamped(self, events: Sequence[BattleEvent]) -> list[BattleEvent]:
        """``events`` moved into the open phase (rulesets stamp them with the state's own turn,
        side and phase, which may lag behind the session's)."""
        k = self.key
        return [replace(e, turn=k.turn, side=k.side, phase=k.phase) for e in events]

    def initiative(self) -> InitiativeResult:
        """Roll the ruleset's initiative in its initiative phase (General d'Armée ИНИЦИАТИВА,
        Regimental 2.1) and record its rolls and the new holder (flag ``initiative:holder``).

        Raises
        ------
        SessionError
            outside the ruleset's initiative phase, or for a ruleset that has none (Torden over
            Europa agrees the initiative before the turn: see ``steps``).
        """
        where = self._initiative_phase()
        if where is None:
            raise SessionError(
                f"ruleset {self.ruleset.id!r} has no initiative phase; the initiative is decided before the turn"
            )
        if self.key.phase != where:
            raise SessionError(f"the initiative is rolled in the {where} phase; the open phase is {self.key.phase}")
        out = self.ruleset.initiative(self.state, self.params, self.dice)
        self._record(self._restamped(out.events))
        return out
