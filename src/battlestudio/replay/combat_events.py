"""Battle events of combat: fire, melee, morale tests, casualties and ammunition.

Fire, melee and morale-test events record what was rolled and decided; their consequences
(losses, disorder, retreats) are separate events that follow them in the log, so every change
of a unit has exactly one event that made it. ``roll`` holds the ruleset's roll record as
JSON-compatible data (purpose, die, raw values, modifiers with sources, threshold, outcome).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any
from collections.abc import Mapping

from battlestudio.replay.events import BattleEvent, EventError, json_value, register
from battlestudio.replay.flow_events import unit_of
from battlestudio.replay.state import GameState


def _freeze_roll(event: Fired | Melee | MoraleTest) -> None:
    roll = event.roll
    if roll is not None:
        if not isinstance(roll, Mapping):
            raise ValueError(f"event {event.kind!r} ({event.where()}): roll must be a mapping, got {roll!r}")
        object.__setattr__(event, "roll", json_value(dict(roll)))


@register
@dataclass(frozen=True, slots=True)
class Fired(BattleEvent):
    """``unit`` fired at ``target`` (Torden over Europa §18–19: in the enemy's player-turn).

    Attributes
    ----------
    unit, target : str
        firer and target ids.
    range_cm : float | None
        measured range in table cm.
    roll : Mapping[str, Any] | None
        the ruleset's roll record.
    result : str
        outcome in the ruleset's words, e.g. ``"2 figures"``.
    explanation : str
        human-readable account of the roll.
    """

    kind = "fired"
    unit: str = ""
    target: str = ""
    range_cm: float | None = None
    roll: Mapping[str, Any] | None = None
    result: str = ""
    explanation: str = ""

    def __post_init__(self) -> None:
        _freeze_roll(self)

    def apply(self, state: GameState) -> GameState:
        unit_of(state, self, self.unit)
        return state

    def touched(self) -> tuple[str, ...]:
        return (self.unit, self.target)


@register
@dataclass(frozen=True, slots=True)
class Melee(BattleEvent):
    """A melee between ``attackers`` and ``defenders`` (Torden over Europa §20, Belle Alliance).

    ``winner`` is ``"attacker"``, ``"defender"``, ``"draw"`` or "" when undecided.
    """

    kind = "melee"
    attackers: tuple[str, ...] = ()
    defenders: tuple[str, ...] = ()
    winner: str = ""
    roll: Mapping[str, Any] | None = None
    explanation: str = ""

    def __post_init__(self) -> None:
        if self.winner not in ("", "attacker", "defender", "draw"):
            raise ValueError(
                f"event 'melee' ({self.where()}): winner must be attacker, defender, draw or empty, got {self.winner!r}"
            )
        object.__setattr__(self, "attackers", tuple(self.attackers))
        object.__setattr__(self, "defenders", tuple(self.defenders))
        _freeze_roll(self)

    def apply(self, state: GameState) -> GameState:
        for uid in self.attackers + self.defenders:
            unit_of(state, self, uid)
        return state

    def touched(self) -> tuple[str, ...]:
        return self.attackers + self.defenders


@register
@dataclass(frozen=True, slots=True)
class MoraleTest(BattleEvent):
    """``unit`` took a morale test (Torden over Europa §21, phase 6.3); ``passed`` or not.

    ``result`` is the ruleset's outcome (e.g. ``"retreats in disorder"``); the state change it
    causes is recorded by the events that follow.
    """

    kind = "morale_test"
    unit: str = ""
    passed: bool = True
    result: str = ""
    roll: Mapping[str, Any] | None = None
    explanation: str = ""

    def __post_init__(self) -> None:
        _freeze_roll(self)

    def apply(self, state: GameState) -> GameState:
        unit_of(state, self, self.unit)
        return state

    def touched(self) -> tuple[str, ...]:
        return (self.unit,)


@register
@dataclass(frozen=True, slots=True)
class Casualties(BattleEvent):
    """``unit`` lost ``figures`` figures (≈100 infantry / 80 cavalry men each, Torden over
    Europa 1.1) and, where the source counts them, ``men``, ``horses`` and ``guns``.

    Counts never go below zero; a unit at zero figures stays until an event eliminates or
    removes it. ``cause`` names what inflicted the loss (e.g. ``"fire"``, ``"melee"``).

    Raises
    ------
    ValueError
        (on construction) for a negative loss.
    """

    kind = "casualties"
    unit: str = ""
    figures: int = 0
    men: int = 0
    horses: int = 0
    guns: int = 0
    cause: str = ""

    def __post_init__(self) -> None:
        for name in ("figures", "men", "horses", "guns"):
            if getattr(self, name) < 0:
                raise ValueError(
                    f"event 'casualties' ({self.where()}): {name} lost must be >= 0, got {getattr(self, name)}"
                )

    def apply(self, state: GameState) -> GameState:
        u = unit_of(state, self, self.unit)
        return state.with_unit(
            replace(
                u,
                figures=max(0, u.figures - self.figures),
                men=max(0, u.men - self.men),
                horses=max(0, u.horses - self.horses),
                guns=max(0, u.guns - self.guns),
            )
        )

    def touched(self) -> tuple[str, ...]:
        return (self.unit,)


@register
@dataclass(frozen=True, slots=True)
class AmmunitionUsed(BattleEvent):
    """``unit`` spent ``rounds`` of ammunition (artillery, Torden over Europa §19).

    Raises
    ------
    EventError
        (on apply) if the unit does not count ammunition (``Unit.ammunition`` is None).
    """

    kind = "ammunition_used"
    unit: str = ""
    rounds: int = 1

    def __post_init__(self) -> None:
        if self.rounds < 0:
            raise ValueError(f"event 'ammunition_used' ({self.where()}): rounds must be >= 0, got {self.rounds}")

    def apply(self, state: GameState) -> GameState:
        u = unit_of(state, self, self.unit)
        if u.ammunition is None:
            raise EventError(self, f"unit {self.unit!r} does not count ammunition")
        return state.with_unit(replace(u, ammunition=max(0, u.ammunition - self.rounds)))

    def touched(self) -> tuple[str, ...]:
        return (self.unit,)


@register
@dataclass(frozen=True, slots=True)
class AmmunitionResupplied(BattleEvent):
    """``unit`` was resupplied and now has ``ammunition`` rounds (Torden over Europa §19:
    a battery fires or resupplies in a fire phase, not both)."""

    kind = "ammunition_resupplied"
    unit: str = ""
    ammunition: int = 0

    def __post_init__(self) -> None:
        if self.ammunition < 0:
            raise ValueError(
                f"event 'ammunition_resupplied' ({self.where()}): ammunition must be >= 0, got {self.ammunition}"
            )

    def apply(self, state: GameState) -> GameState:
        u = unit_of(state, self, self.unit)
        return state.with_unit(replace(u, ammunition=self.ammunition))

    def touched(self) -> tuple[str, ...]:
        return (self.unit,)
