"""Belle Alliance: announcing an attack (movement phase, 4.1.1-4.1.2: checked against the order
sheet; storm and position announced), the opponent demanding an unannounced attack (4.1.1) and
the intervening unit reached first (4.1.2), as actions; the melee itself is ``melee``."""

from __future__ import annotations

from typing import Any

from battlestudio.replay.events import BattleEvent
from battlestudio.replay.state import GameState
from battlestudio.rules.actions import ActionHandler, ActionOutcome, ActionPreview, ActionRequest, ActionSpec
from battlestudio.rules.belle_alliance.attacks import (
    DISORDERED,
    Announcement,
    attack_order,
    check_announcement,
    written_attack_order,
)
from battlestudio.rules.belle_alliance.events import AttackAnnounced, AttackSettled
from battlestudio.rules.belle_alliance.geometry import at_break_in, stands_in_zone
from battlestudio.rules.dice import DiceSource
from battlestudio.rules.params import RuleParameters, RuleRefused
from battlestudio.rules.protocol import ParameterSpec

from battlestudio.rules.belle_alliance.melee_plan import YES, announced, event_stamp


# -- announce_attack (4.1.1, 4.1.2) -------------------------------------------------------------
def _announce_spec(state: GameState, p: RuleParameters, subject: str) -> ActionSpec | None:
    if state.phase != "movement" or subject not in state.units or state.units[subject].side != state.side:
        return None
    order = attack_order(state, subject)
    why = ""
    if order is None:
        if written_attack_order(state, subject) is None:
            return None
        why = "4.1.1: its attack order was never passed by an order roll (1.1.3): it is not in force"
    elif state.units[subject].state in DISORDERED:
        why = f"4.1.1: it is in {state.units[subject].state}: it may only close to break-in distance"
    elif announced(state, subject) is not None:
        why = "4.1.1: its attack is already announced this turn"
    return ActionSpec(
        "announce_attack",
        "Announce attack",
        "melding af angreb",
        "4.1.1, 4.1.2",
        parameters=(
            ParameterSpec("target", "enemy_unit", required=False, note="the order sheet's target (4.1.1)"),
            ParameterSpec("storm", "choice", required=False, choices=YES, note="storm or not (4.1.1)"),
            ParameterSpec(
                "against_position", "choice", required=False, choices=YES, note="against the position (4.1.2)"
            ),
        ),
        unavailable=why,
    )


def _yes(v: Any) -> bool:
    return v is True or (isinstance(v, str) and v.strip().lower() in ("yes", "true", "1"))


def _announcement(state: GameState, request: ActionRequest) -> tuple[Announcement, list[str]]:
    order = attack_order(state, request.subject)
    assert order is not None
    target = request.parameters.get("target") or order.parameters.get("target")
    ann = Announcement(
        request.subject, target, _yes(request.parameters.get("storm")), _yes(request.parameters.get("against_position"))
    )
    return ann, check_announcement(state, ann)[1]


def _start(state: GameState, *ids: str | None) -> dict[str, tuple[float, float, float]]:
    """Where ``ids`` stand now, ``id -> (x, y, facing)``."""
    out = {}
    for i in ids:
        if i and i in state.units:
            u = state.units[i]
            out[i] = (float(u.position[0]), float(u.position[1]), float(u.facing))
    return out


def _announce_preview(state: GameState, request: ActionRequest, p: RuleParameters) -> ActionPreview:
    ann, reasons = _announcement(state, request)
    if reasons:
        return ActionPreview("announce_attack", request.subject, False, "; ".join(reasons))
    what = f"the position of {ann.target}" if ann.against_position else f"{ann.target} itself"
    return ActionPreview(
        "announce_attack",
        request.subject,
        True,
        explanation=f"{request.subject} announces an attack on {what}{' with storm' if ann.storm else ''} (4.1.1)",
    )


def _announce_resolve(state: GameState, request: ActionRequest, p: RuleParameters, dice: DiceSource) -> ActionOutcome:
    ann, reasons = _announcement(state, request)
    if reasons:
        raise RuleRefused("; ".join(reasons))
    position: tuple[tuple[float, float], ...] = ()
    if ann.against_position and ann.target:
        position = tuple((float(x), float(y)) for x, y in state.units[ann.target].footprint().exterior.coords)
    ev = AttackAnnounced(
        **event_stamp(state),
        attacker=ann.attacker,
        target=str(ann.target or ""),
        storm=ann.storm,
        against_position=ann.against_position,
        position=position,
        start=_start(state, ann.attacker, ann.target),
    )
    what = f"the position of {ann.target} (recorded now, B-7)" if ann.against_position else f"{ann.target} itself"
    sheet = attack_order(state, ann.attacker)
    note = ""
    if sheet is not None and sheet.parameters.get("against_position") and not ann.against_position:
        note = "; the sheet's position was not announced, so it is an attack on the unit (4.1.2)"
    return ActionOutcome(
        "resolved",
        f"{ann.attacker} announces an attack on {what}{', with storm' if ann.storm else ''} (4.1.1){note}",
        (ev,),
    )


# -- demand_attack (4.1.1) and intervening (4.1.2) ------------------------------------------------
def _at_break_in_of(state: GameState, uid: str, p: RuleParameters) -> list[str]:
    depth, eps = float(p.get("break_in_depth_cm")), float(p.get("touch_eps_cm"))
    u = state.units[uid]
    return sorted(
        e.id
        for e in state.units.values()
        if e.side != u.side
        and e.id not in state.off_table
        and (at_break_in(u.rect(), e.rect(), depth, eps) or stands_in_zone(e.rect(), u.rect(), depth))
    )


def _demand_spec(state: GameState, p: RuleParameters, subject: str) -> ActionSpec | None:
    """4.1.1: "medmindre modstanderen kræver, at angrebet gennemføres" — offered in the melee
    phase for a unit with an attack order in force, not announced, at break-in distance of its
    sheet's target; the opponent (any side but the unit's) demands it."""
    if state.phase != "melee" or subject not in state.units or announced(state, subject) is not None:
        return None
    order = attack_order(state, subject)
    if order is None or order.parameters.get("target") not in _at_break_in_of(state, subject, p):
        return None
    why = ""
    if state.units[subject].state in DISORDERED:
        why = f"4.1.1: {subject} is in {state.units[subject].state}: it may not attack"
    return ActionSpec(
        "demand_attack",
        "Demand the attack be fought",
        "kræve angrebet gennemført",
        "4.1.1",
        unavailable=why,
        note=f"{subject} reached break-in distance of {order.parameters.get('target')} without announcing",
    )


def _demand_preview(state: GameState, request: ActionRequest, p: RuleParameters) -> ActionPreview:
    order = attack_order(state, request.subject)
    assert order is not None
    return ActionPreview(
        "demand_attack",
        request.subject,
        True,
        explanation=f"the opponent demands that {request.subject}'s attack on {order.parameters.get('target')} "
        "be fought (4.1.1); it is an attack on the unit (4.1.2)",
    )


def _demand_resolve(state: GameState, request: ActionRequest, p: RuleParameters, dice: DiceSource) -> ActionOutcome:
    order = attack_order(state, request.subject)
    assert order is not None
    target = str(order.parameters.get("target"))
    ev = AttackAnnounced(**event_stamp(state), attacker=request.subject, target=target)
    return ActionOutcome(
        "resolved",
        f"the opponent demands {request.subject}'s unannounced attack on {target}: it is fought (4.1.1)",
        (ev,),
    )


def _intervening_spec(state: GameState, p: RuleParameters, subject: str) -> ActionSpec | None:
    """4.1.2: an attacker whose break-in zone reaches another enemy before its target attacks
    that unit instead (as an attack on the unit), or cancels; offered in the movement phase."""
    if state.phase != "movement" or subject not in state.units:
        return None
    rec = announced(state, subject)
    if rec is None or rec.get("resolved") or rec.get("continued"):
        return None
    reached = _at_break_in_of(state, subject, p)
    others = [e for e in reached if e != rec.get("target")]
    if not others or rec.get("target") in reached:
        return None
    return ActionSpec(
        "intervening",
        "Intervening unit",
        "angreb mod anden enhed",
        "4.1.2",
        parameters=(
            ParameterSpec("choice", "choice", choices=("switch", "cancel"), note="attack it instead, or cancel"),
            ParameterSpec("unit", "enemy_unit", required=False, choices=tuple(others), note="the unit reached"),
        ),
        note=f"{subject} reached break-in distance of {', '.join(others)} before its target {rec.get('target')}",
    )


def _intervening_plan(state: GameState, request: ActionRequest, p: RuleParameters) -> tuple[str, str]:
    rec = announced(state, request.subject)
    assert rec is not None
    others = [e for e in _at_break_in_of(state, request.subject, p) if e != rec.get("target")]
    choice = str(request.parameters.get("choice", ""))
    if choice not in ("switch", "cancel"):
        raise RuleRefused(f"4.1.2: switch to the intervening unit or cancel, not {choice!r}")
    unit = str(request.parameters.get("unit") or others[0])
    if unit not in others:
        raise RuleRefused(f"4.1.2: {request.subject} is not at break-in distance of {unit}")
    return choice, unit


def _intervening_preview(state: GameState, request: ActionRequest, p: RuleParameters) -> ActionPreview:
    choice, unit = _intervening_plan(state, request, p)
    return ActionPreview("intervening", request.subject, True, explanation=f"{choice} ({unit}, 4.1.2)")


def _intervening_resolve(
    state: GameState, request: ActionRequest, p: RuleParameters, dice: DiceSource
) -> ActionOutcome:
    choice, unit = _intervening_plan(state, request, p)
    stamp = event_stamp(state)
    rec = announced(state, request.subject)
    assert rec is not None
    if choice == "cancel":
        ev: BattleEvent = AttackSettled(**stamp, attacker=request.subject, cancelled=f"4.1.2: cancelled at {unit}")
        return ActionOutcome(
            "resolved",
            f"{request.subject} cancels its attack on reaching {unit} (4.1.2): {unit} is not stopped (4.1.1)",
            (ev,),
        )
    ev = AttackAnnounced(**stamp, attacker=request.subject, target=unit, storm=bool(rec.get("storm")))
    return ActionOutcome(
        "resolved",
        f"{request.subject}'s attack goes against {unit} instead, an attack on the unit itself, "
        "not its position (4.1.2)",
        (ev,),
    )


HANDLERS: tuple[ActionHandler, ...] = (
    ActionHandler("demand_attack", _demand_spec, _demand_preview, _demand_resolve),
    ActionHandler("intervening", _intervening_spec, _intervening_preview, _intervening_resolve),
    ActionHandler("announce_attack", _announce_spec, _announce_preview, _announce_resolve),
)
