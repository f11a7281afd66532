"""The ruleset-declared steps of a phase in a ``GameSession`` other than orders: the initiative
roll of rulesets that roll it in a phase of the turn (General d'Armée ИНИЦИАТИВА after the
command rolls, Regimental 2.1) rather than agreeing it before the turn (Torden over Europa 1.2),
the command checks due in the phase (every General d'Armée brigade's command roll), the
choice of the formation that activates next (Regimental 2.2), and the phase's automatic steps
(``PhaseSpec.automatic``, run by ``phase_entry`` when the phase opens).

A mixin: ``GameSession`` provides ``ruleset``, ``state``, ``params``, ``dice``, ``key``,
``battle``, ``step``, ``command_check`` and ``_record``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any
from collections.abc import Mapping, Sequence

from battlestudio.replay.battle import Battle
from battlestudio.replay.cursor import PhaseKey
from battlestudio.replay.events import BattleEvent
from battlestudio.replay.order_events import CommandStateChanged
from battlestudio.replay.state import GameState
from battlestudio.rules.dice import DiceSource
from battlestudio.rules.params import RuleRefused
from battlestudio.rules.protocol import ActivationChoice, CheckResult, InitiativeResult, Ruleset
from battlestudio.session.umpire import SessionError

if TYPE_CHECKING:
    from battlestudio.session.turns import PhaseStep


@dataclass(frozen=True, slots=True)
class PhaseEntry:
    """What ``phase_entry`` did when the phase opened: the ``done`` steps' explanations and
    the ``skipped`` ones with why (already done this turn, or refused by the ruleset)."""

    done: tuple[str, ...] = ()
    skipped: tuple[str, ...] = ()

    @property
    def text(self) -> str:
        """Everything in one paragraph ("" when the phase has no automatic step)."""
        return " ".join(self.done + self.skipped)


class InitiativeEntries:
    """``initiative()``, ``checks_due``, ``choose_activation`` and ``phase_entry``."""

    ruleset: Ruleset
    params: Mapping[str, Any]
    dice: DiceSource
    battle: Battle

    if TYPE_CHECKING:  # provided by GameSession (read-only properties there)

        @property
        def state(self) -> GameState: ...

        @property
        def key(self) -> PhaseKey: ...

        def step(self) -> PhaseStep: ...

        def command_check(self, formation: str) -> CheckResult: ...

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

    # -- initiative -------------------------------------------------------------------------
    def initiative_rolled(self) -> PhaseKey | None:
        """The phase in which this turn's initiative was rolled (its holder recorded, flag
        ``initiative:holder``), or None when it has not been."""
        turn = self.key.turn
        for e in reversed(self.battle.events):
            if e.turn != turn:
                break
            if isinstance(e, CommandStateChanged) and e.subject == "holder" and e.state == "initiative":
                return PhaseKey(e.turn, e.side, e.phase)
        return None

    def initiative(self) -> InitiativeResult:
        """Roll the ruleset's initiative in its initiative phase (General d'Armée ИНИЦИАТИВА,
        Regimental 2.1) and record its rolls and the new holder (flag ``initiative:holder``);
        once a turn.

        Raises
        ------
        SessionError
            outside the ruleset's initiative phase, for a ruleset that has none (Torden over
            Europa agrees the initiative before the turn: see ``steps``), or when this turn's
            initiative is rolled already.
        """
        where = self._initiative_phase()
        if where is None:
            raise SessionError(
                f"ruleset {self.ruleset.id!r} has no initiative phase; the initiative is decided before the turn"
            )
        if self.key.phase != where:
            raise SessionError(f"the initiative is rolled in the {where} phase; the open phase is {self.key.phase}")
        done = self.initiative_rolled()
        if done is not None:
            raise SessionError(
                f"the initiative of turn {done.turn} was rolled in {done.side}'s {done.phase} phase; "
                "undo it to roll again"
            )
        out = self.ruleset.initiative(self.state, self.params, self.dice)
        self._record(self._restamped(out.events))
        return out

    # -- command checks -----------------------------------------------------------------------
    def checks_due(self) -> list[str]:
        """The formations whose command check is still due in the open phase (the ruleset's
        ``checks_due``), in the order they roll; none when the phase calls no ``command_check``."""
        if "command_check" not in self.step().spec.methods:
            return []
        return list(self.ruleset.checks_due(self.state, self.params))

    def command_checks(self, formations: Sequence[str] | None = None) -> list[CheckResult]:
        """Roll the command check of each of ``formations`` (default: every one due) in turn,
        each recorded as it is rolled.

        Raises
        ------
        SessionError
            when the open phase calls no command check, or one of ``formations`` is not due.
        """
        due = self.checks_due()
        if "command_check" not in self.step().spec.methods:
            raise SessionError(f"no command checks in the {self.key.phase} phase")
        todo = due if formations is None else list(formations)
        late = [f for f in todo if f not in due]
        if late:
            raise SessionError(f"no command check is due for {', '.join(late)} in this phase")
        return [self.command_check(f) for f in todo]

    # -- activations ------------------------------------------------------------------------------
    def activation_choices(self) -> list[str]:
        """The formations that may activate next in the open phase (the ruleset's
        ``activation_choices``); none when the phase has no ``next_activation``."""
        if "next_activation" not in self.step().spec.methods:
            return []
        return list(self.ruleset.activation_choices(self.state, self.params))

    def choose_activation(self, formation: str) -> ActivationChoice:
        """Record that ``formation`` activates next (the ruleset's ``choose_activation``).

        Raises
        ------
        SessionError
            when the open phase has no activations or the ruleset refuses the formation.
        """
        if "next_activation" not in self.step().spec.methods:
            raise SessionError(f"no activations in the {self.key.phase} phase")
        try:
            out = self.ruleset.choose_activation(self.state, formation, self.params)
        except RuleRefused as exc:
            raise SessionError(str(exc)) from None
        self._record(self._restamped(out.events))
        return out

    # -- phase entry --------------------------------------------------------------------------------
    def phase_entry(self) -> PhaseEntry:
        """Run the open phase's automatic steps (``PhaseSpec.automatic``): ``initiative`` unless
        this turn's is rolled already, ``command_check`` for every formation due. Each step's
        events are recorded; a step the ruleset refuses (a missing scenario parameter) is
        skipped with its reason, never raised, so the phase stays open."""
        done: list[str] = []
        skipped: list[str] = []
        for method in self.step().spec.automatic:
            try:
                if method == "initiative":
                    k = self.initiative_rolled()
                    if k is not None:
                        skipped.append(f"Initiative of turn {k.turn}: rolled in {k.side}'s {k.phase} phase.")
                        continue
                    done.append(self.initiative().explanation)
                elif method == "command_check":
                    done += [r.explanation for r in self.command_checks()]
                else:
                    skipped.append(f"{method}: not a step the game runs by itself.")
            except (RuleRefused, SessionError) as exc:
                skipped.append(f"{method.replace('_', ' ').capitalize()} not rolled: {exc}")
        return PhaseEntry(tuple(done), tuple(skipped))
