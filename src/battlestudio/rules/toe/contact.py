"""Torden over Europa: base contact and the units still in the fight (5.1, 7.3), shared by the
melee and morale actions."""

from __future__ import annotations

import math
from typing import Any

import numpy
import shapely

from battlestudio.model.units import Arm, OrderState, Unit
from battlestudio.replay.flags import FlagMap
from battlestudio.replay.pmap import ChunkedMap
from battlestudio.replay.state import GameState
from battlestudio.rules.dice import Modifier
from battlestudio.rules.params import RuleParameters
from battlestudio.rules.toe.table_index import table_index
from battlestudio.rules.turn_start import units_at_turn_start

PHASE = "attack"
DECLARED = "attack_declared"
"""Flag ``attack_declared:<unit>`` of the player-turn: ``target``, ``aspect``, ``arm``, and
``reaction`` True when a reacting unit declared it (5.2)."""
REACTED = "reaction_attempted"
"""Flag ``reaction_attempted:<unit>`` of the player-turn: ``kind`` and ``passed``."""
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


# ------------------------------------------------------------------------------ the player-turn's flags
def this_player_turn(state: GameState, name: str, uid: str) -> dict[str, Any] | None:
    """The flag ``name:uid`` when it was set in the open player-turn, else None."""
    v = state.flags.get(f"{name}:{uid}")
    if isinstance(v, dict) and v.get("turn") == state.turn and v.get("side") == state.side:
        return v
    return None


def attackers_of(state: GameState, uid: str) -> list[tuple[Unit, dict[str, Any]]]:
    """The units that declared an attack on ``uid`` this player-turn, with their declarations."""
    prefix = f"{DECLARED}:"
    flags = state.flags
    keys = flags.keys_with_prefix(prefix) if isinstance(flags, FlagMap) else [k for k in flags if k.startswith(prefix)]
    declared = {
        key[len(prefix) :]: v
        for key, v in ((k, flags[k]) for k in keys)
        if isinstance(v, dict)
        and v.get("target") == uid
        and v.get("turn") == state.turn
        and v.get("side") == state.side
    }
    if not declared:
        return []
    units = state.units
    ids = units.in_order(declared) if isinstance(units, ChunkedMap) else [k for k in units if k in declared]
    return [(a, declared[a.id]) for a in (units[k] for k in ids) if on_table(state, a)]


def reaction_moved(state: GameState, uid: str) -> bool:
    """Whether ``uid``'s reaction move passed this player-turn (5.2 "Den reagerende enhed kan
    foretage en bevægelse op til et halvt træk")."""
    r = this_player_turn(state, REACTED, uid)
    return r is not None and r.get("kind") == "move" and bool(r.get("passed"))


def attack_cancelled(state: GameState, u: Unit) -> str:
    """Why ``u`` cannot carry out its attack this player-turn ("" = it may): it is attacked by
    a unit that declared its attack after a reaction move. 7.1 "Enheder der som følge af en
    frivillig reaktionsflytning blive angrebet kan ikke gennemfører deres angreb"; for infantry
    attacked by cavalry 5.2 says the same ("En infanterienhed der har erklæret angreb og bliver
    angrebet af kavaleri som følge af reaktionshandlinger kan ikke gennemføre det erklærede angreb")."""
    by = [a for a, d in attackers_of(state, u.id) if d.get("reaction")]
    if not by:
        return ""
    a = by[0]
    if u.arm is Arm.INFANTRY and a.arm is Arm.CAVALRY:
        return (
            f"{u.name} is attacked by the cavalry {a.name} after its reaction move: infantry attacked by cavalry "
            "through reactions cannot carry out its declared attack (5.2, 7.1)"
        )
    return (
        f"{u.name} is attacked by {a.name} after its reaction move: a unit attacked as a result of a voluntary "
        "reaction move cannot carry out its own attack (7.1 'frivillig reaktionsflytning')"
    )


def shelter_of(state: GameState, battery: Unit) -> Unit | None:
    """The unit ``battery`` moved into by a passed ``shelter`` reaction this player-turn (5.3.2
    "At bevæge sig ind i enheden der er tilknyttet pjecen"), whether or not it is still there."""
    r = this_player_turn(state, REACTED, battery.id)
    if r is None or r.get("kind") != "shelter" or not r.get("passed"):
        return None
    host = state.units.get(str(r.get("host")))
    return host if host is not None and host.id not in state.off_table else None


def host_moved(state: GameState, battery: Unit, host: Unit) -> bool:
    """Whether ``host`` left the fight or moved from where it stood when ``battery`` sheltered in
    it (the reaction's ``host_at``, cm)."""
    r = this_player_turn(state, REACTED, battery.id) or {}
    at = r.get("host_at")
    if not on_table(state, host):
        return True
    return at is not None and math.dist(host.position, (float(at[0]), float(at[1]))) > CONTACT_SLACK_CM


def sheltered_in(state: GameState, p: RuleParameters, battery: Unit) -> Unit | None:
    """The unit ``battery`` shelters in now (7.1 "har søgt tilflugt hos kavaleriet/infanteriet"):
    its ``shelter_of`` while that unit is in the fight where it stood; a unit that moved left the
    gunners behind (5.3, 5.3.2 "såfremt ... kavalerienheden bevæger sig bliver artilleristerne efterladt")."""
    host = shelter_of(state, battery)
    if host is None or host_moved(state, battery, host):
        return None
    return host


# ------------------------------------------------------------------------------ what a unit did this player-turn
MOVED_CM = 0.01
"""A unit whose position or facing differs by more than this (cm, degrees) from the start of the
player-turn has moved or turned."""


def turn_start_of(state: GameState, uid: str) -> Unit | None:
    """``uid``'s record when the open player-turn began (None: the caller did not say, or the
    unit was not on the table then): what it did since (5.2) and where its move started (5.3)."""
    units = units_at_turn_start(state)
    return units.get(uid) if units is not None else None


def acted(state: GameState, e: Unit) -> bool | None:
    """Whether ``e`` acted this player-turn as 5.2 counts it ("enhver enhed der har foretaget en
    eller flere af nedenstående: formationsændring, vendinger/pivoteringer, angreb, bevægelser,
    reaktionsflytninger/reaktioner"): changed formation, turned, moved (against its record at
    the start of the player-turn), declared an attack or carried out a reaction. None when the
    start of the player-turn is unknown and no flag says it acted."""
    if this_player_turn(state, DECLARED, e.id) is not None:
        return True
    r = this_player_turn(state, REACTED, e.id)
    if r is not None and r.get("passed"):
        return True
    units = units_at_turn_start(state)
    if units is None:
        return None
    was = units.get(e.id)
    if was is None:
        return True  # it came onto the table this player-turn
    turned = abs((e.facing - was.facing + 180.0) % 360.0 - 180.0) > MOVED_CM
    return bool(was.formation != e.formation or turned or math.dist(was.position, e.position) > MOVED_CM)
