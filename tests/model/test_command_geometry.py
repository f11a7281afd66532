"""Command distance (T-3), command zones (T-4, fixture F13) and the march order's 75 cm
exclusion (T-8) of geometry-glossary.md §4; Torden over Europa 2.2–2.5, 2.10, 3.2."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import Point as ShapelyPoint

from battlestudio.model.command_geometry import (
    MARCH_ORDER_EXCLUSION_CM,
    command_distances,
    command_zone,
    general_base,
    march_order_violated,
    march_order_violations,
    march_path_violations,
    within_command,
    within_command_many,
    zone_of,
)
from battlestudio.model.geometry import UnitRect, rotate_point, unit_rect


# -- T-4 zones, F13 ---------------------------------------------------------------------
@pytest.mark.parametrize(
    "d, open_ended, zone",
    [
        (65.0, True, 3),  # F13: "60+" makes zone 3 open-ended (A4)
        (65.0, False, None),  # F13: without "+" the order cannot be issued
        (35.0, False, 2),  # F13
        (20.0, False, 1),  # exactly on a bound belongs to the inner zone
        (20.01, False, 2),
        (40.0, True, 2),
        (60.0, False, 3),
        (0.0, False, 1),
    ],
)
def test_glossary_f13_zone_of(d, open_ended, zone):
    assert zone_of(d, (20.0, 40.0, 60.0), open_ended) == zone


@pytest.mark.parametrize(
    "d, bounds, match",
    [
        (-1.0, (20, 40, 60), "distance"),
        (math.nan, (20, 40, 60), "distance"),
        (5.0, (), "bounds"),
        (5.0, (20, 20, 60), "bounds"),
        (5.0, (-5, 40), "bounds"),
    ],
)
def test_zone_of_rejects_bad_input(d, bounds, match):
    with pytest.raises(ValueError, match=match):
        zone_of(d, bounds)


def test_t4_command_zone_measures_issuer_base_to_recipient():
    """3.2: from the issuing general to the receiving general or tactical unit."""
    c_in_c = general_base((0.0, 0.0), 4.0)  # a 4 cm base: its edge is 2 cm from the centre
    corps = general_base((0.0, 39.0), 4.0)  # bases 35 cm apart edge to edge
    assert command_zone(c_in_c, corps, (20, 40, 60)) == 2
    assert command_zone(c_in_c, corps, (20, 40, 60), measure="centre") == 2
    assert command_zone(c_in_c, (0.0, 63.0), (20, 40, 60)) is None  # 61 cm to a point
    assert command_zone(c_in_c, (0.0, 63.0), (20, 40, 60), open_ended=True) == 3
    brigade = UnitRect((0.0, 70.0), 270.0, 10.0, 2.0)  # faces the C-in-C, front 68 cm off
    assert command_zone(c_in_c, brigade, (20, 40, 60), open_ended=True) == 3
    with pytest.raises(ValueError, match="measure"):
        command_zone(c_in_c, corps, (20, 40, 60), measure="all")  # type: ignore[arg-type]


# -- T-3 command distance -----------------------------------------------------------------
DIV = general_base((0.0, 0.0))  # base size is Table 12 [M]: measured from the base centre
BRIGADE_AHEAD = unit_rect((0.0, 22.0), 90.0, "line", 24, 2.0, 1.5)  # 24 cm wide, rear at y = 19


@pytest.mark.parametrize(
    "radius, measure, within",
    [
        (19.0, "nearest", True),  # A3: nearest point, exactly 19 cm counts
        (18.99, "nearest", False),
        (20.0, "all", False),  # the 24 cm frontage can never fit wholly in a 20 cm radius (A3)
        (math.hypot(12.0, 22.0), "all", True),
        (20.5, "centre", True),  # centre (0, 20.5)
        (20.4, "centre", False),
    ],
)
def test_t3_within_command_measures(radius, measure, within):
    assert within_command(DIV, BRIGADE_AHEAD, radius, measure) is within


def test_t3_general_base_with_a_size_measures_from_its_edge():
    base = general_base((0.0, 0.0), 4.0, 2.0)  # top edge at y = 1
    assert command_distances(base, [BRIGADE_AHEAD])[0] == pytest.approx(18.0)
    assert within_command(base, BRIGADE_AHEAD, 18.0)
    with pytest.raises(ValueError, match=">= 0"):
        general_base((0.0, 0.0), -1.0)


def test_t3_a_division_in_a_ring_checked_at_once():
    """Torden over Europa 2.5: every brigade within the division general's 10-20 cm.
    Twelve brigades face outwards on a ring; the nearest points are 8, 10, ... 30 cm away."""
    units = []
    for i in range(12):
        gap = 8.0 + 2.0 * i
        ang = 30.0 * i
        f = rotate_point((1.0, 0.0), ang)
        units.append(UnitRect((f[0] * (gap + 3.0), f[1] * (gap + 3.0)), ang, 10.0, 3.0))
    got = within_command_many(DIV, units, 15.0)
    assert list(got) == [True] * 4 + [False] * 8  # 8, 10, 12, 14 cm in; 16 cm and beyond out
    assert within_command_many(DIV, [], 15.0).size == 0
    assert within_command_many(DIV, [], 15.0, "all").size == 0
    with pytest.raises(ValueError, match="command distance"):
        within_command_many(DIV, units, -5.0)
    with pytest.raises(ValueError, match="measure"):
        within_command_many(DIV, units, 15.0, "edge")  # type: ignore[arg-type]


def test_t3_unlimbered_battery_is_measured_by_its_gun_model():
    """4.6.2 commentary: the limber may be inside command distance while the gun is not."""
    gun = UnitRect((0.0, 17.0), 90.0, 3.0, 4.0)  # gun y 13..17
    limber = UnitRect((0.0, 12.5), 90.0, 3.0, 6.0)  # limber y 6.5..12.5
    assert within_command(DIV, limber, 10.0) and not within_command(DIV, gun, 10.0)


# -- T-8 the march order's 75 cm --------------------------------------------------------------
def test_t8_enemy_within_75_cm_converts_the_march_order():
    corps = general_base((100.0, 100.0))
    enemies = [
        UnitRect((100.0, 175.0 + 2.0), 270.0, 10.0, 2.0),  # its front, the nearest part, is 77 cm away
        UnitRect((175.0, 100.0), 180.0, 10.0, 2.0),  # front exactly 75 cm away
        UnitRect((100.0, 10.0), 90.0, 10.0, 2.0),
    ]  # 90 cm away
    assert MARCH_ORDER_EXCLUSION_CM == 75.0
    assert list(march_order_violations(corps, enemies)) == [1]
    assert march_order_violated(corps, enemies)
    assert not march_order_violated(corps, [enemies[0], enemies[2]])
    assert not march_order_violated(corps, [])


def test_t8_march_path_must_keep_75_cm_from_every_enemy():
    """A12: the general's remaining path, buffered by 75 cm, must not touch an enemy."""
    path = [(0.0, 0.0), (200.0, 0.0), (200.0, 100.0)]
    enemies = [
        UnitRect((100.0, 80.0), 270.0, 10.0, 2.0),  # 80 cm off the first leg: clear
        UnitRect((280.0, 50.0), 180.0, 10.0, 2.0),  # 80 cm off the second leg: clear
        UnitRect((275.0, 50.0), 180.0, 10.0, 2.0),  # 75 cm: violates
        UnitRect((120.0, -70.0), 90.0, 10.0, 2.0),
    ]  # 70 cm: violates
    assert list(march_path_violations(path, enemies)) == [2, 3]
    assert list(march_path_violations([(0.0, 0.0)], enemies, 200.0)) == [0, 3]
    with pytest.raises(ValueError, match="no points"):
        march_path_violations([], enemies)


# -- properties ---------------------------------------------------------------------------------
coord = st.floats(-300, 300, allow_nan=False)
rects = st.builds(UnitRect, st.tuples(coord, coord), st.floats(0, 360), st.floats(1, 30), st.floats(1, 8))
motions = st.tuples(st.floats(-1000, 1000), st.floats(-1000, 1000), st.floats(-720, 720))


@settings(max_examples=200)
@given(rects, st.tuples(coord, coord), st.floats(0.5, 100), motions)
def test_command_distance_is_invariant_under_rigid_motion(u, centre, radius, m):
    """Moving and turning the general (a point base) and the unit together changes nothing."""
    tx, ty, phi = m
    c2 = rotate_point(centre, phi)
    p, p2 = general_base(centre), general_base((c2[0] + tx, c2[1] + ty))
    u2 = u.rotated(phi).translated(tx, ty)
    d, d2 = command_distances(p, [u])[0], command_distances(p2, [u2])[0]
    assert d2 == pytest.approx(d, abs=1e-6)
    if abs(d - radius) > 1e-6:
        assert within_command(p, u, radius) == within_command(p2, u2, radius)
        assert (
            within_command(p, u, radius, "centre") == within_command(p2, u2, radius, "centre")
            or abs(command_distances(p, [u], "centre")[0] - radius) < 1e-6
        )
    far = command_distances(p, [u])[0] + math.hypot(u.width, u.depth)
    assert within_command(p, u, far, "all") and within_command(p2, u2, far, "all")
    assert (
        zone_of(d, (radius, radius + 20.0), True) == zone_of(d2, (radius, radius + 20.0), True)
        or abs(d - radius) < 1e-6
        or abs(d - radius - 20.0) < 1e-6
    )


@settings(max_examples=200)
@given(rects, st.floats(0.5, 100))
def test_command_distance_threshold_is_inclusive(u, gap):
    """A unit whose nearest point is exactly ``gap`` cm from the general is within ``gap``."""
    fx, fy = rotate_point((1.0, 0.0), u.facing)
    centre = (u.front[0] + gap * fx, u.front[1] + gap * fy)  # straight ahead of the front midpoint
    base = general_base(centre)
    assert within_command(base, u, gap)
    assert not within_command(base, u, gap - 0.01)
    assert zone_of(float(command_distances(base, [u])[0]), (gap, gap + 10.0)) == 1
    assert list(march_order_violations(base, [u], gap)) == [0]


def test_zero_figure_unit_is_measured_by_its_token():
    token = unit_rect((0.0, 10.0), 90.0, "column", 0, 2.0, 1.5)  # 1 cm token, y 9..10
    assert command_distances(DIV, [token])[0] == pytest.approx(9.0)
    assert within_command(DIV, ShapelyPoint(0.0, 9.0), 9.0)
