"""Losses as events, validated against the unit: shared by every ruleset's fire and melee and
by the umpire's hand-entered results.

A loss is given in figures (the table unit of every seed); men, horses and guns follow in
proportion to what the unit still has (Torden over Europa 1.1: a figure ≈ 100 infantry / 80
cavalry men; the unit's own ``men / figures`` ratio is used, so a historical strength stays
consistent). A unit left with no figures is eliminated by the ruleset, not here.
"""

from __future__ import annotations

from typing import Any

from battlestudio.replay.combat_events import Casualties
from battlestudio.replay.state import GameState
from battlestudio.rules.params import RuleRefused


def loss_event(state: GameState, unit_id: str, figures: int, cause: str, stamp: dict[str, Any]) -> Casualties:
    """The ``Casualties`` event of ``unit_id`` losing ``figures`` figures (and its men, horses
    and guns in proportion), stamped with ``stamp`` (turn, side, phase).

    Raises
    ------
    RuleRefused
        for an unknown unit, a negative loss, or more figures than the unit has — naming the
        unit, the field and the value.
    """
    unit = state.units.get(unit_id)
    if unit is None:
        raise RuleRefused(f"no unit {unit_id!r} on the table")
    if not isinstance(figures, int) or isinstance(figures, bool) or figures < 0:
        raise RuleRefused(f"{unit.name}: figures lost must be a whole number >= 0, got {figures!r}")
    if figures > unit.figures:
        raise RuleRefused(f"{unit.name}: figures lost {figures} is more than the {unit.figures} it has")
    share = figures / unit.figures if unit.figures else 0.0

    def part(n: int) -> int:
        return n if figures == unit.figures else min(n, round(n * share))

    return Casualties(
        **stamp,
        unit=unit_id,
        figures=figures,
        men=part(unit.men),
        horses=part(unit.horses),
        guns=part(unit.guns),
        cause=cause,
    )
