"""Torden over Europa chapter 5 as actions: attack declaration (5.1), reactions (5.2-5.3) and
the interrupted attack (5.4), in the ``attack_declaration`` and ``attack`` phases.

* ``declare_attack`` (5.1): "For at angribe en fjendtlig enhed skal den angribende enhed være i
  orden og i brikkontakt med den fjendtlige enhed"; artillery and U/FU units cannot declare;
  infantry cannot declare against cavalry. Artillery attacked in flank or rear "er automatisk
  elimineret uden mulighed for reaktion" unless attached to a unit (5.3).
* ``react`` (5.2-5.3): a d10 "reguleres med de faktorer der er vist i tabel 3" and passes on
  ≥ 6 (``reaction_threshold``). Table 3 is lost: ``reaction_modifiers`` (missing) or the
  umpire enters the result. Kinds: ``move`` — cavalry within 20 cm of an enemy unit that acted
  may move up to half a move ("et halvt træk"); ``square`` — infantry attacked by cavalry forms
  an emergency square (nødkarré); ``face`` — a unit attacked in flank or rear turns to face
  the attacker, unless it already tried a reaction (5.2: "kan ikke efterfølgende gøre front");
  ``limber`` — horse artillery attacked limbers and may make a full move; attached foot
  artillery attacked by infantry limbers, moves off and is in U (5.3.2); ``shelter`` — attached
  foot artillery attacked by cavalry moves into its unit (horse artillery into cavalry, 7.1) and
  the attackers' declarations go to that unit (5.3.2 "Den angribende enhed skal angribe den
  enhed artilleriet har trukket sig ind i"); the battery stays on its ground, in base contact,
  counted inside its unit while that unit stays in contact (a unit that moves leaves the gunners
  behind). A failed reaction's
  morale effect is read from a lost table: the umpire records it with ``morale_test``.
* ``interrupt_attack`` (5.4): an attacking cavalry or infantry unit turns about and moves back
  its normal march length (ERRATA 7: "en tilbagebevægelse der svarer til enhedens normale
  marchlængde").

Declarations and reactions are flags of the player-turn (``attack_declared:<unit>``,
``reaction_attempted:<unit>``, value with ``turn`` and ``side``), read by fire (6.1: units that
declared or reacted do not fire) and by the movement check (a unit whose reaction passed moves).
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

from battlestudio.model.geometry import forward, normalize_angle
from battlestudio.model.units import Arm, Formation, OrderState, Subtype, Unit
from battlestudio.replay.events import BattleEvent
from battlestudio.replay.flags import FlagMap
from battlestudio.replay.flow_events import FormationChanged, Moved, OrderStateChanged, Rotated
from battlestudio.replay.order_events import CommandStateChanged
from battlestudio.replay.state import GameState
from battlestudio.rules.actions import ActionHandler, ActionOutcome, ActionPreview, ActionRequest, ActionSpec
from battlestudio.rules.dice import DiceSource, RollRecord, success_probability
from battlestudio.rules.params import RuleParameters, RuleRefused
from battlestudio.rules.protocol import ParameterSpec
from battlestudio.rules.toe.common import march_length
from battlestudio.rules.toe.contact import (
    DECLARED as DECLARED,
    REACTED as REACTED,
    TABLE3,
    acted,
    attackers_of,
    enemies_in_contact,
    enemies_within,
    in_contact,
    on_table,
    reaction_modifiers,
    reaction_moved,
    stamp_of,
    this_player_turn as this_player_turn,
    turn_start_of,
)
from battlestudio.rules.toe.control import dice_spec
from battlestudio.rules.toe.formations import formation_change
from battlestudio.rules.toe.melee import aspect_of, attached_to

DECLARATION_PHASE = "attack_declaration"
REACTION_KINDS = ("move", "square", "face", "limber", "shelter")


def _flag(state: GameState, name: str, uid: str, reason: str, **value: Any) -> CommandStateChanged:
    return CommandStateChanged(
        **stamp_of(state),
        subject=uid,
        state=name,
        value={"turn": state.turn, "side": state.side, **value},
        reason=reason,
    )


# ------------------------------------------------------------------------------ 5.1 declaration
def _declarable(state: GameState, p: RuleParameters, u: Unit, target: Unit | None) -> str:
    """Why ``u`` may not declare an attack on ``target`` ("" = it may)."""
    if u.arm is Arm.ARTILLERY:
        return f"{u.name}: artillery cannot declare an attack (5.1 'Artillerienheder ... kan ikke erklære angreb')"
    if u.state != OrderState.O.value:
        return f"{u.name} is in {u.state}: units in U/FU cannot declare an attack (5.1)"
    if u.side != state.side and not reaction_moved(state, u.id):
        return (
            f"{u.name} belongs to the passive side: it attacks only as a reacting unit after a passed reaction "
            "move (5.2 'Enheden der reagere kan foretage følgende: ... angreb')"
        )
    if this_player_turn(state, DECLARED, u.id):
        return f"{u.name} has declared its attack this turn"
    if target is None:
        return ""
    if u.arm is Arm.INFANTRY and target.arm is Arm.CAVALRY:
        return f"{u.name}: infantry cannot declare an attack on cavalry (5.1)"
    if not in_contact(p, u, target):
        gap = u.footprint().distance(target.footprint())
        return f"{u.name} is {gap:.1f} cm from {target.name}: an attack needs base contact (5.1 'i brikkontakt')"
    return ""


def declare_spec(state: GameState, p: RuleParameters, subject: str) -> ActionSpec | None:
    """``declare_attack`` for a unit of the active side, or of the passive side whose reaction
    move passed (5.2: a reacting unit may attack), in the declaration phase (5.1)."""
    u = state.units.get(subject)
    if state.phase != DECLARATION_PHASE or u is None or not on_table(state, u):
        return None
    if u.side != state.side and not reaction_moved(state, u.id):
        return None
    near = sorted(e.id for e in enemies_in_contact(state, p, u))
    why = _declarable(state, p, u, None) or ("" if near else f"{u.name} is in base contact with no enemy (5.1)")
    return ActionSpec(
        "declare_attack",
        "Declare an attack",
        "erklære angreb",
        "5.1",
        "unit",
        (ParameterSpec("target", "enemy_unit", choices=tuple(near), label="unit attacked"),),
        unavailable=why,
        note="in base contact, in order; artillery attacked in flank or rear is eliminated at once (5.3)",
    )


def _target(state: GameState, req: ActionRequest) -> Unit:
    tid = req.parameters.get("target")
    t = state.units.get(str(tid)) if tid else None
    if t is None or not on_table(state, t):
        raise RuleRefused(f"declare attack: choose the enemy unit attacked (target {tid!r} is not on the table)")
    return t


def attack_aspect(state: GameState, u: Unit, t: Unit) -> tuple[str, str]:
    """The side of ``t`` that ``u`` attacks, and a note when the start of its move decided it:
    "Flanke-/rygangreb kan kun foretages i de tilfælde hvor bevægelsen starter bag ved den
    angrebne enheds forlængede front" (5.3). A unit whose move this player-turn started in front
    of the target's extended front (both as they stood when the player-turn began) attacks its
    front wherever it now stands; otherwise the side is where it stands now."""
    now = aspect_of(u, t)
    if now == "front":
        return now, ""
    u0, t0 = turn_start_of(state, u.id), turn_start_of(state, t.id)
    if u0 is None:
        return now, ""
    if aspect_of(u0, t0 or t) == "front":
        return "front", (
            f"{u.name} stands on {t.name}'s {now}, but its move started in front of {t.name}'s extended front: "
            "a front attack (5.3 'bevægelsen starter bag ved den angrebne enheds forlængede front')"
        )
    return now, ""


def declare_preview(state: GameState, req: ActionRequest, p: RuleParameters) -> ActionPreview:
    u, t = state.units[req.subject], _target(state, req)
    why = _declarable(state, p, u, t)
    if why:
        return ActionPreview(req.action, u.id, False, why)
    side, why_front = attack_aspect(state, u, t)
    text = f"{u.name} attacks {t.name} in the {side}." + (f" {why_front}." if why_front else "")
    if t.arm is Arm.ARTILLERY and side != "front" and attached_to(state, p, t) is None:
        text += " An unattached battery attacked in flank or rear is eliminated at once, without reaction (5.3)."
    return ActionPreview(req.action, u.id, True, explanation=text)


def declare_resolve(state: GameState, req: ActionRequest, p: RuleParameters, dice: DiceSource) -> ActionOutcome:
    u, t = state.units[req.subject], _target(state, req)
    why = _declarable(state, p, u, t)
    if why:
        raise RuleRefused(why)
    side, why_front = attack_aspect(state, u, t)
    text = f"{u.name} declares an attack on {t.name} in the {side} (5.1)." + (f" {why_front}." if why_front else "")
    reacting = reaction_moved(state, u.id)
    if reacting:
        text += (
            f" {u.name} attacks after its reaction move: {t.name} cannot carry out an attack of its own "
            "this player-turn (5.2, 7.1)."
        )
    events: list[BattleEvent] = [
        _flag(
            state,
            DECLARED,
            u.id,
            text,
            target=t.id,
            aspect=side,
            arm=u.arm.value,
            **({"reaction": True} if reacting else {}),
        )
    ]
    if t.arm is Arm.ARTILLERY and side != "front" and attached_to(state, p, t) is None:
        events.append(
            OrderStateChanged(
                **stamp_of(state),
                unit=t.id,
                state=OrderState.ELIMINATED.value,
                reason=f"attacked in the {side} by {u.name}: artillery is eliminated without reaction (5.3)",
            )
        )
        text += f" {t.name} is eliminated: artillery attacked in flank or rear, not attached (5.3)."
    return ActionOutcome("resolved", text, tuple(events))


# ------------------------------------------------------------------------------ 5.2-5.3 reactions
def _kinds(state: GameState, p: RuleParameters, u: Unit) -> dict[str, str]:
    """Reaction kinds open to ``u`` now → "" (may) or the reason it may not."""
    attacks = attackers_of(state, u.id)
    by_cav = any(a.arm is Arm.CAVALRY for a, _ in attacks)
    flanked = [a for a, d in attacks if d.get("aspect") in ("flank", "rear")]
    tried = this_player_turn(state, REACTED, u.id)
    out: dict[str, str] = {}
    if u.arm is Arm.CAVALRY:
        out["move"] = _move_trigger(state, p, u, tried)
    if u.arm is Arm.INFANTRY:
        out["square"] = "" if by_cav else f"{u.name} is not attacked by cavalry: no emergency square (5.3)"
    if u.arm is not Arm.ARTILLERY:
        if not flanked:
            out["face"] = f"{u.name} is not attacked in flank or rear (5.3)"
        else:
            out["face"] = ""
    if u.arm is Arm.ARTILLERY:
        horse = u.subtype is Subtype.HORSE_ARTILLERY
        host = attached_to(state, p, u)
        attached = host is not None
        by_inf = any(a.arm is Arm.INFANTRY for a, _ in attacks)
        if not attacks:
            out["limber"] = f"{u.name} is not attacked (5.3.2)"
        elif horse or (attached and by_inf):
            out["limber"] = ""
        else:
            out["limber"] = (
                f"{u.name}: only horse artillery, or foot artillery attached to a unit and attacked by infantry, "
                "limbers and escapes (5.3.2)"
            )
        if not attacks:
            out["shelter"] = f"{u.name} is not attacked (5.3.2)"
        elif host is None:
            out["shelter"] = f"{u.name} is in base contact with no friendly infantry or cavalry to move into (5.3.2)"
        elif not by_cav:
            out["shelter"] = f"{u.name}: a battery moves into its unit only when cavalry attacks it (5.3.2)"
        elif horse and host.arm is not Arm.CAVALRY:
            out["shelter"] = (
                f"{u.name}: horse artillery shelters only in cavalry (7.1 'kavalerienhed (ridende artilleri)')"
            )
        else:
            out["shelter"] = ""
    if tried:  # after a reaction the unit cannot face an attacker (5.2); once a player-turn unless it answers
        again = "" if out.get("move") == "" and str(p.get("reaction_repeat")) == "answer" else None
        return {
            k: (
                again
                if k == "move" and again is not None
                else f"{u.name} has tried a reaction this turn and cannot react again (5.2)"
            )
            for k in out
        }
    return out


def _reacted_since(state: GameState, e: Unit, after: int) -> bool:
    """Whether ``e`` carried out a reaction this player-turn later than the ``after``-th one."""
    r = this_player_turn(state, REACTED, e.id)
    return r is not None and bool(r.get("passed")) and int(r.get("seq", 0)) > after


def _move_trigger(state: GameState, p: RuleParameters, u: Unit, tried: dict[str, Any] | None) -> str:
    """Why cavalry ``u`` may not make a reaction move ("" = it may): an enemy unit within 20 cm
    must act (5.2 "hvis modstanderen handler med en enhed indenfor 20 cm"). The active side's
    cavalry answers the passive side's reactions ("reaktioner på foretagne reaktioner ... først
    reagere den passive side, hvorefter aktiv side reagere"): an enemy within 20 cm must have
    carried out a reaction this player-turn; with ``reaction_repeat`` "answer" a unit that
    reacted may react again to an enemy reaction made after its own."""
    near = enemies_within(state, u, float(p.get("reaction_distance_cm")))
    if not near:
        return f"{u.name} has no enemy unit within 20 cm (5.2)"
    after = int(tried.get("seq", 0)) if tried else 0
    if u.side == state.side or tried:
        if not any(_reacted_since(state, e, after) for e in near):
            if tried:
                return f"{u.name} has reacted and no enemy within 20 cm has reacted since (5.2, reaction_repeat)"
            return (
                f"{u.name} belongs to the active side: it reacts only to a reaction of an enemy unit within 20 cm, "
                "the passive side reacting first (5.2)"
            )
        return ""
    seen = [acted(state, e) for e in near]
    if any(seen) or None in seen:  # None: the start of the player-turn is unknown, so no enemy is ruled out
        return ""
    return (
        f"no enemy unit within 20 cm of {u.name} has acted this player-turn (moved, turned, changed formation, "
        "declared an attack or reacted): no reaction (5.2 'hvis modstanderen handler med en enhed indenfor 20 cm')"
    )


def _reaction_seq(state: GameState) -> int:
    """How many reactions were tried this player-turn (the next one's ``seq`` is one more)."""
    prefix = f"{REACTED}:"
    flags = state.flags
    keys = flags.keys_with_prefix(prefix) if isinstance(flags, FlagMap) else [k for k in flags if k.startswith(prefix)]
    return max(
        (
            int(v.get("seq", 1))
            for v in (flags[k] for k in keys)
            if isinstance(v, dict) and v.get("turn") == state.turn and v.get("side") == state.side
        ),
        default=0,
    )


def react_spec(state: GameState, p: RuleParameters, subject: str) -> ActionSpec | None:
    u = state.units.get(subject)
    if state.phase != DECLARATION_PHASE or u is None or not on_table(state, u):
        return None
    if u.state in (OrderState.FU.value, OrderState.ELIMINATED.value):
        return None
    kinds = _kinds(state, p, u)
    open_ = tuple(k for k, why in kinds.items() if not why)
    if not kinds:
        return None
    lost = "" if reaction_modifiers(p, u, open_[0] if open_ else "move") is not None else TABLE3
    return ActionSpec(
        "react",
        "React (reaction roll)",
        "reaktionskast",
        "5.2, 5.3",
        "unit",
        (ParameterSpec("kind", "choice", choices=open_ or tuple(kinds), label="reaction"),),
        (ParameterSpec("passed", "bool", label="reaction roll passed (d10 + Table 3 ≥ 6)"),),
        unavailable="" if open_ else "; ".join(kinds.values()),
        umpire_table=lost,
        note="passive side first, then the active side (5.2); a failed reaction's morale effect is the umpire's "
        "(table lost): record it with the morale test",
    )


def _kind(state: GameState, p: RuleParameters, req: ActionRequest) -> tuple[Unit, str]:
    u = state.units[req.subject]
    kind = str(req.parameters.get("kind") or "")
    kinds = _kinds(state, p, u)
    if kind not in kinds:
        raise RuleRefused(f"{u.name}: reaction {kind!r} is not open to it ({', '.join(kinds) or 'none'})")
    if kinds[kind]:
        raise RuleRefused(kinds[kind])
    return u, kind


def react_preview(state: GameState, req: ActionRequest, p: RuleParameters) -> ActionPreview:
    u, kind = _kind(state, p, req)
    need = int(p.get("reaction_threshold"))
    mods = reaction_modifiers(p, u, kind)
    if mods is None:
        return ActionPreview(
            req.action,
            u.id,
            True,
            explanation=f"{TABLE3} is not in the rules text: the umpire enters the roll",
            umpire_entry=True,
        )
    total = sum(m.value for m in mods)
    chance = success_probability(dice_spec(p), total, need)
    return ActionPreview(
        req.action, u.id, True, explanation=f"d10 {total:+d} ≥ {need} (5.2)", odds=((f"{kind} succeeds", chance),)
    )


def _face_to(u: Unit, attacker: Unit) -> float:
    """The facing that turns ``u``'s front towards ``attacker`` (snapped to its nearest edge)."""
    c, a = u.rect().centre, attacker.footprint().centroid
    want = math.degrees(math.atan2(a.y - c[1], a.x - c[0]))
    return normalize_angle(u.facing + 90.0 * round(((want - u.facing + 540.0) % 360.0 - 180.0) / 90.0))


def react_resolve(state: GameState, req: ActionRequest, p: RuleParameters, dice: DiceSource) -> ActionOutcome:
    u, kind = _kind(state, p, req)
    need = int(p.get("reaction_threshold"))
    rolls: tuple[RollRecord, ...] = ()
    if req.umpire_result is not None:
        passed = bool(req.umpire_result.get("passed"))
        text = f"{u.name}'s reaction ({kind}): the umpire's entry, {'passed' if passed else 'failed'} ({TABLE3} lost)."
    else:
        mods = reaction_modifiers(p, u, kind)
        if mods is None:
            raise RuleRefused(f"react: {TABLE3} is not in the rules text; enter the result")
        purpose = f"toe-reaction:{u.id}:{kind}:t{state.turn}:{state.side}"
        raw = dice.roll(purpose, dice_spec(p))
        r = RollRecord(
            purpose,
            f"Reaction roll, {u.name} ({kind})",
            dice_spec(p),
            raw,
            mods,
            need,
            "5.2 'større end eller lig med 6'",
        )
        passed = r.total >= need
        r = replace(r, success=passed, outcome="reaction succeeds" if passed else "reaction fails")
        rolls = (r,)
        text = f"{u.name}'s reaction ({kind}): {r.explain()}"
    host = attached_to(state, p, u) if kind == "shelter" else None
    extra: dict[str, Any] = {"host": host.id, "host_at": list(host.position)} if host is not None else {}
    extra["seq"] = _reaction_seq(state) + 1
    events: list[BattleEvent] = [_flag(state, REACTED, u.id, text, kind=kind, passed=passed, **extra)]
    stamp = stamp_of(state)
    if passed and kind == "square":
        change = formation_change(state, p, u.id, Formation.SQUARE.value)
        events.append(FormationChanged(**stamp, unit=u.id, formation=Formation.SQUARE.value, facing=change.unit.facing))
        text += " It forms an emergency square (nødkarré, 5.3); it cannot fire this turn."
    elif passed and kind == "face":
        attacker = next(a for a, d in attackers_of(state, u.id) if d.get("aspect") in ("flank", "rear"))
        events.append(Rotated(**stamp, id=u.id, facing=_face_to(u, attacker)))
        text += f" It turns to face {attacker.name} (5.3)."
    elif passed and kind == "limber":
        events.append(FormationChanged(**stamp, unit=u.id, formation=Formation.LIMBERED.value))
        text += " It limbers and may make a full move away (5.3.2)."
        if u.subtype is not Subtype.HORSE_ARTILLERY:
            events.append(
                OrderStateChanged(**stamp, unit=u.id, state=OrderState.U.value, reason="escaped limbered (5.3.2)")
            )
            text += " Foot artillery that escapes is in U; the attacker may choose a new target (5.3.2)."
    elif passed and kind == "shelter" and host is not None:
        text += (
            f" It moves into {host.name} (5.3.2): the attack is made on {host.name} and the battery does not count "
            "in the melee (7.1)."
        )
        for a, d in attackers_of(state, u.id):
            aspect = aspect_of(a, host)
            again = {k: v for k, v in d.items() if k not in ("turn", "side", "target", "aspect")}
            events.append(
                _flag(
                    state,
                    DECLARED,
                    a.id,
                    f"{u.name} sheltered in {host.name}: {a.name} must attack {host.name} (5.3.2)",
                    **{**again, "target": host.id, "aspect": aspect, "sheltered": u.id},
                )
            )
            text += f" {a.name} must attack {host.name} instead, in the {aspect} (5.3.2)."
        if host.arm is Arm.CAVALRY:
            text += f" If {host.name} moves, the gunners are left behind (5.3.2)."
        text += f" If {host.name} loses and must move away from the battery, the battery is destroyed (5.3.2)."
    elif passed and kind == "move":
        text += " It may move up to half a move (5.2): drag it."
    elif not passed:
        text += " It stays as it is; the umpire reads the morale effect from the lost table (record a morale test)."
        if kind in ("limber", "shelter"):
            text += " The battery stands and cannot fire (5.3.2)."
    return ActionOutcome("resolved", text, tuple(events), rolls)


# ------------------------------------------------------------------------------ 5.4 interrupted attack
def interrupt_spec(state: GameState, p: RuleParameters, subject: str) -> ActionSpec | None:
    u = state.units.get(subject)
    if state.phase != "attack" or u is None or not on_table(state, u):
        return None
    d = this_player_turn(state, DECLARED, u.id)
    if d is None:
        return None
    why = (
        "" if u.arm in (Arm.CAVALRY, Arm.INFANTRY) else f"{u.name}: only cavalry and infantry break off an attack (5.4)"
    )
    return ActionSpec(
        "interrupt_attack",
        "Interrupt the attack",
        "afbrudt angreb",
        "5.4",
        "unit",
        unavailable=why,
        note="after the target's reactions the attacker turns about and moves back its normal march length",
    )


def interrupt_preview(state: GameState, req: ActionRequest, p: RuleParameters) -> ActionPreview:
    u = state.units[req.subject]
    return ActionPreview(
        req.action, u.id, True, explanation=f"{u.name} turns about and moves back {march_length(p, u):g} cm (5.4)"
    )


def interrupt_resolve(state: GameState, req: ActionRequest, p: RuleParameters, dice: DiceSource) -> ActionOutcome:
    u = state.units[req.subject]
    back = march_length(p, u)
    facing = normalize_angle(u.facing + 180.0)
    fx, fy = forward(facing)
    start = u.rect().rear_centre  # turning about keeps the ground: the new front is the old rear edge
    end = (start[0] + fx * back, start[1] + fy * back)
    if req.table is not None:
        w, h = req.table
        end = (min(max(end[0], 0.0), w), min(max(end[1], 0.0), h))
    stamp = stamp_of(state)
    text = f"{u.name} interrupts its attack: it turns about and moves back {math.dist(start, end):.1f} cm (5.4)."
    events: list[BattleEvent] = [
        Moved(**stamp, id=u.id, path=(u.position, start, end), facing=facing),
        CommandStateChanged(**stamp, subject=u.id, state=DECLARED, value=None, reason="attack interrupted (5.4)"),
    ]
    return ActionOutcome("resolved", text, tuple(events))


HANDLERS = (
    ActionHandler("declare_attack", declare_spec, declare_preview, declare_resolve),
    ActionHandler("react", react_spec, react_preview, react_resolve),
    ActionHandler("interrupt_attack", interrupt_spec, interrupt_preview, interrupt_resolve),
)
