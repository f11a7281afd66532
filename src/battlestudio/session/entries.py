"""The umpire's entries while recording: moves, rotations, formation and order-state changes,
casualties, melee and morale results, removals, arrivals and annotations.

``UmpireEntries`` is a mixin of ``GameSession``: each method builds one battle event stamped
with the open phase and records it through ``record`` (all or nothing). Combat results are the
umpire's rulings where the ruleset's tables are missing (Torden over Europa Tables 2–12).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar
from collections.abc import Sequence

from battlestudio.model.geometry import Point
from battlestudio.replay.battle import Battle
from battlestudio.replay.combat_events import Casualties, Melee, MoraleTest
from battlestudio.replay.events import BattleEvent
from battlestudio.replay.flow_events import (
    Annotation,
    FormationChanged,
    Moved,
    OrderStateChanged,
    Rotated,
    UnitRemoved,
)
from battlestudio.replay.state import GameState
from battlestudio.rules.dice import RollRecord
from battlestudio.rules.following import follow_moves
from battlestudio.session.umpire import SessionError, arrival_event

EventT = TypeVar("EventT", bound=BattleEvent)


class UmpireEntries:
    """Methods recording the umpire's entries; the host provides ``state``, ``battle``,
    ``record``, ``_record`` and ``_stamp`` (``GameSession``)."""

    battle: Battle

    if TYPE_CHECKING:  # provided by GameSession (read-only properties there)

        @property
        def state(self) -> GameState: ...

        @property
        def table(self) -> tuple[float, float]: ...

    def record(self, event: EventT) -> EventT:  # provided by GameSession
        raise NotImplementedError

    def _record(self, events: list[BattleEvent]) -> None:  # provided by GameSession
        raise NotImplementedError

    def _stamp(self) -> dict[str, Any]:  # provided by GameSession
        raise NotImplementedError

    def move(self, node_id: str, path: Sequence[Point], facing: float | None = None) -> Moved:
        """Record a unit's or commander's move along ``path`` (cm; the last point is where it ends)."""
        return self.record(Moved(**self._stamp(), id=node_id, path=tuple(path), facing=facing))

    def move_formation(
        self,
        commander_id: str,
        to: Point,
        *,
        facing: float | None = None,
        skip: Sequence[str] = (),
        keep_off_cm: float | None = None,
    ) -> list[BattleEvent]:
        """Move a general to ``to`` (cm) and everything under him by the same displacement."""
        c = self.state.commanders.get(commander_id)
        if c is None:
            raise SessionError(f"no commander {commander_id!r} on the table")
        d = (to[0] - c.position[0], to[1] - c.position[1])
        events: list[BattleEvent] = [Moved(**self._stamp(), id=commander_id, path=(c.position, to), facing=facing)]
        events += follow_moves(
            self.state, commander_id, d, skip=skip, keep_off_cm=keep_off_cm, table=self.table, **self._stamp()
        )
        self._record(events)
        return events

    def rotate(self, node_id: str, facing: float) -> Rotated:
        return self.record(Rotated(**self._stamp(), id=node_id, facing=facing))

    def change_formation(
        self, unit_id: str, formation: str, *, column_ranks: int | None = None, facing: float | None = None
    ) -> FormationChanged:
        return self.record(
            FormationChanged(
                **self._stamp(), unit=unit_id, formation=formation, column_ranks=column_ranks, facing=facing
            )
        )

    def set_order_state(self, unit_id: str, state: str, reason: str = "") -> OrderStateChanged:
        """A unit's order state (Torden over Europa O / U / FU / eliminated, 1.6)."""
        return self.record(OrderStateChanged(**self._stamp(), unit=unit_id, state=state, reason=reason))

    def casualties(
        self, unit_id: str, figures: int, *, men: int = 0, horses: int = 0, guns: int = 0, cause: str = ""
    ) -> Casualties:
        """Losses entered by the umpire (figures ≈ 100 infantry / 80 cavalry men, 1.1).

        Raises
        ------
        SessionError
            for an unknown unit, or a loss below 0 or above what the unit has (naming the
            unit, the field and the value); nothing is recorded.
        """
        u = self.state.units.get(unit_id)
        if u is None:
            raise SessionError(f"no unit {unit_id!r} on the table")
        for name, lost in (("figures", figures), ("men", men), ("horses", horses), ("guns", guns)):
            has = getattr(u, name)
            if lost < 0 or lost > has:
                raise SessionError(f"{u.name}: {name} lost {lost} — it has {has}; enter 0 to {has}")
        return self.record(
            Casualties(**self._stamp(), unit=unit_id, figures=figures, men=men, horses=horses, guns=guns, cause=cause)
        )

    def melee(
        self,
        attackers: Sequence[str],
        defenders: Sequence[str],
        winner: str,
        explanation: str,
        roll: RollRecord | None = None,
    ) -> Melee:
        """A melee's result as the umpire rules it (Torden over Europa §20; the tables are missing)."""
        return self.record(
            Melee(
                **self._stamp(),
                attackers=tuple(attackers),
                defenders=tuple(defenders),
                winner=winner,
                roll=None if roll is None else roll.to_dict(),
                explanation=explanation if roll is None else f"{explanation} {roll.explain()}",
            )
        )

    def morale_test(
        self, unit_id: str, passed: bool, result: str, explanation: str, roll: RollRecord | None = None
    ) -> MoraleTest:
        """A morale test's result (Torden over Europa §21); ``roll`` when the umpire rolled it."""
        return self.record(
            MoraleTest(
                **self._stamp(),
                unit=unit_id,
                passed=passed,
                result=result,
                roll=None if roll is None else roll.to_dict(),
                explanation=explanation if roll is None else f"{explanation} {roll.explain()}",
            )
        )

    def remove(self, node_id: str, reason: str) -> UnitRemoved:
        return self.record(UnitRemoved(**self._stamp(), id=node_id, reason=reason))

    def arrive(self, reinforcement_id: str, offset: Point = (0.0, 0.0)) -> BattleEvent:
        """A scenario reinforcement enters the table where it waits (shifted by ``offset``, cm).

        Raises
        ------
        SessionError
            for an unknown reinforcement or one that has arrived already.
        """
        r = self.battle.scenario.reinforcements.get(reinforcement_id)
        if r is None:
            raise SessionError(f"the scenario has no reinforcement {reinforcement_id!r}")
        try:
            event = arrival_event(self.state, reinforcement_id, r.formation, offset=offset, **self._stamp())
        except ValueError as exc:
            raise SessionError(str(exc)) from None
        return self.record(event)

    def annotate(self, text: str, *, title: str = "", at: Point | None = None, ids: Sequence[str] = ()) -> Annotation:
        """A note pinned to this phase and, optionally, a place (cm) and units."""
        return self.record(Annotation(**self._stamp(), text=text, title=title, at=at, ids=tuple(ids)))
