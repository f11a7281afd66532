"""Belle Alliance's fire phase as far as the melee needs it (seed 001, 4.1.1, 4.1.3): the fire
rules (chapter 3) are not in the excerpt, so the umpire enters what a unit's fire did — the
target's losses in figures and its state after the fire — and the program records that the
firer fired this turn ("en enhed, der har skudt i dette træk, selvom kun en del af enheden har
skudt", the skema 8 deduction of 4.1.3) and the target's new state (a target that goes U or FU
in the fire phase at break-in distance is not fought, 4.1.1).

The record is ``ba:fired:<unit>`` in ``GameState.flags`` with the turn it fired in.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from battlestudio.replay.combat_events import Fired
from battlestudio.replay.events import BattleEvent, EventError, register
from battlestudio.replay.flow_events import OrderStateChanged
from battlestudio.replay.state import GameState
from battlestudio.rules.actions import ActionHandler, ActionOutcome, ActionPreview, ActionRequest, ActionSpec
from battlestudio.rules.belle_alliance.events import _flags
from battlestudio.rules.belle_alliance.melee_plan import STATES, event_stamp, fired_this_turn, whole
from battlestudio.rules.dice import DiceSource
from battlestudio.rules.losses import loss_event
from battlestudio.rules.params import RuleParameters, RuleRefused
from battlestudio.rules.protocol import ParameterSpec

FIRE_TABLE = "chapter 3 (fire) is not in the excerpt: the umpire enters the target's losses and state"


@register
@dataclass(frozen=True, slots=True)
class FiredThisTurn(BattleEvent):
    """4.1.3: ``unit`` fired this turn, wholly or (``part``) only in part; it takes the melee
    deduction for the rest of the turn."""

    kind = "ba_fired"
    unit: str = ""
    part: bool = False

    def apply(self, state: GameState) -> GameState:
        if self.unit not in state.units:
            raise EventError(self, f"no unit {self.unit!r}")
        return _flags(state, **{f"ba:fired:{self.unit}": {"turn": self.turn, "part": self.part}})

    def touched(self) -> tuple[str, ...]:
        return (self.unit,)


EVENT_TYPES: tuple[type[BattleEvent], ...] = (FiredThisTurn,)


def _spec(state: GameState, p: RuleParameters, subject: str) -> ActionSpec | None:
    if state.phase != "fire" or subject not in state.units:
        return None
    u = state.units[subject]
    why = ""
    if u.state == "eliminated" or subject in state.off_table:
        why = f"{subject} is not on the table"
    elif fired_this_turn(state, subject):
        why = f"{subject} has already fired this turn"
    return ActionSpec(
        "fire",
        "Fire",
        "skydning",
        "4.1.1, 4.1.3 (chapter 3 not in the excerpt)",
        parameters=(
            ParameterSpec("target", "enemy_unit", note="the unit fired at"),
            ParameterSpec("part", "bool", required=False, label="only part of the unit fired (4.1.3)"),
        ),
        umpire_result=(
            ParameterSpec("losses", "int", minimum=0, label="the target's losses, figures (chapter 3)"),
            ParameterSpec("target_state", "choice", choices=STATES, label="the target's state after the fire"),
        ),
        umpire_table=FIRE_TABLE,
        unavailable=why,
    )


def _target(state: GameState, request: ActionRequest) -> str:
    target = str(request.parameters.get("target") or "")
    if target not in state.units or state.units[target].side == state.units[request.subject].side:
        raise RuleRefused(f"fire: {target!r} is not an enemy unit")
    return target


def _preview(state: GameState, request: ActionRequest, p: RuleParameters) -> ActionPreview:
    target = _target(state, request)
    return ActionPreview(
        "fire",
        request.subject,
        True,
        explanation=(
            f"{request.subject} fires at {target}; it takes the melee deduction for having fired this turn "
            f"even if only part of it fired (4.1.3). {FIRE_TABLE}"
        ),
        umpire_entry=True,
    )


def _resolve(state: GameState, request: ActionRequest, p: RuleParameters, dice: DiceSource) -> ActionOutcome:
    target = _target(state, request)
    res: dict[str, Any] = dict(request.umpire_result or {})
    figures = whole(res.get("losses", 0), "the target's losses")
    new = str(res.get("target_state", ""))
    if new not in STATES:
        raise RuleRefused(f"the target's state after the fire must be one of {', '.join(STATES)}, got {new!r}")
    stamp = event_stamp(state)
    part = bool(request.parameters.get("part"))
    text = (
        f"{request.subject} fired at {target}{' (only part of it)' if part else ''}: {figures} figures lost, "
        f"{target} {new}; {request.subject} takes the fired-this-turn deduction in melee (4.1.3)"
    )
    events: list[BattleEvent] = [
        Fired(**stamp, unit=request.subject, target=target, result=f"{figures} figures", explanation=text),
        FiredThisTurn(**stamp, unit=request.subject, part=part),
    ]
    if figures:
        events.append(loss_event(state, target, figures, "fire (umpire's entry, chapter 3)", stamp))
    if new != state.units[target].state:
        events.append(OrderStateChanged(**stamp, unit=target, state=new, reason="fire (umpire's entry), 4.1.1"))
    return ActionOutcome("resolved", text, tuple(events))


HANDLER = ActionHandler("fire", _spec, _preview, _resolve)
