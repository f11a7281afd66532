"""Regimental move, deploy and skirmish-chain actions (Перемещение; Артиллерия; Застрельщики).

A move action goes up to the unit's rate (``movement.allowance``) and may take up a formation
(«приказ на движение и развертывание в определенные боевые порядки»). The woods, hills and
fords the straight path crosses come from the scenario's terrain (``ActionRequest.terrain``);
``crosses`` adds what the map does not show (the umpire's ruling). Foot artillery that moved must spend an
action to deploy before it fires; skirmishers spend one to form a chain.
"""

from __future__ import annotations

import math
from typing import Any

from shapely.geometry import LineString

from battlestudio.model.terrain import TerrainFeature
from battlestudio.model.units import Arm, Formation, Subtype
from battlestudio.replay.events import BattleEvent
from battlestudio.replay.flow_events import FormationChanged, Moved
from battlestudio.replay.order_events import CommandStateChanged
from battlestudio.replay.state import GameState
from battlestudio.rules.actions import ActionHandler, ActionOutcome, ActionPreview, ActionRequest, ActionSpec
from battlestudio.rules.dice import DiceSource
from battlestudio.rules.params import RuleParameters, RuleRefused
from battlestudio.rules.protocol import ParameterSpec
from battlestudio.rules.regimental.common import (
    disorganise,
    disorganised,
    is_skirmishers,
    move_rate,
    name,
    next_slot,
    slot_event,
    stamp,
)
from battlestudio.rules.regimental.movement import allowance, crossing_of

MOVES = "regimental_moves"
CROSSES = ("woods", "hill", "ford")
FORMATIONS = tuple(f.value for f in Formation if f is not Formation.NONE)


def _point(v: Any) -> tuple[float, float]:
    try:
        x, y = v
        return float(x), float(y)
    except (TypeError, ValueError):
        raise RuleRefused(f"'to' must be a point (x, y) in cm, got {v!r}") from None


def _crossing(req: ActionRequest) -> dict[str, str]:
    raw = req.parameters.get("crosses", ()) or ()
    kinds = (raw,) if isinstance(raw, str) else tuple(raw)
    bad = [k for k in kinds if k not in CROSSES]
    if bad:
        raise RuleRefused(f"crosses: {bad[0]!r} is not one of {', '.join(CROSSES)}")
    return {k: "on the path" for k in kinds}


def _offered(state: GameState, subject: str, kind: str) -> tuple[Any, str] | None:
    u = state.units.get(subject)
    if u is None or state.phase != "activation":
        return None
    if disorganised(u) and is_skirmishers(u):
        return u, "disorganised skirmishers may do nothing but reform (Застрельщики)"
    _, _, why = next_slot(state, subject, kind)
    return u, why


def move_spec(state: GameState, p: RuleParameters, subject: str) -> ActionSpec | None:
    got = _offered(state, subject, "move")
    if got is None:
        return None
    u, why = got
    return ActionSpec(
        "move",
        "Move",
        "Перемещение",
        "Перемещение (3.1)",
        parameters=(
            ParameterSpec("to", "point", max_distance_cm=move_rate(u, p), label="To"),
            ParameterSpec(
                "crosses",
                "choice",
                required=False,
                choices=CROSSES,
                multiple=3,
                label="The path also crosses (not on the map)",
            ),
            ParameterSpec("formation", "choice", required=False, choices=FORMATIONS, label="Take up formation"),
        ),
        unavailable=why,
    )


def _plan(state: GameState, req: ActionRequest, p: RuleParameters) -> tuple[float, list[str], bool]:
    u = state.units[req.subject]
    to = _point(req.parameters.get("to"))
    d = math.hypot(to[0] - u.position[0], to[1] - u.position[1])
    # the map's woods, hills and fords on the straight path, and any the umpire adds (Перемещение)
    crossing = crossing_of(LineString([u.position, to]), [f for f in req.terrain if isinstance(f, TerrainFeature)])
    for k, v in _crossing(req).items():
        crossing.setdefault(k, v)
    allowed, legal, dis, reasons = allowance(u, crossing, p)
    if not legal:
        raise RuleRefused("; ".join(reasons[1:]))
    if d > float(allowed) + 1e-6:
        raise RuleRefused(f"{u.name or u.id} may move {float(allowed):g} cm ({'; '.join(reasons)}), not {d:.1f} cm")
    f = req.parameters.get("formation")
    if f and f not in FORMATIONS:
        raise RuleRefused(f"formation {f!r} is not one of {', '.join(FORMATIONS)}")
    return d, reasons, dis


def move_preview(state: GameState, req: ActionRequest, p: RuleParameters) -> ActionPreview:
    d, reasons, dis = _plan(state, req, p)
    text = f"{name(state, req.subject)} moves {d:.1f} cm: " + "; ".join(reasons)
    return ActionPreview("move", req.subject, True, "", text + ("; it becomes disorganised" if dis else ""))


def move_resolve(state: GameState, req: ActionRequest, p: RuleParameters, dice: DiceSource) -> ActionOutcome:
    u = state.units[req.subject]
    d, reasons, dis = _plan(state, req, p)
    slot, f, why = next_slot(state, u.id, "move")
    if why:
        raise RuleRefused(why)
    to = _point(req.parameters.get("to"))
    events: list[BattleEvent] = [
        slot_event(state, u.id, f, slot, "move"),
        Moved(**stamp(state), id=u.id, path=((u.position[0], u.position[1]), to)),
    ]
    form = req.parameters.get("formation")
    if form and form != u.formation.value:
        events.append(FormationChanged(**stamp(state), unit=u.id, formation=str(form)))
    if dis:
        events += disorganise(state, u.id, "moved through a wood (Перемещение)")
    if u.subtype is Subtype.FOOT_ARTILLERY:
        events.append(
            CommandStateChanged(
                **stamp(state),
                subject=u.id,
                state=MOVES,
                value={"turn": state.turn, "formation": f, "deployed": False},
                reason="foot artillery moved: it deploys before it fires (Артиллерия)",
            )
        )
    text = f"{u.name or u.id} moves {d:.1f} cm (action {slot + 1} of {f}'s activation): " + "; ".join(reasons)
    return ActionOutcome("resolved", text + ".", tuple(events), assumed=tuple(p.assumptions()))


def deploy_spec(state: GameState, p: RuleParameters, subject: str) -> ActionSpec | None:
    """Foot artillery only: «Пешая артиллерия после передвижения, должна потратить действие на развертывание»."""
    u = state.units.get(subject)
    if u is None or u.subtype is not Subtype.FOOT_ARTILLERY:
        return None
    got = _offered(state, subject, "deploy")
    if got is None:
        return None
    _, why = got
    rec = state.flags.get(f"{MOVES}:{subject}")
    moved = isinstance(rec, dict) and rec.get("turn") == state.turn and not rec.get("deployed")
    if not why and not moved and u.formation is not Formation.LIMBERED:
        why = f"{u.name or subject} has not moved and is not limbered: nothing to deploy (Артиллерия)"
    return ActionSpec("deploy", "Deploy", "Развертывание", "Артиллерия", unavailable=why)


def deploy_preview(state: GameState, req: ActionRequest, p: RuleParameters) -> ActionPreview:
    return ActionPreview(
        "deploy", req.subject, True, "", f"{name(state, req.subject)} deploys and may fire (Артиллерия)"
    )


def deploy_resolve(state: GameState, req: ActionRequest, p: RuleParameters, dice: DiceSource) -> ActionOutcome:
    slot, f, why = next_slot(state, req.subject, "deploy")
    if why:
        raise RuleRefused(why)
    events: list[BattleEvent] = [
        slot_event(state, req.subject, f, slot, "deploy"),
        CommandStateChanged(
            **stamp(state),
            subject=req.subject,
            state=MOVES,
            value={"turn": state.turn, "formation": f, "deployed": True},
            reason="deployed (Артиллерия)",
        ),
    ]
    if state.units[req.subject].formation is not Formation.UNLIMBERED:
        events.append(FormationChanged(**stamp(state), unit=req.subject, formation=Formation.UNLIMBERED.value))
    return ActionOutcome(
        "resolved", f"{name(state, req.subject)} deploys (action {slot + 1}; Артиллерия).", tuple(events)
    )


def chain_spec(state: GameState, p: RuleParameters, subject: str) -> ActionSpec | None:
    """Skirmishers «выдвинуться вперед и сформировать стрелковую цепь, потратив на это одно действие»."""
    u = state.units.get(subject)
    if u is None or u.subtype is not Subtype.SKIRMISHERS or u.arm is not Arm.INFANTRY:
        return None
    got = _offered(state, subject, "skirmish_chain")
    if got is None:
        return None
    _, why = got
    if not why and u.formation is Formation.SKIRMISH:
        why = f"{u.name or subject} is already in a skirmish chain"
    return ActionSpec(
        "skirmish_chain",
        "Form a skirmish chain",
        "стрелковая цепь",
        "Застрельщики",
        parameters=(ParameterSpec("to", "point", required=False, max_distance_cm=move_rate(u, p), label="Forward to"),),
        unavailable=why,
    )


def chain_preview(state: GameState, req: ActionRequest, p: RuleParameters) -> ActionPreview:
    return ActionPreview(
        "skirmish_chain",
        req.subject,
        True,
        "",
        f"{name(state, req.subject)} forms a chain and then fires without orders",
    )


def chain_resolve(state: GameState, req: ActionRequest, p: RuleParameters, dice: DiceSource) -> ActionOutcome:
    u = state.units[req.subject]
    slot, f, why = next_slot(state, u.id, "skirmish_chain")
    if why:
        raise RuleRefused(why)
    events: list[BattleEvent] = [slot_event(state, u.id, f, slot, "skirmish_chain")]
    if req.parameters.get("to") is not None:
        to = _point(req.parameters["to"])
        d = math.hypot(to[0] - u.position[0], to[1] - u.position[1])
        if d > move_rate(u, p) + 1e-6:
            raise RuleRefused(f"a chain goes forward at most one move ({move_rate(u, p):g} cm), not {d:.1f} cm")
        events.append(Moved(**stamp(state), id=u.id, path=((u.position[0], u.position[1]), to)))
    events.append(FormationChanged(**stamp(state), unit=u.id, formation=Formation.SKIRMISH.value))
    return ActionOutcome(
        "resolved", f"{u.name or u.id} forms a skirmish chain (action {slot + 1}; Застрельщики).", tuple(events)
    )


HANDLERS: tuple[ActionHandler, ...] = (
    ActionHandler("move", move_spec, move_preview, move_resolve),
    ActionHandler("deploy", deploy_spec, deploy_preview, deploy_resolve),
    ActionHandler("skirmish_chain", chain_spec, chain_preview, chain_resolve),
)
