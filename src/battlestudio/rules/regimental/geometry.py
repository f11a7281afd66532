"""Regimental melee situation read from the table: the side attacked (3.4.1 «Атака во
фланг» / «в тыл»), a defender in a fortification (3.4.1 «Атака укрепления») and skirmishers in a
wood (Застрельщики «в лесу не могут быть целью для атаки»), from the units' rectangles and the
scenario's terrain (``ActionRequest.terrain``). The umpire's ruling, given as the action's
parameter, overrides the map and says so.

Assumed readings (regimental.toml): the attacked side is the target's edge the attacker's
front touches (glossary G-9), else the sector of the attacker's centre (within 45° of the
target's facing front, beyond 135° rear); a square has no flank or rear (3.4.2: it faces every
way); a unit stands in a feature when its centre lies in it; a fortification is a feature of a
kind in ``fortification_terrain`` or with the property ``fortification`` true.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from shapely.geometry import Point as ShapelyPoint

from battlestudio.model.predicates import contact_edge
from battlestudio.model.terrain import TerrainFeature, TerrainKind
from battlestudio.model.units import Formation, Unit
from battlestudio.rules.params import RuleParameters, RuleRefused

ATTACKS = ("front", "flank", "rear")


def attacked_side(attacker: Unit, target: Unit, p: RuleParameters) -> tuple[str, str]:
    """``(front | flank | rear, how it was found)`` for ``attacker`` in contact with ``target``;
    ``attack_side_reading`` = ``centre_sector`` skips the contact edge."""
    if target.formation is Formation.SQUARE:
        return "front", "a square faces every way (3.4.2)"
    eps = max(float(p.get("melee_contact_cm")), 1e-3)
    edge = None
    if p.get("attack_side_reading") == "contact_edge":
        edge, _ = contact_edge(target.rect(), attacker.rect(), eps)
    if edge is not None:
        side = {"front": "front", "left": "flank", "right": "flank", "rear": "rear"}[edge]
        return side, f"its front touches the target's {edge} edge"
    try:
        b = abs(target.rect().bearing(attacker.position, origin="centre"))
    except ValueError:
        return "front", "the units' centres coincide: read as frontal"
    side = "front" if b <= 45.0 else "rear" if b >= 135.0 else "flank"
    return side, f"it stands {b:.0f}° off the target's facing"


def feature_at(u: Unit, terrain: Iterable[Any], kinds: Iterable[str], prop: str = "") -> str:
    """Name of the first area feature of ``kinds`` (or with ``properties[prop]`` true) holding
    ``u``'s centre, or ``""``."""
    want = {str(k) for k in kinds}
    c = ShapelyPoint(u.position)
    for f in terrain:
        if not isinstance(f, TerrainFeature):
            continue
        if (f.kind.value in want or (prop and bool(f.properties.get(prop)))) and f.geometry.covers(c):
            return f.name or f.id
    return ""


def in_wood(u: Unit, terrain: Iterable[Any]) -> str:
    return feature_at(u, terrain, (TerrainKind.WOODS.value,))


def in_fortification(u: Unit, terrain: Iterable[Any], p: RuleParameters) -> str:
    return feature_at(u, terrain, p.get("fortification_terrain"), "fortification")


@dataclass(frozen=True, slots=True)
class Situation:
    """A melee's ``attack`` side, ``fortified`` and ``in_woods`` with the ``notes`` saying where
    each came from (the map, or the umpire's ruling over it)."""

    attack: str
    fortified: bool
    in_woods: bool
    notes: tuple[str, ...]


def _ruling(params: dict[str, Any] | Any, key: str) -> Any:
    v = params.get(key)
    return None if v is None or v == "" else v


def situation(attacker: Unit, target: Unit, params: Any, terrain: Iterable[Any], p: RuleParameters) -> Situation:
    """The melee situation from the map, each part overridden by the request's ``attack``,
    ``fortified`` or ``target_in_woods`` parameter when given.

    Raises
    ------
    RuleRefused
        for an ``attack`` ruling not front, flank or rear.
    """
    terrain = tuple(terrain)
    notes: list[str] = []
    side, how = attacked_side(attacker, target, p)
    ruled = _ruling(params, "attack")
    if ruled is not None:
        if str(ruled) not in ATTACKS:
            raise RuleRefused(f"attack must be one of {', '.join(ATTACKS)}, not {ruled!r}")
        if str(ruled) != side:
            notes.append(f"attack into the {ruled} by the umpire's ruling (the map gives {side}: {how})")
        side = str(ruled)
    elif side != "front":
        notes.append(f"attack into the {side}: {how} (3.4.1)")
    fort_at = in_fortification(target, terrain, p)
    fort = bool(fort_at)
    r = _ruling(params, "fortified")
    if r is not None and bool(r) != fort:
        notes.append(f"fortification {'held' if r else 'not counted'} by the umpire's ruling")
        fort = bool(r)
    elif fort:
        notes.append(f"{target.name or target.id} holds {fort_at} (a fortification, 3.4.1)")
    wood_at = in_wood(target, terrain)
    woods = bool(wood_at)
    r = _ruling(params, "target_in_woods")
    if r is not None and bool(r) != woods:
        notes.append(f"target {'in' if r else 'not in'} a wood by the umpire's ruling")
        woods = bool(r)
    elif woods:
        notes.append(f"{target.name or target.id} stands in {wood_at}")
    return Situation(side, fort, woods, tuple(notes))
