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
from battlestudio.rules.toe.table_index import table_index

PHASE = "attack"
ALIVE = (OrderState.O.value, OrderState.U.value, OrderState.FU.value)
CONTACT_SLACK_CM = 0.01
"""Added to a distance when bounding boxes pick the candidates a footprint test then measures
exactly, so no rounding of the boxes drops a unit the exact test keeps."""


# ------------------------------------------------------------------------------ geometry
def on_table(state: GameState, u: Unit | None) -> bool:
    return u is not None and u.id not in state.off_table and u.state in ALIVE


def in_contact(p: RuleParameters, a: Unit, b: Unit) -> bool:
    """Base contact (brikkontakt, 5.1): footprints within ``contact_tolerance_cm``."""
    return bool(a.footprint().distance(b.footprint()) <= float(p.get("contact_tolerance_cm")))


def table_shapes(state: GameState) -> tuple[list[Unit], Any]:
    """The units still in the fight (``on_table``) and their footprints as a shapely array, in
    state order."""
    idx = table_index(state)
    slots = numpy.flatnonzero(idx.in_fight)
    return [idx.units[i] for i in slots], idx.shapes[slots]  # type: ignore[misc]


def enemies_within(state: GameState, u: Unit, cm: float) -> list[Unit]:
    """Enemy units still in the fight whose footprint is within ``cm`` of ``u``'s, in state order."""
    idx = table_index(state)
    fp = u.footprint()
    # a footprint whose bounding box is farther than cm is farther itself: measured exactly only the rest
    near = idx.near_box(idx.in_fight, fp.bounds, cm)
    if not len(near):
        return []
    gaps = shapely.distance(fp, idx.shapes[near])
    units = idx.units
    return [units[i] for i, gap in zip(near, gaps, strict=False) if units[i].side != u.side and gap <= cm]


def units_near(state: GameState, u: Unit, cm: float) -> list[Unit]:
    """Units still in the fight (either side, ``u`` too) whose footprint's bounding box is
    within ``cm`` of ``u``'s, in state order: every unit whose footprint is within ``cm`` of
    ``u``'s is among them (the caller measures exactly)."""
    idx = table_index(state)
    units = idx.units
    return [units[i] for i in idx.near_box(idx.in_fight, u.footprint().bounds, cm).tolist()]


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
