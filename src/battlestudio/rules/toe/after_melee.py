"""Torden over Europa: after the melee (7.3) as actions.

``advance`` (7.3.1 "Rømmet territorium"): "Enhver angriber i form af infanteri i kolonne og
kavaleri skal når disse vinder en nærkamp, umiddelbart efter modstanderens enhed har trukket sig
tilbage rykke op til 5 cm frem, besætte bygning eller foretage fortsat angreb".

``break_off`` (7.3.2 "Ikke afgjort nærkamp"): "Hvis begge parter forbliver i oprindelig orden,
efter moraltest, kan en enhed rykke ½ marchlængde tilbage ved gennemførelse af reaktionskast"
(the reaction roll of 5.2.2: 1d10 with Table 3 modifiers, passed "større end eller lig med 6").

``battery_lost`` (5.3.2): a battery that sheltered in its unit is destroyed when that unit
"taber den forsvarende enhed og påvirkes denne moralsk således at denne skal foretage
bevægelser væk fra batterierne position" — offered once the unit lost a melee this player-turn,
legal once it has moved away from the battery (or left the fight).
"""

from __future__ import annotations

import math
from dataclasses import replace

from battlestudio.model.geometry import forward
from battlestudio.model.units import Arm, Formation, Unit
from battlestudio.replay.events import BattleEvent
from battlestudio.replay.flow_events import Moved, OrderStateChanged, UnitRemoved
from battlestudio.replay.state import GameState
from battlestudio.rules.actions import ActionHandler, ActionOutcome, ActionPreview, ActionRequest, ActionSpec
from battlestudio.rules.dice import DiceSource, RollRecord, success_probability
from battlestudio.rules.params import RuleParameters, RuleRefused
from battlestudio.rules.protocol import ParameterSpec
from battlestudio.rules.toe.common import march_length
from battlestudio.rules.toe.combat_marks import CombatMarked, mark_of, this_turn
from battlestudio.rules.toe.contact import (
    PHASE,
    host_moved,
    in_contact,
    on_table,
    reaction_modifiers,
    shelter_of,
    stamp_of,
)
from battlestudio.rules.toe.control import dice_spec


# ------------------------------------------------------------------------------ advance (7.3.1)
def _must_follow_up(state: GameState, u: Unit) -> bool:
    m = mark_of(state, u.id)
    if not (this_turn(state, m) and m.get("result") == "winner" and m.get("attacker")):
        return False
    if m.get("followed_up"):
        return False
    return m.get("arm") == Arm.CAVALRY.value or (
        m.get("arm") == Arm.INFANTRY.value and m.get("formation") == Formation.COLUMN.value
    )


def advance_spec(state: GameState, p: RuleParameters, subject: str) -> ActionSpec | None:
    """``advance`` offered to a winner that must follow up (7.3, 7.3.1)."""
    u = state.units.get(subject)
    if state.phase != PHASE or not on_table(state, u):
        return None
    assert u is not None
    if not _must_follow_up(state, u):
        return None
    m = mark_of(state, u.id)
    still = [
        o
        for o in m.get("opponents", ())
        if o in state.units and on_table(state, state.units[o]) and in_contact(p, u, state.units[o])
    ]
    why = ""
    if still:
        why = (
            f"{u.name} follows up only once the beaten enemy has fallen back "
            "(7.3.1 'umiddelbart efter modstanderens enhed har trukket sig tilbage')"
        )
    cap = int(p.get("follow_up_distance_cm"))
    return ActionSpec(
        "advance",
        "Follow up the vacated ground",
        "rømmet territorium",
        "7.3.1",
        "unit",
        (
            ParameterSpec(
                "follow_up",
                "choice",
                choices=("advance", "occupy", "continue"),
                label="advance, occupy a building or attack on",
            ),
            ParameterSpec(
                "distance_cm", "int", required=False, minimum=0, maximum=cap, label=f"advance (up to {cap} cm)"
            ),
            ParameterSpec("blocked", "bool", required=False, label="blocked short of the full advance"),
            ParameterSpec("to", "point", required=False, label="the building's position (occupy)"),
        ),
        (),
        why,
        "",
        "an infantry column or cavalry attacker that won must do one of these (7.3.1 'skal')",
    )


def advance_preview(state: GameState, req: ActionRequest, p: RuleParameters) -> ActionPreview:
    return ActionPreview("advance", req.subject, True, "", _advance(state, req, p)[0], assumed=tuple(p.assumptions()))


def _advance(state: GameState, req: ActionRequest, p: RuleParameters) -> tuple[str, list[BattleEvent]]:
    u = state.units[req.subject]
    stamp = stamp_of(state)
    how = str(req.parameters.get("follow_up", ""))
    cap = int(p.get("follow_up_distance_cm"))
    done = CombatMarked(**stamp, unit=u.id, mark={"followed_up": True})
    if how == "advance":
        d = req.parameters.get("distance_cm")
        exact = bool(p.get("follow_up_exact"))
        if d is None:
            d = cap
        if not isinstance(d, int | float) or isinstance(d, bool) or not 0 <= d <= cap:
            raise RuleRefused(f"advance: the winner advances up to {cap} cm (7.3.1 'op til 5 cm'), got {d!r}")
        if exact and d < cap and not req.parameters.get("blocked"):
            raise RuleRefused(f"advance: the follow-up is the full {cap} cm unless blocked (follow_up_exact, A30)")
        fx, fy = forward(u.facing)
        to = (u.position[0] + fx * d, u.position[1] + fy * d)
        text = f"{u.name} advances {d:g} cm straight ahead onto the vacated ground (7.3.1)"
        return text, [Moved(**stamp, id=u.id, path=(u.position, to)), done]
    if how == "occupy":
        to_raw = req.parameters.get("to")
        if not to_raw:
            raise RuleRefused("advance: occupying a building needs the building's position ('to')")
        to = (float(to_raw[0]), float(to_raw[1]))
        dist = math.dist(u.position, to)
        return f"{u.name} occupies the building {dist:.1f} cm away (7.3.1 'besætte bygning')", [
            Moved(**stamp, id=u.id, path=(u.position, to)),
            done,
        ]
    if how == "continue":
        return f"{u.name} makes a continued attack (7.3.1 'foretage fortsat angreb'; 7.5 is not in the rules text)", [
            done
        ]
    raise RuleRefused(f"advance: follow_up must be advance, occupy or continue, got {how!r}")


def advance_resolve(state: GameState, req: ActionRequest, p: RuleParameters, dice: DiceSource) -> ActionOutcome:
    """The winner's advance up to 5 cm, or its occupying a building or attacking on (7.3, 7.3.1)."""
    text, evs = _advance(state, req, p)
    return ActionOutcome("resolved", text, tuple(evs), (), tuple(p.assumptions()))


# ------------------------------------------------------------------------------ break off (7.3.2)
def _undecided_in_order(state: GameState, u: Unit) -> tuple[bool, str]:
    """Whether ``u`` fought an undecided melee this player-turn and both sides are still in the
    order state they fought in (7.3.2 "Hvis begge parter forbliver i oprindelig orden, efter
    moraltest"); else why not ("" when it fought no undecided melee)."""
    m = mark_of(state, u.id)
    if not (this_turn(state, m) and m.get("result") == "undecided"):
        return False, ""
    if m.get("broke_off"):
        return False, f"{u.name} has already tried to break off"
    for uid in (u.id, *m.get("opponents", ())):
        other = state.units.get(uid)
        if other is None or not on_table(state, other):
            continue
        before = mark_of(state, uid).get("state_before")
        if before is not None and other.state != before:
            return False, (
                f"{other.name} is in {other.state}, no longer in its original {before}: only when both stay in "
                "their original order may a unit break off (7.3.2)"
            )
    return True, ""


def break_off_spec(state: GameState, p: RuleParameters, subject: str) -> ActionSpec | None:
    """``break_off`` offered to a unit of an undecided melee (7.3, 7.3.2)."""
    u = state.units.get(subject)
    if state.phase != PHASE or not on_table(state, u):
        return None
    assert u is not None
    ok, why = _undecided_in_order(state, u)
    if not ok and not why:
        return None
    lost = (
        "" if reaction_modifiers(p, u, "break_off") is not None else "Table 3 (reaktionskast), toe.reaction_modifiers"
    )
    return ActionSpec(
        "break_off",
        "Break off the undecided melee",
        "afbryde nærkampen",
        "7.3.2, 5.2.2",
        "unit",
        (),
        (
            ParameterSpec("passed", "bool", label="reaction roll passed (d10 + Table 3 ≥ 6)"),
            ParameterSpec("state", "choice", required=False, choices=("O", "U", "FU"), label="order state after it"),
        ),
        why,
        lost,
        "a successful reaction roll lets the unit move back ½ march length; wanting to break off may change "
        "its order (the table is lost: the umpire enters the state)",
    )


def break_off_preview(state: GameState, req: ActionRequest, p: RuleParameters) -> ActionPreview:
    u = state.units[req.subject]
    mods = reaction_modifiers(p, u, "break_off")
    need = int(p.get("reaction_threshold"))
    if mods is None:
        return ActionPreview(
            "break_off",
            u.id,
            True,
            "",
            "Table 3 is not in the rules text: the umpire enters the roll",
            umpire_entry=True,
            assumed=tuple(p.assumptions()),
        )
    chance = success_probability(dice_spec(p), sum(m.value for m in mods), need)
    return ActionPreview(
        "break_off",
        u.id,
        True,
        "",
        f"d10 {sum(m.value for m in mods):+d} ≥ {need} (5.2.2)",
        (("breaks off", chance),),
        assumed=tuple(p.assumptions()),
    )


def break_off_resolve(state: GameState, req: ActionRequest, p: RuleParameters, dice: DiceSource) -> ActionOutcome:
    """The reaction roll to break off an undecided melee and the move back of ½ march length (7.3, 7.3.2)."""
    u = state.units[req.subject]
    stamp = stamp_of(state)
    need = int(p.get("reaction_threshold"))
    entry = dict(req.umpire_result or {})
    rolls: tuple[RollRecord, ...] = ()
    if entry:
        passed = bool(entry.get("passed"))
        word = "passed" if passed else "failed"
        text = f"the umpire's entry: the reaction roll {word} (Table 3 is not in the rules text)"
    else:
        mods = reaction_modifiers(p, u, "break_off")
        if mods is None:
            raise RuleRefused("break off: Table 3 (toe.reaction_modifiers) is not in the rules text; enter the roll")
        n = sum(1 for _ in mark_of(state, u.id).get("opponents", ()))
        purpose = f"toe-break-off:{u.id}:t{state.turn}:{state.side}:{n}"
        r = RollRecord(
            purpose,
            f"Reaction roll to break off, {u.name}",
            dice_spec(p),
            dice.roll(purpose, dice_spec(p)),
            mods,
            need,
            "5.2.2 'større end eller lig med 6'",
        )
        passed = r.total >= need
        r = replace(r, success=passed, outcome="breaks off" if passed else "stays in the melee")
        rolls = (r,)
        text = r.explain()
    evs: list[BattleEvent] = []
    state_after = entry.get("state")
    if state_after is not None and state_after not in ("O", "U", "FU"):
        raise RuleRefused(f"break off: state must be O, U or FU, got {state_after!r}")
    if state_after and state_after != u.state:
        evs.append(
            OrderStateChanged(
                **stamp, unit=u.id, state=str(state_after), reason="wanting to break off the melee (7.3.2)"
            )
        )
        text += f"; wanting to break off puts {u.name} in {state_after} (7.3.2, the umpire's entry)"
    if passed:
        back = march_length(p, u) / 2
        fx, fy = forward(u.facing)
        to = (u.position[0] - fx * back, u.position[1] - fy * back)
        evs.append(Moved(**stamp, id=u.id, path=(u.position, to)))
        text += f"; {u.name} moves back ½ march length, {back:g} cm (7.3.2 'rykke ½ marchlængde tilbage')"
    evs.append(CombatMarked(**stamp, unit=u.id, mark={"broke_off": True}))
    return ActionOutcome("resolved", text, tuple(evs), rolls, tuple(p.assumptions()))


# ------------------------------------------------------------------------------ battery lost (5.3.2)
def _lost_host(state: GameState, p: RuleParameters, b: Unit) -> tuple[Unit | None, str]:
    """The unit ``b`` sheltered in, if it lost a melee this player-turn, and why ``b`` is not
    destroyed yet ("" = it is: its unit moved away from it or left the fight, 5.3.2)."""
    host = shelter_of(state, b)
    if host is None:
        return None, ""
    m = mark_of(state, host.id)
    if not (this_turn(state, m) and m.get("result") == "loser"):
        return None, ""
    if not host_moved(state, b, host):
        return host, (
            f"{host.name} lost its melee but has not moved away from {b.name}: the battery is destroyed only if "
            "its unit must move away from the battery's position (5.3.2)"
        )
    return host, ""


def battery_lost_spec(state: GameState, p: RuleParameters, subject: str) -> ActionSpec | None:
    """``battery_lost`` offered to a battery whose unit, sheltering it, lost a melee (5.3, 5.3.2)."""
    b = state.units.get(subject)
    if state.phase != PHASE or not on_table(state, b):
        return None
    assert b is not None
    host, why = _lost_host(state, p, b)
    if host is None:
        return None
    return ActionSpec(
        "battery_lost",
        "Battery lost with its unit",
        "batterierne udslettet",
        "5.3.2",
        "unit",
        unavailable=why,
        note="the unit the battery sheltered in lost and moved away from the battery's position",
    )


def battery_lost_preview(state: GameState, req: ActionRequest, p: RuleParameters) -> ActionPreview:
    b = state.units[req.subject]
    host, why = _lost_host(state, p, b)
    if host is None or why:
        return ActionPreview("battery_lost", b.id, False, why or f"{b.name} sheltered in no unit that lost (5.3.2)")
    return ActionPreview("battery_lost", b.id, True, "", f"{b.name} is destroyed: {host.name} lost and moved away")


def battery_lost_resolve(state: GameState, req: ActionRequest, p: RuleParameters, dice: DiceSource) -> ActionOutcome:
    """The sheltered battery destroyed with its beaten unit (5.3, 5.3.2 "er batterierne udslettet")."""
    b = state.units[req.subject]
    host, why = _lost_host(state, p, b)
    if host is None or why:
        raise RuleRefused(why or f"battery lost: {b.name} sheltered in no unit that lost a melee (5.3.2)")
    stamp = stamp_of(state)
    reason = f"{host.name}, which {b.name} sheltered in, lost and moved away from the battery (5.3.2)"
    evs: list[BattleEvent] = [
        OrderStateChanged(**stamp, unit=b.id, state="eliminated", reason=reason),
        UnitRemoved(**stamp, id=b.id, reason="battery destroyed with its unit (5.3.2)"),
    ]
    return ActionOutcome("resolved", f"{b.name} is destroyed: {reason}", tuple(evs))


HANDLERS: tuple[ActionHandler, ...] = (
    ActionHandler("battery_lost", battery_lost_spec, battery_lost_preview, battery_lost_resolve),
    ActionHandler("advance", advance_spec, advance_preview, advance_resolve),
    ActionHandler("break_off", break_off_spec, break_off_preview, break_off_resolve),
)
