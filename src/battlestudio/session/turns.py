"""The turn and phase sequence of a recorded game, and the game time of a turn.

A game turn is one player-turn per side, the side with the initiative first; each player-turn
runs through the ruleset's phases in order (Torden over Europa 1.2: seven phases, initiative
agreed between the sides). ``phase_sequence`` lists the steps of one turn; ``game_time`` gives
the clock time a turn starts at from the scenario's first turn and turn length.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from collections.abc import Mapping, Sequence

from battlestudio.model.scenario import ScenarioInfo
from battlestudio.replay.state import GameState
from battlestudio.rules.dice import DiceSource
from battlestudio.rules.protocol import InitiativeResult, PhaseSpec, Ruleset


@dataclass(frozen=True, slots=True)
class PhaseStep:
    """One phase of one player-turn: ``turn`` (1-based), active ``side`` id and the ruleset's
    ``spec`` (its ``id``, ``name``, who acts and the rule section)."""

    turn: int
    side: str
    spec: PhaseSpec

    @property
    def phase(self) -> str:
        """The phase id."""
        return self.spec.id


def side_order(sides: Sequence[str], first: str) -> list[str]:
    """``sides`` with ``first`` moved to the front (unchanged when ``first`` is not a side).

    Raises
    ------
    ValueError
        when there are no sides.
    """
    if not sides:
        raise ValueError("the scenario has no sides; a game needs at least one")
    out = list(sides)
    if first in out:
        out.remove(first)
        out.insert(0, first)
    return out


def phase_sequence(
    ruleset: Ruleset, state: GameState, turn: int, sides: Sequence[str], initiative: InitiativeResult
) -> list[PhaseStep]:
    """The steps of game turn ``turn``: every phase of the ruleset for each side in turn, the
    side with the initiative first (Torden over Europa 1.2).

    Raises
    ------
    ValueError
        when ``turn`` < 1, there are no sides, or the ruleset lists no phases.
    """
    if turn < 1:
        raise ValueError(f"turns are numbered from 1, got {turn}")
    phases = list(ruleset.turn_sequence(state))
    if not phases:
        raise ValueError(f"ruleset {ruleset.id!r} lists no phases")
    return [PhaseStep(turn, side, spec) for side in side_order(sides, initiative.side) for spec in phases]


def initiative_for(
    ruleset: Ruleset, state: GameState, params: Mapping[str, Any], dice: DiceSource, sides: Sequence[str]
) -> InitiativeResult:
    """Who has the initiative this turn, by the ruleset; the scenario's first side when the
    ruleset names none of the scenario's sides (e.g. nothing agreed before the first turn)."""
    result = ruleset.initiative(state, params, dice)
    if result.side in sides or not sides:
        return result
    first = sides[0]
    return InitiativeResult(
        first,
        f"{result.explanation} No side named: {first}, the scenario's first side, has the initiative.",
        result.rolls,
    )


def game_time(info: ScenarioInfo, turn: int) -> str:
    """Clock time ``"HH:MM"`` at which ``turn`` (1-based) starts: ``first_turn`` plus
    ``turn_minutes`` per turn before it (Torden over Europa 1.1: 15 minutes). Wraps past midnight.

    Raises
    ------
    ValueError
        when ``first_turn`` is not ``HH:MM``, naming the value.
    """
    try:
        hh, mm = (int(v) for v in info.first_turn.split(":"))
    except ValueError:
        raise ValueError(f"scenario first_turn must be HH:MM, got {info.first_turn!r}") from None
    minutes = hh * 60 + mm + max(turn - 1, 0) * info.turn_minutes
    return f"{(minutes // 60) % 24:02d}:{minutes % 60:02d}"
