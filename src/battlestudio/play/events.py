"""The battle events of a gesture made on the map or in the Properties dock during play.

While a game is recorded the map, the tools and the Properties dock work as in the editor, but
their gestures become battle events: a drag is a ``Moved``, a turn a ``Rotated`` or a
``Moved`` with a facing (``move_events``); a field typed in the Properties dock is compared with
the record it changes (``events_for``): a new formation is a ``FormationChanged``, a new order
state an ``OrderStateChanged``, fewer figures or men ``Casualties``. Anything else (renaming,
a new side) is part of the scenario, not of the game, and is refused with the reason.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any
from collections.abc import Callable, Mapping

from battlestudio.model.geometry import Point
from battlestudio.model.units import Commander, Unit
from battlestudio.replay.combat_events import Casualties
from battlestudio.replay.events import BattleEvent
from battlestudio.replay.flow_events import FormationChanged, Moved, OrderStateChanged, Rotated

Piece = Unit | Commander
"""A record a game moves: a unit or a commander."""

Stamp = Callable[..., BattleEvent]
"""``stamp(EventClass, **fields)`` → the event stamped with the open phase (``GameSession.stamped``)."""

PLAY_KINDS = ("units", "commanders")
"""Record containers whose changes can become battle events."""

LOSS_FIELDS = ("figures", "men", "horses", "guns")
"""Unit counts whose decrease is recorded as casualties (Torden over Europa 1.1)."""


class NotAnEvent(ValueError):
    """An edit that has no battle event: it changes the scenario, not the game."""


def _same(a: float, b: float, tol: float = 1e-6) -> bool:
    return abs(a - b) <= tol


def move_events(rid: str, old: Piece, position: Point, facing: float | None, stamp: Stamp) -> list[BattleEvent]:
    """The event taking ``old`` (record ``rid``) to ``position`` (cm) and ``facing`` (degrees; None
    = unchanged): a ``Moved`` (with the new facing when it turned), a ``Rotated`` when it only
    turned, nothing when it stays."""
    turned = facing is not None and not _same(old.facing, facing)
    if not (_same(old.position[0], position[0]) and _same(old.position[1], position[1])):
        return [stamp(Moved, id=rid, path=(tuple(old.position), tuple(position)), facing=facing if turned else None)]
    if turned:
        return [stamp(Rotated, id=rid, facing=facing)]
    return []


def events_for(before: Mapping[str, Piece], after: Mapping[str, Piece], stamp: Stamp) -> list[BattleEvent]:
    """The battle events that take each record of ``before`` to its version in ``after``.

    Parameters
    ----------
    before, after : Mapping[str, Unit | Commander]
        id → record before and after the change (same ids; records that did not change may be
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
            handled.update(
                formation=old.formation,
                column_ranks=old.column_ranks,
                state=old.state,
                **{f: getattr(old, f) for f in LOSS_FIELDS},
            )
        rest = replace(new, **handled)
        if rest != old:
            fields = [f for f in old.__dataclass_fields__ if getattr(rest, f) != getattr(old, f)]
            raise NotAnEvent(
                f"{', '.join(f.replace('_', ' ') for f in fields)} of {name} belongs to the scenario, "
                "not to the game; change it in the scenario editor (Game ▸ Back to Scenario Editor)"
            )
        out += move_events(rid, old, new.position, new.facing, stamp)
        if not (isinstance(old, Unit) and isinstance(new, Unit)):
            continue
        if new.formation != old.formation or new.column_ranks != old.column_ranks:
            out.append(
                stamp(
                    FormationChanged,
                    unit=rid,
                    formation=new.formation.value,
                    column_ranks=new.column_ranks if new.column_ranks != old.column_ranks else None,
                )
            )
        if new.state != old.state:
            out.append(stamp(OrderStateChanged, unit=rid, state=new.state, reason="umpire"))
        losses = {f: getattr(old, f) - getattr(new, f) for f in LOSS_FIELDS}
        gains = [f for f, v in losses.items() if v < 0]
        if gains:
            raise NotAnEvent(f"{name} cannot gain {', '.join(gains)} during a game; only losses are recorded")
        if any(losses.values()):
            out.append(stamp(Casualties, unit=rid, cause="umpire", **losses))
    return out
