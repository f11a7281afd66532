"""The deployment builders (``edits.deploy``) on the bundled Elchingen battle, without Qt: which
way the enemy is, a line drawn at any angle, a zone's front edge, a formation that leaves its
reinforcements off table, a column that would leave the table, and a group turn that is a rigid
motion (every distance kept) for any angle."""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.affinity import rotate
from shapely.geometry import box

from battlestudio import store
from battlestudio.edits.deploy import (
    DeployError,
    anchor_of,
    column_deployment,
    formation_of,
    group_rotate_edit,
    line_deployment,
    zone_front,
)
from battlestudio.edits.moves import snapshot
from battlestudio.edits.place import enemy_target, facing_towards_enemy
from battlestudio.model import Reinforcement

ELCHINGEN = Path(__file__).parents[1] / "scenarios" / "elchingen-1805.battle.json"
DIVISION = "french-2eme-division"
CORPS = "french-vi-corps"


@pytest.fixture(scope="module")
def battle():
    return store.load(ELCHINGEN)


@pytest.fixture
def s(battle):
    return battle.scenario.copy()


def test_the_enemy_is_the_other_sides_zone_else_their_units(s):
    north = s.deployment_zones["dz-austrian"].polygon.centroid
    assert enemy_target(s, "french") == pytest.approx((north.x, north.y))
    assert facing_towards_enemy(s, "french", (north.x, 20.0)) == pytest.approx(90.0)
    s.deployment_zones.clear()
    austrians = [u.position for u in s.units.values() if u.side == "austrian"]
    mean = (sum(p[0] for p in austrians) / len(austrians), sum(p[1] for p in austrians) / len(austrians))
    assert enemy_target(s, "french") == pytest.approx(mean)
    s.units = {i: u for i, u in s.units.items() if u.side == "french"}
    assert enemy_target(s, "french") is None
    assert facing_towards_enemy(s, "french", (10.0, 150.0)) == 270.0  # the far side of the table


@pytest.mark.parametrize("angle", [0.0, 30.0, 75.0, 90.0, 135.0, 200.0, 300.0])
def test_a_line_at_any_angle_faces_square_to_it_and_towards_the_enemy(s, angle):
    mid = (120.0, 20.0)
    d = (math.cos(math.radians(angle)), math.sin(math.radians(angle)))
    a, b = (mid[0] - 40 * d[0], mid[1] - 40 * d[1]), (mid[0] + 40 * d[0], mid[1] + 40 * d[1])
    edit, lines = line_deployment(s, DIVISION, a, b, 2.0)
    edit.do(s)
    units, _ = formation_of(s, DIVISION)
    target = enemy_target(s, "french")
    for u in units:
        f = (math.cos(math.radians(u.facing)), math.sin(math.radians(u.facing)))
        assert f[0] * d[0] + f[1] * d[1] == pytest.approx(0.0, abs=1e-9)  # square to the line
        if angle % 180 != 90.0:
            assert f[0] * (target[0] - mid[0]) + f[1] * (target[1] - mid[1]) > 0.0  # towards the enemy
    gaps = [
        math.dist(p.position, q.position) - (p.rect().width + q.rect().width) / 2 for p, q in itertools.pairwise(units)
    ]
    assert lines == 1 and gaps == pytest.approx([2.0])


def test_a_zone_front_is_its_edge_towards_the_enemy():
    rect = box(0.0, 0.0, 200.0, 40.0)
    assert zone_front(rect, 80.0) == pytest.approx(90.0)
    assert zone_front(rect, 265.0) == pytest.approx(270.0)
    tilted = rotate(rect, 20.0, origin=(0.0, 0.0))
    assert zone_front(tilted, 100.0) == pytest.approx(110.0)
    assert zone_front(tilted.reverse(), 100.0) == pytest.approx(110.0)  # either winding


def test_reinforcements_of_a_formation_stay_off_table(s):
    units, commanders = formation_of(s, CORPS)
    assert len(units) == 11
    s.reinforcements["rf-x"] = Reinforcement("rf-x", "french", DIVISION, 2, 4, (0.0, 20.0))
    held = set(s.oob.all_subordinates(DIVISION)) | {DIVISION}
    units2, commanders2 = formation_of(s, CORPS)
    assert {u.id for u in units2} == {u.id for u in units} - held
    assert DIVISION not in {c.id for c in commanders2}
    assert [u.id for u in formation_of(s, DIVISION)[0]] == ["french-bde-roguet", "french-bde-villatte"]


def test_errors_say_what_to_do(s):
    with pytest.raises(DeployError, match="no commander or unit 'nobody'"):
        formation_of(s, "nobody")
    with pytest.raises(DeployError, match="no length"):
        line_deployment(s, DIVISION, (10.0, 10.0), (10.0, 10.0))
    with pytest.raises(DeployError, match="0 cm or more"):
        line_deployment(s, DIVISION, (10.0, 10.0), (50.0, 10.0), -1.0)
    with pytest.raises(DeployError, match="no road 'town-ober'"):
        column_deployment(s, DIVISION, "town-ober", (10.0, 10.0))
    with pytest.raises(DeployError, match="off the table past the road's end"):
        column_deployment(s, CORPS, "road-albeck", (110.0, 30.0))


@settings(max_examples=40, deadline=None)
@given(delta=st.floats(-360.0, 360.0, allow_nan=False), with_commander=st.booleans())
def test_a_group_turn_keeps_every_distance(battle, delta, with_commander):
    s = battle.scenario.copy()
    ids = ["french-bde-roguet", "french-bde-villatte", "french-bde-delabassee"]
    if with_commander:
        ids.append(DIVISION)
    start = snapshot(s, ids, ("units", "commanders"))
    anchor = anchor_of(start)
    edit = group_rotate_edit(start, delta, anchor)
    assert edit is not None
    edit.do(s)
    after = snapshot(s, ids, ("units", "commanders"))
    assert anchor_of(after) == pytest.approx(anchor, abs=1e-6)
    for i, j in itertools.combinations(ids, 2):
        assert math.dist(after[i][1].position, after[j][1].position) == pytest.approx(
            math.dist(start[i][1].position, start[j][1].position), abs=1e-6
        )
    for i in ids[:3]:
        turned = (start[i][1].facing + delta) % 360.0
        assert after[i][1].facing == pytest.approx(turned, abs=1e-6) or abs(
            after[i][1].facing - turned
        ) == pytest.approx(360.0)


@pytest.mark.parametrize(
    ("at", "centre"),
    [((60.0, 20.0), (60.0, 20.0)), ((200.0, 10.0), (195.5, 10.0)), ((22.0, 34.0), (54.5, 33.5)), (None, (125.0, 33.5))],
)
def test_a_zone_deployment_stands_where_the_zone_was_clicked(battle, at, centre):
    """The division's block (69 × 3 cm) centred on the point clicked, or as near as it fits."""
    from dataclasses import replace

    from battlestudio.edits.deploy import zone_deployment

    s = battle.scenario.copy()
    s.deployment_zones["dz-french"] = replace(s.deployment_zones["dz-french"], polygon=box(20, 5, 230, 35))
    zone_deployment(s, DIVISION, "dz-french", 1.0, at=at).do(s)
    units = formation_units(s)
    assert all(u.footprint().within(box(20, 5, 230, 35).buffer(1e-6)) for u in units)
    xs = [x for u in units for x, _ in u.footprint().exterior.coords]
    ys = [y for u in units for _, y in u.footprint().exterior.coords]
    assert ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2) == pytest.approx(centre, abs=0.05)


def formation_units(s):
    return [s.units[n] for n, _ in s.oob.walk(DIVISION) if n in s.units]
