"""General d'Armée: the attack move (ПРОЦЕДУРА АТАКИ 2-5, ПРОВЕДЕНИЕ АТАКИ 4).

``attack_move``: the Forward! dice are rolled now (not before the declaration), the attacker
closes to 5 cm [3"] of the target by the shortest route towards its centre, its supports moving
with it and keeping their places; out of reach it moves its full distance, stops Unformed and
the attack is abandoned (ПРОЦЕДУРА АТАКИ 4); a passive side's attack whose target can no longer
be reached is cancelled (ПРОЦЕДУРА АТАКИ 1).
"""

from __future__ import annotations

import math


from shapely.affinity import translate

from battlestudio.model.units import Unit
from battlestudio.replay.events import BattleEvent
from battlestudio.replay.flow_events import Moved, OrderStateChanged
from battlestudio.replay.order_events import CommandStateChanged
from battlestudio.replay.state import GameState
from battlestudio.rules.actions import ActionHandler, ActionOutcome, ActionPreview, ActionRequest, ActionSpec
from battlestudio.rules.dice import DiceSource, DiceSpec, RollRecord
from battlestudio.rules.gda.attacks import attack_reach, brigade_of
from battlestudio.rules.gda.brigades import brigade_status
from battlestudio.rules.gda.geometry import distance_cm, unit_distance
from battlestudio.rules.gda.declaration import ATTACK_FLAG
from battlestudio.rules.params import RuleParameters
from battlestudio.rules.gda.declaration import declared_attack as _declared
from battlestudio.rules.gda.reactions import MOVE_RULE


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
    )


def move_preview(state: GameState, request: ActionRequest, params: RuleParameters) -> ActionPreview:
    found = _declared(state, request.subject)
    assert found is not None
    a, t, _ = found
    forward_task = "forward" in brigade_status(state, b).tasks if (b := brigade_of(state, a.id)) else False
    need, _ = closing_distance(a, t, distance_cm(params, "support_flank"))
    base = attack_reach(a, params, False)
    text = f"{a.id} must move {need:.1f} cm to stand 5 cm from {t.id}; normal move + attack bonus {base:.1f} cm"
    if forward_task:
        text += " + the Forward! dice, rolled now"
    return ActionPreview("attack_move", request.subject, True, explanation=text + f" ({MOVE_RULE}).")


def move_resolve(state: GameState, request: ActionRequest, params: RuleParameters, dice: DiceSource) -> ActionOutcome:
    found = _declared(state, request.subject)
    assert found is not None
    a, t, decl = found
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
    need, (ux, uy) = closing_distance(a, t, stop)
    gap = unit_distance(a, t)
    moved = min(need, reach)
    events: list[BattleEvent] = []
    holder = state.flags.get("initiative:holder")
    if need > reach + 1e-6 and holder and holder != a.side:  # ПРОЦЕДУРА АТАКИ 1: the passive side's attack
        value = {**dict(decl), "stage": "cancelled", "start_gap": round(gap, 2), "moved": 0.0}
        ev = CommandStateChanged(turn, side, phase, subject=a.id, state=ATTACK_FLAG, value=value, reason="cancelled")
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
        CommandStateChanged(
            turn,
            side,
            phase,
            subject=a.id,
            state=ATTACK_FLAG,
            value={**dict(decl), "stage": stage, "start_gap": round(gap, 2), "moved": round(moved, 2)},
            reason=f"attack move: {stage}",
        )
    )
    return ActionOutcome("resolved", text + ".", tuple(events), tuple(rolls), tuple(params.assumptions()))


HANDLERS = (ActionHandler("attack_move", move_spec, move_preview, move_resolve),)
