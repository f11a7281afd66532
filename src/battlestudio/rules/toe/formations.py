"""Torden over Europa's formation changes (1.6, 1.7, 4.4, 4.5): who may change, into what, where
the unit stands afterwards and what it costs.

* 1.6: a unit in order (O) or disorder (U) may change formation, even against its order; a unit
  in complete disorder (FU) may not; only an FU unit stands as a formless mob (``none``);
* 1.7: column needs enough figures for 3–4 ranks, a march column at least 3 ranks
  (``formations.formation_problem``);
* 1.7: "Såfremt en karré skal folde ud i kolonne skal der heraf være/efterlades plads til at
  folde ud i": a square that unfolds needs room for its new footprint (``room_problem``): no
  other unit, friend or foe, no impassable terrain, not over the table edge. Which changes are
  checked is the assumed ``unfold_room`` ("square": out of a square, the seed's case; "all";
  "none"). "En stor kolonne fylder mere end samme enhed i karré" is read as this room on the
  table: a big column is wider than the same unit's square (issue 16 D12);
* 4.5: the front-edge midpoint and facing are kept; line ↔ march column turns on the spot;
  a square may face out of any of its sides (``formations.reformed_unit``);
* 4.6: horse artillery limbers and unlimbers at no cost; foot artillery pays Table 2's deduction
  (lost: ``limber_deduction_cm``, else the umpire's); a battery unlimbers in any direction, the gun
  within its limber's base (``unlimbered_facing``; the Actions dock's ``unlimber``);
* 4.4: the change is paid from the march length, by a deduction the national supplements give
  (lost from the seed): the scenario parameter ``formation_change_cm`` (or
  ``formation_change_cm.<nation>``) when it sets one, else none is deducted and the
  explanation says so.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any, Literal
from collections.abc import Iterable

from shapely.geometry import box

from battlestudio.model.formations import FormationChange, arm_formation_problem, formation_problem, reformed_unit
from battlestudio.model.geometry import EDGE_NAMES, EdgeName, direction_angle, front_from_centre, normalize_angle
from battlestudio.model.terrain import TerrainKind
from battlestudio.model.units import Arm, Formation, OrderState, Subtype, Unit, UnitValueError
from battlestudio.replay.events import BattleEvent
from battlestudio.replay.flow_events import FormationChanged, Moved
from battlestudio.replay.state import GameState
from battlestudio.rules.actions import ActionHandler, ActionOutcome, ActionPreview, ActionRequest, ActionSpec
from battlestudio.rules.dice import DiceSource
from battlestudio.rules.params import RuleParameters, RuleRefused
from battlestudio.rules.protocol import ParameterSpec

COST_PARAMETER = "formation_change_cm"
"""Scenario parameter of the march-length deduction for a formation change (national supplement)."""

LIMBER_PARAMETER = "limber_deduction_cm"
"""Scenario parameter of foot artillery's march-length deduction to limber or unlimber (Table 2, 4.6)."""

UNFOLD_ROOM = "unfold_room"
"""Assumed parameter (toe.toml, 1.7): which formation changes need room to unfold into."""

UNFOLD_ROOM_READINGS = ("square", "all", "none")

TINY_CM2 = 1e-6
"""Overlap area (cm²) below which two footprints only touch (base contact is not an overlap)."""


def needs_room(p: RuleParameters, old: Formation, new: Formation) -> bool:
    """Whether the change ``old`` → ``new`` must have room for its new footprint (1.7,
    ``unfold_room``). Raises ``RuleRefused`` for a reading the parameter does not know."""
    how = str(p.get(UNFOLD_ROOM))
    if how not in UNFOLD_ROOM_READINGS:
        raise RuleRefused(
            f"toe.{UNFOLD_ROOM} = {how!r} is not a reading of 1.7's room to unfold; use one of "
            f"{', '.join(UNFOLD_ROOM_READINGS)}"
        )
    if old == new or how == "none":
        return False
    return how == "all" or old is Formation.SQUARE


def room_problem(
    state: GameState,
    before: Unit,
    after: Unit,
    terrain: Iterable[Any] = (),
    table: tuple[float, float] | None = None,
) -> str | None:
    """Why ``after`` (``before`` reformed) has no room on the table (1.7), or None.

    The new footprint (``Unit.footprint``, cm) may not overlap another unit on the table, of
    either side, by more than the old footprint already did (touching is base contact, not an
    overlap), nor an impassable terrain feature, nor reach over the table edge (``table``
    width, height in cm; None: not checked). The sentence names each unit and feature in the way.
    """
    new, old = after.footprint(), before.footprint()
    units = []
    for o in state.units.values():
        if o.id == before.id or o.id in state.off_table or o.state == OrderState.ELIMINATED.value:
            continue
        fp = o.footprint()
        if not new.intersects(fp):
            continue
        if new.intersection(fp).area > old.intersection(fp).area + TINY_CM2:
            units.append(f"{o.name or o.id} ({'friend' if o.side == before.side else 'enemy'})")
    features = [
        f"the impassable {t.name or t.id or t.kind.value}"
        for t in terrain
        if getattr(t, "kind", None) is TerrainKind.IMPASSABLE
        and new.intersects(t.geometry)
        and (new.intersection(t.geometry).area > TINY_CM2 or t.geometry.area == 0.0)
    ]
    if table is not None and not box(0.0, 0.0, table[0], table[1]).buffer(1e-6).contains(new):
        features.append("the table edge")
    in_way = sorted(units) + features
    if not in_way:
        return None
    return f"its new footprint would overlap {', '.join(in_way)}"


def formation_change(
    state: GameState,
    params: RuleParameters,
    unit_id: str,
    formation: str,
    column_ranks: int | None = None,
    *,
    turn: Literal["right", "left"] = "right",
    side: EdgeName = "front",
    terrain: Iterable[Any] = (),
    table: tuple[float, float] | None = None,
    facing: float | None = None,
) -> FormationChange:
    """``unit_id`` changing to ``formation`` under 1.6, 1.7, 4.4, 4.5 and 4.6 (see the module).
    ``terrain`` (``TerrainFeature``s) and ``table`` (width, height cm) are the scenario's, for
    the room to unfold into (1.7); without them only the other units are in the way. ``facing``
    (degrees) is the direction a limbered battery unlimbers in (4.6 "i den retning der ønskes"):
    the gun turns about the centre of its limber's base; None keeps the front (4.5).

    Raises
    ------
    RuleRefused
        for an unknown unit or formation, an FU or eliminated unit, a mob that is not FU, a
        formation its figures cannot take (1.7), or a change with no room for its new footprint
        (1.7, ``unfold_room``); the message names the rule.
    """
    u = state.units.get(unit_id)
    if u is None:
        raise RuleRefused(f"no unit {unit_id!r} on the table")
    try:
        new = Formation(formation)
    except ValueError:
        raise RuleRefused(
            f"{u.name}: {formation!r} is not a formation ({', '.join(f.value for f in Formation)})"
        ) from None
    if u.state == OrderState.ELIMINATED.value:
        raise RuleRefused(f"{u.name} is eliminated and has no formation to change")
    if u.state == OrderState.FU.value and new != Formation.NONE:
        raise RuleRefused(
            f"{u.name} is in complete disorder (FU) and cannot change formation (Torden over Europa 1.6); "
            "reorganise it first"
        )
    if new == Formation.NONE and u.state != OrderState.FU.value:
        raise RuleRefused(
            f"only a unit in complete disorder (FU) stands as a mob without formation (Torden over Europa 1.6); "
            f"{u.name} is in state {u.state}: record its order state instead"
        )
    wrong_arm = arm_formation_problem(u.arm, new)
    if wrong_arm is not None:
        raise RuleRefused(f"{u.name}: {wrong_arm} (Torden over Europa 1.7, 4.6)")
    ranks = u.column_ranks if column_ranks is None else column_ranks
    problem = formation_problem(new.value, u.figures, ranks)
    if problem is not None:
        raise RuleRefused(f"{u.name}: {problem}")
    try:
        after = reformed_unit(u, new, column_ranks, turn=turn, side=side)
    except (UnitValueError, ValueError) as exc:
        raise RuleRefused(f"{u.name}: {exc}") from None
    unlimbering = u.formation is Formation.LIMBERED and new is Formation.UNLIMBERED
    if facing is not None and not unlimbering:
        raise RuleRefused(
            f"{u.name}: only a battery that unlimbers chooses its direction (4.6 'Batteriet kan afprodse pjecen i "
            "den retning der ønskes'); any other formation change keeps the front (4.5)"
        )
    if facing is not None:
        after = unlimbered_facing(u, after, facing)
    old = u.formation.value
    room = ""
    if needs_room(params, u.formation, new):
        blocked = room_problem(state, u, after, terrain, table)
        reading = f"toe.{UNFOLD_ROOM} = {params.get(UNFOLD_ROOM)!r}" + (
            "" if params.overridden(UNFOLD_ROOM) else ", assumed"
        )
        if blocked is not None:
            raise RuleRefused(
                f"{u.name} cannot change from {old.replace('_', ' ')} to {new.value.replace('_', ' ')}: {blocked}; "
                "a square that unfolds must have room to unfold into (Torden over Europa 1.7 'skal der heraf "
                f"være/efterlades plads til at folde ud i'; {reading})"
            )
        room = f"; there is room to unfold into (1.7, {reading})"
    if facing is not None:
        anchor = (
            f"the gun unlimbers facing {after.facing:.0f}°, the direction the battery wishes, in base contact with "
            "its limber and within the limber's base: it turns about the base's centre (4.6 'i den retning der "
            "ønskes dog skal pjecen være i brikkontakt med prodset og være afprodset indenfor prodsbrikken')"
        )
    elif {old, new.value} == {"line", "march_column"}:
        anchor = f"the figures turn on the spot to the {turn} (4.5): facing {after.facing:.0f}°"
    elif side != "front":
        anchor = f"the square faces out of its {side} side (4.5): facing {after.facing:.0f}°"
    else:
        anchor = "the centre of the front edge and the facing stay where they were (4.5)"
    found = params.lookup(f"{COST_PARAMETER}.{u.nation}", COST_PARAMETER) if u.nation else params.lookup(COST_PARAMETER)
    limbering = u.arm == Arm.ARTILLERY and {old, new.value} == {"limbered", "unlimbered"}
    where = f"; {anchor}" if facing is not None else ""
    if limbering and u.subtype == Subtype.HORSE_ARTILLERY:
        text = f"{u.name}: {old} → {new.value}{where}; horse artillery limbers and unlimbers at no cost (4.6)."
        return FormationChange(after, text, 0.0)
    if limbering:
        found = params.lookup(f"{LIMBER_PARAMETER}.{u.nation}", LIMBER_PARAMETER)
        if found is None:
            text = (
                f"{u.name}: {old} → {new.value}{where}; foot artillery's deduction is in Table 2, lost from the rules "
                f"text (4.6): the umpire deducts it (scenario parameter {LIMBER_PARAMETER})."
            )
            return FormationChange(after, text, None)
    if found is not None:
        cost: float | None = float(found[1])
        paid = f"it costs {cost:g} cm of its march length (4.4; scenario parameter {found[0]})"
    else:
        cost = None
        paid = (
            "the march-length deduction for a formation change is in the national supplements, which the "
            f"rules text lost (4.4): none is deducted (scenario parameter {COST_PARAMETER} sets one)"
        )
    text = f"{u.name}: {old.replace('_', ' ')} → {new.value.replace('_', ' ')}; {anchor}{room}; {paid}."
    return FormationChange(after, text, cost)


def unlimbered_facing(limbered: Unit, gun: Unit, facing: float) -> Unit:
    """``gun`` (``limbered`` unlimbered) turned to ``facing`` degrees about the centre of the
    limber's base, so the gun stands within it in base contact with its limber (4.6: the
    program draws the battery as one base, the limber's and the gun's the same)."""
    turned = replace(gun, facing=normalize_angle(float(facing)))
    position = front_from_centre(limbered.rect().centre, turned.facing, turned.rect().depth)
    return replace(turned, position=position)


# ------------------------------------------------------------------------------ the Actions dock
UNFOLD_ACTION = "change_formation"

MOVEMENT_PHASE = "movement"


def _unfold_choices(u: Unit) -> tuple[str, ...]:
    """The formations a square ``u`` may unfold into by its arm and figures (1.7)."""
    out = []
    for f in Formation:
        if f in (Formation.SQUARE, Formation.NONE) or arm_formation_problem(u.arm, f) is not None:
            continue
        if formation_problem(f.value, u.figures, u.column_ranks) is None:
            out.append(f.value)
    return tuple(out)


def unfold_spec(state: GameState, p: RuleParameters, subject: str) -> ActionSpec | None:
    """``change_formation`` for a square of the side on the move, in the movement phase (1.7,
    4.3-4.5): which formation and out of which side it unfolds; None for any other subject."""
    u = state.units.get(subject)
    if state.phase != MOVEMENT_PHASE or u is None or u.id in state.off_table or u.formation is not Formation.SQUARE:
        return None
    if u.side != state.side or u.state in (OrderState.ELIMINATED.value, OrderState.FU.value):
        return None
    choices = _unfold_choices(u)
    return ActionSpec(
        UNFOLD_ACTION,
        "Unfold the square",
        "folde ud",
        "1.7, 4.5",
        "unit",
        (
            ParameterSpec("formation", "choice", choices=choices, label="into"),
            ParameterSpec("side", "choice", choices=EDGE_NAMES, label="facing out of its side"),
        ),
        unavailable="" if choices else f"{u.name} has too few figures for any other formation (1.7)",
        note="a square that unfolds must have room to unfold into (1.7); its front-edge midpoint stays (4.5)",
    )


def _change(state: GameState, req: ActionRequest, p: RuleParameters) -> tuple[Unit, FormationChange]:
    u = state.units[req.subject]
    formation = str(req.parameters.get("formation") or "")
    side = str(req.parameters.get("side") or "front")
    if side not in EDGE_NAMES:
        raise RuleRefused(f"{u.name}: side {side!r} is not one of {', '.join(EDGE_NAMES)}")
    change = formation_change(state, p, u.id, formation, side=side, terrain=req.terrain, table=req.table)
    return u, change


def unfold_preview(state: GameState, req: ActionRequest, p: RuleParameters) -> ActionPreview:
    """Legal with the change's explanation, or refused naming what is in the way (1.7)."""
    _, change = _change(state, req, p)
    return ActionPreview(req.action, req.subject, True, explanation=change.explanation)


def unfold_resolve(state: GameState, req: ActionRequest, p: RuleParameters, dice: DiceSource) -> ActionOutcome:
    """The square's new formation (and its new place when it faces out of another side)."""
    u, change = _change(state, req, p)
    stamp: dict[str, Any] = {"turn": state.turn, "side": state.side, "phase": state.phase}
    after = change.unit
    events: list[BattleEvent] = []
    if after.position != u.position:
        events.append(Moved(**stamp, id=u.id, path=(u.position, after.position), facing=after.facing))
    events.append(FormationChanged(**stamp, unit=u.id, formation=after.formation.value, facing=after.facing))
    return ActionOutcome("resolved", change.explanation, tuple(events))


UNLIMBER_ACTION = "unlimber"


def unlimber_spec(state: GameState, p: RuleParameters, subject: str) -> ActionSpec | None:
    """``unlimber`` for a limbered battery of the side on the move, in its movement phase (4.6
    "Artilleri kan enten af-/påprodse i egen bevægelsesfase"): the point its gun points towards
    (any direction; none keeps its front); None for any other subject."""
    u = state.units.get(subject)
    if state.phase != MOVEMENT_PHASE or u is None or u.id in state.off_table:
        return None
    if u.arm is not Arm.ARTILLERY or u.formation is not Formation.LIMBERED or u.side != state.side:
        return None
    if u.state in (OrderState.ELIMINATED.value, OrderState.FU.value):
        return None
    free = u.subtype == Subtype.HORSE_ARTILLERY
    return ActionSpec(
        UNLIMBER_ACTION,
        "Unlimber the battery",
        "afprodse",
        "4.6",
        "unit",
        (ParameterSpec("towards", "point", required=False, label="the gun points towards"),),
        note=(
            "the gun unlimbers in any direction, within its limber's base (4.6); "
            + ("horse artillery at no cost" if free else "foot artillery at Table 2's deduction (limber_deduction_cm)")
        ),
    )


def _unlimber(state: GameState, req: ActionRequest, p: RuleParameters) -> tuple[Unit, FormationChange]:
    u = state.units[req.subject]
    towards = req.parameters.get("towards")
    facing = None
    if towards is not None:
        try:
            tx, ty = float(towards[0]), float(towards[1])
        except (TypeError, ValueError, IndexError):
            raise RuleRefused(f"{u.name}: 'towards' must be a point (x, y) in cm, not {towards!r}") from None
        (cx, cy) = u.rect().centre
        if math.hypot(tx - cx, ty - cy) < 1e-6:
            raise RuleRefused(f"{u.name}: the point the gun points towards is the battery's own centre; pick another")
        facing = direction_angle((tx - cx, ty - cy))
    change = formation_change(
        state, p, u.id, Formation.UNLIMBERED.value, facing=facing, terrain=req.terrain, table=req.table
    )
    return u, change


def unlimber_preview(state: GameState, req: ActionRequest, p: RuleParameters) -> ActionPreview:
    """Legal with where the gun stands and what it costs (4.6), or refused naming the rule."""
    _, change = _unlimber(state, req, p)
    return ActionPreview(req.action, req.subject, True, explanation=change.explanation)


def unlimber_resolve(state: GameState, req: ActionRequest, p: RuleParameters, dice: DiceSource) -> ActionOutcome:
    """The battery unlimbered facing the way asked (a ``Moved`` when its base turns)."""
    u, change = _unlimber(state, req, p)
    stamp: dict[str, Any] = {"turn": state.turn, "side": state.side, "phase": state.phase}
    after = change.unit
    events: list[BattleEvent] = []
    if after.position != u.position or after.facing != u.facing:
        events.append(Moved(**stamp, id=u.id, path=(u.position, after.position), facing=after.facing))
    events.append(FormationChanged(**stamp, unit=u.id, formation=after.formation.value, facing=after.facing))
    return ActionOutcome("resolved", change.explanation, tuple(events))


PIVOT_ACTION = "pivot"

PIVOT_CORNERS = ("front-left", "front-right", "rear-right", "rear-left")
"""The corners a pivot may keep still, in ``UnitRect.corners`` order."""


def pivot_spec(state: GameState, p: RuleParameters, subject: str) -> ActionSpec | None:
    """``pivot`` for a unit of the side on the move in the movement phase (4.4 Pivotering: the
    front turns while one corner stays still): which corner, which way, how many degrees; None
    for a unit that does not pivot (a square or an FU unit makes no voluntary move, 4.4)."""
    u = state.units.get(subject)
    if state.phase != MOVEMENT_PHASE or u is None or u.id in state.off_table or u.side != state.side:
        return None
    if u.state in (OrderState.ELIMINATED.value, OrderState.FU.value) or u.formation is Formation.SQUARE:
        return None
    return ActionSpec(
        PIVOT_ACTION,
        "Pivot about a corner",
        "pivotering",
        "4.4",
        "unit",
        (
            ParameterSpec("corner", "choice", choices=PIVOT_CORNERS, label="the corner that stays still"),
            ParameterSpec("direction", "choice", choices=("left", "right"), label="turning to the"),
            ParameterSpec("degrees", "int", minimum=1, maximum=180, label="degrees"),
        ),
        note=(
            "one corner stays still and there must be room for the pivot (4.4); over 45° it is a formation "
            "change; the figure with farthest to go measures it (4.1)"
        ),
    )


def _pivot(state: GameState, req: ActionRequest, p: RuleParameters) -> tuple[Unit, Unit, str]:
    from battlestudio.rules.moves import MoveRequest
    from battlestudio.rules.toe.march import check_move

    u = state.units[req.subject]
    corner = str(req.parameters.get("corner") or "front-left")
    if corner not in PIVOT_CORNERS:
        raise RuleRefused(f"{u.name}: corner {corner!r} is not one of {', '.join(PIVOT_CORNERS)}")
    direction = str(req.parameters.get("direction") or "left")
    if direction not in ("left", "right"):
        raise RuleRefused(f"{u.name}: the pivot turns to the 'left' or the 'right', not {direction!r}")
    try:
        degrees = int(req.parameters.get("degrees") or 0)
    except (TypeError, ValueError):
        raise RuleRefused(f"{u.name}: degrees must be a whole number, not {req.parameters.get('degrees')!r}") from None
    if not 1 <= degrees <= 180:
        raise RuleRefused(f"{u.name}: a pivot turns 1-180 degrees, not {degrees}")
    turn = float(degrees if direction == "left" else -degrees)
    still = u.rect().corners()[PIVOT_CORNERS.index(corner)]
    a = math.radians(turn)
    dx, dy = u.position[0] - still[0], u.position[1] - still[1]
    end = (still[0] + dx * math.cos(a) - dy * math.sin(a), still[1] + dx * math.sin(a) + dy * math.cos(a))
    after = replace(u, position=end, facing=normalize_angle(u.facing + turn))
    found = check_move(
        state, p, MoveRequest(u.id, (u.position, end), after.facing, tuple(req.terrain), req.table, tuple(req.towns))
    )
    if not found.legal:
        raise RuleRefused(f"{u.name} cannot pivot so: {' '.join(found.problems)}")
    return u, after, found.explanation


def pivot_preview(state: GameState, req: ActionRequest, p: RuleParameters) -> ActionPreview:
    """Legal with the move check's explanation (4.4), or refused naming each broken rule."""
    _, _, text = _pivot(state, req, p)
    return ActionPreview(req.action, req.subject, True, explanation=text)


def pivot_resolve(state: GameState, req: ActionRequest, p: RuleParameters, dice: DiceSource) -> ActionOutcome:
    """The pivot as a ``Moved``: the front-edge midpoint swung about the still corner, the new facing."""
    u, after, text = _pivot(state, req, p)
    stamp: dict[str, Any] = {"turn": state.turn, "side": state.side, "phase": state.phase}
    moved = Moved(**stamp, id=u.id, path=(u.position, after.position), facing=after.facing)
    return ActionOutcome("resolved", text, (moved,))


HANDLERS = (
    ActionHandler(UNFOLD_ACTION, unfold_spec, unfold_preview, unfold_resolve),
    ActionHandler(UNLIMBER_ACTION, unlimber_spec, unlimber_preview, unlimber_resolve),
    ActionHandler(PIVOT_ACTION, pivot_spec, pivot_preview, pivot_resolve),
)
