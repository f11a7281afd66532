"""General d'Armée attack steps computed around the lost texts: the attacker's wheel (ПРОЦЕДУРА
АТАКИ 2), the evade (ПРОВЕДЕНИЕ АТАКИ 5 Б V), fire support (ПРОВЕДЕНИЕ АТАКИ 6) and the damage
the umpire enters for each supporting unit from the lost Fate and Discipline tables."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs
from shapely.geometry import box

from battlestudio.model.terrain import TerrainFeature
from battlestudio.model.units import Formation
from battlestudio.replay.combat_events import Fired
from battlestudio.replay.flow_events import Moved, OrderStateChanged, Rotated
from battlestudio.rules.actions import ActionRequest
from battlestudio.rules.dice import SeededDice
from battlestudio.rules.gda.actions import ACTIONS
from battlestudio.rules.gda.geometry import wheel_geometry, wheeled
from battlestudio.rules.gda.events import DamageTaken
from battlestudio.rules.gda.fire_support import fire_supporters
from battlestudio.rules.gda.melee import sides_of

from gda_world import brigade, gda_params, unit, world

MOVE = {"normal_move_cm.infantry": 15, "normal_move_cm.cavalry": 30}


def apply(st, events):
    for e in events:
        st = e.apply(st)
    return st


def attack_world(target_at=(9.0, 20.0), stage="declared", attacker_at=(0.0, 0.0), supports=None, more=(), **status):
    """The French column ``a`` (8 cm wide, facing north) has declared an attack on the Austrian
    line ``t`` (12 cm wide, facing south)."""
    a = unit("a", x=attacker_at[0], y=attacker_at[1], facing=90)
    t = unit("t", side="austrian", x=target_at[0], y=target_at[1], facing=270, formation=Formation.LINE)
    own = [a, *(u for u in more if u.side == "french")]
    theirs = [t, *(u for u in more if u.side == "austrian")]
    c1, u1, e1 = brigade("fb", own)
    c2, u2, e2 = brigade("ab", theirs, side="austrian", y=60, x=200, **status)
    flag = {"turn": 1, "stage": stage, "target": "t", "supports": list(supports or {}), "positions": supports or {}}
    st = world([c1, c2], u1 + u2, e1 + e2, flags={"gda-attack:a": flag})
    return replace(st, phase="attacks")


def act(st, action, params=None, umpire=None, scenario=None, terrain=(), table=None):
    req = ActionRequest(action, "a", params or {}, umpire_result=umpire, terrain=tuple(terrain), table=table)
    return ACTIONS.resolve_action(st, req, {**MOVE, **(scenario or {})}, SeededDice(3))


# -- ПРОЦЕДУРА АТАКИ 2: the attacker's wheel ------------------------------------------------------
def test_procedure_2_the_attacker_wheels_on_its_inner_flank_then_goes_straight_at_the_target():
    """ПРОЦЕДУРА АТАКИ 2: the target stands off the column's front: straight ahead the line from
    its centre misses.
    A wheel of -30° (clockwise) pivots on the right flank, costs 8 cm × 0.524 = 4.2 cm of the 5 cm
    infantry attack bonus, and the column goes 12.7 cm straight ahead to 5 cm of the target."""
    st = attack_world()
    prev = ACTIONS.preview_action(st, ActionRequest("attack_move", "a", {"wheel": -30}), MOVE)
    assert prev.legal and "outer flank 4.2 cm" in prev.explanation, prev
    out = act(st, "attack_move", {"wheel": -30})
    assert out.status == "resolved", out.explanation
    pivot, arc = wheel_geometry(st.units["a"], -30)
    assert pivot == pytest.approx((4.0, 0.0)) and arc == pytest.approx(4.19, abs=0.01)
    after = apply(st, out.events)
    a = after.units["a"]
    assert a.facing == pytest.approx(60.0)
    assert a.footprint().distance(after.units["t"].footprint()) == pytest.approx(5.0, abs=1e-6)
    # the wheel's arc plus the straight move: 4.2 + 12.7 of the 20 cm reach
    assert after.flags["gda-attack:a"]["stage"] == "closed"
    assert after.flags["gda-attack:a"]["moved"] == pytest.approx(16.89, abs=0.01)


def test_procedure_2_a_wheel_beyond_the_attack_bonus_or_off_the_target_is_refused():
    """ПРОЦЕДУРА АТАКИ 2: the wheel spends the attack bonus only, and ends facing the target."""
    st = attack_world()
    out = act(st, "attack_move", {"wheel": -40})  # 5.6 cm of flank travel, bonus 5 cm
    assert out.status == "refused" and "more than the attack bonus (5 cm)" in out.explanation
    out = act(st, "attack_move", {"wheel": 30})  # the wrong way: the line ahead misses
    assert out.status == "refused" and "misses t" in out.explanation
    assert not act(st, "attack_move", {"wheel": -40}).events


def test_procedure_2_a_wheeled_attacker_that_cannot_reach_has_turned_and_its_attack_is_cancelled():
    """«Если бонуса за атаку хватает только на то, чтобы повернуться ... то подразделение
    осуществляет поворот, но атака отменяется»: 30 cm off, 15.8 cm left after the wheel. Without
    the wheel the same shortfall is ПРОЦЕДУРА АТАКИ 4 (full move, Unformed)."""
    st = attack_world(target_at=(18.0, 40.0))
    out = act(st, "attack_move", {"wheel": -30})
    assert out.status == "resolved" and "it has turned and the attack is cancelled" in out.explanation
    after = apply(st, out.events)
    assert after.units["a"].facing == pytest.approx(60.0) and after.units["a"].state == "formed"
    assert after.flags["gda-attack:a"]["stage"] == "turned"
    (roll,) = [s for s in ACTIONS.actions(after, MOVE, "a") if s.id == "attack"]
    assert "ПРОЦЕДУРА АТАКИ 2" in roll.unavailable


def test_procedure_2_the_supports_wheel_with_the_leader_keeping_their_places():
    """ПРОЦЕДУРА АТАКИ 2: «Атакующие подразделения и их поддержка ... сначала сделать поворот»."""
    s = unit("s", x=0, y=-7, facing=90)  # 2.5 cm behind the column: its rear support
    st = attack_world(supports={"s": "rear"}, more=(s,))
    out = act(st, "attack_move", {"wheel": -30})
    assert out.status == "resolved", out.explanation
    after = apply(st, out.events)
    a, sup = after.units["a"], after.units["s"]
    assert sup.facing == pytest.approx(a.facing)
    before = st.units["a"].footprint().distance(st.units["s"].footprint())
    assert a.footprint().distance(sup.footprint()) == pytest.approx(before, abs=1e-6)
    assert {e.id for e in out.events if isinstance(e, Rotated)} == {"a", "s"}


def test_procedure_2_forward_dice_extend_the_wheel():
    """Ambiguity 17: with Forward! the 2D6 cm may be spent on the wheel as well; a 40° wheel
    (5.6 cm) is refused without it and allowed with it."""
    st = attack_world(target_at=(14.0, 20.0))
    fb = replace(st.commanders["fb"], attributes={"gda": {"tasks": ["forward"]}})
    forward = replace(st, commanders={**st.commanders, "fb": fb})
    assert "more than the attack bonus" in act(st, "attack_move", {"wheel": -40}).explanation
    out = act(forward, "attack_move", {"wheel": -40})
    assert out.status == "resolved", out.explanation
    assert [r.purpose for r in out.rolls] == ["gda-forward:a:t1"]


def test_step_1_the_leading_unit_and_its_supports_make_the_attacking_side():
    """ПРОВЕДЕНИЕ АТАКИ 1: the declared leader leads and its declared supports reroll for it; a
    support whose brigade has turned Faltering since the declaration no longer counts (З)."""
    s = unit("s", x=0, y=-7, facing=90)
    st = attack_world(supports={"s": "rear"}, more=(s,))
    assault = replace(st.commanders["fb"], attributes={"gda": {"tasks": ["infantry_assault"]}})
    st = replace(st, commanders={**st.commanders, "fb": assault})
    att, dfn, _ = sides_of(st, "a", gda_params(**MOVE))
    assert att.unit.id == "a" and dict(att.supports) == {"s": "rear"} and att.penalties == (0,)
    assert dfn.unit.id == "t" and not dfn.supports
    fb = replace(st.commanders["fb"], attributes={"gda": {"state": "faltering", "tasks": ["infantry_assault"]}})
    faltering = replace(st, commanders={**st.commanders, "fb": fb})
    att, _, _ = sides_of(faltering, "a", gda_params(**MOVE))
    assert not att.supports and att.penalties == ()


# -- ПРОВЕДЕНИЕ АТАКИ 5 Б V: the evade --------------------------------------------------------------
def skirmishers_attacked(**kw):
    st = attack_world(target_at=(0.0, 20.0), **kw)
    t = replace(st.units["t"], attributes={"skirmisher": True}, formation=Formation.SKIRMISH)
    return replace(st, units={**st.units, "t": t})


def test_evade_moves_straight_away_from_the_attacker_then_the_attack_falls_short():
    """V: skirmishers evade 15 cm (the scenario's evade_distance_cm; the rules are lost) straight
    away from the attacker; the attack move then cannot reach them: ПРОЦЕДУРА АТАКИ 4."""
    st = skirmishers_attacked()
    scenario = {"evade_distance_cm": 15}
    out = act(st, "reaction", {"reaction": "evade"}, scenario=scenario)
    assert out.status == "resolved", out.explanation
    assert "evades 15 cm straight away" in out.explanation and "evade_distance_cm" in out.explanation
    (move,) = [e for e in out.events if isinstance(e, Moved)]
    assert move.path[-1] == pytest.approx((0.0, 35.0))
    after = apply(st, out.events)
    assert after.flags["gda-attack:a"]["evaded_cm"] == 15
    moved = act(after, "attack_move", scenario=scenario)
    assert "the attack is abandoned" in moved.explanation


def test_evade_the_umpires_distance_and_the_paths_that_are_refused():
    st = skirmishers_attacked()
    out = act(st, "reaction", {"reaction": "evade", "evade_cm": 10}, scenario={"evade_distance_cm": 15})
    assert out.status == "resolved" and "entered by the umpire" in out.explanation
    assert [e.path[-1] for e in out.events if isinstance(e, Moved)] == [pytest.approx((0.0, 30.0))]
    behind = unit("b", side="austrian", x=0, y=30, facing=270)
    blocked = skirmishers_attacked(more=(behind,))
    out = act(blocked, "reaction", {"reaction": "evade", "evade_cm": 10})
    assert out.status == "refused" and "runs into b" in out.explanation
    wood = TerrainFeature(id="w", kind="woods", geometry=box(-20, 28, 20, 40), name="Bois")
    out = act(st, "reaction", {"reaction": "evade", "evade_cm": 10}, terrain=[wood])
    assert out.status == "refused" and "crosses Bois" in out.explanation
    out = act(st, "reaction", {"reaction": "evade", "evade_cm": 10}, table=(100.0, 28.0))
    assert out.status == "refused" and "off the table" in out.explanation
    closed = replace(st, flags={"gda-attack:a": {**st.flags["gda-attack:a"], "stage": "closed"}})
    out = act(closed, "reaction", {"reaction": "evade", "evade_cm": 10})
    assert out.status == "refused" and "before the attack move" in out.explanation


# -- ПРОВЕДЕНИЕ АТАКИ 6: fire support ---------------------------------------------------------------
RANGE = {"fire_support_range_cm": 20}


def fire_world(faltering=False):
    """The column ``a`` has closed to 5 cm of ``t``. Austrian units around: ``s1`` 15.8 cm off
    with ``a`` in its front; ``s2`` 60 cm off; ``s3`` with a French column nearer in its front;
    ``s4`` facing away."""
    s1 = unit("s1", side="austrian", x=25, y=20, facing=270, formation=Formation.LINE)
    s2 = unit("s2", side="austrian", x=-70, y=20, facing=270, formation=Formation.LINE)
    s3 = unit("s3", side="austrian", x=-25, y=20, facing=270, formation=Formation.LINE)
    s4 = unit("s4", side="austrian", x=10, y=40, facing=90, formation=Formation.LINE)
    f2 = unit("f2", x=-25, y=12, facing=90)
    status = {"state": "faltering"} if faltering else {}
    return attack_world(
        target_at=(0.0, 20.0), attacker_at=(0.0, 15.0), stage="closed", more=(s1, s2, s3, s4, f2), **status
    )


def test_step_6_who_may_give_fire_support_is_measured():
    st = fire_world()
    who = {
        f.unit: f
        for f in fire_supporters(st, st.units["a"], st.units["t"], st.flags["gda-attack:a"], gda_params(**RANGE))
    }
    assert set(who) == {"s1", "s2", "s3"}  # s4 has no attacker in its front
    assert who["s1"].refusal == "" and who["s1"].target == "a" and who["s1"].distance == pytest.approx(15.81, abs=0.01)
    assert "beyond its 20 cm range" in who["s2"].refusal
    assert "f2 is a nearer target of its own in its front" in who["s3"].refusal
    spec = next(s for s in ACTIONS.actions(st, {**MOVE, **RANGE}, "a") if s.id == "fire_support")
    assert spec.legal and [p.name for p in spec.umpire_result] == ["s1"] and "fire_support_effect" in spec.umpire_table


def test_step_6_the_range_is_the_scenarios_and_the_effect_the_umpires():
    st = fire_world()
    before, _, _ = sides_of(st, "a", gda_params(**MOVE))
    assert not [m for m in before.modifiers if "in this attack" in m.source]
    spec = next(s for s in ACTIONS.actions(st, MOVE, "a") if s.id == "fire_support")
    assert not spec.legal and "fire_support_range_cm" in spec.unavailable
    out = act(st, "fire_support", scenario=RANGE)
    assert out.status == "refused" and "fire_support_effect" in out.explanation
    out = act(st, "fire_support", umpire={"s1": 2}, scenario=RANGE)
    assert out.status == "resolved", out.explanation
    assert [(e.unit, e.target) for e in out.events if isinstance(e, Fired)] == [("s1", "a")]
    assert [(e.unit, e.points) for e in out.events if isinstance(e, DamageTaken)] == [("a", 2)]
    after = apply(st, out.events)
    assert after.flags["gda-attack:a"]["support_fire_damage"] == {"a": 2}
    # «Урон в Атаке» 2: -1 on the leader's attack roll
    att, _, _ = sides_of(after, "a", gda_params(**MOVE))
    assert [(m.value, m.source) for m in att.modifiers if "in this attack" in m.source] == [
        (-1, "2 damage in this attack")
    ]
    again = next(s for s in ACTIONS.actions(after, {**MOVE, **RANGE}, "a") if s.id == "fire_support")
    assert not again.legal
    out = act(st, "fire_support", umpire={"s2": 1}, scenario=RANGE)
    assert out.status == "refused" and "s2 may not give fire support" in out.explanation


def test_step_6_a_supplied_effect_is_applied_and_a_faltering_brigade_still_fires():
    st = fire_world(faltering=True)
    out = act(st, "fire_support", scenario={**RANGE, "fire_support_effect.infantry": 1})
    assert out.status == "resolved", out.explanation
    assert "scenario parameter fire_support_effect" in out.explanation
    assert [(e.unit, e.points) for e in out.events if isinstance(e, DamageTaken)] == [("a", 1)]


def test_fire_support_arc_all_round_lets_a_unit_facing_away_fire():
    """The assumed fire_support_arc changes who may fire: all round, s4 (facing away, 20 cm off
    the column's nearest point) is measured too."""
    st = fire_world()
    decl = st.flags["gda-attack:a"]
    p = gda_params(**RANGE, fire_support_arc="all_round")
    assert "s4" in {f.unit for f in fire_supporters(st, st.units["a"], st.units["t"], decl, p)}
    assert "s4" not in {f.unit for f in fire_supporters(st, st.units["a"], st.units["t"], decl, gda_params(**RANGE))}


# -- per-support damage from the lost Fate and Discipline tables -------------------------------------
def test_discipline_damage_entered_for_the_leader_and_each_support_is_applied_to_each():
    s = unit("s", x=0, y=-7, facing=90)
    st = attack_world(supports={"s": "rear"}, more=(s,))
    umpire = {"leader": "passed", "s": "unformed", "damage:a": 1, "damage:s": 2}
    out = act(st, "attack_discipline", umpire=umpire)
    assert out.status == "resolved", out.explanation
    assert [(e.unit, e.points) for e in out.events if isinstance(e, DamageTaken)] == [("a", 1), ("s", 2)]
    assert [(e.unit, e.state) for e in out.events if isinstance(e, OrderStateChanged)] == [("s", "unformed")]
    after = apply(st, out.events)
    assert after.flags["gda-attack:a"]["discipline_damage"] == {"a": 1, "s": 2}


def test_fate_damage_entered_for_each_supporting_unit_of_the_side():
    s = unit("s", x=0, y=-7, facing=90)
    st = attack_world(supports={"s": "rear"}, more=(s,))
    flag = {**st.flags["gda-attack:a"], "stage": "rolled", "fate_test": ["attacker"], "difference": 2}
    st = replace(st, flags={"gda-attack:a": flag})
    spec = next(x for x in ACTIONS.actions(st, MOVE, "a") if x.id == "fate_test")
    assert "damage:s" in [p.name for p in spec.umpire_result]
    umpire = {"side": "attacker", "result": "stands", "damage": 1, "damage:s": 2}
    out = act(st, "fate_test", umpire=umpire)
    assert out.status == "resolved", out.explanation
    assert [(e.unit, e.points) for e in out.events if isinstance(e, DamageTaken)] == [("a", 1), ("s", 2)]


def test_the_attack_results_damage_reaches_each_supporting_unit():
    """ПРОВЕДЕНИЕ АТАКИ 9: «Результаты применяются немедленно ко всем подразделениям»: the umpire
    enters each supporting unit's damage as well as the leaders'."""
    s = unit("s", x=0, y=-7, facing=90)
    st = attack_world(supports={"s": "rear"}, more=(s,))
    flag = {
        **st.flags["gda-attack:a"],
        "stage": "rolled",
        "difference": 3,
        "attacker_total": 9,
        "defender_total": 6,
        "defending_supports": {},
    }
    st = replace(st, flags={"gda-attack:a": flag})
    umpire = {"winner": "attacker", "attacker": "stands", "defender": "retreating", "defender_damage": 1, "damage:s": 1}
    out = act(st, "attack_result", umpire=umpire)
    assert out.status == "resolved", out.explanation
    assert sorted((e.unit, e.points) for e in out.events if isinstance(e, DamageTaken)) == [("s", 1), ("t", 1)]


def test_a_supplied_table_rows_support_damage_goes_on_every_support_of_that_side():
    """A scenario's attack_results row with attacker_support_damage: each attacking support takes it
    (ПРОВЕДЕНИЕ АТАКИ 9: «ко всем подразделениям, вовлеченным в атаку»); without the key none."""
    left = unit("l", x=-10, y=0, facing=90)
    right = unit("r", x=10, y=0, facing=90)
    st = attack_world(supports={"l": "left", "r": "right"}, more=(left, right))
    flag = {
        **st.flags["gda-attack:a"],
        "stage": "rolled",
        "difference": -2,
        "attacker_total": 5,
        "defender_total": 7,
        "defending_supports": {},
    }
    st = replace(st, flags={"gda-attack:a": flag})
    row = {"winner": "defender", "attacker": "retreating", "defender": "stands", "attacker_damage": 1}
    out = act(st, "attack_result", scenario={"attack_results": [{**row, "attacker_support_damage": 1}]})
    assert out.status == "resolved", out.explanation
    assert sorted((e.unit, e.points) for e in out.events if isinstance(e, DamageTaken)) == [
        ("a", 1),
        ("l", 1),
        ("r", 1),
    ]
    out = act(st, "attack_result", scenario={"attack_results": [row]})
    assert sorted((e.unit, e.points) for e in out.events if isinstance(e, DamageTaken)) == [("a", 1)]


def test_evade_direction_to_its_rear_moves_the_unit_straight_back():
    """The assumed evade_direction: skirmishers facing south attacked from the south-west go
    straight north with "to_its_rear", along the attack's line with the default."""
    st = skirmishers_attacked(attacker_at=(-10.0, 0.0))
    away = act(st, "reaction", {"reaction": "evade", "evade_cm": 10})
    back = act(st, "reaction", {"reaction": "evade", "evade_cm": 10}, scenario={"evade_direction": "to_its_rear"})
    assert away.status == back.status == "resolved", (away.explanation, back.explanation)
    (a,) = [e.path[-1] for e in away.events if isinstance(e, Moved)]
    (b,) = [e.path[-1] for e in back.events if isinstance(e, Moved)]
    assert b == pytest.approx((0.0, 30.0)) and a[0] > 1.0 and "straight to its rear" in back.explanation


def test_wheel_short_unformed_reads_item_4_after_the_wheel():
    """The assumed wheel_short: with "unformed" the wheeled column that cannot reach goes the rest
    of its move straight ahead and stops Unformed, the attack abandoned (ПРОЦЕДУРА АТАКИ 4)."""
    st = attack_world(target_at=(18.0, 40.0))
    out = act(st, "attack_move", {"wheel": -30}, scenario={"wheel_short": "unformed"})
    assert out.status == "resolved" and "stops Unformed" in out.explanation, out.explanation
    after = apply(st, out.events)
    assert after.units["a"].state == "unformed" and after.flags["gda-attack:a"]["stage"] == "abandoned"
    assert after.flags["gda-attack:a"]["moved"] == pytest.approx(20.0, abs=0.01)


def test_the_targets_wheel_pivots_on_its_inner_flank_too():
    """ПРОВЕДЕНИЕ АТАКИ 5 Б I: the line wheels 10° clockwise on its right flank (to the west, as it
    faces south); that corner stays where it was, the outer flank travels 12 cm × 0.175."""
    st = attack_world(target_at=(0.0, 20.0))
    before = dict(zip(("fl", "fr", "rr", "rl"), st.units["t"].rect().corners(), strict=True))
    out = act(st, "reaction", {"reaction": "wheel", "facing": 260})
    assert out.status == "resolved" and "(2.1 cm of its half move)" in out.explanation, out.explanation
    after = apply(st, out.events).units["t"]
    assert after.facing == pytest.approx(260.0)
    assert after.rect().corners()[1] == pytest.approx(before["fr"])


@settings(max_examples=60, deadline=None)
@given(
    hs.floats(0, 359),
    hs.floats(-90, 90).filter(lambda d: abs(d) > 0.5),
    hs.sampled_from([Formation.COLUMN, Formation.LINE]),
)
def test_a_wheel_keeps_its_inner_front_corner_and_turns_by_its_angle(facing, turn, formation):
    """The wheel of ПРОЦЕДУРА АТАКИ 2 is a rotation about the front corner it turns towards: that
    corner stays, the other front corner travels the chord of the arc charged (frontage × angle)."""
    import math

    u = unit("u", x=3, y=4, facing=facing, formation=formation)
    pivot, arc = wheel_geometry(u, turn)
    w = wheeled(u, pivot, turn)
    fl, fr = u.rect().corners()[:2]
    wfl, wfr = w.rect().corners()[:2]
    inner, outer = ((fl, wfl), (fr, wfr)) if turn > 0 else ((fr, wfr), (fl, wfl))
    assert inner[1] == pytest.approx(inner[0], abs=1e-6)
    assert (w.facing - u.facing - turn) % 360 == pytest.approx(0, abs=1e-6) or (
        w.facing - u.facing - turn
    ) % 360 == pytest.approx(360, abs=1e-6)
    width = u.rect().width
    chord = math.dist(outer[0], outer[1])
    assert chord == pytest.approx(2 * width * math.sin(math.radians(abs(turn)) / 2), abs=1e-6)
    assert arc == pytest.approx(width * math.radians(abs(turn)))


def test_the_targets_supports_wheel_with_it_when_asked():
    """I: «Подразделения, оказывающие поддержку оперируют по тем же правилам» — the line's flank
    support (5 cm to its west) wheels by the same 10° on its own inner flank."""
    beside = unit("t2", side="austrian", x=-17, y=20, facing=270, formation=Formation.LINE)
    st = attack_world(target_at=(0.0, 20.0), more=(beside,))
    out = act(st, "reaction", {"reaction": "wheel", "facing": 260, "supports_wheel": True})
    assert out.status == "resolved" and "its support t2 wheels with it (2.1 cm)" in out.explanation, out.explanation
    after = apply(st, out.events)
    assert after.units["t2"].facing == pytest.approx(260.0)
    assert after.units["t2"].rect().corners()[1] == pytest.approx(beside.rect().corners()[1])
    alone = act(st, "reaction", {"reaction": "wheel", "facing": 260})
    assert {e.id for e in alone.events if isinstance(e, Rotated)} == {"t"}
