"""Torden over Europa: carrying out a general's standing order in the movement phase as an
action (``rules.actions``): the general's longest legal move under his order (2.7-2.11,
``movement.legal_move``) and his troops following him (2.5), held to chapter 4 (``march``:
squares, FU units and unlimbered batteries stay; backwards at ½).

Besides following him, the action carries out what 2.5 and 2.7 ask of the troops:

* 2.7 "Idet træk hvori ordren modtages skal foretages de fornødne formationsændringer således at
  bevægelsen jf. ovenfor kan foretages": in the turn an attack order is received, the corps'
  units whose formation cannot make the move change first — a square forms column (or line
  when too few figures for a column; 4.4 squares make no voluntary move), an unlimbered
  battery limbers (4.6.3). Whether the corps also moves in that turn is the assumed
  ``attack_receipt_turn`` ("change_and_move"; "change_only": the turn goes on the changes);
* 2.7 "Artilleri skal bevæge sig med sin maksimale marchhastighed mod korpset": a limbered
  battery of the corps that following him would leave outside the corps general's command
  distance moves its full march length straight towards his new place (no further than his
  base), not by his displacement (assumed ``artillery_towards_corps`` "outside"; "always": every
  limbered battery does); "Artilleri kan når dette er
  indenfor skudafstand, af fjenden eller indenfor korpschefens kommandoafstand foretage
  afprodsning": with ``unlimber`` the batteries that end within the corps general's command
  distance or within range of an enemy (Table 6's last zone, when the scenario gives it)
  unlimber; the others may not and stay limbered;
* 2.7 "Såfremt tropperne grundet terræn forhold ... ikke kan foretage en bevægelse der sikre at
  enheden er indenfor kommandoafstand skal enheden foretage sin maksimale bevægelse": a unit
  whose way the terrain bars (woods, walls, impassable ground: the 4.7 problems of the move
  check) goes as far along it as the terrain lets it;
* 2.5 "Kan dette opnås ved at skifte til en hurtigere formation skal det gøres": a unit its
  march length holds short of its general's command distance changes to the fastest formation
  whose march length (``march_length_cm.<arm>.<formation>``, scenario) gets it inside, paying
  the formation change (``formation_change_cm``) when the scenario gives it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

from shapely.affinity import translate
from shapely.geometry import Point as SPoint
from shapely.geometry.base import BaseGeometry

from battlestudio.model.formations import arm_formation_problem, formation_problem

from battlestudio.model.geometry import Point
from battlestudio.model.units import Arm, Formation, OrderState, Unit
from battlestudio.replay.events import BattleEvent
from battlestudio.replay.flow_events import FormationChanged, Moved
from battlestudio.replay.order_events import CommandStateChanged
from battlestudio.replay.state import GameState
from battlestudio.rules.actions import ActionHandler, ActionOutcome, ActionPreview, ActionRequest, ActionSpec
from battlestudio.rules.dice import DiceSource
from battlestudio.rules.following import follow_moves, held_to_march
from battlestudio.rules.moves import MoveCheck, MoveRequest
from battlestudio.rules.params import RuleParameters, RuleRefused
from battlestudio.rules.protocol import ParameterSpec
from battlestudio.rules.toe import march, movement
from battlestudio.rules.toe.command import required_reach
from battlestudio.rules.toe.common import (
    base_of,
    corps_units,
    enemies_of,
    is_detached,
    is_fled,
    march_length,
    order_in_force_for,
    standing_order,
)

RULE = "2.5, 2.7-2.11, 4.4"

RECEIPT_TURN = "attack_receipt_turn"
"""Assumed parameter (toe.toml, 2.7): whether the corps moves in the turn its attack order arrives."""

RECEIPT_READINGS = ("change_and_move", "change_only")

ARTILLERY_READING = "artillery_towards_corps"
"""Assumed parameter (toe.toml, 2.7): which batteries move at full speed towards the corps."""

ARTILLERY_READINGS = ("outside", "always")

RECEIPT_FLAG = "formation_changes_made_in_turn"
"""``CommandStateChanged`` state: the turn a corps made its 2.7 turn-of-receipt formation changes."""

TERRAIN_SECTION = "(4.7)."
"""How the move check's terrain problems end (woods, walls, impassable ground; ``march``)."""

_BISECT = 30


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
    order = standing_order(state, subject)
    if order is not None and order.order_type == "A":
        unlimber = ParameterSpec(
            "unlimber",
            "bool",
            required=False,
            label="batteries unlimber where they may (2.7)",
            note="within the corps general's command distance or within range of the enemy (2.7)",
        )
        spec = replace(spec, parameters=(unlimber,))
    if order is None:
        return replace(spec, unavailable=f"{c.name} has no standing order: he holds (2.8)")
    resting = _resting(state, p, subject)
    if resting:
        return replace(spec, unavailable=resting)
    try:
        help_ = movement.legal_move(state, p, subject)
    except RuleRefused as exc:
        return replace(spec, unavailable=str(exc))
    if not help_.events and not _receipt_changes(state, p, subject):
        return replace(spec, unavailable=help_.explanation)
    return spec


def _preview(state: GameState, req: ActionRequest, p: RuleParameters) -> ActionPreview:
    resting = _resting(state, p, req.subject)
    if resting:
        return ActionPreview(req.action, req.subject, False, reason=resting)
    help_ = movement.legal_move(state, p, req.subject)
    text = help_.explanation
    changes = _receipt_changes(state, p, req.subject)
    if changes:
        text = _receipt_text(state, p, changes) + " " + text
    return ActionPreview(req.action, req.subject, True, explanation=text)


def _receipt_reading(p: RuleParameters) -> str:
    how = str(p.get(RECEIPT_TURN))
    if how not in RECEIPT_READINGS:
        raise RuleRefused(
            f"toe.{RECEIPT_TURN} = {how!r} is not a reading of 2.7's turn of receipt; use one of "
            f"{', '.join(RECEIPT_READINGS)}"
        )
    return how


def _needed_formation(u: Unit) -> Formation | None:
    """The formation ``u`` must take so that it can move at all (4.4, 4.6.3), or None."""
    if u.state in (OrderState.FU.value, OrderState.ELIMINATED.value):
        return None  # cannot change formation (1.6)
    if u.arm is Arm.ARTILLERY and u.formation is Formation.UNLIMBERED:
        return Formation.LIMBERED
    if u.formation is Formation.SQUARE:
        for f in (Formation.COLUMN, Formation.LINE):
            if (
                arm_formation_problem(u.arm, f) is None
                and formation_problem(f.value, u.figures, u.column_ranks) is None
            ):
                return f
    return None


def _receipt_changes(state: GameState, p: RuleParameters, cid: str) -> list[tuple[Unit, Formation]]:
    """The corps' formation changes 2.7 makes in the turn its attack order is received: each
    unit that cannot move in its formation and what it takes; [] in any other turn or order."""
    order = standing_order(state, cid)
    if order is None or order.order_type != "A" or cid not in state.commanders:
        return []
    if int(order.parameters.get("delivered_turn", order.turn_issued)) != state.turn:
        return []
    if state.flags.get(f"{RECEIPT_FLAG}:{cid}") == state.turn:
        return []  # made once, in this turn's first execution
    out = []
    for u in corps_units(state, cid):
        f = _needed_formation(u)
        if f is not None:
            out.append((u, f))
    return out


def _resting(state: GameState, p: RuleParameters, cid: str) -> str:
    """Why ``cid``'s corps does not move again this turn ("" when it may): under the reading
    ``attack_receipt_turn`` = 'change_only' the turn its attack order arrived goes on the
    formation changes once they are made (2.7)."""
    if state.flags.get(f"{RECEIPT_FLAG}:{cid}") != state.turn or _receipt_reading(p) != "change_only":
        return ""
    name = state.commanders[cid].name if cid in state.commanders else cid
    return (
        f"{name}'s corps made the formation changes its attack needs this turn and moves from the next turn "
        f"(2.7; toe.{RECEIPT_TURN} = 'change_only')"
    )


def _receipt_text(state: GameState, p: RuleParameters, changes: list[tuple[Unit, Formation]]) -> str:
    what = ", ".join(f"{u.name} {u.formation.value.replace('_', ' ')} → {f.value}" for u, f in changes)
    how = _receipt_reading(p)
    reading = f"toe.{RECEIPT_TURN} = {how!r}" + ("" if p.overridden(RECEIPT_TURN) else ", assumed")
    tail = "the corps moves after them" if how == "change_and_move" else "the corps does not move this turn"
    return (
        f"The attack order arrived this turn: the formation changes its move needs are made ({what}); {tail} "
        f"(2.7 'Idet træk hvori ordren modtages skal foretages de fornødne formationsændringer'; {reading})."
    )


def _check(state: GameState, p: RuleParameters, req: ActionRequest, uid: str, path: tuple[Point, Point]) -> MoveCheck:
    return march.check_move(state, p, MoveRequest(uid, path, None, tuple(req.terrain), req.table, tuple(req.towns)))


def _share(start: Point, end: Point, t: float) -> tuple[Point, Point]:
    """The straight path from ``start`` over the share ``t`` (0-1) of the way to ``end`` (cm)."""
    return (start, (round(start[0] + (end[0] - start[0]) * t, 2), round(start[1] + (end[1] - start[1]) * t, 2)))


def _terrain_problems(found: MoveCheck) -> list[str]:
    return [x for x in found.problems if x.endswith(TERRAIN_SECTION)]


def _longest_through_terrain(
    state: GameState, p: RuleParameters, req: ActionRequest, events: Sequence[BattleEvent]
) -> tuple[list[BattleEvent], list[str]]:
    """2.7: each unit whose way the terrain bars goes as far along it as the terrain lets it
    (the largest share of its path the move check finds no 4.7 problem on, by bisection)."""
    out: list[BattleEvent] = []
    notes: list[str] = []
    for e in events:
        u = state.units.get(e.id) if isinstance(e, Moved) else None
        if u is None or not isinstance(e, Moved) or len(e.path) < 2:
            out.append(e)
            continue
        end = (float(e.path[-1][0]), float(e.path[-1][1]))
        try:
            barred = _terrain_problems(_check(state, p, req, u.id, _share(u.position, end, 1.0)))
        except RuleRefused:
            barred = []
        if not barred:
            out.append(e)
            continue
        lo, hi = 0.0, 1.0
        for _ in range(_BISECT):
            mid = (lo + hi) / 2
            if _terrain_problems(_check(state, p, req, u.id, _share(u.position, end, mid))):
                hi = mid
            else:
                lo = mid
        full = math.dist(u.position, end)
        notes.append(
            f"{u.name} is held back by the terrain ({' '.join(barred)}): it makes its longest move, "
            f"{lo * full:.1f} of {full:.1f} cm (2.7 'skal enheden foretage sin maksimale bevægelse')."
        )
        if lo * full > 0.01:
            out.append(replace(e, path=_share(u.position, end, lo)))
    return out, notes


def _artillery_moves(
    state: GameState, p: RuleParameters, cid: str, end: Point, events: Sequence[BattleEvent]
) -> tuple[list[BattleEvent], list[str]]:
    """2.7: each limbered battery of the corps moves its full march length straight towards the
    corps general at ``end`` (no further than his base) instead of by his displacement; under
    the assumed ``artillery_towards_corps`` = "outside" only one that following him would leave
    outside his command distance at ``end`` (the others are with the corps and follow him)."""
    how = str(p.get(ARTILLERY_READING))
    if how not in ARTILLERY_READINGS:
        raise RuleRefused(
            f"toe.{ARTILLERY_READING} = {how!r} is not a reading of 2.7's artillery move; use one of "
            f"{', '.join(ARTILLERY_READINGS)}"
        )
    follows = {e.id: e for e in events if isinstance(e, Moved)}
    guns = {}
    for u in corps_units(state, cid):
        if u.arm is not Arm.ARTILLERY or u.formation is not Formation.LIMBERED:
            continue
        if u.state in (OrderState.FU.value, OrderState.ELIMINATED.value):
            continue
        if how == "outside" and _with_the_corps(state, p, cid, end, u, follows.get(u.id)):
            continue
        guns[u.id] = u
    if not guns:
        return list(events), []
    out: list[BattleEvent] = [e for e in events if not (isinstance(e, Moved) and e.id in guns)]
    notes = []
    for u in guns.values():
        length = march_length(p, u)
        fp = u.footprint()
        gap = fp.centroid.distance(SPoint(end))
        if gap <= 1e-6:
            continue
        ux, uy = (end[0] - fp.centroid.x) / gap, (end[1] - fp.centroid.y) / gap
        # the general's point seen from the battery moving by t·u is end − t·u: it touches at
        stop = movement.first_within(end, (-ux, -uy), length, fp, 0.0, ahead=False)
        go = length if stop is None else stop
        if go <= 0.01:
            continue
        x, y = u.position
        to = (round(x + go * ux, 2), round(y + go * uy, 2))
        if math.dist((x, y), to) > go:  # rounded to 0.01 cm, never beyond the march length
            to = (round(x + (go - 0.01) * ux, 2), round(y + (go - 0.01) * uy, 2))
        out.append(Moved(turn=state.turn, side=state.side, phase=state.phase, id=u.id, path=((x, y), to)))
        notes.append(
            f"{u.name} moves {go:.1f} cm towards the corps at its full march speed ({length:g} cm"
            f"{'' if stop is None else ', up to its general'}; 2.7 'Artilleri skal bevæge sig med sin maksimale "
            "marchhastighed mod korpset')."
        )
    return out, notes


def _with_the_corps(state: GameState, p: RuleParameters, cid: str, end: Point, u: Unit, follow: Moved | None) -> bool:
    """Whether battery ``u``, moved by its follow move ``follow`` (None: it stays), stands
    within the corps general's command distance once he is at ``end`` (cm)."""
    reach = required_reach(state, cid, p)
    if reach is None:
        return False
    fp = u.footprint()
    if follow is not None and len(follow.path) >= 2:
        fp = translate(fp, follow.path[-1][0] - u.position[0], follow.path[-1][1] - u.position[1])
    return bool(base_of(state.commanders[cid].moved(end)).distance(fp) <= reach + 1e-6)


def may_unlimber(state: GameState, p: RuleParameters, cid: str, u: Unit) -> str:
    """Why battery ``u`` of corps ``cid`` may unlimber where it stands (2.7: within range of the
    enemy or within the corps general's command distance), "" when it may not."""
    from battlestudio.rules.toe.fire import fire_table

    general = state.commanders[cid]
    reach = required_reach(state, cid, p)
    near = base_of(general).distance(u.footprint())
    if reach is not None and near <= reach + 1e-6:
        return f"within {general.name}'s command distance ({near:.1f} of {reach:g} cm)"
    table = fire_table(p, u)
    if table is not None:
        foes = enemies_of(state, u.side)
        if foes:
            nearest = min(foes, key=lambda e: e.footprint().distance(u.footprint()))
            d = nearest.footprint().distance(u.footprint())
            if d <= table.zones_cm[-1] + 1e-6:
                return f"within range of {nearest.name} ({d:.1f} of {table.zones_cm[-1]:g} cm, {table.key})"
    return ""


def unlimber_refusal(state: GameState, p: RuleParameters, unit_id: str) -> str:
    """Why 2.7 forbids battery ``unit_id`` to unlimber where it stands ("" when it may): a
    battery of a corps under an attack order unlimbers only within range of the enemy or within
    the corps general's command distance. While the scenario lacks Table 6 the range is the
    umpire's, so only the command distance refuses nothing: "" then too."""
    from battlestudio.rules.toe.fire import fire_table

    u = state.units.get(unit_id)
    if u is None or u.arm is not Arm.ARTILLERY:
        return ""
    order, holder = order_in_force_for(state, unit_id)
    if order is None or order.order_type != "A" or holder not in state.commanders:
        return ""
    if may_unlimber(state, p, holder, u) or fire_table(p, u) is None:
        return ""
    general = state.commanders[holder]
    return (
        f"{u.name} may not unlimber here: under {general.name}'s attack order a battery unlimbers only within "
        "range of the enemy or within the corps general's command distance (2.7 'Artilleri kan når dette er "
        "indenfor skudafstand, af fjenden eller indenfor korpschefens kommandoafstand foretage afprodsning')"
    )


def _unlimber(state: GameState, p: RuleParameters, cid: str) -> tuple[list[BattleEvent], list[str]]:
    """The corps' limbered batteries that 2.7 lets unlimber where they stand in ``state``
    unlimber; the others stay limbered, with the reason."""
    from battlestudio.rules.toe.fire import fire_table

    events: list[BattleEvent] = []
    notes = []
    for u in corps_units(state, cid):
        if u.arm is not Arm.ARTILLERY or u.formation is not Formation.LIMBERED:
            continue
        if u.state in (OrderState.FU.value, OrderState.ELIMINATED.value):
            continue
        why = may_unlimber(state, p, cid, u)
        if why:
            events.append(
                FormationChanged(
                    turn=state.turn, side=state.side, phase=state.phase, unit=u.id, formation=Formation.UNLIMBERED.value
                )
            )
            notes.append(f"{u.name} unlimbers: {why} (2.7).")
        elif fire_table(p, u) is None:
            notes.append(
                f"{u.name} stays limbered: it is not within the corps general's command distance, and whether it "
                "is within range of the enemy is in the lost Table 6 (toe.fire_table): the umpire may unlimber it "
                "(2.7)."
            )
        else:
            notes.append(
                f"{u.name} may not unlimber here: neither within range of the enemy nor within the corps "
                "general's command distance (2.7)."
            )
    return events, notes


def _apply(state: GameState, events: Sequence[BattleEvent]) -> GameState:
    for e in events:
        state = e.apply(state)
    return state


def _faster_formations(
    state: GameState,
    p: RuleParameters,
    req: ActionRequest,
    events: Sequence[BattleEvent],
    after: GameState,
    wanted: dict[str, Point],
) -> tuple[list[BattleEvent], list[str]]:
    """2.5: a unit its march length holds short of its general's command distance (in ``after``,
    the state once everyone has moved; ``wanted`` where following would have taken it) changes
    to the fastest formation whose march length gets it inside, and moves on in it."""
    out: list[BattleEvent] = []
    notes: list[str] = []
    for e in events:
        u = state.units.get(e.id) if isinstance(e, Moved) else None
        if u is None or not isinstance(e, Moved) or u.id not in wanted or wanted[u.id] == e.path[-1]:
            out.append(e)
            continue
        sup = state.oob.superior(u.id)
        if sup is None or sup not in after.commanders or is_detached(state, u.id) or is_fled(u, p):
            out.append(e)
            continue
        try:
            reach = required_reach(state, sup, p)
        except RuleRefused:
            reach = None
        general = base_of(after.commanders[sup])
        if reach is None or u.id not in after.units or general.distance(after.units[u.id].footprint()) <= reach + 1e-6:
            out.append(e)
            continue
        found = _faster(state, p, req, u, wanted[u.id], general, reach)
        if found is None:
            out.append(e)
            continue
        change, end, text = found
        out.append(change)
        out.append(replace(e, path=(u.position, end)))
        notes.append(text)
    return out, notes


def _formation_cost(p: RuleParameters, u: Unit) -> float | None:
    """The scenario's march-length deduction for a formation change of ``u`` (4.4), or None."""
    found = p.lookup(f"formation_change_cm.{u.nation}", "formation_change_cm") if u.nation else None
    found = found or p.lookup("formation_change_cm")
    return float(found[1]) if found is not None else None


def _faster(
    state: GameState,
    p: RuleParameters,
    req: ActionRequest,
    u: Unit,
    wanted: Point,
    general: BaseGeometry,
    reach: float,
) -> tuple[FormationChanged, Point, str] | None:
    """The fastest formation whose march length (the move check's allowance in it, less the
    change's cost) takes ``u``, moving towards ``wanted``, inside ``reach`` of ``general``: the
    change, the end it reaches and the explanation; None when none does."""
    path = (u.position, wanted)
    try:
        own = _check(state, p, req, u.id, path).allowed_cm
    except RuleRefused:
        return None
    if own is None:
        return None
    cost = _formation_cost(p, u)
    options: list[tuple[float, Formation, FormationChanged, GameState]] = []
    for f in (Formation.COLUMN, Formation.MARCH_COLUMN, Formation.LINE, Formation.SKIRMISH, Formation.LIMBERED):
        if f is u.formation or arm_formation_problem(u.arm, f) is not None:
            continue
        if formation_problem(f.value, u.figures, u.column_ranks) is not None:
            continue
        change = FormationChanged(turn=state.turn, side=state.side, phase=state.phase, unit=u.id, formation=f.value)
        there = change.apply(state)
        try:
            allowed = _check(there, p, req, u.id, path).allowed_cm
        except RuleRefused:
            continue
        if allowed is None:
            continue
        allowed -= cost or 0.0
        if allowed > own + 1e-6:
            options.append((allowed, f, change, there))
    (x0, y0), (x1, y1) = path
    full = math.hypot(x1 - x0, y1 - y0)
    for allowed, f, change, there in sorted(options, key=lambda o: -o[0]):
        used = _check(there, p, req, u.id, path).used_cm
        share = 1.0 if used <= allowed + 1e-6 or used <= 0 else max(0.0, allowed) / used
        end = (round(x0 + (x1 - x0) * share, 2), round(y0 + (y1 - y0) * share, 2))
        if general.distance(there.units[u.id].moved(end, u.facing).footprint()) > reach + 1e-6:
            continue
        if _terrain_problems(_check(there, p, req, u.id, (u.position, end))):
            continue  # the terrain bars that way in any formation (2.7: its longest move stands)
        paid = (
            f"{cost:g} cm paid for the change (formation_change_cm)"
            if cost is not None
            else "the change's deduction is in the lost national supplement: the umpire deducts it "
            "(formation_change_cm)"
        )
        text = (
            f"{u.name} forms {f.value.replace('_', ' ')} to regain command: {share * full:.1f} cm instead of "
            f"{own:.1f} cm in {u.formation.value.replace('_', ' ')}, {paid} (2.5 'Kan dette opnås ved at skifte "
            "til en hurtigere formation skal det gøres')."
        )
        return change, end, text
    return None


def _receipt_events(
    state: GameState, p: RuleParameters, req: ActionRequest, changes: list[tuple[Unit, Formation]]
) -> tuple[list[BattleEvent], dict[str, float | None], list[str]]:
    """The 2.7 turn-of-receipt formation changes as events (``formations.formation_change``:
    where the unit stands afterwards, 4.5), each unit's cost (cm, None when the rules give none)
    and what could not change, in words."""
    from battlestudio.rules.toe.formations import formation_change

    events: list[BattleEvent] = []
    costs: dict[str, float | None] = {}
    notes: list[str] = []
    for u, f in changes:
        try:
            done = formation_change(state, p, u.id, f.value, terrain=req.terrain, table=req.table)
        except RuleRefused as exc:
            notes.append(f"{u.name} cannot change formation: {exc}.")
            continue
        after = done.unit
        if after.position != u.position:
            events.append(
                Moved(
                    turn=state.turn,
                    side=state.side,
                    phase=state.phase,
                    id=u.id,
                    path=(u.position, after.position),
                    facing=after.facing,
                )
            )
        events.append(
            FormationChanged(
                turn=state.turn, side=state.side, phase=state.phase, unit=u.id, formation=f.value, facing=after.facing
            )
        )
        costs[u.id] = done.cost_cm
        notes.append(done.explanation)
    return events, costs, notes


def _pay_changes(
    state: GameState,
    p: RuleParameters,
    req: ActionRequest,
    events: Sequence[BattleEvent],
    costs: dict[str, float | None],
) -> tuple[list[BattleEvent], list[str]]:
    """The moves of the units that changed formation this turn, shortened by the change's cost
    (4.4: paid from the march length) when the rules give one."""
    out: list[BattleEvent] = []
    notes: list[str] = []
    for e in events:
        cost = costs.get(e.id) if isinstance(e, Moved) and e.id in state.units else None
        if not cost or not isinstance(e, Moved) or len(e.path) < 2:
            out.append(e)
            continue
        u = state.units[e.id]
        end = (float(e.path[-1][0]), float(e.path[-1][1]))
        try:
            found = _check(state, p, req, u.id, (u.position, end))
        except RuleRefused:
            out.append(e)
            continue
        if found.allowed_cm is None or found.used_cm <= found.allowed_cm - cost + 1e-6:
            out.append(e)
            continue
        share = max(0.0, found.allowed_cm - cost) / found.used_cm
        (x0, y0), (x1, y1) = u.position, end
        stop = (round(x0 + (x1 - x0) * share, 2), round(y0 + (y1 - y0) * share, 2))
        notes.append(
            f"{u.name} pays {cost:g} cm for its formation change: it moves {share * found.used_cm:.1f} cm (4.4)."
        )
        if share > 0:
            out.append(replace(e, path=(u.position, stop)))
    return out, notes


def _resolve(state: GameState, req: ActionRequest, p: RuleParameters, dice: DiceSource) -> ActionOutcome:
    cid = req.subject
    help_ = movement.legal_move(state, p, cid)
    resting = _resting(state, p, cid)
    if resting:
        return ActionOutcome("refused", resting)
    changes = _receipt_changes(state, p, cid)
    change_events, costs, change_notes = _receipt_events(state, p, req, changes)
    if changes:
        change_notes.insert(0, _receipt_text(state, p, changes))
        change_events.append(
            CommandStateChanged(
                turn=state.turn,
                side=state.side,
                phase=state.phase,
                subject=cid,
                state=RECEIPT_FLAG,
                value=state.turn,
                reason="2.7: the attack order arrived this turn",
            )
        )
        if _receipt_reading(p) == "change_only":
            return ActionOutcome("resolved", " ".join(change_notes), tuple(change_events))
    work = _apply(state, change_events)
    d = (help_.end[0] - help_.start[0], help_.end[1] - help_.start[1])
    troops = follow_moves(work, cid, d, table=req.table, turn=state.turn, side=state.side, phase=state.phase)
    notes: list[str] = []
    attack = cid in state.commanders and help_.order_type == "A"
    if attack and help_.events:
        troops, art = _artillery_moves(work, p, cid, help_.end, troops)
        notes += art
    wanted = {e.id: (float(e.path[-1][0]), float(e.path[-1][1])) for e in troops if isinstance(e, Moved)}
    towns = tuple(req.towns)
    held, more = held_to_march(
        work, troops, lambda r: march.check_move(work, p, replace(r, towns=towns)), req.table, tuple(req.terrain)
    )
    notes += more
    held, more = _longest_through_terrain(work, p, req, held)
    notes += more
    held, more = _pay_changes(work, p, req, held, costs)
    notes += more
    after = _apply(work, list(help_.events) + held)
    held, more = _faster_formations(work, p, req, held, after, wanted)
    notes += more
    tail: list[BattleEvent] = []
    if req.parameters.get("unlimber") and attack:
        tail, more = _unlimber(_apply(work, list(help_.events) + held), p, cid)
        notes += more
    moved = sum(1 for e in held if isinstance(e, Moved) and e.id != cid)
    text = f"{help_.explanation} {moved} units and generals follow him (2.5)."
    if change_notes:
        text = " ".join(change_notes) + " " + text
    if notes:
        text += " " + " ".join(notes)
    return ActionOutcome("resolved", text, tuple(change_events + list(help_.events) + held + tail))


HANDLERS = (ActionHandler("execute_order", _spec, _preview, _resolve),)
