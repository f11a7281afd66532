"""Regimental movement rates with terrain (Перемещение, the unnumbered 3.1): the legality of one
move action of a unit along a path over the scenario's terrain.

Per action: infantry 10 cm, cavalry 20 cm, foot artillery 7 cm, horse artillery 15 cm. In a
wood «пехота перемещается на 7 см» and, except light infantry, is disorganised; of cavalry
«только легкая, дистанция движения = 10см», also disorganised; «Артиллерия через лес двигаться не
может». Up or down a hill 5 cm less (per action, Ambiguity 6); a ford «1/3 дистанции».
The state holds no terrain, so the caller passes the scenario's features.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from shapely.geometry import LineString

from battlestudio.model.terrain import TerrainFeature, TerrainKind
from battlestudio.model.units import Arm, Subtype, Unit
from battlestudio.rules.params import RuleParameters
from battlestudio.rules.regimental.common import move_rate, troop_type


@dataclass(frozen=True, slots=True)
class MoveCheck:
    """One move action checked: ``allowed_cm`` (the action's allowance on this path),
    ``length_cm`` of the path, ``legal``, ``disorganises`` (woods), the ``reasons`` (rules)."""

    unit: str
    allowed_cm: Fraction
    length_cm: float
    legal: bool
    disorganises: bool
    reasons: tuple[str, ...]


def allowance(u: Unit, crossing: Mapping[str, str], p: RuleParameters) -> tuple[Fraction, bool, bool, list[str]]:
    """One move action's allowance for ``u`` over ``crossing`` (terrain kind ``woods`` /
    ``hill`` / ``ford`` → the feature's name): ``(cm, may_move, disorganises, reasons)``."""
    reasons: list[str] = []
    allowed = Fraction(move_rate(u, p)).limit_denominator(1000)
    reasons.append(f"{allowed} cm a move action ({u.arm.value}; Перемещение)")
    legal = True
    dis = False
    if "woods" in crossing:
        wood = crossing["woods"]
        forest = p.get("forest_move_cm")
        if u.arm is Arm.ARTILLERY:
            legal = False
            reasons.append(f"artillery cannot move through the wood {wood} («Артиллерия через лес двигаться не может»)")
        elif u.arm is Arm.CAVALRY:
            if u.subtype is Subtype.LIGHT_CAVALRY:
                allowed = Fraction(forest["light_cavalry"])
                dis = True
                reasons.append(f"light cavalry in the wood {wood}: {allowed} cm, disorganised (Перемещение)")
            else:
                legal = False
                reasons.append(f"only light cavalry may move through the wood {wood} (Перемещение)")
        else:
            allowed = Fraction(forest["infantry"])
            light = u.subtype in (Subtype.LIGHT_INFANTRY, Subtype.SKIRMISHERS) or troop_type(u, p) == "light"
            dis = not light
            reasons.append(
                f"infantry in the wood {wood}: {allowed} cm"
                + ("" if light else ", disorganised until it reforms after leaving it")
                + " (Перемещение)"
            )
    if "hill" in crossing:
        pen = Fraction(p.get("hill_penalty_cm"))
        allowed = max(Fraction(0), allowed - pen)
        reasons.append(f"up or down the hill {crossing['hill']}: {pen} cm less (Перемещение; Ambiguity 6)")
    if "ford" in crossing:
        num, den = (int(v) for v in p.get("ford_fraction"))
        allowed = allowed * Fraction(num, den)
        reasons.append(f"across the ford {crossing['ford']}: {num}/{den} of the distance (Перемещение)")
    return allowed, legal, dis, reasons


def crossing_of(line: LineString, terrain: Iterable[TerrainFeature]) -> dict[str, str]:
    """The terrain a path crosses: a wood it enters, a hill edge it crosses, a ford it uses."""
    out: dict[str, str] = {}
    for f in terrain:
        if f.kind is TerrainKind.WOODS and line.intersects(f.geometry):
            out.setdefault("woods", f.name or f.id)
        elif f.kind is TerrainKind.HILL and line.crosses(f.geometry.boundary):
            out.setdefault("hill", f.name or f.id)
        elif f.kind is TerrainKind.FORD and line.intersects(f.geometry):
            out.setdefault("ford", f.name or f.id)
    return out


def check_move(
    u: Unit, path: Sequence[tuple[float, float]], terrain: Iterable[TerrainFeature], p: RuleParameters
) -> MoveCheck:
    """Whether ``u`` may move along ``path`` (cm, from its position) in one action (Перемещение).

    The allowance is the open-ground rate, or the wood rate when the path enters a wood; less
    ``hill_penalty_cm`` when it crosses a hill's edge (assumed per action, not below 0); times
    ``ford_fraction`` when it crosses a ford. A unit that may not enter a wood is refused.
    """
    pts = [(float(q[0]), float(q[1])) for q in path]
    if len(pts) < 2:
        pts = [(u.position[0], u.position[1]), *pts]
    line = LineString(pts)
    length = float(line.length)
    allowed, legal, dis, reasons = allowance(u, crossing_of(line, terrain), p)
    if legal and length > float(allowed) + 1e-6:
        legal = False
        reasons.append(f"the path is {length:.1f} cm, more than the {float(allowed):g} cm allowed")
    return MoveCheck(u.id, allowed, length, legal, dis and legal, tuple(reasons))
