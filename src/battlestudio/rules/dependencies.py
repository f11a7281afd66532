"""What out-of-command findings read, for rulesets that measure a subject from its direct
superior only (``Ruleset.finding_dependencies``): a moved general changes his own finding and
his direct subordinates'; a changed unit (moved, new formation, routed, …) its own; a
finding reads the subject and its superior.
"""

from __future__ import annotations

from collections.abc import Iterable

from battlestudio.replay.state import GameState
from battlestudio.rules.protocol import FindingDependencies


def direct_subjects(state: GameState, moved: Iterable[str]) -> set[str]:
    """Each moved node and, for a moved commander, his direct subordinates."""
    out: set[str] = set()
    for m in moved:
        out.add(m)
        out.update(state.oob.subordinates(m))
    return out


def direct_context(state: GameState, subjects: set[str]) -> set[str]:
    """The records a subject measured from its direct superior reads: itself and him."""
    need = set(subjects)
    for s in subjects:
        sup = state.oob.superior(s)
        if sup is not None:
            need.add(sup)
    return need


DIRECT_SUPERIOR = FindingDependencies(direct_subjects, direct_context)
"""Findings measured from the direct superior only (Torden over Europa 2.4-2.5, Belle Alliance's
command distance, General d'Armée's brigadier radius)."""
