"""Torden over Europa: what a unit's melees and morale tests left behind this turn (chapters 7-9).

The marks live in ``GameState.flags`` under ``toe-combat:<unit>`` and are written only by the
``CombatMarked`` event, so a replay rebuilds them. They say who fought whom in which turn, who
won (7.2.1), whether the unit has tested morale since (7.2.2: "Taber skal altid teste moral"),
the loser's Table 8 morale deduction, the unit's strength before its first melee loss (1.6:
"mistet to tredjedele eller mere af sin oprindelige styrke") and permanent disorder (1.6).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from collections.abc import Mapping

from battlestudio.model.units import Unit
from battlestudio.replay.events import BattleEvent, EventError, json_value, register
from battlestudio.replay.flags import flags_with
from battlestudio.replay.state import GameState

PREFIX = "toe-combat:"
COUNTER = "toe-combat:melees"
"""Flag counting the melees fought in the game (keeps each melee's roll purposes unique)."""


@register
@dataclass(frozen=True, slots=True)
class CombatMarked(BattleEvent):
    """``unit``'s combat mark is updated with ``mark`` (keys merged over the old mark; a key
    set to None is removed). ``count_melee`` adds one to the game's melee counter."""

    kind = "toe_combat_marked"
    unit: str = ""
    mark: Mapping[str, Any] = field(default_factory=dict)
    count_melee: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "mark", json_value(dict(self.mark)))

    def apply(self, state: GameState) -> GameState:
        if self.unit not in state.units:
            raise EventError(self, f"no unit {self.unit!r}")
        old = dict(state.flags.get(PREFIX + self.unit) or {})
        for k, v in self.mark.items():
            if v is None:
                old.pop(k, None)
            else:
                old[k] = v
        changes: dict[str, Any] = {PREFIX + self.unit: old}
        if self.count_melee:
            changes[COUNTER] = int(state.flags.get(COUNTER, 0)) + 1
        return state.evolve(flags=flags_with(state.flags, changes))

    def touched(self) -> tuple[str, ...]:
        return (self.unit,)


def mark_of(state: GameState, unit_id: str) -> dict[str, Any]:
    """The unit's combat mark ({} when it has none)."""
    return dict(state.flags.get(PREFIX + unit_id) or {})


def melee_count(state: GameState) -> int:
    return int(state.flags.get(COUNTER, 0))


def this_turn(state: GameState, mark: Mapping[str, Any]) -> bool:
    """Whether ``mark``'s melee was fought in the open turn and player-turn."""
    return mark.get("turn") == state.turn and mark.get("side") == state.side


def original_figures(state: GameState, unit: Unit) -> tuple[int, str]:
    """The unit's original strength in figures and where it comes from (1.6): the unit's
    ``attributes["original_figures"]``, else the strength recorded before its first melee
    loss, else its figures now."""
    if "original_figures" in unit.attributes:
        return int(unit.attributes["original_figures"]), "the unit's original_figures"
    mark = mark_of(state, unit.id)
    if "original_figures" in mark:
        return int(mark["original_figures"]), "its strength before its first melee"
    return unit.figures, "its figures now (no earlier strength recorded)"
