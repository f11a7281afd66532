"""The place of each recorded event checked against its scenario when a file is read.

An event's side must be one of the scenario's sides (or ``""``, both sides at once). Without
this check a damaged row (``side='martians'``) would be blamed on the next good event, whose
phase the damaged one had closed.

Phases are not checked here against the ruleset's list (``Ruleset.describe().phases``): the
synthetic games (``session.synthetic.TOE_PHASES``, used by the benchmarks and tests) record a
``firing`` phase where Torden over Europa lists ``fire``, so every such file would be refused.
A damaged phase is named by the game log instead (the closed-phase error names the event before
it, e.g. "event 101 before it is in turn 1, french, tea").
"""

from __future__ import annotations

from collections.abc import Sequence

from battlestudio.model.scenario import Scenario
from battlestudio.store.errors import DocumentError

Head = tuple[int, str, str]


def check_event_places(heads: Sequence[Head], scenario: Scenario) -> tuple[int, str, str] | None:
    """The first event whose side ``scenario`` does not know, or None.

    Parameters
    ----------
    heads : sequence of (turn, side, phase)
        the place of each event, in log order.
    scenario : Scenario
        the battle's scenario (its sides).

    Returns
    -------
    tuple[int, str, str] | None
        ``(index, field, what)``: the event's 0-based index, ``"side"``, and a message naming
        the value and the sides allowed.
    """
    if not heads:
        return None
    sides = set(scenario.sides) | {""}
    seen_sides = {h[1] for h in heads}
    if not seen_sides <= sides:
        i = next(i for i, h in enumerate(heads) if h[1] not in sides)
        known = ", ".join(sorted(scenario.sides)) or "none"
        return i, "side", f"unknown side {heads[i][1]!r} (the scenario's sides: {known})"
    return None


def raise_for_places(heads: Sequence[Head], scenario: Scenario, where: str) -> None:
    """``check_event_places``, raising ``DocumentError`` at ``where.format(i=index) + ".field"``."""
    found = check_event_places(heads, scenario)
    if found is not None:
        i, field, what = found
        raise DocumentError(f"{where.format(i=i)}.{field}", what)
