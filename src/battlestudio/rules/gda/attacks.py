"""General d'Armée attack declaration: who may attack, the numbered restrictions, supports and
their rerolls (ОБЪЯВЛЕНИЕ АТАКИ, ОГРАНИЧЕНИЯ НА АТАКУ 1–16, ПОДДЕРЖКА АТАКИ, digest §7–§10).

``check_attack`` returns every reason a declaration is refused, each citing its rule, so an
umpire sees why; ``check_support`` does the same for a support (prohibitions А–К).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from collections.abc import Sequence

from shapely.geometry import Point as ShapelyPoint

from battlestudio.model.geometry import TINY
from battlestudio.model.terrain import TerrainFeature
from battlestudio.model.units import Arm, Formation, Unit
from battlestudio.replay.state import GameState
from battlestudio.rules.gda.brigades import (
    CommandState,
    brigade_status,
    grade_of,
    is_cossack,
    is_heavy_cavalry,
    is_skirmisher,
    unit_state,
)
from battlestudio.rules.gda.brigades import Grade, UnitState
from battlestudio.rules.gda.geometry import (
    attack_aspect,
    distance_cm,
    enemies_of,
    flanked_by,
    impassable_between,
    is_close_order,
    under_command,
    unit_distance,
)
from battlestudio.rules.params import RuleParameters


@dataclass(frozen=True, slots=True)
class Declaration:
    """An attack as declared: ``attacker`` (leading unit) on ``target``, ``supports`` named,
    whether the attacker can see the target (``line_of_sight``), whether it comes in on the
    target's flank or rear (``flank_or_rear``; None = judged from the units' positions by
    ``geometry.attack_aspect``)."""

    attacker: str
    target: str
    supports: tuple[str, ...] = ()
    line_of_sight: bool = True
    flank_or_rear: bool | None = None


@dataclass(frozen=True, slots=True)
class AttackCheck:
    """``legal`` when ``reasons`` is empty; ``notes`` say what was measured; ``supports``
    maps each support to its position (left/right/rear) or refusal."""

    declaration: Declaration
    reasons: tuple[str, ...]
    notes: tuple[str, ...] = ()
    supports: dict[str, str] = field(default_factory=dict)

    @property
    def legal(self) -> bool:
        return not self.reasons

    def explain(self) -> str:
        head = f"Attack {self.declaration.attacker} → {self.declaration.target}: "
        if self.legal:
            return head + "may be declared" + (f" ({'; '.join(self.notes)})" if self.notes else "") + "."
        return head + "refused: " + "; ".join(self.reasons) + "."


def brigade_of(state: GameState, unit_id: str) -> str | None:
    """The brigadier directly above a unit."""
    return state.oob.superior(unit_id)


def melee_of(state: GameState, unit_id: str) -> tuple[str, ...]:
    """Ids of the units ``unit_id`` is in an ongoing melee with: the game flag
    ``gda-melee:<unit>`` (a list of ids, set by the umpire when a melee is not decided this
    turn; restriction 9)."""
    return tuple(str(x) for x in (state.flags.get(f"gda-melee:{unit_id}") or ()))


def _tasks(state: GameState, brigade: str | None) -> tuple[str, ...]:
    return brigade_status(state, brigade).tasks if brigade else ()


def normal_move(unit: Unit, params: RuleParameters) -> float:
    """The unit's normal move in cm: ``attributes["normal_move_cm"]``, else the scenario's
    ``normal_move_cm.<arm>.<formation>`` or ``normal_move_cm.<arm>`` (movement rates are lost,
    digest Missing piece 12).

    Raises
    ------
    MissingParameterError
        when neither is given.
    """
    if "normal_move_cm" in unit.attributes:
        return float(unit.attributes["normal_move_cm"])
    return float(
        params.require(
            "normal_move_cm",
            f"normal_move_cm.{unit.arm.value}.{unit.formation.value}",
            f"normal_move_cm.{unit.arm.value}",
        )[1]
    )


def attack_reach(unit: Unit, params: RuleParameters, forward: bool) -> float:
    """Maximum attack distance in cm: normal move + attack bonus (+ the most the Forward! dice
    can give). ОБЪЯВЛЕНИЕ АТАКИ; ПРОЦЕДУРА АТАКИ 3, 5.

    Raises
    ------
    MissingParameterError
        when neither ``attributes["normal_move_cm"]`` nor ``normal_move_cm.<arm>`` is given.
    """
    move = normal_move(unit, params)
    bonus = distance_cm(params, "attack_bonus_cavalry" if unit.arm is Arm.CAVALRY else "attack_bonus_infantry")
    extra = 0.0
    if forward:
        imperial = str(params.get("measurement")) == "imperial"
        n = int(params.get("forward_bonus_dice_imperial" if imperial else "forward_bonus_dice_metric"))
        extra = n * 6 * (2.54 if imperial else 1.0)
    return move + bonus + extra


def _is_broken(f: TerrainFeature) -> bool:
    props = f.properties or {}
    return bool(props.get("broken")) or str(props.get("ground", "")).lower() == "broken"


def cavalry_ground(a: Unit, t: Unit, terrain: Sequence[TerrainFeature], params: RuleParameters) -> str:
    """Why cavalry ``a`` may not attack ``t`` over this ground ("" when it may): restriction 10
    («Кавалерия не может атаковать в лес, пересеченную местность, через высокие стены и т.п.»).

    The attack's path is the convex hull of both footprints (it goes straight ahead, ПРОЦЕДУРА
    АТАКИ 2). Refused when an area of a ``cavalry_no_attack_into`` kind, or any feature with the
    property ``broken`` (broken ground), touches the path or the target; or when a linear
    feature of a ``cavalry_no_attack_across`` kind (high walls; a wall with property
    ``low: true`` is not high) crosses the path anywhere, not only at the target.
    """
    path = a.footprint().union(t.footprint()).convex_hull
    into = {str(k) for k in params.get("cavalry_no_attack_into")}
    across = {str(k) for k in params.get("cavalry_no_attack_across")}
    for f in terrain:
        kind = str(f.kind)
        if (kind in into or _is_broken(f)) and f.geometry.intersects(path):
            what = "broken ground" if _is_broken(f) and kind not in into else kind.replace("_", "-")
            return f"into or through {what}" + (f" ({f.name})" if f.name else "")
        if kind in across and not (f.properties or {}).get("low") and f.geometry.intersects(path):
            return f"across a high {kind}" + (f" ({f.name})" if f.name else "")
    return ""


def check_attack(
    state: GameState,
    decl: Declaration,
    params: RuleParameters,
    terrain: Sequence[TerrainFeature] = (),
    declared: Sequence[Declaration] = (),
) -> AttackCheck:
    """Whether ``decl`` may be declared, with the reason for every refusal.

    ``declared`` are this side's declarations already made this turn (restrictions 3, 5, 11).
    Adam's example (Пример – Объявление атаки): without Infantry Assault! his Light Brigade
    declares one battalion's attack and the others may not support it; with the task all may
    attack, separately or supported.

    Raises
    ------
    MissingParameterError
        when the attack's reach needs a normal move the scenario does not give.
    """
    reasons: list[str] = []
    notes: list[str] = []
    a = state.units[decl.attacker]
    t = state.units[decl.target]
    b = brigade_of(state, a.id)
    status = brigade_status(state, b) if b else None
    tasks = _tasks(state, b)
    ust = unit_state(a)
    if status and status.state in (CommandState.HESITANT, CommandState.FALTERING):
        reasons.append(
            f"restriction 6: the brigade is {status.state.value.capitalize()} and may not declare attacks"
            + (" (its cavalry may only counter-attack)" if a.arm is Arm.CAVALRY else "")
        )
    if a.arm is Arm.ARTILLERY:
        reasons.append("restriction 14: artillery may not declare attacks")
    if is_skirmisher(a):
        reasons.append("restriction 2: skirmishers may never attack")
    if ust is not UnitState.FORMED:
        reasons.append(f"restriction 2: {ust.value} units may not declare attacks")
    if b:
        ok, d, r = under_command(state, b, a, params)
        notes.append(f"{d:.1f} cm from the brigadier (command range {r:g} cm)")
        if not ok:
            reasons.append(f"ОБЪЯВЛЕНИЕ АТАКИ: {d:.1f} cm from the brigadier, beyond his {r:g} cm command range")
    if a.arm is Arm.INFANTRY and "infantry_assault" not in tasks:
        others = [
            d
            for d in declared
            if d.attacker != a.id and state.units[d.attacker].arm is Arm.INFANTRY and brigade_of(state, d.attacker) == b
        ]
        if others:
            reasons.append(
                f"ОБЪЯВЛЕНИЕ АТАКИ / restriction 3: without Infantry Assault! only one battalion of the brigade "
                f"attacks ({others[0].attacker} already does)"
            )
        if any(state.units[s].arm is Arm.INFANTRY for s in decl.supports if s in state.units):
            reasons.append("restriction 3: a supported infantry attack needs Infantry Assault!")
    if a.arm is Arm.INFANTRY and not a.attributes.get("general_attached"):
        fl = flanked_by(state, a, params, terrain)
        if fl:
            reasons.append(f"restriction 4: the infantry is flanked by {', '.join(fl)} (no brigade general attached)")
    if a.arm is Arm.INFANTRY and t.arm is Arm.CAVALRY:
        reasons.append("restriction 7: infantry may not attack cavalry")
    if a.arm is Arm.INFANTRY:
        near = distance_cm(params, "enemy_near")
        for e in enemies_of(state, a):
            if e.arm is Arm.CAVALRY and e.id != t.id and unit_state(e) is UnitState.FORMED:
                s, _ = e.rect().local(a.footprint().centroid.coords[0])
                if s > 0 and unit_distance(a, e) < near - TINY:  # «ближе, чем в 15см»: closer than
                    reasons.append(
                        f"restriction 7: formed enemy cavalry {e.id} is closer than {near:g} cm with the infantry "
                        "in front of it («ближе, чем в 15см»)"
                    )
                    break
    if a.attributes.get("garrison") and not a.attributes.get("attack_into_strongpoint"):
        reasons.append("restriction 8: a garrison may not attack out of its settlement")
    melee = melee_of(state, t.id)
    if melee:
        arms = {state.units[m].arm for m in melee + (t.id,) if m in state.units}
        if a.arm is Arm.CAVALRY and arms == {Arm.INFANTRY}:
            reasons.append(
                f"restriction 9: cavalry may not reinforce the infantry melee of {t.id} with {', '.join(melee)}"
            )
        elif a.arm is Arm.INFANTRY and arms == {Arm.CAVALRY}:
            reasons.append(
                f"restriction 9: infantry may not reinforce the cavalry melee of {t.id} with {', '.join(melee)}"
            )
    if a.arm is Arm.CAVALRY:
        why = cavalry_ground(a, t, terrain, params)
        if why:
            reasons.append(f"restriction 10: cavalry may not attack {why}")
    for other in declared:
        if (
            other.target == t.id
            and other.attacker in state.units
            and {state.units[other.attacker].arm, a.arm} == {Arm.INFANTRY, Arm.CAVALRY}
        ):
            reasons.append("restriction 11: infantry and cavalry may not both attack the same target")
            break
        if (
            other.target == t.id
            and a.attributes.get("combined_column")
            and brigade_of(state, other.attacker) == b
            and other.attacker != a.id
        ):
            reasons.append("restriction 5: no several separate attacks from a Combined Column on one enemy unit")
            break
    if a.attributes.get("company_column") and not a.attributes.get("terrain_forces_column"):
        reasons.append("restriction 12: units in Company Column may not attack")
    aspect = attack_aspect(a, t)
    flank_or_rear = decl.flank_or_rear if decl.flank_or_rear is not None else aspect != "front"
    if decl.flank_or_rear is None:
        notes.append(f"attacks the target's {aspect}" + ("" if aspect == "front" else " (flank or rear)"))
    if is_cossack(a) and not flank_or_rear and unit_state(t) is UnitState.FORMED:
        if t.arm is Arm.ARTILLERY or (t.arm is Arm.INFANTRY and is_close_order(t)) or is_heavy_cavalry(t):
            reasons.append(
                "restriction 13: Cossacks may not attack close-order infantry, artillery or heavy cavalry frontally"
            )
    if not decl.line_of_sight:
        near = distance_cm(params, "enemy_near")
        d_b = ShapelyPoint(state.commanders[b].position).distance(t.footprint()) if b else float("inf")
        if unit_distance(a, t) > near + TINY and d_b > near + TINY:
            reasons.append(
                f"restriction 15: no line of sight and the target is not within {near:g} cm of the attacker "
                "or its brigadier"
            )
    reach = attack_reach(a, params, "forward" in tasks)
    gap = unit_distance(a, t)
    notes.append(f"target {gap:.1f} cm away, greatest reach {reach:.1f} cm")
    if gap > reach + TINY:
        reasons.append(
            f"restrictions 1 and 16: the target is {gap:.1f} cm away, beyond the greatest attack reach "
            f"{reach:.1f} cm, so base contact is impossible"
        )
    supports: dict[str, str] = {}
    taken: set[str] = set()
    for sid in decl.supports:
        verdict = check_support(state, a, t, sid, params, defending=False, terrain=terrain)
        if not verdict.startswith("refused") and verdict in taken:
            verdict = f"refused: a {verdict} support is already named (at most one left, one right, one rear)"
        if not verdict.startswith("refused"):
            taken.add(verdict)
        supports[sid] = verdict
    return AttackCheck(decl, tuple(reasons), tuple(notes), supports)


def support_position(lead: Unit, s: Unit, params: RuleParameters) -> str | None:
    """``left``, ``right`` or ``rear`` when ``s`` stands where a support may (ПОДДЕРЖКА АТАКИ):
    facing the same way, within 5 cm [3"] on a flank, or behind with ≥ 50% of it directly
    behind the leading unit within 5 cm (infantry) / 10 cm [6"] (cavalry); else None.
    Support example 1: the two columns behind and to the sides, each within 5 cm, are the left
    and right flank supports; a column directly behind is the rear support."""
    tol = float(params.get("support_facing_tolerance_deg"))
    diff = abs((s.facing - lead.facing + 180.0) % 360.0 - 180.0)
    if diff > tol:
        return None
    rect = lead.rect()
    fp = s.footprint()
    gap = float(rect.polygon().distance(fp))
    coords = list(fp.exterior.coords)[:-1]
    locs = [rect.local(p) for p in coords]
    behind = max(sv for sv, _ in locs) <= -rect.depth + TINY
    if behind:
        lo, hi = min(lv for _, lv in locs), max(lv for _, lv in locs)
        overlap = max(0.0, min(hi, rect.width / 2) - max(lo, -rect.width / 2))
        if hi - lo > TINY and overlap / (hi - lo) >= float(params.get("support_rear_fraction")) - TINY:
            limit = distance_cm(params, "support_rear_cavalry" if s.arm is Arm.CAVALRY else "support_rear_infantry")
            return "rear" if gap <= limit + TINY else None
    if gap <= distance_cm(params, "support_flank") + TINY:
        mid = sum(lv for _, lv in locs) / len(locs)
        if abs(mid) > rect.width / 2:
            return "right" if mid > 0 else "left"
    return None


def in_settlement(u: Unit, terrain: Sequence[TerrainFeature], params: RuleParameters) -> str:
    """The settlement or strongpoint ``u`` holds ("" when none): a garrison, a unit with the
    attribute ``built_up`` or ``strongpoint``, or a unit whose footprint centre lies in terrain
    of a ``settlement_terrain`` kind (prohibition В, step 10)."""
    if u.attributes.get("garrison") or u.attributes.get("built_up") or u.attributes.get("strongpoint"):
        return "a garrison or strongpoint"
    kinds = {str(k) for k in params.get("settlement_terrain")}
    c = u.footprint().centroid
    for f in terrain:
        if str(f.kind) in kinds and f.geometry.contains(c):
            return f.name or str(f.kind).replace("_", "-")
    return ""


def frontage_meets(attacker: Unit, u: Unit) -> bool:
    """Whether ``u`` stands ahead of ``attacker`` and overlaps its frontage, so a straight
    attack (ПРОЦЕДУРА АТАКИ 2) comes on it directly."""
    rect = attacker.rect()
    locs = [rect.local(p) for p in list(u.footprint().exterior.coords)[:-1]]
    lo, hi = min(lv for _, lv in locs), max(lv for _, lv in locs)
    ahead = max(sv for sv, _ in locs) > TINY
    return ahead and min(hi, rect.width / 2) - max(lo, -rect.width / 2) > TINY


def check_support(
    state: GameState,
    lead: Unit,
    target: Unit,
    sid: str,
    params: RuleParameters,
    defending: bool = False,
    terrain: Sequence[TerrainFeature] = (),
    attacked_in_flank_or_rear: bool | None = None,
    single_attacker: bool = False,
) -> str:
    """``left`` / ``right`` / ``rear`` when ``sid`` may support ``lead`` (the leading attacker,
    or the defended unit when ``defending``) against ``target``, else ``"refused: <why>"``
    citing prohibitions А–К (Запрет на оказание поддержки):

    * В — the attack is on a settlement or strongpoint, or the defended unit holds one
      (``in_settlement``);
    * Г — an enemy to the flank support's front within 15 cm that is not involved in the attack:
      not the target and not within the 5 cm support distance of the target;
    * Ж — only a unit that *has been attacked* in the flank or rear and is still flanked within
      5 cm cannot be supported (ERRATA GdA 3): ``attacked_in_flank_or_rear`` (None = the
      defended unit is judged from the positions, an attacker never);
    * З — a Faltering brigade gives no support, except when ``single_attacker`` attacks two
      adjacent defenders of it: the other one joins the defence as a flank support;
    * К — terrain of a ``blocking_terrain`` kind between the two (``geometry.impassable_between``).

    Support example 2: of the Russian brigade's units 2 and 3 only 2 supports unit 1; unit 3 has a
    French unit not involved in the attack directly to its front (Г).
    """
    s = state.units.get(sid)
    if s is None:
        return f"refused: no unit {sid!r}"
    b, sb = brigade_of(state, lead.id), brigade_of(state, sid)
    if sb != b:
        return "refused: Б — a support must come from the same brigade"
    if not defending and b:
        ok, d, r = under_command(state, b, s, params)
        if not ok:
            return f"refused: А — {d:.1f} cm from the brigadier, out of command"
    held = in_settlement(lead if defending else target, terrain, params)
    if held:
        who = "the defended unit holds" if defending else "the target holds"
        return f"refused: В — {who} {held}: no supports in an attack on a settlement or strongpoint"
    if (
        s.arm is Arm.ARTILLERY
        or is_skirmisher(s)
        or s.attributes.get("garrison")
        or unit_state(s) is UnitState.RETREATING
    ):
        return "refused: Д — artillery, skirmishers, garrisons and retreating units give no support"
    if s.formation is Formation.SQUARE and not defending:
        return "refused: Е — a square cannot support an attack"
    faltering_exception = False
    if brigade_status(state, b).state is CommandState.FALTERING if b else False:
        faltering_exception = (
            defending
            and single_attacker
            and unit_distance(s, lead) <= distance_cm(params, "support_flank") + TINY
            and frontage_meets(target, s)
        )
        if not faltering_exception:
            return "refused: З — a Faltering brigade gives no support"
    if s.arm is not lead.arm:
        return "refused: И — only the same arm supports"
    if lead.arm is Arm.INFANTRY and not defending and "infantry_assault" not in _tasks(state, b):
        return "refused: supported infantry attacks need Infantry Assault!"
    hit_in_flank = attacked_in_flank_or_rear
    if hit_in_flank is None:
        hit_in_flank = defending and attack_aspect(target, lead) != "front"
    if hit_in_flank:
        near_lead = flanked_by(state, lead, params, terrain, reach_key="support_flank")
        if near_lead:
            return (
                f"refused: Ж — {lead.id} has been attacked in the flank or rear and is still flanked within "
                f"{distance_cm(params, 'support_flank'):g} cm by {', '.join(near_lead)}"
            )
    if faltering_exception:
        return "right" if lead.rect().local(s.footprint().centroid.coords[0])[1] > 0 else "left"
    pos = support_position(lead, s, params)
    if pos is None:
        return "refused: not on a flank within 5 cm or directly behind within range, facing the same way"
    blocked = impassable_between(s, lead, terrain, params)
    if blocked:
        return f"refused: К — impassable ground ({blocked}) lies between it and {lead.id}"
    if pos in ("left", "right"):
        near = distance_cm(params, "enemy_near")
        reach = distance_cm(params, "support_flank")
        for e in enemies_of(state, s):
            if e.id == target.id:
                continue
            sl, _ = s.rect().local(e.footprint().centroid.coords[0])
            if sl > 0 and unit_distance(s, e) <= near + TINY and unit_distance(e, target) > reach + TINY:
                return (
                    f"refused: Г — enemy {e.id} not involved in the attack (more than {reach:g} cm from "
                    f"{target.id}) is within {near:g} cm to its front"
                )
    return pos


def support_reroll_penalty(s: Unit, params: RuleParameters, against_cavalry: bool = False) -> int:
    """0 or -1 on the die a support rerolls (Выгоды): -1 for Recruit, Combined Column, Square,
    Unformed, or infantry Line against cavalry; penalties never add up."""
    pen = int(params.get("support_reroll_penalty"))
    bad = (
        grade_of(s, params) is Grade.RECRUIT
        or s.attributes.get("combined_column")
        or s.formation is Formation.SQUARE
        or unit_state(s) is UnitState.UNFORMED
        or (against_cavalry and s.arm is Arm.INFANTRY and s.formation is Formation.LINE)
    )
    return pen if bad else 0


def rerolled_die(face: int, penalty: int) -> int:
    """A support reroll's result: the new face plus the penalty, never below 1."""
    return max(1, face + penalty)
