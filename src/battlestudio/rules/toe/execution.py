"""Torden over Europa: carrying out a general's standing order in the movement phase as an
action (``rules.actions``): the general's longest legal move under his order (2.7-2.11,
``movement.legal_move``) and his troops following him (2.5), held to chapter 4 (``march``:
squares, FU units and unlimbered batteries stay; backwards at ½)."""

from __future__ import annotations

from dataclasses import replace

from battlestudio.replay.state import GameState
from battlestudio.rules.actions import ActionHandler, ActionOutcome, ActionPreview, ActionRequest, ActionSpec
from battlestudio.rules.dice import DiceSource
from battlestudio.rules.following import follow_moves, held_to_march
from battlestudio.rules.params import RuleParameters, RuleRefused
from battlestudio.rules.toe import march, movement
from battlestudio.rules.toe.common import standing_order

RULE = "2.5, 2.7-2.11, 4.4"


def _spec(state: GameState, p: RuleParameters, subject: str) -> ActionSpec | None:
    c = state.commanders.get(subject)
    if c is None or state.phase != "movement" or c.side != state.side or subject in state.off_table:
        return None
    spec = ActionSpec(
        "execute_order",
        "Carry out the standing order",
        term="udføre ordren",
        rule=RULE,
        subject_kind="commander",
        note="the general moves as far as his order lets him, his troops follow him (2.5)",
    )
    if standing_order(state, subject) is None:
        return replace(spec, unavailable=f"{c.name} has no standing order: he holds (2.8)")
    try:
        help_ = movement.legal_move(state, p, subject)
    except RuleRefused as exc:
        return replace(spec, unavailable=str(exc))
    if not help_.events:
        return replace(spec, unavailable=help_.explanation)
    return spec


def _preview(state: GameState, req: ActionRequest, p: RuleParameters) -> ActionPreview:
    help_ = movement.legal_move(state, p, req.subject)
    return ActionPreview(req.action, req.subject, True, explanation=help_.explanation)


def _resolve(state: GameState, req: ActionRequest, p: RuleParameters, dice: DiceSource) -> ActionOutcome:
    help_ = movement.legal_move(state, p, req.subject)
    events = list(help_.events)
    d = (help_.end[0] - help_.start[0], help_.end[1] - help_.start[1])
    troops = follow_moves(state, req.subject, d, table=req.table, turn=state.turn, side=state.side, phase=state.phase)
    towns = tuple(req.towns)
    held, notes = held_to_march(
        state, troops, lambda r: march.check_move(state, p, replace(r, towns=towns)), req.table, tuple(req.terrain)
    )
    moved = sum(1 for e in held if getattr(e, "id", "") != req.subject)
    text = f"{help_.explanation} {moved} units and generals follow him (2.5)."
    if notes:
        text += " " + " ".join(notes)
    return ActionOutcome("resolved", text, tuple(events + held))


HANDLERS = (ActionHandler("execute_order", _spec, _preview, _resolve),)
