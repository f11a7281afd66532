"""Belle Alliance's continued attack (seed 001, 4.1.4) as an action of the continued-advance
phase: after every other attack is settled, a unit whose opponent went FU announces a new attack
on its old target or any other within half a march and one pivot of at most 20°; no order roll.
"""

from __future__ import annotations

from battlestudio.replay.state import GameState
from battlestudio.rules.actions import ActionHandler, ActionOutcome, ActionPreview, ActionRequest, ActionSpec
from battlestudio.rules.belle_alliance.events import AttackAnnounced
from battlestudio.rules.belle_alliance.melee_plan import announced, event_stamp, whole
from battlestudio.rules.belle_alliance.paths import continued_attack_reach
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


HANDLERS: tuple[ActionHandler, ...] = (
    ActionHandler("continued_attack", _continued_spec, _continued_preview, _continued_resolve),
)
