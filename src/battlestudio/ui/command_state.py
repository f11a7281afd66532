"""The game state a command view shows for a document, and how an editor drag moves it.

A replaying document shows its state at the cursor. An editor document shows its scenario as
deployed; while a general or a unit is dragged the overlay brings that state up to each move by
replacing the moved records (``moved_records``), and the other views following the same
document (the Odds dock) reuse it through ``document_state`` instead of building a state from
the scenario on every mouse move.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any
from collections.abc import Iterable

from battlestudio.analysis.command_update import local_change
from battlestudio.model.units import Commander, Unit
from battlestudio.replay.state import GameState

if TYPE_CHECKING:
    from battlestudio.document import Document

MOVED_STATES: weakref.WeakKeyDictionary[Any, tuple[int, GameState]] = weakref.WeakKeyDictionary()
"""Editor document -> (its revision, the state an overlay brought up to that revision by moving
records): other views following the same drag (the Odds dock) reuse it instead of building a
state from the scenario on every mouse move."""


def document_state(document: Document) -> GameState:
    """The game state a document shows: a replaying document's state at its cursor (its
    ``state``, with orders and flags), else the editor's scenario as deployed (the state a
    bound overlay keeps up with a drag, at the document's current revision, else a new one)."""
    state = getattr(document, "state", None)
    if isinstance(state, GameState):
        return state
    hit = MOVED_STATES.get(document)
    if hit is not None and hit[0] == getattr(document, "revision", None):
        return hit[1]
    return GameState.from_scenario(document.scenario)


def moved_records(state: GameState, scenario: Any, changes: Iterable[Any]) -> list[Unit | Commander] | None:
    """The scenario's new records of ``changes`` when every change replaces units and
    commanders ``state`` has, each a ``local_change`` (a general moved or turned, a unit
    changed but for its side or elimination), else None."""
    out: list[Unit | Commander] = []
    for change in changes:
        if change.kind not in ("units", "commanders"):
            return None
        have = state.units if change.kind == "units" else state.commanders
        now = getattr(scenario, change.kind)
        for rid in change.ids:
            old, new = have.get(rid), now.get(rid)
            if old is None or new is None or type(new) is not type(old):
                return None
            if new is old or new == old:
                continue
            if not local_change(old, new):
                return None
            out.append(new)
    return out
