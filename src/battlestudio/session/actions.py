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
from battlestudio.replay.events import BattleEvent
from battlestudio.replay.state import GameState
from battlestudio.rules.actions import ActionOutcome, ActionPreview, ActionRequest, ActionSpec
from battlestudio.rules.dice import DiceSource
from battlestudio.rules.protocol import OrderOutcome, Ruleset
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

    if TYPE_CHECKING:  # provided by GameSession

        @property
        def state(self) -> GameState: ...

        @property
        def key(self) -> PhaseKey: ...

    def _record(self, events: list[BattleEvent]) -> None:  # provided by GameSession
        raise NotImplementedError

    def actions(self, subject: str = "") -> Sequence[ActionSpec]:
        """The actions the open phase offers ``subject`` ("" = those with no subject), legal
        ones and those not legal now (``unavailable`` says why)."""
        return self.ruleset.actions(self.state, self.params, subject)

    def action_subjects(self) -> Sequence[str]:
        """The ids that have a legal action in the open phase."""
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
        out = self.ruleset.resolve_action(self.state, self._with_table(request), self.params, self.dice)
        if out.status not in ("resolved", "refused"):
            raise SessionError(f"ruleset {self.ruleset.id!r} returned status {out.status!r} for {request.action!r}")
        if out.resolved:
            self._record([replace(e, turn=k.turn, side=k.side, phase=k.phase) for e in out.events])
        return IssueResult(out, tuple(r.probability() for r in out.rolls))
