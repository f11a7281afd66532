"""What the Regimental rules' out-of-command findings read (``finding_dependencies``), for
updating a command picture after a drag.

A unit's distance is its *brigade's* — from its general to the nearest unit anywhere below
him — so a moved unit changes the findings of every unit directly under any of its superiors;
a division general's finding is his link to the HQ through the adjutant chain, so a moved HQ
or adjutant changes every division general's of his side.
"""

from __future__ import annotations

from collections.abc import Iterable

from battlestudio.model.units import Commander
from battlestudio.replay.state import GameState
from battlestudio.rules.protocol import FindingDependencies


def _is_relay(c: Commander) -> bool:
    """An HQ (the ``c_in_c`` or role ``hq``) or adjutant: the chain to the HQ."""
    return c.echelon == "c_in_c" or c.attributes.get("role") in ("hq", "adjutant")


def regimental_subjects(state: GameState, moved: Iterable[str]) -> set[str]:
    """Units sharing a brigade distance with a changed unit; a moved general's units and own
    link; every division general of a side whose HQ or adjutant moved."""
    out: set[str] = set()
    for m in moved:
        out.add(m)
        c = state.commanders.get(m)
        if c is None:  # a unit (or one removed): every unit whose brigade distance includes it
            for ancestor in state.oob.chain_of_command(m):
                out.update(n for n in state.oob.subordinates(ancestor) if n in state.units)
            continue
        out.update(state.oob.subordinates(m))
        if _is_relay(c):
            out.update(d.id for d in state.commanders.values() if d.echelon == "division" and d.side == c.side)
    return out


def regimental_context(state: GameState, subjects: set[str]) -> set[str]:
    """Each subject, its general and every unit below him, and the HQ and adjutants of every
    side involved."""
    need = set(subjects)
    sides: set[str] = set()
    for s in subjects:
        sup = state.oob.superior(s)
        if sup is not None:
            need.add(sup)
            if s in state.units:
                need.update(n for n in state.oob.all_subordinates(sup) if n in state.units)
    for n in need:
        c = state.commanders.get(n)
        if c is not None:
            sides.add(c.side)
    need.update(c.id for c in state.commanders.values() if c.side in sides and _is_relay(c))
    return need


REGIMENTAL = FindingDependencies(regimental_subjects, regimental_context)
