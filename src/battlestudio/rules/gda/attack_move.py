"""General d'Armée: the attack move (ПРОЦЕДУРА АТАКИ 2-5, ПРОВЕДЕНИЕ АТАКИ 4).

``attack_move``: the Forward! dice are rolled now (not before the declaration), the attacker
closes to 5 cm [3"] of the target by the shortest route towards its centre, its supports moving
with it and keeping their places; out of reach it moves its full distance, stops Unformed and
the attack is abandoned (ПРОЦЕДУРА АТАКИ 4); a passive side's attack whose target can no longer
be reached is cancelled (ПРОЦЕДУРА АТАКИ 1).
"""

from __future__ import annotations

import math
from typing import Any
from collections.abc import Mapping


from shapely.affinity import translate
from shapely.geometry import LineString, Point as ShapelyPoint

from battlestudio.model.geometry import forward
from battlestudio.model.units import Arm
from battlestudio.replay.flow_events import Rotated

from battlestudio.model.units import Unit
from battlestudio.replay.events import BattleEvent
from battlestudio.replay.flow_events import Moved, OrderStateChanged
from battlestudio.replay.state import GameState
from battlestudio.rules.actions import ActionHandler, ActionOutcome, ActionPreview, ActionRequest, ActionSpec
from battlestudio.rules.dice import DiceSource, DiceSpec, RollRecord
from battlestudio.rules.gda.attacks import attack_reach, brigade_of
from battlestudio.rules.gda.brigades import brigade_status
from battlestudio.rules.gda.geometry import distance_cm, unit_distance, wheel_geometry, wheeled
from battlestudio.rules.gda.declaration import attack_flag_event
from battlestudio.rules.params import RuleParameters, RuleRefused
from battlestudio.rules.protocol import ParameterSpec
from battlestudio.rules.gda.declaration import declared_attack as _declared


MOVE_RULE = "ПРОЦЕДУРА АТАКИ 2-5; ПРОВЕДЕНИЕ АТАКИ 4"


def closing_distance(a: Unit, t: Unit, stop_cm: float) -> tuple[float, tuple[float, float]]:
    """How far ``a`` must go, and the unit direction, to stand ``stop_cm`` from ``t`` heading for
    its centre by the shortest route (ПРОВЕДЕНИЕ АТАКИ 4); 0 when it already is that close."""
    fp = a.footprint()
    c = t.footprint().centroid
    dx, dy = c.x - a.position[0], c.y - a.position[1]
    norm = math.hypot(dx, dy) or 1.0
    ux, uy = dx / norm, dy / norm
    if fp.distance(t.footprint()) <= stop_cm:
        return 0.0, (ux, uy)
    lo, hi = 0.0, norm
    for _ in range(60):
        mid = (lo + hi) / 2
        if translate(fp, mid * ux, mid * uy).distance(t.footprint()) > stop_cm:
            lo = mid
        else:
            hi = mid
    return lo, (ux, uy)


def attack_bonus(a: Unit, params: RuleParameters) -> float:
    """The attack bonus (cm) the wheel of ПРОЦЕДУРА АТАКИ 2 may use: 5 cm [3"] infantry, 10 cm [6"]
    cavalry (ОБЪЯВЛЕНИЕ АТАКИ)."""
    return distance_cm(params, "attack_bonus_cavalry" if a.arm is Arm.CAVALRY else "attack_bonus_infantry")


def straight_closing(a: Unit, t: Unit, stop_cm: float) -> float | None:
    """How far ``a`` must go straight ahead, perpendicular to its front, to stand ``stop_cm``
    from ``t`` (ПРОЦЕДУРА АТАКИ 2: «строго по прямой линии, перпендикулярной фронту»); None when
    that line from its centre misses ``t``."""
    fx, fy = forward(a.facing)
    far = 10_000.0
    ray = LineString([a.position, (a.position[0] + fx * far, a.position[1] + fy * far)])
    if not ray.intersects(t.footprint()):
        return None
    fp, target = a.footprint(), t.footprint()
    if fp.distance(target) <= stop_cm:
        return 0.0
    hit = float(ShapelyPoint(a.position).distance(ray.intersection(target)))
    lo, hi = 0.0, hit
    for _ in range(60):
        mid = (lo + hi) / 2
        if translate(fp, mid * fx, mid * fy).distance(target) > stop_cm:
            lo = mid
        else:
            hi = mid
    return lo


def _turn(request: ActionRequest) -> float:
    try:
        turn = float(request.parameters.get("wheel") or 0)
    except (TypeError, ValueError):
        raise RuleRefused("wheel: degrees of facing, a whole number") from None
    if not -180 <= turn <= 180:
        raise RuleRefused(f"wheel: {turn:g}° is not between -180 and 180")
    return turn


def _forward_task(state: GameState, a: Unit) -> bool:
    b = brigade_of(state, a.id)
    return b is not None and "forward" in brigade_status(state, b).tasks


def wheel_refusal(state: GameState, a: Unit, t: Unit, turn: float, params: RuleParameters) -> str:
    """Why ``a`` may not wheel by ``turn`` degrees before attacking ``t`` ("" when it may): the
    outer flank's travel must fit in the attack bonus (with Forward! the most its dice can add,
    Ambiguity 17), and the straight line ahead of the wheeled unit's centre must meet the target
    (ПРОЦЕДУРА АТАКИ 2)."""
    if not turn:
        return ""
    _, arc = wheel_geometry(a, turn)
    bonus = attack_bonus(a, params)
    most = bonus + (attack_reach(a, params, True) - attack_reach(a, params, False) if _forward_task(state, a) else 0.0)
    if arc > most + 1e-6:
        extra = " with the most the Forward! dice can add" if most > bonus else ""
        return (
            f"ПРОЦЕДУРА АТАКИ 2: the wheel by {turn:g}° moves the outer flank {arc:.1f} cm, more than the attack "
            f"bonus{extra} ({most:g} cm)"
        )
    pivot, _ = wheel_geometry(a, turn)
    if straight_closing(wheeled(a, pivot, turn), t, distance_cm(params, "support_flank")) is None:
        return (
            f"ПРОЦЕДУРА АТАКИ 2: after the wheel to {(a.facing + turn) % 360:g}° the straight line ahead of "
            f"{a.id}'s centre misses {t.id}"
        )
    return ""


def move_spec(state: GameState, params: RuleParameters, subject: str) -> ActionSpec | None:
    """Offered in the attacks phase for an attack declared and not yet moved or rolled."""
    if state.phase != "attacks":
        return None
    found = _declared(state, subject)
    if found is None or found[2].get("stage") != "declared":
        return None
    return ActionSpec(
        "attack_move",
        f"Attack move on {found[1].name or found[1].id}",
        term="Движение атаки",
        rule=MOVE_RULE,
        parameters=(
            ParameterSpec(
                "wheel",
                "int",
                required=False,
                minimum=-180,
                maximum=180,
                label="Wheel first by (degrees: + left, − right; 0 = no wheel)",
            ),
        ),
    )


def move_preview(state: GameState, request: ActionRequest, params: RuleParameters) -> ActionPreview:
    found = _declared(state, request.subject)
    assert found is not None
    a, t, _ = found
    turn = _turn(request)
    why = wheel_refusal(state, a, t, turn, params)
    if why:
        return ActionPreview("attack_move", request.subject, False, why)
    stop = distance_cm(params, "support_flank")
    base = attack_reach(a, params, False)
    if turn:
        pivot, arc = wheel_geometry(a, turn)
        need = straight_closing(wheeled(a, pivot, turn), t, stop) or 0.0
        text = (
            f"{a.id} wheels {turn:+g}° (outer flank {arc:.1f} cm of its {attack_bonus(a, params):g} cm attack bonus), "
            f"then must go {need:.1f} cm straight ahead to stand 5 cm from {t.id}; it has {base - arc:.1f} cm left"
        )
    else:
        need, _ = closing_distance(a, t, stop)
        text = f"{a.id} must move {need:.1f} cm to stand 5 cm from {t.id}; normal move + attack bonus {base:.1f} cm"
    if _forward_task(state, a):
        text += " + the Forward! dice, rolled now"
    return ActionPreview("attack_move", request.subject, True, explanation=text + f" ({MOVE_RULE}).")


def move_resolve(state: GameState, request: ActionRequest, params: RuleParameters, dice: DiceSource) -> ActionOutcome:
    found = _declared(state, request.subject)
    assert found is not None
    a, t, decl = found
    wheel_by = _turn(request)
    why = wheel_refusal(state, a, t, wheel_by, params)
    if why:
        raise RuleRefused(why)
    turn, side, phase = state.turn, state.side, state.phase
    b = brigade_of(state, a.id)
    reach = attack_reach(a, params, False)
    rolls: list[RollRecord] = []
    if b and "forward" in brigade_status(state, b).tasks:
        imperial = str(params.get("measurement")) == "imperial"
        n = int(params.get("forward_bonus_dice_imperial" if imperial else "forward_bonus_dice_metric"))
        spec = DiceSpec(n, 6)
        purpose = f"gda-forward:{a.id}:t{turn}"
        faces = dice.roll(purpose, spec)
        extra = sum(faces) * (2.54 if imperial else 1.0)
        rolls.append(RollRecord(purpose, f"Forward! bonus, {a.id}", spec, tuple(faces), outcome=f"+{extra:g} cm"))
        reach += extra
    stop = distance_cm(params, "support_flank")
    gap = unit_distance(a, t)
    if wheel_by:
        return _wheel_and_attack(state, a, t, decl, wheel_by, reach, rolls, params)
    need, (ux, uy) = closing_distance(a, t, stop)
    moved = min(need, reach)
    events: list[BattleEvent] = []
    holder = state.flags.get("initiative:holder")
    if need > reach + 1e-6 and holder and holder != a.side:  # ПРОЦЕДУРА АТАКИ 1: the passive side's attack
        ev = attack_flag_event(state, a.id, decl, "cancelled", stage="cancelled", start_gap=round(gap, 2), moved=0.0)
        text = (
            f"{a.name or a.id} is the passive side's attacker and {t.name or t.id} can no longer be reached "
            f"({need:.1f} cm needed, {reach:.1f} cm reach): the attack is cancelled (ПРОЦЕДУРА АТАКИ 1)."
        )
        return ActionOutcome("resolved", text, (ev,), tuple(rolls), tuple(params.assumptions()))
    movers = [a.id, *(s for s in dict(decl.get("positions", {})) if s in state.units)]
    if moved > 0:
        for uid in movers:
            u = state.units[uid]
            end = (u.position[0] + moved * ux, u.position[1] + moved * uy)
            events.append(Moved(turn, side, phase, id=uid, path=(u.position, end)))
    if need > reach + 1e-6:
        events.append(OrderStateChanged(turn, side, phase, unit=a.id, state="unformed", reason="attack out of reach"))
        stage, text = (
            "abandoned",
            (
                f"{a.id} needed {need:.1f} cm but reaches {reach:.1f} cm: it moves its full distance and stops "
                "Unformed; the attack is abandoned and the target may fire (ПРОЦЕДУРА АТАКИ 4)"
            ),
        )
    else:
        stage, text = (
            "closed",
            (
                f"{a.id} closes {moved:.1f} cm to 5 cm of {t.id} (reach {reach:.1f} cm), its supports keeping their "
                "places (ПРОВЕДЕНИЕ АТАКИ 4)"
            ),
        )
    events.append(
        attack_flag_event(
            state, a.id, decl, f"attack move: {stage}", stage=stage, start_gap=round(gap, 2), moved=round(moved, 2)
        )
    )
    return ActionOutcome("resolved", text + ".", tuple(events), tuple(rolls), tuple(params.assumptions()))


def _wheel_and_attack(
    state: GameState,
    a: Unit,
    t: Unit,
    decl: Mapping[str, Any],
    turn: float,
    reach: float,
    rolls: list[RollRecord],
    params: RuleParameters,
) -> ActionOutcome:
    """ПРОЦЕДУРА АТАКИ 2: the attacker and its supports wheel as one body about the leader's
    pivot, using the attack bonus (and the Forward! dice just rolled), then go straight ahead with
    what is left. A wheel the bonus cannot finish stops where the bonus runs out; a wheeled unit
    that cannot then reach the target has turned and the attack is cancelled («осуществляет
    поворот, но атака отменяется»), where it stands and Formed (``wheel_short`` "cancelled",
    assumed); "unformed" reads item 4 instead: it goes the rest of its move and stops Unformed."""
    turn_no, side, phase = state.turn, state.side, state.phase
    stop = distance_cm(params, "support_flank")
    gap = unit_distance(a, t)
    extra = reach - attack_reach(a, params, False)  # the Forward! dice rolled
    bonus = attack_bonus(a, params) + extra
    pivot, arc = wheel_geometry(a, turn)
    done = turn
    if arc > bonus + 1e-6:
        done = turn * bonus / arc
        arc = bonus
    movers = [a.id, *(s for s in dict(decl.get("positions", {})) if s in state.units)]
    after = {uid: wheeled(state.units[uid], pivot, done) for uid in movers}
    need = straight_closing(after[a.id], t, stop) if done == turn else None
    left = reach - arc
    events: list[BattleEvent] = []
    go = need is not None and need <= left + 1e-6
    reading = str(params.get("wheel_short"))
    if reading not in ("cancelled", "unformed"):
        raise RuleRefused(f"unknown wheel_short {reading!r} (cancelled or unformed)")
    run = (need if go else left if reading == "unformed" and done == turn else 0.0) or 0.0
    fx, fy = forward(after[a.id].facing)
    for uid in movers:
        u, w = state.units[uid], after[uid]
        end = (w.position[0] + fx * run, w.position[1] + fy * run) if run else w.position
        path = (u.position, w.position) if end == w.position else (u.position, w.position, end)
        events.append(Moved(turn_no, side, phase, id=uid, path=path))
        events.append(Rotated(turn_no, side, phase, id=uid, facing=round(w.facing, 6)))
    if go:
        assert need is not None
        stage = "closed"
        text = (
            f"{a.id} wheels {done:+g}° (outer flank {arc:.1f} cm of the attack bonus), then goes {need:.1f} cm "
            f"straight ahead to 5 cm of {t.id}, its supports wheeling with it and keeping their places "
            "(ПРОЦЕДУРА АТАКИ 2; ПРОВЕДЕНИЕ АТАКИ 4)"
        )
        moved = arc + need
    else:
        stage = "turned"
        short = (
            f"the bonus ({bonus:g} cm) finishes only {done:+.1f}° of the {turn:+g}° wheel"
            if done != turn
            else f"{need:.1f} cm straight ahead are needed and {left:.1f} cm are left"
            if need is not None
            else "the line ahead misses the target"
        )
        if run:  # wheel_short "unformed": ПРОЦЕДУРА АТАКИ 4 after the wheel
            stage = "abandoned"
            events.append(
                OrderStateChanged(turn_no, side, phase, unit=a.id, state="unformed", reason="attack out of reach")
            )
            text = (
                f"{a.id} wheels towards {t.id} but {short}: it goes its remaining {run:.1f} cm, stops Unformed "
                "and the attack is abandoned (ПРОЦЕДУРА АТАКИ 2, 4; wheel_short unformed)"
            )
        else:
            text = (
                f"{a.id} wheels towards {t.id} but {short}: it has turned and the attack is cancelled "
                "(ПРОЦЕДУРА АТАКИ 2)"
            )
        moved = arc + run
    events.append(
        attack_flag_event(
            state,
            a.id,
            decl,
            f"attack move: wheel, {stage}",
            stage=stage,
            start_gap=round(gap, 2),
            moved=round(moved, 2),
            wheel=round(done, 2),
        )
    )
    return ActionOutcome("resolved", text + ".", tuple(events), tuple(rolls), tuple(params.assumptions()))


HANDLERS = (ActionHandler("attack_move", move_spec, move_preview, move_resolve),)
