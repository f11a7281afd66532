"""Torden over Europa: base contact and the units still in the fight (5.1, 7.3), shared by the
melee and morale actions."""

from __future__ import annotations

from typing import Any

import numpy
import shapely

from battlestudio.model.units import OrderState, Unit
from battlestudio.replay.state import GameState
from battlestudio.rules.dice import Modifier
from battlestudio.rules.params import RuleParameters

PHASE = "attack"
ALIVE = (OrderState.O.value, OrderState.U.value, OrderState.FU.value)


# ------------------------------------------------------------------------------ geometry
def on_table(state: GameState, u: Unit | None) -> bool:
    return u is not None and u.id not in state.off_table and u.state in ALIVE


def in_contact(p: RuleParameters, a: Unit, b: Unit) -> bool:
    """Base contact (brikkontakt, 5.1): footprints within ``contact_tolerance_cm``."""
    return bool(a.footprint().distance(b.footprint()) <= float(p.get("contact_tolerance_cm")))


_SHAPES: list[Any] = []


def table_shapes(state: GameState) -> tuple[list[Unit], Any]:
    """The units still in the fight (``on_table``) and their footprints as a shapely array, kept
    for as long as the state's units and off-table set are the same objects."""
    if _SHAPES and _SHAPES[0] is state.units and _SHAPES[1] is state.off_table:
        return _SHAPES[2], _SHAPES[3]
    units = [u for u in state.units.values() if on_table(state, u)]
    shapes = numpy.array([u.footprint() for u in units], dtype=object)
    _SHAPES[:] = [state.units, state.off_table, units, shapes, shapely.bounds(shapes).reshape(-1, 4)]
    return units, shapes


def enemies_within(state: GameState, u: Unit, cm: float) -> list[Unit]:
    """Enemy units still in the fight whose footprint is within ``cm`` of ``u``'s, in state order."""
    units, shapes = table_shapes(state)
    if not units:
        return []
    fp = u.footprint()
    x0, y0, x1, y1 = fp.bounds
    b = _SHAPES[4]
    # a footprint whose bounding box is farther than cm is farther itself: measured exactly only the rest
    near = numpy.flatnonzero((b[:, 0] <= x1 + cm) & (b[:, 2] >= x0 - cm) & (b[:, 1] <= y1 + cm) & (b[:, 3] >= y0 - cm))
    if not len(near):
        return []
    gaps = shapely.distance(fp, shapes[near])
    return [units[i] for i, gap in zip(near, gaps, strict=False) if units[i].side != u.side and gap <= cm]


def enemies_in_contact(state: GameState, p: RuleParameters, u: Unit) -> list[Unit]:
    """Enemy units in base contact with ``u`` (5.1), in state order."""
    return enemies_within(state, u, float(p.get("contact_tolerance_cm")))


def stamp_of(state: GameState) -> dict[str, Any]:
    """The turn, side and phase an event of the open phase carries."""
    return {"turn": state.turn, "side": state.side, "phase": state.phase}


TABLE3 = "Table 3 (reaktionskast), toe.reaction_modifiers"
"""The lost table of reaction-roll modifiers, as the umpire's line names it."""


def reaction_modifiers(p: RuleParameters, u: Unit, situation: str) -> tuple[Modifier, ...] | None:
    """Table 3 (reaktionskast, 5.2.2) modifiers for ``u``'s reaction roll in ``situation``
    (``break_off`` 7.3.2, or a reaction: ``move``, ``square``, ``face``, ``limber``), from the
    scenario's ``reaction_modifiers`` (condition -> value: the situation, ``arm:<arm>``,
    ``formation:<f>``, ``quality:<q>``); None when the scenario lacks Table 3."""
    found = p.lookup("reaction_modifiers")
    if found is None:
        return None
    table = dict(found[1])
    keys = (situation, f"arm:{u.arm.value}", f"formation:{u.formation.value}", f"quality:{u.quality}")
    return tuple(Modifier(int(table[k]), f"{k} (Table 3)") for k in keys if k in table and int(table[k]))
