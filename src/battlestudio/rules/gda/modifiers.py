"""General d'Armée attack modifiers of the leading unit (МОДИФИКАТОРЫ АТАКИ, digest §13).

All modifiers come from the leading attacking or defending unit only and are cumulative. Best
readings: a general attached raises the grade one step, Elite stays +2 (Ambiguity 13); the
brigade -1 applies once (Ambiguity 14); flanked -2 or attacked in flank/rear -4, not both
(Ambiguity 11); damage thresholds as Ambiguity 10.
"""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Sequence

from battlestudio.model.geometry import TINY
from battlestudio.model.terrain import TerrainFeature
from battlestudio.model.units import Arm, Formation, Unit
from battlestudio.replay.state import GameState
from battlestudio.rules.dice import Modifier
from battlestudio.rules.gda.brigades import (
    CommandState,
    Grade,
    brigade_status,
    grade_of,
    is_cossack,
    is_heavy_cavalry,
    unit_state,
)
from battlestudio.rules.gda.brigades import UnitState
from battlestudio.rules.gda.geometry import attack_aspect, flanked_by
from battlestudio.rules.params import RuleParameters


@dataclass(frozen=True, slots=True)
class AttackSituation:
    """What the modifiers depend on beyond the unit itself: ``attacking`` (leading attacker),
    the ``enemy`` leading unit, ``damage_in_attack`` this attack, ``flanked`` /
    ``attacked_in_flank_or_rear`` (defender), ``narrower_frontage`` (cavalry against cavalry)."""

    attacking: bool
    enemy: Unit
    damage_in_attack: int = 0
    flanked: bool = False
    attacked_in_flank_or_rear: bool = False
    narrower_frontage: bool = False


def situation_from_positions(
    state: GameState,
    unit: Unit,
    enemy: Unit,
    attacking: bool,
    params: RuleParameters,
    terrain: Sequence[TerrainFeature] = (),
    damage_in_attack: int = 0,
) -> AttackSituation:
    """The ``AttackSituation`` of ``unit`` against ``enemy`` worked out from the table: for a
    defender, ``flanked`` by ``geometry.flanked_by`` (15 cm [9"]) and
    ``attacked_in_flank_or_rear`` when ``geometry.attack_aspect(enemy, unit)`` is not the front;
    ``narrower_frontage`` for cavalry against cavalry from the units' widths (cm).
    МОДИФИКАТОРЫ АТАКИ; digest Ambiguity 11."""
    flanked = bool(flanked_by(state, unit, params, terrain)) if not attacking else False
    aspect = attack_aspect(enemy, unit) if not attacking else "front"
    narrower = unit.arm is Arm.CAVALRY and enemy.arm is Arm.CAVALRY and unit.rect().width < enemy.rect().width - TINY
    return AttackSituation(attacking, enemy, damage_in_attack, flanked, aspect != "front", narrower)


def is_guard_or_large(unit: Unit) -> bool:
    """Guard or Large for the damage thresholds (Урон подразделения 8+ (10+), Урон артиллерии
    6+ (8+)): attribute ``guard`` or ``large``, or quality ``guard`` (which is also Elite)."""
    return bool(unit.attributes.get("guard") or unit.attributes.get("large")) or unit.quality.lower() == "guard"


def attack_modifiers(state: GameState, unit: Unit, sit: AttackSituation, params: RuleParameters) -> list[Modifier]:
    """The modifiers of ``unit`` as the leading unit in an attack, each with its source."""
    q = params.get("modifier_quality")
    o = params.get("modifier_other")
    f = params.get("modifier_formation")
    dm = params.get("modifier_damage")
    mods: list[Modifier] = []
    grade = grade_of(unit, params)
    if unit.attributes.get("general_attached"):
        grade = grade.raised()
    if is_cossack(unit):
        mods.append(Modifier(int(q["cossack"]), "Cossacks, any formation"))
    elif grade is Grade.RECRUIT:
        in_line = unit.formation is Formation.LINE
        mods.append(
            Modifier(
                int(q["recruit_in_line" if in_line else "recruit_other"]),
                "Recruit in Line" if in_line else "Recruit not in Line",
            )
        )
    else:
        mods.append(
            Modifier(
                int(q[grade.value]),
                grade.value.capitalize() + (" (general attached)" if unit.attributes.get("general_attached") else ""),
            )
        )
    if sit.attacking:
        mods.append(Modifier(int(o["attacking"]), "attacking"))
    if is_heavy_cavalry(unit):
        mods.append(Modifier(int(o["heavy_cavalry"]), "heavy cavalry"))
    if unit.attributes.get("pikemen") and sit.enemy.arm is Arm.INFANTRY:
        mods.append(Modifier(int(o["pikemen_vs_infantry"]), "pikemen against infantry"))
    if (
        unit.arm is Arm.CAVALRY
        and not is_heavy_cavalry(unit)
        and not unit.attributes.get("shock")
        and sit.enemy.arm is Arm.CAVALRY
        and (is_heavy_cavalry(sit.enemy) or sit.enemy.attributes.get("shock"))
    ):
        mods.append(Modifier(int(o["ordinary_vs_heavy_cavalry"]), "ordinary cavalry against heavy/shock cavalry"))
    if unit_state(unit) is UnitState.UNFORMED:
        mods.append(Modifier(int(f["unformed"]), "Unformed"))
    if unit.arm is Arm.INFANTRY and sit.enemy.arm is Arm.CAVALRY:
        if unit.formation in (Formation.COLUMN, Formation.SQUARE):
            mods.append(
                Modifier(int(f["infantry_column_or_square_vs_cavalry"]), "infantry in column/square against cavalry")
            )
        elif unit.formation is Formation.LINE:
            mods.append(Modifier(int(f["infantry_line_vs_cavalry"]), "infantry in line against cavalry"))
    if unit.formation is Formation.SQUARE and sit.enemy.arm is Arm.INFANTRY:
        mods.append(Modifier(int(f["square_vs_infantry"]), "square against infantry"))
    if unit.arm is Arm.CAVALRY and sit.enemy.arm is Arm.CAVALRY and sit.narrower_frontage:
        mods.append(Modifier(int(f["cavalry_narrower_frontage"]), "cavalry with the narrower frontage"))
    d = sit.damage_in_attack
    if d >= 5:
        mods.append(Modifier(int(dm["attack_5"]), f"{d} damage in this attack"))
    elif d >= 3:
        mods.append(Modifier(int(dm["attack_3"]), f"{d} damage in this attack"))
    elif d == 2 and grade_of(unit, params) is not Grade.ELITE:
        mods.append(Modifier(int(dm["attack_2"]), "2 damage in this attack"))
    total = int(unit.attributes.get("damage", 0))
    big = is_guard_or_large(unit)
    if unit.arm is Arm.ARTILLERY:
        second = int(dm["artillery_6_guard_large"]) if big else 6
        if total >= second:
            mods.append(Modifier(int(dm["artillery_6"]), f"artillery damage {total} (≥ {second})"))
        elif total >= 4:
            mods.append(Modifier(int(dm["artillery_4"]), f"artillery damage {total} (≥ 4)"))
    else:
        second = int(dm["unit_8_guard_large"]) if big else 8
        if total >= second:
            mods.append(Modifier(int(dm["unit_8"]), f"unit damage {total} (≥ {second})"))
        elif total >= 4:
            mods.append(Modifier(int(dm["unit_4"]), f"unit damage {total} (≥ 4)"))
    b = state.oob.superior(unit.id)
    if b and b in state.commanders:
        st = brigade_status(state, b)
        if st.state is not CommandState.STEADY or st.demoralised:
            what = "Demoralised" if st.state is CommandState.STEADY else st.state.value.capitalize()
            mods.append(Modifier(int(params.get("modifier_brigade_status")), f"brigade {what}"))
    fl = params.get("modifier_flanked")
    if not sit.attacking:
        if sit.attacked_in_flank_or_rear:
            mods.append(Modifier(int(fl["attacked_in_flank_or_rear"]), "attacked in the flank or rear"))
        elif sit.flanked:
            mods.append(Modifier(int(fl["flanked"]), "defender flanked"))
    return mods
