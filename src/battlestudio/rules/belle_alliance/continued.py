"""Belle Alliance's continued advance and continued attack (seed 001, 4.1.4) as actions of the
continued-advance phase: after every other attack is settled, a unit whose opponent went FU
announces a new attack on its old target or any other within half a march and one pivot of at
most 20° (``continued_attack``; no order roll), and moves its continued advance — half a march
at the rate last used, one pivot of at most 20° charged against it, stopping in the position it
attacked (``continued_advance``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from battlestudio.model.geometry import forward, rotate_point
from battlestudio.replay.events import BattleEvent, EventError, register
from battlestudio.replay.flow_events import Moved
from battlestudio.replay.state import GameState
from battlestudio.rules.actions import ActionHandler, ActionOutcome, ActionPreview, ActionRequest, ActionSpec
from battlestudio.rules.belle_alliance.attacks import check_continued_advance
from battlestudio.rules.belle_alliance.events import AttackAnnounced, _flags
from battlestudio.rules.belle_alliance.melee_plan import announced, event_stamp, whole
from battlestudio.rules.belle_alliance.retreat import still_to_withdraw
from battlestudio.rules.belle_alliance.paths import continued_attack_reach, position_status
from battlestudio.rules.dice import DiceSource
from battlestudio.rules.params import RuleParameters, RuleRefused
from battlestudio.rules.protocol import ParameterSpec


# -- continued_attack (4.1.4) -------------------------------------------------------------------
def _continued_spec(state: GameState, p: RuleParameters, subject: str) -> ActionSpec | None:
    if state.phase != "continued-advance" or subject not in state.units:
        return None
    right = state.flags.get(f"ba:continue:{subject}")
    if right is None or right.get("turn") != state.turn:
        return None
    why = ""
    rec = announced(state, subject)
    open_ = sorted(
        u
        for u in state.units
        if (r := announced(state, u)) is not None and not r.get("resolved") and not r.get("continued")
    )
    if rec is not None and rec.get("continued"):
        why = "4.1.4: its continued attack is already announced"
    elif still_to_withdraw(state):
        why = "4.1.4: decisions come after the retreats and routs; still to retreat: " + ", ".join(
            still_to_withdraw(state)
        )
    elif open_:
        why = "4.1.4: decisions on continued attacks come after all other attacks are fought; still open: " + ", ".join(
            open_
        )
    return ActionSpec(
        "continued_attack",
        "Continued attack",
        "fortsat angreb",
        "4.1.4",
        parameters=(
            ParameterSpec("target", "enemy_unit", note="the original target or any other within reach (4.1.4)"),
            ParameterSpec(
                "last_march_rate_cm", "int", minimum=1, note="the march rate last used in the movement phase (2.3.1)"
            ),
        ),
        unavailable=why,
    )


def _continued_check(state: GameState, request: ActionRequest, p: RuleParameters) -> str:
    target = str(request.parameters.get("target") or "")
    if target not in state.units or state.units[target].side == state.units[request.subject].side:
        raise RuleRefused(f"4.1.4: {target!r} is not an enemy unit")
    rate = whole(request.parameters.get("last_march_rate_cm"), "the last march rate")
    right = state.flags[f"ba:continue:{request.subject}"]
    ok, why = continued_attack_reach(
        state, request.subject, target, float(rate), p, str(right.get("opponent_state", "FU"))
    )
    if not ok:
        raise RuleRefused(why)
    return why


def _continued_preview(state: GameState, request: ActionRequest, p: RuleParameters) -> ActionPreview:
    return ActionPreview("continued_attack", request.subject, True, explanation=_continued_check(state, request, p))


def _continued_resolve(state: GameState, request: ActionRequest, p: RuleParameters, dice: DiceSource) -> ActionOutcome:
    why = _continued_check(state, request, p)
    ev = AttackAnnounced(
        **event_stamp(state), attacker=request.subject, target=str(request.parameters["target"]), continued=True
    )
    return ActionOutcome(
        "resolved",
        f"{request.subject} announces a continued attack, a new attack (4.1.4): {why}; no order roll (1.1.3)",
        (ev,),
    )


# -- continued_advance (4.1.4) ------------------------------------------------------------------
@register
@dataclass(frozen=True, slots=True)
class ContinuedAdvanced(BattleEvent):
    """4.1.4: ``unit`` has made its continued advance this turn (one a turn)."""

    kind = "ba_continued_advanced"
    unit: str = ""

    def apply(self, state: GameState) -> GameState:
        if self.unit not in state.units:
            raise EventError(self, f"no unit {self.unit!r}")
        return _flags(state, **{f"ba:advanced:{self.unit}": {"turn": self.turn}})

    def touched(self) -> tuple[str, ...]:
        return (self.unit,)


EVENT_TYPES: tuple[type[BattleEvent], ...] = (ContinuedAdvanced,)


def joins(state: GameState, subject: str) -> str:
    """4.1.7: the unit whose continued advance ``subject`` may join as its support this turn
    ("Støtteenheden kan deltage i den støttede enheds fortsatte fremrykning"), or ""."""
    for key, rec in state.flags.items():
        if key.startswith("ba:continue:") and rec.get("turn") == state.turn and rec.get("support") == subject:
            return key.removeprefix("ba:continue:")
    return ""


def _advance_spec(state: GameState, p: RuleParameters, subject: str) -> ActionSpec | None:
    if state.phase != "continued-advance" or subject not in state.units:
        return None
    right = state.flags.get(f"ba:continue:{subject}")
    if (right is None or right.get("turn") != state.turn) and not joins(state, subject):
        return None
    done = state.flags.get(f"ba:advanced:{subject}")
    open_ = sorted(
        u
        for u in state.units
        if (r := announced(state, u)) is not None and not r.get("resolved") and not r.get("continued")
    )
    why = ""
    if done is not None and done.get("turn") == state.turn:
        why = "4.1.4: it has made its continued advance this turn"
    elif still_to_withdraw(state):
        why = "4.1.4: the continued advance comes after the retreats and routs; still to retreat: " + ", ".join(
            still_to_withdraw(state)
        )
    elif open_:
        why = "4.1.4: the continued advance comes after all other attacks are fought; still open: " + ", ".join(open_)
    lead = joins(state, subject)
    return ActionSpec(
        "continued_advance",
        "Continued advance",
        "fortsat fremrykning",
        "4.1.4, 4.1.7" if lead else "4.1.4",
        parameters=(
            ParameterSpec(
                "last_march_rate_cm", "int", minimum=1, note="the march rate last used in the movement phase (2.3.1)"
            ),
            ParameterSpec("distance_cm", "int", minimum=0, note="straight ahead after the pivot, table cm"),
            ParameterSpec(
                "pivot_deg", "int", required=False, minimum=-90, maximum=90, note="one pivot, + = to the left (4.1.4)"
            ),
        ),
        unavailable=why,
        note=f"joins {lead}'s continued advance as its support (4.1.7); no continued attack" if lead else "",
    )


def _advance_plan(state: GameState, request: ActionRequest, p: RuleParameters) -> tuple[Moved, str]:
    """The move of a continued advance, checked (4.1.4, B-10, A20): half a march at the last
    march rate, one pivot of at most 20° about the front corner whose arc counts against it; an
    attack on a position stops in that position.

    Raises
    ------
    RuleRefused
        naming the limit the move breaks.
    """
    uid = request.subject
    u = state.units[uid]
    rate = whole(request.parameters.get("last_march_rate_cm"), "the last march rate")
    dist = whole(request.parameters.get("distance_cm"), "the distance")
    deg = whole(request.parameters.get("pivot_deg") or 0, "the pivot")
    r = u.rect()
    ok, why = check_continued_advance(float(dist), float(rate), [float(deg)] if deg else [], p, frontage_cm=r.width)
    if not ok:
        raise RuleRefused("; ".join(why))
    rec = announced(state, uid)
    if rec is not None and rec.get("against_position") and rec.get("position"):
        stop = float(str(position_status(state, u, rec["position"], p)["stop_cm"]))
        if dist > stop + 1e-6:
            raise RuleRefused(f"4.1.4: the attack was on a position: the continued advance stops in it ({stop:.1f} cm)")
    fl, fr, _, _ = r.corners()
    front = rotate_point(r.front, deg, fl if deg > 0 else fr) if deg else r.front
    facing = (r.facing + deg) % 360
    fx, fy = forward(facing)
    to = (round(front[0] + fx * dist, 3), round(front[1] + fy * dist, 3))
    arc = r.width * math.radians(abs(deg))
    half = float(p.get("continued_advance_factor")) * rate
    text = (
        f"{uid} makes its continued advance: "
        + (f"a pivot of {deg:+d}° ({arc:.1f} cm of arc) and " if deg else "")
        + f"{dist} cm straight ahead, {dist + arc:.1f} of {half:g} cm (4.1.4)"
    )
    return Moved(**event_stamp(state), id=uid, path=(to,), facing=facing), text


def _advance_preview(state: GameState, request: ActionRequest, p: RuleParameters) -> ActionPreview:
    return ActionPreview("continued_advance", request.subject, True, explanation=_advance_plan(state, request, p)[1])


def _advance_resolve(state: GameState, request: ActionRequest, p: RuleParameters, dice: DiceSource) -> ActionOutcome:
    move, text = _advance_plan(state, request, p)
    return ActionOutcome("resolved", text, (move, ContinuedAdvanced(**event_stamp(state), unit=request.subject)))


HANDLERS: tuple[ActionHandler, ...] = (
    ActionHandler("continued_attack", _continued_spec, _continued_preview, _continued_resolve),
    ActionHandler("continued_advance", _advance_spec, _advance_preview, _advance_resolve),
)
