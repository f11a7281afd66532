"""Belle Alliance: the loser's retreat or rout after a melee (seed 001, 4.1.4, 4.1.5) as the
``retreat`` action of the melee phases. The excerpt refers to retreat (5.3.1), rout (5.4.1) and
the spread of rout (skema 1) without giving them: the umpire says whether the loser retreats,
routs or stays and enters the distance; the program moves it straight away from the unit its
retreat is measured from (4.1.5: the defender's pick among equal results; A-reading: from that
unit's centre through the loser's centre, keeping its facing), and holds the continued advance
and continued attack back until every loser of the turn has done so (4.1.4: "efter, at alle
øvrige angreb er gennemført, herunder også retræte, flugt og medriven").

Records: ``ba:lost:<unit>`` in ``GameState.flags`` (turn, ``from``, ``result``, ``done``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from battlestudio.replay.events import BattleEvent, EventError, register
from battlestudio.replay.flow_events import Moved
from battlestudio.replay.state import GameState
from battlestudio.rules.actions import ActionHandler, ActionOutcome, ActionPreview, ActionRequest, ActionSpec
from battlestudio.rules.belle_alliance.events import _flags
from battlestudio.rules.belle_alliance.melee_plan import event_stamp, whole
from battlestudio.rules.dice import DiceSource
from battlestudio.rules.params import RuleParameters, RuleRefused
from battlestudio.rules.protocol import ParameterSpec

HOW = ("retreat", "rout", "stays")
RETREAT_TABLE = "5.3.1 retreat and 5.4.1 rout are not in the excerpt: the umpire enters the distance"


@register
@dataclass(frozen=True, slots=True)
class MeleeLost(BattleEvent):
    """4.1.3 / 4.1.5: ``unit`` lost a melee with morale result ``result``; its retreat or rout is
    measured from ``measured_from``."""

    kind = "ba_melee_lost"
    unit: str = ""
    measured_from: str = ""
    result: str = ""

    def apply(self, state: GameState) -> GameState:
        if self.unit not in state.units:
            raise EventError(self, f"no unit {self.unit!r}")
        rec = {"turn": self.turn, "from": self.measured_from, "result": self.result, "done": False}
        return _flags(state, **{f"ba:lost:{self.unit}": rec})

    def touched(self) -> tuple[str, ...]:
        return (self.unit,)


@register
@dataclass(frozen=True, slots=True)
class Withdrew(BattleEvent):
    """4.1.4: the loser ``unit`` has retreated, routed or stayed (``how``) after its melee."""

    kind = "ba_withdrew"
    unit: str = ""
    how: str = "retreat"

    def apply(self, state: GameState) -> GameState:
        key = f"ba:lost:{self.unit}"
        rec = state.flags.get(key)
        if rec is None:
            raise EventError(self, f"{self.unit!r} lost no melee")
        return _flags(state, **{key: {**rec, "done": True, "how": self.how}})

    def touched(self) -> tuple[str, ...]:
        return (self.unit,)


EVENT_TYPES: tuple[type[BattleEvent], ...] = (MeleeLost, Withdrew)


def still_to_withdraw(state: GameState) -> list[str]:
    """4.1.4: the losers of this turn's melees that have not yet retreated, routed or stayed."""
    return sorted(
        k.removeprefix("ba:lost:")
        for k, rec in state.flags.items()
        if k.startswith("ba:lost:") and rec.get("turn") == state.turn and not rec.get("done")
    )


def _spec(state: GameState, p: RuleParameters, subject: str) -> ActionSpec | None:
    if state.phase not in ("melee", "continued-advance") or subject not in state.units:
        return None
    rec = state.flags.get(f"ba:lost:{subject}")
    if rec is None or rec.get("turn") != state.turn or rec.get("done"):
        return None
    known = _known(p)
    return ActionSpec(
        "retreat",
        "Retreat or rout",
        "retræte / flugt",
        "4.1.4, 4.1.5",
        parameters=(ParameterSpec("how", "choice", choices=HOW, note="5.3.1 / 5.4.1: not in the excerpt"),),
        umpire_result=()
        if known
        else (ParameterSpec("distance_cm", "int", minimum=0, label="distance, table cm (5.3.1 / 5.4.1)"),),
        umpire_table="" if known else RETREAT_TABLE,
        note=f"lost its melee ({rec.get('result')}); measured from {rec.get('from')} (4.1.5)",
    )


def _known(p: RuleParameters) -> dict[str, float]:
    """The scenario's retreat and rout distances (``retreat_cm``, ``rout_cm``) when it gives
    both; empty until then (the umpire enters the distance)."""
    got = {how: p.lookup(f"{how}_cm") for how in ("retreat", "rout")}
    return {how: float(v[1]) for how, v in got.items() if v is not None} if all(got.values()) else {}


def _move(state: GameState, request: ActionRequest, p: RuleParameters) -> tuple[Moved | None, str]:
    uid = request.subject
    how = str(request.parameters.get("how") or "")
    if how not in HOW:
        raise RuleRefused(f"retreat: 'how' must be one of {', '.join(HOW)}, got {how!r}")
    rec = state.flags[f"ba:lost:{uid}"]
    if how == "stays":
        return None, f"{uid} stays where it is after losing its melee (the umpire's ruling)"
    known = _known(p)
    dist: float = known[how] if known else whole((request.umpire_result or {}).get("distance_cm", 0), "the distance")
    u, src = state.units[uid], state.units.get(str(rec.get("from")))
    if src is None:
        raise RuleRefused(f"4.1.5: {rec.get('from')!r}, the unit the retreat is measured from, is not on the table")
    (cx, cy), (sx, sy) = u.rect().centre, src.rect().centre
    n = math.hypot(cx - sx, cy - sy) or 1.0
    dx, dy = (cx - sx) / n * dist, (cy - sy) / n * dist
    to = (round(u.position[0] + dx, 3), round(u.position[1] + dy, 3))
    source = f"scenario parameter {how}_cm" if known else "the umpire's distance"
    text = f"{uid} {'routs' if how == 'rout' else 'retreats'} {dist:g} cm straight away from {src.id} (4.1.5; {source})"
    return Moved(**event_stamp(state), id=uid, path=(to,), facing=u.facing), text


def _preview(state: GameState, request: ActionRequest, p: RuleParameters) -> ActionPreview:
    return ActionPreview(
        "retreat", request.subject, True, explanation=_move(state, request, p)[1], umpire_entry=not _known(p)
    )


def _resolve(state: GameState, request: ActionRequest, p: RuleParameters, dice: DiceSource) -> ActionOutcome:
    move, text = _move(state, request, p)
    done = Withdrew(**event_stamp(state), unit=request.subject, how=str(request.parameters["how"]))
    return ActionOutcome("resolved", text, (*([move] if move else []), done))


HANDLER = ActionHandler("retreat", _spec, _preview, _resolve)
