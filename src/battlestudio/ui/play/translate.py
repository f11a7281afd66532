"""Turning an editor edit made on the map during play into battle events.

While a game is recorded the map, the tools and the Properties dock work as in the editor, but
what they push is not a scenario edit: ``events_for`` compares the records before and after the
edit and names the battle events that do the same thing (a drag is a ``Moved``, a turn a
``Rotated`` or a ``Moved`` with a facing, a new formation a ``FormationChanged``, a new order
state an ``OrderStateChanged``, fewer figures or men ``Casualties``). Anything else (renaming,
adding units, drawing terrain) is part of the scenario, not of the game, and is refused with the
reason. Pure Python: no Qt.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, Mapping

from battlestudio.edits import Macro, MoveRecords, PutRecords
from battlestudio.model.units import Commander, Unit
from battlestudio.replay.combat_events import Casualties
from battlestudio.replay.events import BattleEvent
from battlestudio.replay.flow_events import FormationChanged, Moved, OrderStateChanged, Rotated

PLAY_KINDS = ("units", "commanders")
"""Record containers whose changes can become battle events."""

LOSS_FIELDS = ("figures", "men", "horses", "guns")
"""Unit counts whose decrease is recorded as casualties (Torden over Europa 1.1)."""


class NotAnEvent(ValueError):
    """An edit that has no battle event: it changes the scenario, not the game."""


def playable(edit: Any) -> bool:
    """Whether ``edit`` only replaces or moves units and commanders (so trying it on a copy of
    the state is safe: it never touches the order of battle, terrain or the scenario info)."""
    if isinstance(edit, Macro):
        return all(playable(e) for e in edit.edits)
    return isinstance(edit, (PutRecords, MoveRecords)) and getattr(edit, "kind", None) in PLAY_KINDS


def _same(a: float, b: float, tol: float = 1e-6) -> bool:
    return abs(a - b) <= tol


def events_for(before: Mapping[str, Unit | Commander], after: Mapping[str, Unit | Commander],
               stamp: Callable[..., BattleEvent]) -> list[BattleEvent]:
    """The battle events that take each record of ``before`` to its version in ``after``.

    Parameters
    ----------
    before, after : Mapping[str, Unit | Commander]
        id → record before and after the edit (same ids; records that did not change may be
        left out of both).
    stamp : callable
        ``stamp(EventClass, **fields)`` → the event stamped with the open phase
        (``GameSession.stamped``).

    Returns
    -------
    list[BattleEvent]
        per record, in this order: ``Moved`` (with the new facing when it changed) or
        ``Rotated``, ``FormationChanged``, ``OrderStateChanged``, ``Casualties``.

    Raises
    ------
    NotAnEvent
        for a change no event records (a name, a side, a gain of figures …), naming the record
        and the field.
    """
    out: list[BattleEvent] = []
    for rid, old in before.items():
        new = after.get(rid)
        if new is None or new == old:
            continue
        name = getattr(old, "name", "") or rid
        handled: dict[str, Any] = {"position": old.position, "facing": old.facing}
        if isinstance(old, Unit):
            handled.update(formation=old.formation, column_ranks=old.column_ranks, state=old.state,
                           **{f: getattr(old, f) for f in LOSS_FIELDS})
        rest = replace(new, **handled)
        if rest != old:
            fields = [f for f in old.__dataclass_fields__ if getattr(rest, f) != getattr(old, f)]
            raise NotAnEvent(f"{', '.join(f.replace('_', ' ') for f in fields)} of {name} belongs to the scenario, "
                             "not to the game; change it in the scenario editor (Game ▸ Back to Scenario Editor)")
        moved = not (_same(old.position[0], new.position[0]) and _same(old.position[1], new.position[1]))
        turned = not _same(old.facing, new.facing)
        if moved:
            out.append(stamp(Moved, id=rid, path=(tuple(old.position), tuple(new.position)),
                             facing=new.facing if turned else None))
        elif turned:
            out.append(stamp(Rotated, id=rid, facing=new.facing))
        if not isinstance(old, Unit):
            continue
        if new.formation != old.formation or new.column_ranks != old.column_ranks:
            out.append(stamp(FormationChanged, unit=rid, formation=new.formation.value,
                             column_ranks=new.column_ranks if new.column_ranks != old.column_ranks else None))
        if new.state != old.state:
            out.append(stamp(OrderStateChanged, unit=rid, state=new.state, reason="umpire"))
        losses = {f: getattr(old, f) - getattr(new, f) for f in LOSS_FIELDS}
        gains = [f for f, v in losses.items() if v < 0]
        if gains:
            raise NotAnEvent(f"{name} cannot gain {', '.join(gains)} during a game; only losses are recorded")
        if any(losses.values()):
            out.append(stamp(Casualties, unit=rid, cause="umpire", **losses))
    return out
