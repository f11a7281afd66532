"""Torden over Europa: a unit's move checked against chapter 4 (4.1-4.4, 4.6.3, 4.7).

What the seed gives, each a problem or note with its section:

* 4.1 "Den enkelte enheds marchlængde måles fra den figur der har længst at gå": the distance
  is that of the footprint corner that travels farthest along the path (a turn at the end
  included);
* 4.2 the active side moves in its movement phase; the passive side moves only units that
  react after a reaction roll (5.2); units in continued melee (7.5) do not move;
* 4.4 no move beyond the march length ("Ingen enhed må foretage bevægelser/formationsændringer
  der overstiger enhedens marchlængde"); march lengths by formation are in the lost national
  supplement: ``march_length_cm.<arm>.<formation>`` when the scenario gives it, else the
  arm's ``march_length_cm`` (``common.march_length``); forward = within 45° of the front,
  backwards "med ½ marchlængde"; squares make no voluntary move; FU units cannot be moved;
  a turn or pivot of more than 45° counts as a formation change (its cost, when the scenario
  gives ``formation_change_cm``, is deducted); leaving the table loses the unit;
* 4.4 Pivotering: a move that keeps one corner still is a pivot; its figures go their arcs and the
  ground it sweeps must be free (``_pivot_room``);
* 4.4 Gennemmarch: no passage through friendly units, except its five cases (``_passage``);
* 4.6.3 an unlimbered battery may only pivot up to 45° within 2 cm; it limbers to march;
* 4.4 march-column speed only under a march order on a road, else column speed
  (``march_length_cm.<arm>.march_column`` / ``.column`` when the scenario gives them);
* 4.7 no unit marches through (or into) woods; only infantry in line may stand at a wood's edge
  (``_woods``); artillery and cavalry cannot pass walls; impassable
  terrain is impassable; hedges (artillery, cavalry) and walls (other arms) cost the lost Table 2's
  deduction (``terrain_deduction_cm.<kind>``, else the umpire's);
* 4.7 Broer: only a march column crosses a bridge; in another formation a unit on it counts as in
  the river, which ``river_crossing`` (assumed, A45) refuses or leaves to the umpire; so is a way
  through a river's water away from its bridges and fords (``_bridges_and_rivers``);
* 4.6.3 a battery's moves into, out of and within a town zone (``_battery_town``);
* 4.8 towns (the request's ``towns``): a unit ends in a town zone when its centre does;
  "Der kan som udgangspunkt deployeres en enhed eller 40 figurer i en byzone" — a zone holds
  one unit (``TownZone.capacity``) or any units of at most 40 figures (``town_zone_figures``),
  and besides them one battery ("Der kan også deployeres et batteri i en by", 4.8.6: at most
  one); "En enhed i marchkolonne kan marchere igennem en byzone uden fradrag i marchlængde,
  såfremt byen ikke er besat": a march column passes through an unoccupied zone at no cost; a
  zone occupied by others is not marched through (its roads being free is the umpire's call,
  stated in the note).

A move neither forward nor backwards (a sideways move) follows ``sideways_move``: 4.3 "Enheder
må flyttes i enhver retning eller kombination heraf ... indenfor enhedens marchlængde" allows any
direction and 4.4 halves only the backwards move, so the assumed default "full" lets a unit
sidestep at its full march length; "half" halves it; "turn" is the digest's A37 (turn first).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import replace

from shapely.geometry import LineString, Polygon, box
from shapely.geometry import Point as SPoint
from shapely.affinity import rotate
from shapely.geometry.base import BaseGeometry
from shapely.ops import unary_union

from battlestudio.model.geometry import Point, direction_angle, forward, normalize_angle
from battlestudio.model.terrain import TerrainFeature, TerrainKind, TownZone
from battlestudio.model.units import Arm, Formation, OrderState, Unit
from battlestudio.replay.state import GameState
from battlestudio.rules.moves import MoveCheck, MoveRequest
from battlestudio.rules.params import RuleParameters, RuleRefused
from battlestudio.rules.toe.checks import detached_at_point
from battlestudio.rules.toe.command import required_reach
from battlestudio.rules.toe.common import base_of, footprint, is_detached, is_fled, march_length, order_in_force_for
from battlestudio.rules.toe.combat_marks import mark_of, this_turn
from battlestudio.rules.toe.reactions import REACTED, this_player_turn

PIVOT_FREE_DEG = 45.0

ROAD_MARGIN_CM = 1.0
"""How far beyond a road's drawn edge a march column's path may run and still be on the road (4.4)."""


def _angle(a: float, b: float) -> float:
    """Smallest angle between two directions, degrees (0-180)."""
    d = abs(normalize_angle(a) - normalize_angle(b)) % 360.0
    return min(d, 360.0 - d)


def _corner_paths(u: Unit, path: tuple[Point, ...], facing: float) -> list[float]:
    """How far each footprint corner travels: along the path at the old facing, then the turn
    to ``facing`` at the end (4.1: the figure with farthest to go)."""
    start = u.rect().corners()
    legs: list[tuple[Point, ...]] = [start]
    for p in path[1:]:
        legs.append(replace(u, position=p).rect().corners())
    legs.append(replace(u, position=path[-1], facing=facing).rect().corners())
    out = []
    for i in range(4):
        out.append(sum(math.dist(a[i], b[i]) for a, b in zip(legs, legs[1:], strict=False)))
    return out


PIVOT_STILL_CM = 0.05
"""How far (cm) a corner may shift and still be the still corner of a pivot (4.4)."""

CORNER_NAMES = ("front-left", "front-right", "rear-right", "rear-left")


def _turn_deg(old: float, new: float) -> float:
    """The signed turn from ``old`` to ``new`` facing, degrees in (-180, 180] (CCW positive)."""
    return (normalize_angle(new) - normalize_angle(old) + 180.0) % 360.0 - 180.0


def _pivot_corner(u: Unit, path: tuple[Point, ...], facing: float) -> int | None:
    """The corner (index into ``UnitRect.corners``) a move of ``u`` to ``path[-1]`` facing
    ``facing`` keeps still, when the move is a pivot (4.4 "Pivotering foretages ved at enhedens
    front ændres men af et af hjørnerne i enheden er stationær under bevægelsen"); None for any
    other move or turn."""
    if len(path) != 2 or abs(_turn_deg(u.facing, facing)) < 1e-6:
        return None
    a = u.rect().corners()
    b = replace(u, position=path[-1], facing=facing).rect().corners()
    still = [i for i in range(4) if math.dist(a[i], b[i]) <= PIVOT_STILL_CM]
    return still[0] if still else None


def _pivot_arcs(u: Unit, corner: int, facing: float) -> list[float]:
    """How far each corner travels in a pivot about ``corner``: its arc, radius × angle (4.1 the
    figure with farthest to go; A36)."""
    c = u.rect().corners()
    turn = math.radians(abs(_turn_deg(u.facing, facing)))
    return [math.dist(c[corner], q) * turn for q in c]


def _pivot_sweep(u: Unit, corner: int, facing: float) -> Polygon:
    """The ground the footprint covers as it pivots about ``corner`` (steps of at most 5°)."""
    turn = _turn_deg(u.facing, facing)
    origin = u.rect().corners()[corner]
    fp = u.footprint()
    steps = max(2, math.ceil(abs(turn) / 5.0))
    shapes = [rotate(fp, turn * k / steps, origin=origin) for k in range(steps + 1)]
    hulls = [unary_union([a, b]).convex_hull for a, b in zip(shapes, shapes[1:], strict=False)]
    out = unary_union(hulls)
    return out if isinstance(out, Polygon) else out.convex_hull


def _pivot_room(
    state: GameState,
    u: Unit,
    corner: int,
    sweep: Polygon,
    req: MoveRequest,
    turned: float,
    problems: list[str],
    notes: list[str],
) -> None:
    """4.4 Pivotering "Det er en forudsætning for at pivoteringsbevægelsen at der er plads til at
    foretage denne": the ground the pivot sweeps may hold no other unit, friend or foe (beyond
    what the unit already shared with it: base contact is no overlap), and no impassable terrain."""
    here = u.footprint()
    in_way = []
    for o in state.units.values():
        if o.id == u.id or o.id in state.off_table or o.state == OrderState.ELIMINATED.value:
            continue
        fp = o.footprint()
        if sweep.intersects(fp) and sweep.intersection(fp).area > here.intersection(fp).area + 1e-6:
            in_way.append(f"{o.name} ({'friend' if o.side == u.side else 'enemy'})")
    for t in req.terrain:
        if t.kind is TerrainKind.IMPASSABLE and sweep.intersection(t.geometry).area > 1e-6:
            in_way.append(f"the impassable {t.name or t.id}")
    where = CORNER_NAMES[corner]
    if in_way:
        problems.append(
            f"{u.name} has no room to pivot {turned:.0f}° about its {where} corner: {', '.join(sorted(in_way))} "
            "in the way (4.4 'Det er en forudsætning for at pivoteringsbevægelsen at der er plads til at foretage "
            "denne')."
        )
    else:
        notes.append(
            f"{u.name} pivots {turned:.0f}° about its {where} corner, which stays still; each figure goes its arc "
            "(4.4 Pivotering, A36)."
        )


def _on_road(req: MoveRequest) -> bool:
    """Whether the whole path runs on the roads of ``req.terrain`` (4.4 'på vej')."""
    roads = [
        t.geometry.buffer((t.width or 0.0) / 2 + ROAD_MARGIN_CM) for t in req.terrain if t.kind is TerrainKind.ROAD
    ]
    return bool(roads) and LineString(req.path).within(unary_union(roads))


def _allowance(u: Unit, p: RuleParameters, notes: list[str], state: GameState, req: MoveRequest) -> float | None:
    """The unit's march length in its formation (4.4), None when the scenario lacks it. A march
    column moves at march-column speed only under a march order and on a road, else at column
    speed (4.4 "Marchkolonne hastighed kan kun anvendes af enheder med marchordre såfremt disse
    bevæger sig på vej. Andre enheder i marchkolonne bevæges med kolonnehastighed")."""
    found = p.lookup(
        f"march_length_cm.{u.nation}.{u.arm.value}.{u.formation.value}",
        f"march_length_cm.{u.arm.value}.{u.formation.value}",
    )
    if found is not None and u.formation is Formation.MARCH_COLUMN:
        order, _ = order_in_force_for(state, u.id)
        why = "" if order is not None and order.order_type == "M" else "has no march order"
        why = why or ("" if _on_road(req) else "does not move on a road")
        if why:
            col = p.lookup(f"march_length_cm.{u.nation}.{u.arm.value}.column", f"march_length_cm.{u.arm.value}.column")
            notes.append(
                f"{u.name} in march column {why}: march-column speed only under a march order on a road, else "
                f"column speed (4.4){'' if col else '; the scenario gives no column length'}."
            )
            found = col
    if found is not None:
        notes.append(f"march length {float(found[1]):g} cm in {u.formation.value} (scenario {found[0]}, 4.4).")
        return float(found[1])
    try:
        length = march_length(p, u)
    except RuleRefused as exc:
        notes.append(f"No march length: {exc}")
        return None
    notes.append(f"march length {length:g} cm ({u.arm.value}; 4.1, national supplement value from the scenario).")
    return length


def check_move(state: GameState, p: RuleParameters, req: MoveRequest) -> MoveCheck:
    """``req`` checked against 4.1-4.7 (see the module); ``MoveCheck.legal`` False names each
    broken rule. Raises ``RuleRefused`` for an unknown unit or a path of fewer than 2 points."""
    u = state.units.get(req.unit)
    if u is None:
        raise RuleRefused(f"no unit {req.unit!r} on the table")
    if len(req.path) < 2:
        raise RuleRefused(f"{u.name}: a move needs a path of at least 2 points")
    facing = u.facing if req.facing is None else req.facing
    problems: list[str] = []
    notes: list[str] = []
    assumed: list[str] = []
    start, end = req.path[0], req.path[-1]
    pivot = _pivot_corner(u, req.path, facing)
    used = max(_corner_paths(u, req.path, facing) if pivot is None else _pivot_arcs(u, pivot, facing))
    moved = math.dist(start, end) > 1e-6
    turned = _angle(u.facing, facing)

    immobile = False
    # 4.2 who moves
    reaction = this_player_turn(state, REACTED, u.id)  # a reaction tried in this player-turn (5.2)
    if reaction is not None and not reaction.get("passed"):
        problems.append(f"{u.name}'s reaction failed: it does not move (5.2).")
    elif reaction is None and u.side != state.side and state.phase in ("movement", "attack_declaration"):
        problems.append(
            f"{u.name} belongs to the passive side: it moves only as a reaction after a reaction roll (4.2, 5.2)."
        )
    if state.flags.get(f"continued_melee:{u.id}"):
        immobile = True
        problems.append(f"{u.name} is in continued melee and cannot move unless the melee is broken off (4.2, 7.5).")
    if moved and detached_at_point(state, u.id):
        immobile = True
        problems.append(
            f"{u.name} is a detached brigade at its point: there it only changes formation and pivots (2.11)."
        )
    # 4.4 states and formations that do not move
    if u.state in (OrderState.ELIMINATED.value, OrderState.FU.value):
        immobile = True
    if u.state == OrderState.ELIMINATED.value:
        problems.append(f"{u.name} is eliminated.")
    elif u.state == OrderState.FU.value:
        problems.append(f"{u.name} is in complete disorder (FU) and cannot be moved except by flight (4.4, 8.8).")
    if u.formation is Formation.SQUARE and moved:
        immobile = True
        problems.append(f"{u.name} is in square: squares make no voluntary move (4.4).")
    after = replace(u, position=end, facing=facing)
    in_town = next((z for z in req.towns if _in_zone(u, z) and _in_zone(after, z)), None)
    if u.arm is Arm.ARTILLERY and in_town is not None:
        notes.append(
            f"{u.name} moves within the town zone {in_town.name or in_town.id}: a battery's moves in a town follow "
            "4.6.3 'Bevægelser ind i, ud af og inden i byer'."
        )
    elif u.arm is Arm.ARTILLERY and u.formation is Formation.UNLIMBERED:
        if used > 2.0 + 1e-9 or turned > PIVOT_FREE_DEG + 1e-9:
            immobile = True
            problems.append(
                f"{u.name} is unlimbered: it may only pivot up to 45° within 2 cm ({used:.1f} cm, "
                f"{turned:.0f}°); limber it to march (4.6.3)."
            )
    # 4.4 direction and distance
    allowed = _allowance(u, p, notes, state, req)
    if allowed is not None and reaction is not None and reaction.get("kind") == "move":
        allowed /= 2.0
        notes.append(f"a reaction move: up to half a move, {allowed:g} cm (5.2 'et halvt træk').")
    backwards = moved and _angle(direction_angle((end[0] - start[0], end[1] - start[1])), u.facing) >= 135.0 - 1e-9
    backwards = backwards and pivot is None  # a pivot turns the front; it is neither forward nor back
    if moved and allowed is not None and pivot is not None:
        notes.append(
            "a pivot is a turn of the front, measured by its arcs, neither a forward nor a backwards move (4.4)."
        )
    elif moved and allowed is not None:
        heading = direction_angle((end[0] - start[0], end[1] - start[1]))
        off = _angle(heading, u.facing)
        if off <= 45.0 + 1e-9:
            notes.append(f"forward move ({off:.0f}° from the front, 4.4).")
        elif off >= 135.0 - 1e-9:
            allowed /= 2.0
            notes.append(f"backwards move ({off:.0f}° from the front): half march length, {allowed:g} cm (4.4).")
        else:
            how = str(p.get("sideways_move"))
            if not p.overridden("sideways_move"):
                assumed.append("sideways_move")
            if how == "turn":
                problems.append(
                    f"{u.name} moves sideways ({off:.0f}° from the front): under toe.sideways_move = 'turn' (A37) it "
                    "turns first (a turn over 45° is a formation change; 4.3 'i enhver retning' reads 'full')."
                )
            else:
                factor = 0.5 if how == "half" else 1.0
                allowed *= factor
                tag = "" if p.overridden("sideways_move") else ", assumed"
                notes.append(
                    f"sideways move ({off:.0f}° from the front; 4.3 'Enheder må flyttes i enhver retning'): {how} "
                    f"march length, {allowed:g} cm (toe.sideways_move{tag})."
                )
    road_turn = u.formation is Formation.MARCH_COLUMN and turned > PIVOT_FREE_DEG + 1e-9 and _on_road(req)
    if road_turn:
        notes.append(f"the turn of {turned:.0f}° is a march column's on a road: not a formation change (4.4).")
    elif turned > PIVOT_FREE_DEG + 1e-9 and not (u.arm is Arm.ARTILLERY and u.formation is Formation.UNLIMBERED):
        found = p.lookup(f"formation_change_cm.{u.nation}", "formation_change_cm") if u.nation else None
        found = found or p.lookup("formation_change_cm")
        if found is not None and allowed is not None:
            allowed -= float(found[1])
            notes.append(
                f"the turn of {turned:.0f}° (> 45°) counts as a formation change: {float(found[1]):g} cm "
                f"deducted (4.4, scenario {found[0]})."
            )
        else:
            notes.append(f"the turn of {turned:.0f}° (> 45°) counts as a formation change (4.4).")
    if pivot is None:
        swept = _swept(u, after, req.path)
    else:
        swept = _pivot_sweep(u, pivot, facing)
        _pivot_room(state, u, pivot, swept, req, turned, problems, notes)
    allowed = _obstacles(u, p, req, swept, allowed, notes)
    if allowed is not None and used > allowed + 1e-6:
        problems.append(f"{u.name} goes {used:.1f} cm, beyond its {allowed:.1f} cm (4.4).")
    _passage(state, p, u, swept, backwards, problems, notes)
    # 4.7 terrain
    for t in req.terrain:
        if not swept.intersects(t.geometry):
            continue
        name = t.name or t.kind.value
        if t.kind is TerrainKind.WOODS:
            _woods(u, after, swept, t.geometry, name, problems, notes)
        elif t.kind is TerrainKind.WALL and u.arm in (Arm.ARTILLERY, Arm.CAVALRY):
            problems.append(f"{u.name} crosses the wall {name}: artillery and cavalry cannot pass walls (4.7).")
        elif t.kind is TerrainKind.IMPASSABLE:
            problems.append(f"{u.name} enters the impassable {name} (4.7).")
    _bridges_and_rivers(u, p, req, swept, problems, notes, assumed)
    leaves_command = _leaves_command(state, p, u, after) if moved else ""
    if leaves_command:
        problems.append(leaves_command)
    _towns(state, p, u, after, req, problems, notes)
    # 4.4 leaving the table
    leaves = False
    if req.table is not None:
        board = box(0.0, 0.0, req.table[0], req.table[1])
        if not board.buffer(1e-6).contains(after.footprint()):
            leaves = True
            notes.append(f"{u.name} goes over the table edge: it is lost for the rest of the game (4.4).")
    return MoveCheck(u.id, not problems, used, allowed, tuple(problems), tuple(notes), leaves, tuple(assumed), immobile)


def _changed_to_u_now(state: GameState, o: Unit) -> str:
    """Why ``o`` counts as having changed to U in this player-turn for 4.4's passage ("Gennemmarch
    i forbindelse med egen enhed har ændret orden til U"; "" when it does not): it is
    in U and fought a melee or tried a reaction in this player-turn (A41: the change comes from a
    melee, its morale test or a reaction; a U the umpire recorded by hand leaves no such mark)."""
    if o.state != OrderState.U.value:
        return ""
    if this_turn(state, mark_of(state, o.id)):
        return "its melee of this player-turn"
    if this_player_turn(state, REACTED, o.id) is not None:
        return "its reaction of this player-turn"
    return ""


def _behind(u: Unit, o: Unit) -> bool:
    """Whether ``o``'s centre stands behind ``u``'s front-to-rear axis midpoint (in its rear half)."""
    (cx, cy), (ox, oy) = u.rect().centre, o.rect().centre
    fx, fy = forward(u.facing)
    return (ox - cx) * fx + (oy - cy) * fy < 0.0


def _passage(
    state: GameState,
    p: RuleParameters,
    u: Unit,
    swept: Polygon,
    backwards: bool,
    problems: list[str],
    notes: list[str],
) -> None:
    """4.4 Gennemmarch: "Gennemmarch er ikke tilladt, dog kan der foretages gennemmarch i
    følgende tilfælde: Flygtende enheder der gennemmarcherer egne enheder (jf. 8.8), Egne
    afprodsede batterier kan gennemmarcheres, Gennemmarch i forbindelse med egen enhed har ændret
    orden til U. Gennemmarch i forbindelse med nærkamp og U-enheders gennemmarch af egne bagved
    stående enheder (se 8.7)". A friend ``u``'s way shares more ground with than where it stood
    is passed through; it is allowed when ``u`` flees (state ``fled_state``), the friend is an
    unlimbered battery, either changed to U in this player-turn (``_changed_to_u_now``, A41),
    ``u`` fought a melee in this player-turn (the move is the melee's: 7.3, 8.7), or ``u`` is in
    U and goes backwards through a friend standing behind it (8.7)."""
    here = u.footprint()
    fled = is_fled(u, p)
    own_u = _changed_to_u_now(state, u)
    in_melee = this_turn(state, mark_of(state, u.id))
    blocked: list[str] = []
    for o in state.units.values():
        if o.id == u.id or o.side != u.side or o.id in state.off_table or o.state == OrderState.ELIMINATED.value:
            continue
        fp = o.footprint()
        if not swept.intersects(fp):
            continue
        if swept.intersection(fp).area <= here.intersection(fp).area + 1e-6:
            continue  # touching neighbours share no ground
        if o.arm is Arm.ARTILLERY and o.formation is Formation.UNLIMBERED:
            why = "an own unlimbered battery may be passed through"
        elif fled:
            why = f"{u.name} flees: fleeing units pass through their own (8.8)"
        elif own_u:
            why = f"{u.name} changed to U in this player-turn ({own_u}, A41)"
        elif _changed_to_u_now(state, o):
            why = f"{o.name} changed to U in this player-turn ({_changed_to_u_now(state, o)}, A41)"
        elif in_melee:
            why = f"{u.name} fought a melee in this player-turn: passage in connection with melee (8.7)"
        elif u.state == OrderState.U.value and backwards and _behind(u, o):
            why = f"{u.name} is in U and goes back through its own unit standing behind it (8.7)"
        else:
            blocked.append(o.name)
            continue
        notes.append(f"{u.name} passes through {o.name}: {why} (4.4 Gennemmarch).")
    if blocked:
        problems.append(
            f"{u.name} passes through {', '.join(sorted(blocked))}: passage through friendly units is not "
            "allowed, except fleeing units (8.8), own unlimbered batteries, units that changed to U in this "
            "player-turn, in melee and U units going back through their own behind them (8.7) (4.4 Gennemmarch)."
        )


RIVER_WIDTH_CM = 2.5
"""Width of a river drawn without one (as the map and the placement check draw it)."""

BRIDGE_WIDTH_CM = 3.0
"""Width of a bridge drawn as a point or a line without one."""


_AREAS: dict[int, tuple[TerrainFeature, BaseGeometry]] = {}
"""``_area_of`` per feature record (records are immutable; order execution checks every unit)."""


def _area_of(t: TerrainFeature, default_width: float) -> BaseGeometry:
    """``t``'s ground: its polygon, or its line or point widened to its drawn width (cached)."""
    hit = _AREAS.get(id(t))
    if hit is not None and hit[0] is t:
        return hit[1]
    g = t.geometry
    if g.is_empty or not g.is_valid:
        area: BaseGeometry = Polygon()
    else:
        area = g if g.area > 0 else g.buffer((t.width or default_width) / 2.0)
    if len(_AREAS) >= 4096:
        _AREAS.clear()
    _AREAS[id(t)] = (t, area)
    return area


def in_the_river_on_a_bridge(u: Unit, terrain: Iterable[TerrainFeature]) -> str:
    """Why ``u`` standing on a bridge counts as in the river ("" when it does not): 4.7 Broer
    "Enheder i marchkolonne kan krydse broer eller være i kamp på broer. Enheder i enhver anden
    formation end marchkolonne anses for at være i flod" — for a melee check on a bridge."""
    if u.formation is Formation.MARCH_COLUMN:
        return ""
    fp = u.footprint()
    for t in terrain:
        if t.kind is TerrainKind.BRIDGE and fp.intersection(_area_of(t, BRIDGE_WIDTH_CM)).area > WOODS_TINY_CM2:
            return (
                f"{u.name} stands on the bridge {t.name or t.id} in {u.formation.value.replace('_', ' ')}: only a "
                "march column fights on a bridge; in any other formation it counts as in the river (4.7)"
            )
    return ""


_WATER: dict[tuple[int, ...], tuple[tuple[TerrainFeature, ...], BaseGeometry]] = {}


def _open_water(river: TerrainFeature, crossings: tuple[TerrainFeature, ...]) -> BaseGeometry:
    """``river``'s water less its ``crossings`` (bridges and fords), cached per feature records."""
    key = (id(river), *map(id, crossings))
    hit = _WATER.get(key)
    if hit is not None and hit[0][0] is river and all(a is b for a, b in zip(hit[0][1:], crossings, strict=True)):
        return hit[1]
    water = _area_of(river, RIVER_WIDTH_CM)
    if crossings:
        water = water.difference(unary_union([_area_of(c, BRIDGE_WIDTH_CM) for c in crossings]))
    if len(_WATER) >= 1024:
        _WATER.clear()
    _WATER[key] = ((river, *crossings), water)
    return water


def _bridges_and_rivers(
    u: Unit,
    p: RuleParameters,
    req: MoveRequest,
    swept: Polygon,
    problems: list[str],
    notes: list[str],
    assumed: list[str],
) -> None:
    """4.7 Broer: "Enheder i marchkolonne kan krydse broer eller være i kamp på broer. Enheder i
    enhver anden formation end marchkolonne anses for at være i flod". A unit whose way covers a
    bridge (more than touching) is on it: in march column it crosses; in any other formation it
    counts as in the river. What being in the river does is ``river_crossing`` (assumed, A45):
    'bridge' refuses it, and a way whose centre runs through a river's water away from its bridges
    and fords; 'umpire' says so and leaves it to the umpire."""
    bridges = [t for t in req.terrain if t.kind is TerrainKind.BRIDGE]
    rivers = [t for t in req.terrain if t.kind is TerrainKind.RIVER]
    if not bridges and not rivers:
        return
    how = str(p.get("river_crossing"))
    if how not in ("bridge", "umpire"):
        raise RuleRefused(f"toe.river_crossing = {how!r} is not a reading of 4.7 (A45); use 'bridge' or 'umpire'")
    reading = "toe.river_crossing = " + repr(how) + ("" if p.overridden("river_crossing") else ", assumed A45")
    said = False
    start = u.footprint()
    for t in bridges:
        ground = _area_of(t, BRIDGE_WIDTH_CM)
        if swept.intersection(ground).area <= start.intersection(ground).area + WOODS_TINY_CM2:
            continue
        said = True
        name = t.name or t.id or "bridge"
        if u.formation is Formation.MARCH_COLUMN:
            notes.append(f"{u.name} crosses the bridge {name} in march column (4.7 Broer).")
            continue
        text = (
            f"{u.name} goes onto the bridge {name} in {u.formation.value.replace('_', ' ')}: only a march column "
            "crosses a bridge or fights on it; in any other formation it counts as in the river (4.7 'anses for at "
            f"være i flod'; {reading})"
        )
        (problems if how == "bridge" else notes).append(text + ("." if how == "bridge" else ": the umpire rules."))
    crossings = tuple(t for t in req.terrain if t.kind in (TerrainKind.BRIDGE, TerrainKind.FORD))
    centres = LineString([replace(u, position=q).rect().centre for q in req.path])
    for t in rivers:
        water = _open_water(t, crossings)
        if water.is_empty or water.covers(SPoint(centres.coords[0])):
            continue  # no open water, or it stands in it already: getting out is the umpire's
        if centres.intersection(water).length <= 1e-6:
            continue
        said = True
        name = t.name or t.id or "river"
        text = (
            f"{u.name} goes into the river {name} away from its bridges and fords: a river is crossed on a bridge "
            f"in march column or at a ford (4.7 Broer; {reading})"
        )
        (problems if how == "bridge" else notes).append(text + ("." if how == "bridge" else ": the umpire rules."))
    if said and not p.overridden("river_crossing"):
        assumed.append("river_crossing")


WOODS_TINY_CM2 = 0.01
"""Woods ground (cm²) below which a footprint only touches a wood's outline."""


def _woods(
    u: Unit, after: Unit, swept: Polygon, wood: BaseGeometry, name: str, problems: list[str], notes: list[str]
) -> None:
    """4.7 "En enhed kan ikke marchere gennem skov. En infanterienhed i linie kan placeres i
    skovkant og derved opnå den dækningsværdi der er for skov": no unit's way may take it into
    woods it did not already stand in; only infantry in line may end at the wood's edge, its
    footprint reaching no deeper into the woods than its own depth (the edge strip) and no woods
    crossed on the way there. The cover it gains there is fire's (Table 5)."""
    if not wood.is_valid or wood.area <= 0.0:
        return
    start = u.footprint()
    already = start.intersection(wood).area
    entered = swept.intersection(wood).area - already
    if entered <= WOODS_TINY_CM2:
        return
    if u.arm is Arm.INFANTRY and u.formation is Formation.LINE:
        depth = after.rect().depth
        end = after.footprint()
        on_way = swept.intersection(wood).difference(end.buffer(1e-6)).area - already
        deep = end.intersection(wood.buffer(-depth)).area
        if on_way <= WOODS_TINY_CM2 and deep <= WOODS_TINY_CM2:
            notes.append(
                f"{u.name} stands in line at the edge of the woods {name}: infantry in line may be placed at a "
                "wood's edge and has the woods' cover (4.7 'kan placeres i skovkant')."
            )
            return
        problems.append(
            f"{u.name} goes into the woods {name} beyond its edge: no unit marches through woods; infantry in line "
            "may only stand at the edge, no deeper than its own depth (4.7)."
        )
        return
    what = f"{u.arm.value} in {u.formation.value.replace('_', ' ')}"
    problems.append(
        f"{u.name} marches into the woods {name}: no unit marches through woods, and only infantry in line may "
        f"stand at a wood's edge, not {what} (4.7)."
    )


TABLE_2_KINDS = frozenset(
    {TerrainKind.STREAM, TerrainKind.FORD, TerrainKind.MARSH, TerrainKind.HILL, TerrainKind.BUILT_UP}
)
"""Terrain whose crossing Table 2 may charge (4.1 "Fradrag for bevægelser i forskelligt terræn
fremgår af tabel 2"); the table is lost, so which of them it charged, and how much, is the
scenario's ``terrain_deduction_cm.<kind>`` or the umpire's."""


def _table_2(
    u: Unit,
    p: RuleParameters,
    t: TerrainFeature,
    start: BaseGeometry,
    swept: Polygon,
    allowed: float | None,
    notes: list[str],
) -> float | None:
    """``allowed`` less Table 2's deduction for ``u`` moving across ``t`` (its way crosses the
    feature's line or outline: entering, leaving or passing it, not moving within it; 4.1): the
    scenario's ``terrain_deduction_cm.<nation>.<kind>``, ``.<arm>.<kind>`` or ``.<kind>``; while
    the scenario gives none, the note says the lost Table 2 is the umpire's to apply."""
    g = t.geometry
    if g.is_empty or not g.is_valid:
        return allowed
    edge = g.boundary if g.area > 0 else g
    if not swept.intersects(edge) or (start.intersects(edge) and swept.difference(start).area <= 1e-6):
        return allowed
    kind, name = t.kind.value, t.name or t.id or t.kind.value
    what = kind.replace("_", " ")
    found = p.lookup(
        f"terrain_deduction_cm.{u.nation}.{kind}",
        f"terrain_deduction_cm.{u.arm.value}.{kind}",
        f"terrain_deduction_cm.{kind}",
    )
    if found is None:
        notes.append(
            f"{u.name} crosses the {what} {name}: a deduction for it, if any, is in Table 2, lost from the rules "
            f"text; the umpire deducts it (scenario parameter terrain_deduction_cm.{kind}; 4.1)."
        )
        return allowed
    notes.append(f"{u.name} crosses the {what} {name}: {float(found[1]):g} cm deducted (4.1, scenario {found[0]}).")
    return None if allowed is None else allowed - float(found[1])


def _obstacles(
    u: Unit, p: RuleParameters, req: MoveRequest, swept: Polygon, allowed: float | None, notes: list[str]
) -> float | None:
    """``allowed`` less the obstacle deductions of the lost Table 2 for the hedges (artillery and
    cavalry) and walls (other arms; artillery and cavalry cannot pass them) ``u`` crosses (4.1, 4.7
    "giver tab i marchlængde ... (jf. tabel 2)"): scenario parameter ``terrain_deduction_cm.<kind>``
    (or ``.<nation>.<kind>``); while the scenario lacks it the note says the umpire deducts it."""
    mounted = u.arm in (Arm.ARTILLERY, Arm.CAVALRY)
    start = u.footprint()
    for t in req.terrain:
        if t.kind in TABLE_2_KINDS:
            allowed = _table_2(u, p, t, start, swept, allowed, notes)
            continue
        if not ((t.kind is TerrainKind.HEDGE and mounted) or (t.kind is TerrainKind.WALL and not mounted)):
            continue
        if not swept.intersects(t.geometry):
            continue
        kind, name = t.kind.value, t.name or t.kind.value
        found = p.lookup(f"terrain_deduction_cm.{u.nation}.{kind}", f"terrain_deduction_cm.{kind}")
        if found is None:
            notes.append(
                f"{u.name} crosses the {kind} {name}: its deduction is in Table 2, lost from the rules text; the "
                f"umpire deducts it (scenario parameter terrain_deduction_cm.{kind}; 4.1, 4.7)."
            )
        elif allowed is not None:
            allowed -= float(found[1])
            notes.append(
                f"{u.name} crosses the {kind} {name}: {float(found[1]):g} cm deducted (4.7, scenario {found[0]})."
            )
    return allowed


def _leaves_command(state: GameState, p: RuleParameters, u: Unit, after: Unit) -> str:
    """Why the move breaks ``u``'s command distance to its superior ("" when it does not): a unit
    within it may not leave it voluntarily (2.4 "må ikke frivilligt forlade korpsgeneralens
    kommandoafstand", 4.3); a unit outside it moves only to seek it, each move bringing it nearer
    (4.2 "såfremt den enkelte enhed er indenfor kommandoafstand ... eller søger dette"). Not
    judged for cavalry (4.9: it may, with an attack declared in the same turn), detached or fled
    units, a superior without a known distance, or another ``command_measure`` than nearest."""
    sup = state.oob.superior(u.id)
    if sup is None or sup not in state.commanders or sup in state.off_table or u.arm is Arm.CAVALRY:
        return ""
    if is_detached(state, u.id) or is_fled(u, p) or p.get("command_measure") != "nearest":
        return ""
    try:
        reach = required_reach(state, sup, p)
    except RuleRefused:
        return ""
    if reach is None:
        return ""
    base = base_of(state.commanders[sup])
    was, now = base.distance(footprint(u)), base.distance(footprint(after))
    if was > reach + 1e-6:
        if now < was - 1e-6:
            return ""
        return (
            f"{u.name} is outside {state.commanders[sup].name}'s command distance ({was:.1f} cm, {reach:g} cm "
            f"allowed) and this move does not bring it nearer ({now:.1f} cm): a unit outside moves only to seek "
            "it (4.2 'indenfor kommandoafstand ... eller søger dette'; 2.4 'skal ... bevæge sig indenfor "
            "kommandoafstand')."
        )
    if now <= reach + 1e-6:
        return ""
    return (
        f"{u.name} would leave {state.commanders[sup].name}'s command distance ({now:.1f} cm, {reach:g} cm "
        "allowed): a unit may not leave it voluntarily (2.4, 4.3)."
    )


def _in_zone(u: Unit, zone: TownZone) -> bool:
    """Whether ``u`` stands in ``zone`` (4.8): its centre inside, or marked with the zone's id."""
    return u.attributes.get("town_zone") == zone.id or zone.polygon.covers(SPoint(u.rect().centre))


def _towns(
    state: GameState,
    p: RuleParameters,
    u: Unit,
    after: Unit,
    req: MoveRequest,
    problems: list[str],
    notes: list[str],
) -> None:
    """4.8's town rules for ``u`` moving to ``after`` (see the module)."""
    if not req.towns:
        return
    others = [
        o
        for o in state.units.values()
        if o.id != u.id and o.id not in state.off_table and o.state != OrderState.ELIMINATED.value
    ]
    limit = int(p.get("town_zone_figures"))
    centres = LineString([replace(u, position=q).rect().centre for q in req.path])
    for zone in req.towns:
        name = zone.name or zone.id
        ends_in = _in_zone(after, zone)
        if not (ends_in or _in_zone(u, zone) or centres.intersects(zone.polygon)):
            continue  # the move has nothing to do with this zone: who holds it is not asked
        inside = [o for o in others if _in_zone(o, zone)]
        if u.arm is Arm.ARTILLERY:
            _battery_town(state, p, u, after, zone, inside, problems, notes)
        if ends_in:
            enemies = [o.name for o in inside if o.side != u.side]
            if enemies:
                problems.append(
                    f"{u.name} cannot move into the town zone {name}: {', '.join(sorted(enemies))} holds it; a town "
                    "is taken by attack (4.8, 7.1)."
                )
                continue
            if u.arm is Arm.ARTILLERY:
                batteries = [o.name for o in inside if o.arm is Arm.ARTILLERY]
                if batteries:
                    problems.append(
                        f"{u.name} cannot deploy in the town zone {name}: {batteries[0]} is already there; at most "
                        "one battery stands in a town zone (4.8, 4.8.6)."
                    )
                else:
                    notes.append(f"{u.name} deploys in the town zone {name} as its one battery (4.8, 4.8.6).")
                continue
            troops = [o for o in inside if o.arm is not Arm.ARTILLERY] + [after]
            figures = sum(o.figures for o in troops)
            if len(troops) > zone.capacity and figures > limit:
                problems.append(
                    f"{u.name} cannot deploy in the town zone {name}: it would hold {len(troops)} units of {figures} "
                    f"figures; a town zone holds one unit or {limit} figures (4.8 'en enhed eller 40 figurer')."
                )
            else:
                why = "one unit" if len(troops) <= zone.capacity else f"{figures} of at most {limit} figures"
                notes.append(f"{u.name} deploys in the town zone {name} ({why}, 4.8).")
        elif centres.intersects(zone.polygon) and not _in_zone(u, zone):
            occupied = [o.name for o in inside]
            if u.formation is not Formation.MARCH_COLUMN:
                notes.append(
                    f"{u.name} crosses the town zone {name} out of march column; 4.8 gives the free passage "
                    "only to a march column (the rest is in the lost movement table, Table 2)."
                )
            elif occupied:
                problems.append(
                    f"{u.name} cannot march through the town zone {name}: {', '.join(sorted(occupied))} occupies it "
                    "(4.8 'såfremt byen ikke er besat'; the umpire may rule its roads free)."
                )
            else:
                notes.append(f"{u.name} marches through the empty town zone {name} in march column at no cost (4.8).")


def _zone_sides(zone: TownZone) -> list[tuple[LineString, float]]:
    """The town zone's sides: each edge of its outline and the direction (degrees) facing out."""
    poly = zone.polygon
    cx, cy = poly.centroid.x, poly.centroid.y
    pts = list(poly.exterior.coords)
    out = []
    for a, b in zip(pts, pts[1:], strict=False):
        if math.dist(a, b) < 1e-9:
            continue
        mx, my = (a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0
        nx, ny = b[1] - a[1], a[0] - b[0]  # a perpendicular; turned outwards below
        if nx * (mx - cx) + ny * (my - cy) < 0:
            nx, ny = -nx, -ny
        out.append((LineString([a, b]), direction_angle((nx, ny))))
    return out


def _side_at(zone: TownZone, u: Unit) -> tuple[int, float]:
    """The side of ``zone`` ``u`` stands on (the edge nearest its centre) and its outward direction."""
    c = SPoint(u.rect().centre)
    sides = _zone_sides(zone)
    i = min(range(len(sides)), key=lambda k: sides[k][0].distance(c))
    return i, sides[i][1]


def _beyond(zone: TownZone, side: int, u: Unit) -> bool:
    """Whether ``u``'s centre lies outside ``zone`` beyond its side ``side`` (that edge's half-plane)."""
    line, out = _zone_sides(zone)[side]
    (ax, ay), _ = line.coords
    cx, cy = u.rect().centre
    fx, fy = forward(out)
    return bool((cx - ax) * fx + (cy - ay) * fy > 1e-6)


def faces_its_town(u: Unit, towns: Iterable[TownZone]) -> str:
    """Why battery ``u`` cannot fire because it faces into the town zone it stands in ("" when
    it does not): 4.6.3 "Batteriet kan ikke skyde når det peger forinden mod byen" (front within
    45° of its side's inward direction) — for the fire check, which has the zones."""
    if u.arm is not Arm.ARTILLERY:
        return ""
    for zone in towns:
        if _in_zone(u, zone):
            _, out = _side_at(zone, u)
            if _angle(u.facing, out + 180.0) <= 45.0 + 1e-9:
                return (
                    f"{u.name} faces into the town zone {zone.name or zone.id} after changing side: a battery cannot "
                    "fire while its front points at the town (4.6.3)"
                )
    return ""


def _battery_town(
    state: GameState,
    p: RuleParameters,
    u: Unit,
    after: Unit,
    zone: TownZone,
    inside: list[Unit],
    problems: list[str],
    notes: list[str],
) -> None:
    """4.6.3 "Bevægelser ind i, ud af og inden i byer" for battery ``u`` moving to ``after``:

    * "Et batteri kan, hvis det er i brikkontakt med en by/byzone bevæge sig ind i denne": it
      enters only from base contact (``contact_tolerance_cm``), and stands on a side with its
      rear pointing into the town (4.8.6 "med bagenden af pjecen pegende ind mod byen");
    * "Der kan bevæges ud af byen/zone hvis bagenden af batteriet peger ind mod byen/zone og der
      ikke er fortsat nærkamp i byen/zone. Det bevæges væk fra byen/zonen, hvor som helst fra den
      side af byen/zone det er placeret på": it leaves with its rear to the town, beyond its own
      side, with no continued melee in the zone; "Et batteri kan kun bevæge sig ud af en by hvor
      der er fortsat nærkamp ved et gennemført reaktionskast og det rykker så ud på den modsatte
      side": with continued melee, only after a passed reaction roll this player-turn, beyond the
      opposite side;
    * "Batteriet bevæger sig mellem siderne i byen ved at i egen flyttefase at placere sig på den
      side, det vil til, med forenden af batteriet pegende mod byen ... I næste egen flytte fase
      vender man batteriet": it changes side with its front to the town (and cannot fire so:
      fire's 4.6.3), and turns its rear to the town in a later movement phase.

    Rear (front) to the town: the battery faces within 45° of its side's outward (inward)
    direction."""
    name = zone.name or zone.id
    was_in, ends_in = _in_zone(u, zone), _in_zone(after, zone)
    if not was_in and not ends_in:
        return
    if not was_in:
        gap = u.footprint().distance(zone.polygon)
        if gap > float(p.get("contact_tolerance_cm")) + 1e-9:
            problems.append(
                f"{u.name} is {gap:.1f} cm from the town zone {name}: a battery moves into a town only from base "
                "contact with it (4.6.3 'hvis det er i brikkontakt med en by/byzone')."
            )
            return
        _, out = _side_at(zone, after)
        if _angle(after.facing, out) > 45.0 + 1e-9:
            problems.append(
                f"{u.name} enters the town zone {name} facing {after.facing:.0f}°: it stands on a side with the rear "
                f"of its gun pointing into the town, facing out about {out:.0f}° (4.8.6, 4.6.3)."
            )
        else:
            notes.append(f"{u.name} enters the town zone {name} from base contact, its rear to the town (4.6.3).")
        return
    side, out = _side_at(zone, u)
    if not ends_in:
        fighting = [o.name for o in [*inside, u] if state.flags.get(f"continued_melee:{o.id}")]
        reaction = this_player_turn(state, REACTED, u.id)
        if fighting:
            if reaction is None or not reaction.get("passed"):
                problems.append(
                    f"{u.name} cannot leave the town zone {name}: {', '.join(sorted(fighting))} is in continued melee "
                    "there; a battery leaves then only after a passed reaction roll, out of the opposite side "
                    "(4.6.3)."
                )
                return
            opposite = max(range(len(_zone_sides(zone))), key=lambda k: _angle(_zone_sides(zone)[k][1], out))
            if not _beyond(zone, opposite, after):
                problems.append(
                    f"{u.name} leaves the town zone {name} in continued melee after its passed reaction: it moves out "
                    "on the side opposite the one it stands on (4.6.3 'på den modsatte side')."
                )
            else:
                notes.append(
                    f"{u.name} leaves the town zone {name} out of its opposite side after its reaction (4.6.3)."
                )
            return
        if _angle(u.facing, out) > 45.0 + 1e-9:
            problems.append(
                f"{u.name} faces the town zone {name}: a battery leaves a town only with its rear pointing into it "
                "(4.6.3 'hvis bagenden af batteriet peger ind mod byen'); turn it in a movement phase first."
            )
        elif not _beyond(zone, side, after):
            problems.append(
                f"{u.name} leaves the town zone {name} away from the side it stands on: it moves off from anywhere "
                "along its own side (4.6.3 'hvor som helst fra den side af byen/zone det er placeret på')."
            )
        else:
            notes.append(f"{u.name} leaves the town zone {name} from its own side, its rear to the town (4.6.3).")
        return
    new_side, new_out = _side_at(zone, after)
    if new_side != side:
        if _angle(after.facing, new_out + 180.0) > 45.0 + 1e-9:
            problems.append(
                f"{u.name} changes side in the town zone {name}: it is placed on the new side with its front "
                f"pointing at the town, facing about {normalize_angle(new_out + 180.0):.0f}° (4.6.3 'med forenden af "
                "batteriet pegende mod byen')."
            )
        else:
            notes.append(
                f"{u.name} changes side in the town zone {name}, its front to the town: it cannot fire so, and turns "
                "its rear to the town in its next own movement phase (4.6.3)."
            )
    elif _angle(after.facing, new_out) <= 45.0 + 1e-9 < _angle(u.facing, new_out):
        notes.append(f"{u.name} turns its rear to the town zone {name} on its side and may fire again (4.6.3).")


def _swept(before: Unit, after: Unit, path: tuple[Point, ...]) -> Polygon:
    """The ground the footprint covers on its way: the hull of each leg's start and end."""
    shapes = []
    rec = before
    for p in path[1:]:
        nxt = replace(rec, position=p)
        shapes.append(unary_union([rec.footprint(), nxt.footprint()]).convex_hull)
        rec = nxt
    shapes.append(unary_union([rec.footprint(), after.footprint()]).convex_hull)
    out = unary_union(shapes)
    return out if isinstance(out, Polygon) else out.convex_hull
