"""Torden over Europa chapter 4 on a unit's move (rules/toe/march.py), on Elchingen's own
units in its movement phase: the march length by arm or formation, forward and backwards (4.4:
"med ½ marchlængde"), measured from the figure with farthest to go (4.1), squares and FU units
that do not move, the unlimbered battery's 2 cm / 45° (4.6.3), passage through friends (4.4
Gennemmarch), woods (4.7), leaving the table (4.4), the passive side (4.2)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from shapely.geometry import box

from battlestudio import store
from battlestudio.model.geometry import forward, right_of
from battlestudio.model.terrain import TerrainFeature, TerrainKind
from battlestudio.model.units import Arm, Formation
from battlestudio.replay.state import GameState
from battlestudio.rules import get_ruleset
from battlestudio.rules.moves import MoveRequest
from battlestudio.rules.toe.combat_marks import CombatMarked
from battlestudio.rules.toe.contact import stamp_of
from battlestudio.rules.toe.march import faces_its_town, in_the_river_on_a_bridge
from battlestudio.session import GameSession

ELCHINGEN = Path(__file__).resolve().parents[2] / "scenarios" / "elchingen-1805.battle.json"
JENA = Path(__file__).resolve().parents[2] / "scenarios" / "jena-1806.battle.json"
TABLE = (240.0, 180.0)


@pytest.fixture(scope="module")
def movement() -> tuple[GameState, dict]:
    battle = store.load(ELCHINGEN)
    s = GameSession(battle, seed=4)
    s.advance_to("movement")
    return s.state, dict(s.params)


def _alone(state: GameState, *units) -> GameState:
    """``units`` alone on the table, without the generals: the rule under test is not mixed with
    command distance (2.4, 4.2), which has tests of its own."""
    return state.evolve(units={u.id: u for u in units}, commanders={})


def _unit(state: GameState, arm: Arm, side: str | None = None):
    side = side or state.side
    u = next(u for u in sorted(state.units.values(), key=lambda u: u.id) if u.arm is arm and u.side == side)
    return replace(u, position=(120.0, 90.0), facing=90.0, state="O")


def _check(state, params, u, delta, facing=None, terrain=(), table=TABLE):
    end = (u.position[0] + delta[0], u.position[1] + delta[1])
    return get_ruleset("toe").move_check(state, MoveRequest(u.id, (u.position, end), facing, terrain, table), params)


def test_forward_within_the_march_length_and_beyond(movement):
    state, params = movement
    u = replace(_unit(state, Arm.INFANTRY), formation=Formation.LINE)
    st = _alone(state, u)
    f = forward(u.facing)
    ok = _check(st, params, u, (f[0] * 29.0, f[1] * 29.0))
    assert ok.legal and ok.allowed_cm == 30.0 and ok.used_cm == pytest.approx(29.0)
    far = _check(st, params, u, (f[0] * 31.0, f[1] * 31.0))
    assert not far.legal and "goes 31.0 cm, beyond its 30.0 cm (4.4)" in far.problems[0]


def test_backwards_is_half_the_march_length(movement):
    state, params = movement
    u = _unit(state, Arm.INFANTRY)
    st = _alone(state, u)
    f = forward(u.facing)
    back = _check(st, params, u, (-f[0] * 16.0, -f[1] * 16.0))
    assert not back.legal and back.allowed_cm == 15.0 and any("half march length" in n for n in back.notes)
    assert _check(st, params, u, (-f[0] * 14.0, -f[1] * 14.0)).legal


def test_a_march_length_per_formation_from_the_scenario_wins(movement):
    state, params = movement
    u = replace(_unit(state, Arm.INFANTRY), formation=Formation.COLUMN)
    st = _alone(state, u)
    f = forward(u.facing)
    step = (f[0] * 35.0, f[1] * 35.0)
    assert not _check(st, params, u, step).legal
    assert _check(st, {**params, "toe.march_length_cm.infantry.column": 40}, u, step).legal


def test_the_sideways_reading_is_assumed_and_its_override_changes_the_answer(movement):
    """4.3 'Enheder må flyttes i enhver retning ... indenfor enhedens marchlængde': a sidestep at
    the full march length by default (4.4 halves only backwards); 'half' and 'turn' (A37) override."""
    state, params = movement
    u = _unit(state, Arm.INFANTRY)
    st = _alone(state, u)
    r = right_of(u.facing)
    side = (r[0] * 20.0, r[1] * 20.0)
    full = _check(st, params, u, side)
    assert full.legal and full.allowed_cm == 30.0 and full.assumed == ("sideways_move",)
    assert any("4.3 'Enheder må flyttes i enhver retning'" in n for n in full.notes)
    too_far = _check(st, params, u, (r[0] * 31.0, r[1] * 31.0))
    assert not too_far.legal and "beyond its 30.0 cm (4.4)" in too_far.problems[0]
    half = _check(st, {**params, "toe.sideways_move": "half"}, u, side)
    assert not half.legal and half.allowed_cm == 15.0 and half.assumed == ()
    turn = _check(st, {**params, "toe.sideways_move": "turn"}, u, side)
    assert not turn.legal and "turns first" in turn.problems[0]


def test_the_figure_with_farthest_to_go_measures_a_turn(movement):
    state, params = movement
    u = replace(_unit(state, Arm.INFANTRY), formation=Formation.LINE)
    st = _alone(state, u)
    f = forward(u.facing)
    straight = _check(st, params, u, (f[0] * 20.0, f[1] * 20.0))
    turning = _check(st, params, u, (f[0] * 20.0, f[1] * 20.0), facing=u.facing + 40.0)
    assert turning.used_cm > straight.used_cm + 1.0  # a wing swings farther than the centre
    wheel = _check(st, params, u, (0.0, 0.0), facing=u.facing + 90.0)
    assert any("counts as a formation change (4.4)" in n for n in wheel.notes)


def test_squares_and_fu_units_do_not_move(movement):
    state, params = movement
    u = _unit(state, Arm.INFANTRY)
    f = forward(u.facing)
    sq = replace(u, formation=Formation.SQUARE)
    assert (
        "squares make no voluntary move (4.4)"
        in _check(_alone(state, sq), params, sq, (f[0] * 5, f[1] * 5)).problems[0]
    )
    fu = replace(u, state="FU", formation=Formation.NONE)
    assert "complete disorder (FU)" in _check(_alone(state, fu), params, fu, (f[0] * 5, f[1] * 5)).problems[0]


def test_an_unlimbered_battery_pivots_45_within_2_cm_only(movement):
    """4.6 (4.6.3 Bevægelse i afprodset stand): an unlimbered battery pivots 45° within 2 cm."""
    state, params = movement
    gun = replace(_unit(state, Arm.ARTILLERY), formation=Formation.UNLIMBERED)
    st = _alone(state, gun)
    small = _check(st, params, gun, (0.0, 0.0), facing=gun.facing + 10.0)
    assert small.legal and small.used_cm <= 2.0
    wide = _check(st, params, gun, (0.0, 0.0), facing=gun.facing + 44.0)  # a wing swings beyond 2 cm
    assert wide.used_cm > 2.0 and not wide.legal
    f = forward(gun.facing)
    moved = _check(st, params, gun, (f[0] * 5.0, f[1] * 5.0))
    assert not moved.legal and "(4.6.3)" in moved.problems[0]
    limbered = replace(gun, formation=Formation.LIMBERED)
    assert _check(_alone(state, limbered), params, limbered, (f[0] * 5.0, f[1] * 5.0)).legal


def test_no_passage_through_friends_except_unlimbered_batteries(movement):
    state, params = movement
    u = _unit(state, Arm.INFANTRY)
    f = forward(u.facing)
    other = next(
        o
        for o in sorted(state.units.values(), key=lambda o: o.id)
        if o.side == u.side and o.id != u.id and o.arm is Arm.INFANTRY
    )
    ahead = replace(
        other,
        position=(u.position[0] + f[0] * 10.0, u.position[1] + f[1] * 10.0),
        facing=u.facing,
        formation=Formation.LINE,
        state="O",
    )
    through = _check(_alone(state, u, ahead), params, u, (f[0] * 25.0, f[1] * 25.0))
    assert not through.legal and "passes through" in through.problems[0] and "Gennemmarch" in through.problems[0]
    gun = next(o for o in state.units.values() if o.side == u.side and o.arm is Arm.ARTILLERY)
    battery = replace(gun, position=ahead.position, facing=u.facing, formation=Formation.UNLIMBERED, state="O")
    assert _check(_alone(state, u, battery), params, u, (f[0] * 25.0, f[1] * 25.0)).legal


def test_woods_the_table_edge_and_the_passive_side(movement):
    state, params = movement
    u = _unit(state, Arm.INFANTRY)
    st = _alone(state, u)
    f = forward(u.facing)
    c = (u.position[0] + f[0] * 12.0, u.position[1] + f[1] * 12.0)
    wood = TerrainFeature("w", TerrainKind.WOODS, box(c[0] - 20, c[1] - 3, c[0] + 20, c[1] + 3), name="Kesselwald")
    into = _check(st, params, u, (f[0] * 25.0, f[1] * 25.0), terrain=(wood,))
    assert not into.legal and "into the woods Kesselwald" in into.problems[0]
    assert "no unit marches through woods" in into.problems[0]
    edge = replace(u, position=(120.0, TABLE[1] - 5.0))
    off = _check(_alone(state, edge), params, edge, (f[0] * 20.0, f[1] * 20.0))
    assert off.leaves_table and any("lost for the rest of the game (4.4)" in n for n in off.notes)
    enemy = _unit(state, Arm.INFANTRY, side=next(x for x in {v.side for v in state.units.values()} if x != state.side))
    passive = _check(_alone(state, enemy), params, enemy, (f[0] * 5.0, f[1] * 5.0))
    assert not passive.legal and "(4.2, 5.2)" in passive.problems[0]


def _terrain(fid: str):
    return store.load(ELCHINGEN).scenario.terrain[fid]


def test_only_infantry_in_line_stands_at_a_wood_edge_and_none_marches_into_woods(movement):
    """4.7 'En enhed kan ikke marchere gennem skov. En infanterienhed i linie kan placeres i
    skovkant', on Elchingen's 'Wood towards Göttingen' (its southern edge runs y 140 → 138)."""
    state, params = movement
    wood = _terrain("wood-east")
    u = replace(_unit(state, Arm.INFANTRY), formation=Formation.LINE, position=(219.0, 128.0), facing=90.0)
    assert 25.0 < u.rect().width < 36.0 and u.rect().depth < 5.0
    st = _alone(state, u)
    at_edge = _check(st, params, u, (0.0, 11.5), terrain=(wood,))
    assert at_edge.legal and any("at the edge of the woods Wood towards Göttingen" in n for n in at_edge.notes)
    deep = _check(st, params, u, (0.0, 20.0), terrain=(wood,))
    assert not deep.legal and "beyond its edge" in deep.problems[0] and "(4.7)" in deep.problems[0]
    column = replace(u, formation=Formation.COLUMN)
    assert column.rect().depth < 11.5
    col = _check(_alone(state, column), params, column, (0.0, 11.5), terrain=(wood,))
    assert (
        not col.legal
        and "only infantry in line may stand at a wood's edge, not infantry in column" in (col.problems[0])
    )
    horse = replace(_unit(state, Arm.CAVALRY), formation=Formation.LINE, position=(219.0, 128.0), facing=90.0)
    cav = _check(_alone(state, horse), params, horse, (0.0, 11.5), terrain=(wood,))
    assert not cav.legal and "not cavalry in line" in cav.problems[0]
    short = _check(st, params, u, (0.0, 5.0), terrain=(wood,))  # stops short of the wood: nothing said
    assert short.legal and not any("woods" in n for n in short.notes)
    # standing at the edge, it may step back out of it
    edge = replace(u, position=(219.0, 139.5))
    back = _check(_alone(state, edge), params, edge, (0.0, -5.0), terrain=(wood,))
    assert back.legal, back.problems


def _friend_ahead(state, u, distance):
    f = forward(u.facing)
    other = next(
        o
        for o in sorted(state.units.values(), key=lambda o: o.id)
        if o.side == u.side and o.id != u.id and o.arm is Arm.INFANTRY
    )
    at = (u.position[0] + f[0] * distance, u.position[1] + f[1] * distance)
    return replace(other, position=at, facing=u.facing, formation=Formation.LINE, state="O")


def test_the_passage_exceptions_of_4_4_fleeing_changed_to_u_melee_and_u_going_back(movement):
    """4.4 Gennemmarch: 'Flygtende enheder der gennemmarcherer egne enheder (jf. 8.8), Egne
    afprodsede batterier ..., Gennemmarch i forbindelse med egen enhed har ændret orden til U.
    Gennemmarch i forbindelse med nærkamp og U-enheders gennemmarch af egne bagved stående
    enheder (se 8.7)', on two of Elchingen's French brigades."""
    state, params = movement
    u = replace(_unit(state, Arm.INFANTRY), formation=Formation.LINE)
    f = forward(u.facing)
    ahead = _friend_ahead(state, u, 10.0)
    step = (f[0] * 25.0, f[1] * 25.0)
    plain = _check(_alone(state, u, ahead), params, u, step)
    assert not plain.legal and f"passes through {ahead.name}" in plain.problems[0]
    # a fleeing unit passes through its own (8.8): only its FU state is said, not the passage
    fled = replace(u, state="FU", formation=Formation.NONE)
    flight = _check(_alone(state, fled, ahead), params, fled, step)
    assert not any("passes through" in x for x in flight.problems)
    assert any("fleeing units pass through their own (8.8)" in n for n in flight.notes)
    # a unit in U after its melee of this player-turn passes through (A41), and so does a melee's move
    marked = CombatMarked(**stamp_of(state), unit=u.id, mark={"turn": state.turn, "side": state.side})
    in_u = replace(u, state="U")
    st = marked.apply(_alone(state, in_u, ahead))
    after_melee = _check(st, params, in_u, step)
    assert after_melee.legal and any("changed to U in this player-turn (its melee" in n for n in after_melee.notes)
    won = _check(marked.apply(_alone(state, u, ahead)), params, u, step)
    assert won.legal and any("passage in connection with melee (8.7)" in n for n in won.notes)
    # a U unit whose U has no mark of this player-turn does not pass forward ...
    assert not _check(_alone(state, in_u, ahead), params, in_u, step).legal
    # ... but goes back through its own unit standing behind it (8.7)
    behind = _friend_ahead(state, u, -8.0)
    back = (-f[0] * 14.0, -f[1] * 14.0)
    assert not _check(_alone(state, u, behind), params, u, back).legal
    u_back = _check(_alone(state, in_u, behind), params, in_u, back)
    assert u_back.legal and any("goes back through its own unit standing behind it (8.7)" in n for n in u_back.notes)
    # the friend that changed to U in this player-turn may be passed through (A41)
    friend_u = replace(ahead, state="U")
    st2 = CombatMarked(**stamp_of(state), unit=ahead.id, mark={"turn": state.turn, "side": state.side}).apply(
        _alone(state, u, friend_u)
    )
    assert _check(st2, params, u, step).legal


def test_a_unit_outside_command_distance_moves_only_to_seek_it():
    """4.2 'såfremt den enkelte enhed er indenfor kommandoafstand (se dog 4.9) eller søger dette'
    (2.4 'skal ... i sin bevægelsesfase bevæge sig indenfor kommandoafstand'): at Jena the 100e
    Ligne stands 30 cm from its division general (15 cm command distance): a move towards him is
    legal, one that takes it no nearer is refused naming the rule."""
    from tests.rules.toe_combat_world import ATT, jena

    s = jena(phase="movement", support_gap=None)
    rs = get_ruleset("toe")
    u = s.state.units[ATT]
    chief = s.state.commanders[s.state.oob.superior(ATT)]
    gap = (chief.position[0] - u.position[0], chief.position[1] - u.position[1])
    d = (gap[0] ** 2 + gap[1] ** 2) ** 0.5
    assert d > 15.0

    def move(cm: float):
        end = (u.position[0] + gap[0] / d * cm, u.position[1] + gap[1] / d * cm)
        return rs.move_check(s.state, MoveRequest(ATT, (u.position, end), u.facing), s.params)

    seek = move(6.0)
    assert not any("(4.2" in x for x in seek.problems), seek.problems
    away = move(-6.0)
    assert any("outside" in x and "moves only to seek it (4.2" in x for x in away.problems), away.problems
    assert not away.legal


def test_only_a_march_column_crosses_a_bridge_and_a_river_only_there(movement):
    """4.7 Broer 'Enheder i marchkolonne kan krydse broer ... Enheder i enhver anden formation end
    marchkolonne anses for at være i flod', on Elchingen's bridge over the Danube (x 108.5-111.5);
    being in the river is refused by the assumed reading (A45) and left to the umpire by the other."""
    state, params = movement
    danube, bridge = _terrain("danube"), _terrain("elchingen-bridge")
    terrain = (danube, bridge)
    u = replace(_unit(state, Arm.INFANTRY), formation=Formation.MARCH_COLUMN, position=(110.0, 28.0), facing=90.0)
    st = _alone(state, u)
    over = _check(st, params, u, (0.0, 28.0), terrain=terrain)
    assert over.legal, over.problems
    assert any("crosses the bridge Elchingen bridge (partly dismantled) in march column (4.7" in n for n in over.notes)
    column = replace(u, formation=Formation.COLUMN)
    on = _check(_alone(state, column), params, column, (0.0, 28.0), terrain=terrain)
    assert not on.legal and on.assumed == ("river_crossing",)
    assert "in column: only a march column crosses a bridge" in on.problems[0] and "i flod" in on.problems[0]
    beside = replace(u, position=(125.0, 28.0))
    wet = _check(_alone(state, beside), params, beside, (0.0, 28.0), terrain=terrain)
    assert not wet.legal and "goes into the river Danube away from its bridges and fords" in wet.problems[0]
    ford = TerrainFeature("ford", TerrainKind.FORD, box(122.0, 30.0, 128.0, 45.0), name="a ford")
    assert _check(_alone(state, beside), params, beside, (0.0, 28.0), terrain=(*terrain, ford)).legal
    umpire = {**params, "toe.river_crossing": "umpire"}
    ruled = _check(_alone(state, column), umpire, column, (0.0, 28.0), terrain=terrain)
    assert ruled.legal and ruled.assumed == () and any("the umpire rules" in n for n in ruled.notes)
    short = _check(_alone(state, column), params, column, (0.0, 3.0), terrain=terrain)  # stops short of both
    assert short.legal and not any("bridge" in n or "river" in n for n in short.notes)
    standing = replace(column, position=(110.0, 44.0))
    assert "only a march column fights on a bridge" in in_the_river_on_a_bridge(standing, terrain)
    assert in_the_river_on_a_bridge(replace(u, position=(110.0, 44.0)), terrain) == ""


def _pivoted(u, corner: int, turn: float):
    """Where ``u``'s front-edge midpoint ends when it pivots ``turn``° CCW about ``corner``."""
    import math

    c = u.rect().corners()[corner]
    x, y = u.position[0] - c[0], u.position[1] - c[1]
    a = math.radians(turn)
    return (c[0] + x * math.cos(a) - y * math.sin(a), c[1] + x * math.sin(a) + y * math.cos(a))


def test_a_pivot_keeps_one_corner_still_goes_its_arcs_and_needs_room(movement):
    """4.4 Pivotering 'enhedens front ændres men af et af hjørnerne i enheden er stationær ...
    Det er en forudsætning for at pivoteringsbevægelsen at der er plads til at foretage denne':
    a French brigade in line wheels 30° about its front-left corner."""
    import math

    state, params = movement
    u = replace(_unit(state, Arm.INFANTRY), formation=Formation.LINE)
    st = _alone(state, u)
    end = _pivoted(u, 0, 30.0)  # counter-clockwise about the left end: the right wing swings forward
    req = MoveRequest(u.id, (u.position, end), u.facing + 30.0, (), TABLE)
    free = get_ruleset("toe").move_check(st, req, params)
    r = u.rect()
    assert free.legal and free.used_cm == pytest.approx(math.hypot(r.width, r.depth) * math.radians(30.0))
    assert any("pivots 30° about its front-left corner, which stays still" in n for n in free.notes)
    # a friend standing where the right wing swings: no room
    f = forward(u.facing)
    right = right_of(u.facing)
    friend = _friend_ahead(state, u, 0.0)
    tip = (
        u.position[0] + right[0] * r.width * 0.45 + f[0] * 8.0,
        u.position[1] + right[1] * r.width * 0.45 + f[1] * 8.0,
    )
    friend = replace(friend, position=tip, formation=Formation.COLUMN)
    blocked = get_ruleset("toe").move_check(_alone(state, u, friend), req, params)
    assert not blocked.legal
    assert any(
        f"no room to pivot 30° about its front-left corner: {friend.name} (friend)" in x for x in blocked.problems
    )
    # the same end reached by a turn about the front centre is no pivot: no room asked, measured as before
    spin = get_ruleset("toe").move_check(st, MoveRequest(u.id, (u.position, u.position), u.facing - 30.0), params)
    assert not any("pivots" in n for n in spin.notes)


def test_the_actions_dock_pivot_keeps_its_corner_and_is_refused_without_room(movement):
    """The Actions dock's 'Pivot about a corner' (4.4 Pivotering) on a French brigade in line:
    offered in the movement phase to the side on the move, not to a square; a 30° wheel to the
    left about the front-left corner is legal and recorded as one move keeping that corner still;
    with a friend in the way it is refused naming 4.4's room."""
    from battlestudio.rules.actions import ActionRequest
    from battlestudio.rules.dice import SeededDice

    state, params = movement
    rs = get_ruleset("toe")
    u = replace(_unit(state, Arm.INFANTRY), formation=Formation.LINE)
    st = _alone(state, u)
    spec = next(a for a in rs.actions(st, params, u.id) if a.id == "pivot")
    assert spec.legal and spec.rule == "4.4" and [x.name for x in spec.parameters] == ["corner", "direction", "degrees"]
    square = replace(u, formation=Formation.SQUARE)
    assert not [a for a in rs.actions(_alone(state, square), params, u.id) if a.id == "pivot"]
    assert not [a for a in rs.actions(st.evolve(phase="fire"), params, u.id) if a.id == "pivot"]
    req = ActionRequest("pivot", u.id, {"corner": "front-left", "direction": "left", "degrees": 30}, table=TABLE)
    pv = rs.preview_action(st, req, params)
    assert pv.legal and "pivots 30° about its front-left corner" in pv.explanation
    out = rs.resolve_action(st, req, params, SeededDice(1))
    assert out.resolved and [e.kind for e in out.events] == ["moved"]
    after = out.events[0].apply(st).units[u.id]
    assert after.facing == pytest.approx(u.facing + 30.0)
    assert after.rect().corners()[0] == pytest.approx(u.rect().corners()[0])  # the corner stayed
    r, f, right = u.rect(), forward(u.facing), right_of(u.facing)
    tip = (
        u.position[0] + right[0] * r.width * 0.45 + f[0] * 8.0,
        u.position[1] + right[1] * r.width * 0.45 + f[1] * 8.0,
    )
    friend = replace(_friend_ahead(state, u, 0.0), position=tip, formation=Formation.COLUMN)
    refused = rs.preview_action(_alone(state, u, friend), req, params)
    assert not refused.legal and "no room to pivot" in refused.reason and "(4.4" in refused.reason


def out_of(check, u, end, facing):
    """``u`` where the checked move ``check`` leaves it."""
    assert check.unit == u.id
    return replace(u, position=end, facing=facing)


def _town_move(state, params, u, end, facing, zone):
    req = MoveRequest(u.id, (u.position, end), facing, (), TABLE, (zone,))
    return get_ruleset("toe").move_check(state, req, params)


def test_a_battery_enters_leaves_and_changes_side_of_a_town_as_4_6_3_says(movement):
    """4.6.3 'Bevægelser ind i, ud af og inden i byer', on Elchingen's town zone of Thalfingen
    (x 10-25, y 58-72) and VI Corps' foot battery (a 3 x 4 cm base): it enters only from base
    contact, its rear to the town; leaves with its rear to the town beyond its own side, not
    while the town is in continued melee unless its reaction passed, and then out of the opposite
    side; it changes side with its front to the town."""
    state, params = movement
    zone = store.load(ELCHINGEN).scenario.towns["thalfingen"]
    gun = replace(_unit(state, Arm.ARTILLERY), formation=Formation.LIMBERED)
    far = replace(gun, position=(17.5, 46.0), facing=270.0)  # rear edge 8 cm short of the south side
    st = _alone(state, far)
    refused = _town_move(st, params, far, (17.5, 59.0), 270.0, zone)
    assert not refused.legal and "only from base contact" in refused.problems[0] and "(4.6.3" in refused.problems[0]
    touching = replace(gun, position=(17.5, 54.0), facing=270.0)  # its rear edge on the south side
    st = _alone(state, touching)
    enters = _town_move(st, params, touching, (17.5, 59.0), 270.0, zone)
    assert enters.legal, enters.problems
    assert any("enters the town zone Thalfingen from base contact, its rear to the town" in n for n in enters.notes)
    facing_in = _town_move(st, params, touching, (17.5, 63.0), 90.0, zone)
    assert any("rear of its gun pointing into the town" in x for x in facing_in.problems)
    # in the zone on its south side, rear to the town
    placed = replace(gun, position=(17.5, 58.0), facing=270.0)
    st = _alone(state, placed)
    assert _town_move(st, params, placed, (17.5, 50.0), 270.0, zone).legal
    west = _town_move(st, params, placed, (5.0, 58.0), 270.0, zone)
    assert any("away from the side it stands on" in x for x in west.problems)
    fronted = replace(placed, facing=90.0, position=(17.5, 62.0))  # on the south side facing the town
    out = _town_move(_alone(state, fronted), params, fronted, (17.5, 50.0), 90.0, zone)
    assert any("only with its rear pointing into it" in x for x in out.problems)
    # continued melee in the town: only after a passed reaction roll, out of the opposite side
    horse = replace(_unit(state, Arm.CAVALRY), position=(12.0, 66.0), facing=90.0)
    fight = _alone(state, placed, horse).evolve(flags={f"continued_melee:{horse.id}": True})
    held = _town_move(fight, params, placed, (17.5, 50.0), 270.0, zone)
    assert any("is in continued melee there" in x and "passed reaction roll" in x for x in held.problems)
    reacted = fight.evolve(
        flags={
            **fight.flags,
            f"reaction_attempted:{placed.id}": {"turn": fight.turn, "side": fight.side, "passed": True},
        }
    )
    assert any("opposite" in x for x in _town_move(reacted, params, placed, (17.5, 50.0), 270.0, zone).problems)
    north = _town_move(reacted, params, placed, (17.5, 80.0), 90.0, zone)
    assert not any("(4.6.3" in x for x in north.problems), north.problems
    assert any("out of its opposite side after its reaction (4.6.3)" in n for n in north.notes)
    # changing side: placed on the north side with its front to the town (it cannot fire so)
    side = _town_move(st, params, placed, (17.5, 68.0), 270.0, zone)
    assert side.legal and any("changes side" in n and "cannot fire so" in n for n in side.notes)
    wrong = _town_move(st, params, placed, (17.5, 72.0), 90.0, zone)
    assert any("front pointing at the town" in x for x in wrong.problems)
    # an unlimbered battery changes side too: the town's moves, not 4.6.3's 2 cm pivot
    gun_in = replace(placed, formation=Formation.UNLIMBERED)
    moved = _town_move(_alone(state, gun_in), params, gun_in, (17.5, 68.0), 270.0, zone)
    assert moved.legal and not moved.immobile, moved.problems
    moved_in = out_of(moved, gun_in, (17.5, 68.0), 270.0)
    assert "cannot fire while its front points at the town (4.6.3)" in faces_its_town(moved_in, (zone,))
    assert faces_its_town(gun_in, (zone,)) == ""


def test_a_wide_pivot_is_no_backwards_move(movement):
    """4.4: a 150° pivot swings the front-edge midpoint backwards, but it is a turn of the front,
    not a backwards move at half the march length; over 45° it counts as a formation change."""
    state, params = movement
    u = replace(_unit(state, Arm.INFANTRY), formation=Formation.LINE)
    end = _pivoted(u, 0, 150.0)
    req = MoveRequest(u.id, (u.position, end), u.facing + 150.0, (), TABLE)
    wide = get_ruleset("toe").move_check(_alone(state, u), req, params)
    assert wide.allowed_cm == 30.0 and not any("half march length" in n for n in wide.notes)
    assert any("neither a forward nor a backwards move (4.4)" in n for n in wide.notes)
    assert any("counts as a formation change (4.4)" in n for n in wide.notes)


def test_any_terrain_table_2_may_charge_is_a_named_parameter_or_the_umpires(movement):
    """4.1 'Fradrag for bevægelser i forskelligt terræn fremgår af tabel 2' (Table 2 lost): a
    brigade crossing Jena's Mühlbach pays the scenario's terrain_deduction_cm.stream (or its arm's
    terrain_deduction_cm.<arm>.stream); without one the note says the umpire deducts it; a move
    that stays short of the stream says nothing of it."""
    state, params = movement
    stream = store.load(JENA).scenario.terrain["muehlbach"]
    u = replace(_unit(state, Arm.INFANTRY), formation=Formation.COLUMN, position=(300.0, 100.0), facing=90.0)
    st = _alone(state, u)
    plain = _check(st, params, u, (0.0, 20.0), terrain=(stream,))
    assert plain.legal and plain.allowed_cm == 30.0
    assert any(
        "crosses the stream Mühlbach in the Mühltal" in n and "Table 2" in n and "umpire" in n for n in plain.notes
    )
    paid = _check(st, {**params, "toe.terrain_deduction_cm.stream": 4}, u, (0.0, 20.0), terrain=(stream,))
    assert paid.allowed_cm == 26.0 and any("4 cm deducted (4.1" in n for n in paid.notes)
    by_arm = {**params, "toe.terrain_deduction_cm.cavalry.stream": 2, "toe.terrain_deduction_cm.infantry.stream": 6}
    assert _check(st, by_arm, u, (0.0, 20.0), terrain=(stream,)).allowed_cm == 24.0
    short = _check(st, {**params, "toe.terrain_deduction_cm.stream": 4}, u, (0.0, 5.0), terrain=(stream,))
    assert short.allowed_cm == 30.0 and not any("stream" in n for n in short.notes)
