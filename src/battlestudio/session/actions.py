"""The ruleset's actions in a ``GameSession``: what the open phase offers a subject, the odds
before the roll, and the roll (or the umpire's entry) recorded as events.

A mixin: ``GameSession`` provides ``ruleset``, ``state``, ``params``, ``dice``, ``key`` and
``_record``. Events a ruleset returns are moved into the open phase before they are recorded.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any
from collections.abc import Mapping, Sequence

from battlestudio.replay.battle import Battle
from battlestudio.replay.cursor import PhaseKey
from battlestudio.replay.game import GameLog
from battlestudio.replay.events import BattleEvent
from battlestudio.replay.state import GameState
from battlestudio.rules.actions import ActionOutcome, ActionPreview, ActionRequest, ActionSpec
from battlestudio.rules.dice import DiceSource
from battlestudio.rules.protocol import OrderOutcome, Ruleset
from battlestudio.rules.turn_start import TurnStart, player_turn_start
from battlestudio.session.umpire import SessionError


@dataclass(frozen=True, slots=True)
class IssueResult:
    """What issuing one order or taking one action did: the ruleset's ``outcome`` (status,
    explanation, rolls, events recorded) and the exact ``odds`` of each of its rolls (None for
    a table roll)."""

    outcome: OrderOutcome | ActionOutcome
    odds: tuple[Fraction | None, ...]

    @property
    def status(self) -> str:
        return self.outcome.status

    @property
    def explanation(self) -> str:
        return self.outcome.explanation


class ActionEntries:
    """``actions``, ``action_subjects``, ``preview_action`` and ``act``."""

    ruleset: Ruleset
    params: Mapping[str, Any]
    dice: DiceSource
    battle: Battle
    log: GameLog
    _turn_start: TurnStart | None = None
    _turn_at: tuple[int, int, int] = (-1, -1, 0)  # where the cached start was read: position, undos, log

    if TYPE_CHECKING:  # provided by GameSession

        @property
        def state(self) -> GameState: ...

        @property
        def key(self) -> PhaseKey: ...

    def _record(self, events: list[BattleEvent]) -> None:  # provided by GameSession
        raise NotImplementedError

    def turn_start(self) -> TurnStart | None:
        """The unit records when the open player-turn began (its first phase's start), for rules
        that judge what a unit did this player-turn; None before the game starts."""
        if not len(self.log):
            return None
        k = self.key
        try:
            start, _ = self.log.phase_range(self.log.find_phase(k.turn, k.side))
        except ValueError:
            return None
        at = (start, self.log.truncations, id(self.log))  # no undo since: the events before start are the same
        cached = self._turn_start
        if cached is not None and (cached.turn, cached.side) == (k.turn, k.side) and self._turn_at == at:
            return cached
        log = self.log
        self._turn_start = TurnStart(k.turn, k.side, lambda: log.state_at(start + 1).units)
        self._turn_at = at
        return self._turn_start

    def actions(self, subject: str = "") -> Sequence[ActionSpec]:
        """The actions the open phase offers ``subject`` ("" = those with no subject), legal
        ones and those not legal now (``unavailable`` says why)."""
        with player_turn_start(self.turn_start()):
            return self.ruleset.actions(self.state, self.params, subject)

    def action_subjects(self) -> Sequence[str]:
        """The ids that have a legal action in the open phase."""
        with player_turn_start(self.turn_start()):
            return self.ruleset.action_subjects(self.state, self.params)

    def _with_table(self, request: ActionRequest) -> ActionRequest:
        scenario = self.battle.scenario
        table = (scenario.info.table_width, scenario.info.table_height)
        return replace(
            request,
            table=request.table or table,
            terrain=request.terrain or tuple(scenario.terrain.values()),
            towns=request.towns or tuple(scenario.towns.values()),
        )

    def preview_action(self, request: ActionRequest) -> ActionPreview:
        """Legality and exact odds of ``request``; rolls nothing, records nothing."""
        with player_turn_start(self.turn_start()):
            return self.ruleset.preview_action(self.state, self._with_table(request), self.params)

    def act(self, request: ActionRequest) -> IssueResult:
        """Resolve ``request`` through the ruleset (rolling the session's dice unless the umpire
        entered the result) and record its events in the open phase; a refused action records
        nothing (``status == "refused"``, the reason in ``explanation``).

        Raises
        ------
        SessionError
            before the game starts, or when the events cannot be recorded (nothing is).
        rules.RuleRefused
            (``MissingParameterError``) when the scenario lacks a value the rule needs.
        """
        k = self.key  # raises before start
        with player_turn_start(self.turn_start()):
            out = self.ruleset.resolve_action(self.state, self._with_table(request), self.params, self.dice)
        if out.status not in ("resolved", "refused"):
            raise SessionError(f"ruleset {self.ruleset.id!r} returned status {out.status!r} for {request.action!r}")
        if out.resolved:
            self._record([replace(e, turn=k.turn, side=k.side, phase=k.phase) for e in out.events])
        return IssueResult(out, tuple(r.probability() for r in out.rolls))
