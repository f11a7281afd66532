"""Entry-point targets for the registry tests: a ruleset whose event kind clashes with a
built-in one, a ruleset with an event type of its own, and an object that is not a ruleset."""

from __future__ import annotations

from dataclasses import dataclass

from battlestudio.replay.events import BattleEvent
from battlestudio.rules.toe import TordenOverEuropa


@dataclass(frozen=True, slots=True)
class Clash(BattleEvent):
    """Takes the kind General d'Armée's ``TaskInForce`` has."""

    kind = "gda_task_in_force"


@dataclass(frozen=True, slots=True)
class Flag(BattleEvent):
    """A house rule's own event: a flag raised over ``town``."""

    kind = "house_flag_raised"
    town: str = ""


class Clashing(TordenOverEuropa):
    id = "clashing"

    def event_types(self) -> tuple[type[BattleEvent], ...]:
        return (Clash,)


class HouseRules(TordenOverEuropa):
    id = "house"

    def event_types(self) -> tuple[type[BattleEvent], ...]:
        return (Flag,)


clashing = Clashing()
house = HouseRules()
not_a_ruleset = object()
