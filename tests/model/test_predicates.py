"""The generic primitives G-1 … G-13 (geometry-glossary.md §3) on the glossary's §7 fixtures,
and hypothesis properties: invariance under rigid motions, symmetry, exact thresholds,
degenerate footprints."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from shapely.geometry import LineString, Polygon, box

from battlestudio.model.geometry import EPS, UnitRect, rotate_point, unit_rect
from battlestudio.model.predicates import (
    Pivot,
    Translate,
    ahead_of_moving_point,
    angle_between,
    base_contact,
    behind_ext_front,
    behind_ext_rear,
    contact_edge,
    contact_length,
    corridor,
    distance,
    distances,
    first_side_crossed,
    in_front_of_ext_front,
    lateral_overlap,
    pairs_within,
    relative_sector,
    swept_path,
    swept_pivot,
    swept_translation,
    visible_edges,
    within_cone,
    within_distance,
)

# glossary §7: the defender, facing north, FL (0,0) FR (10,0) RR (10,-2) RL (0,-2)
D = UnitRect((5.0, 0.0), 90.0, 10.0, 2.0)
F1_R = UnitRect((5.0, -2.0), 90.0, 6.0, 2.0)
F2_A = UnitRect((10.0, -1.0), 180.0, 4.0, 2.0)
F3_A2 = UnitRect((10.0, -1.0), 180.0, 2.0, 2.0)
F4_O = UnitRect((12.0, 0.5), 250.0, 14.0, 2.0)
F5_FR = UnitRect((5.0, 0.0), 270.0, 10.0, 2.0)
F6_S = UnitRect((5.0, -6.0), 90.0, 10.0, 2.0)


# -- §7 fixtures F1-F5: G-8 visible edges, G-9 contact edge, G-2 contact, G-4 ----------
@pytest.mark.parametrize(
    "case, attacker, visible, edge, length",
    [
        ("F1 rear contact", F1_R, {"rear"}, "rear", 6.0),
        ("F2 flank contact, long frontage", F2_A, {"right"}, "right", 2.0),
        ("F3 flank contact, short frontage", F3_A2, {"right"}, "right", 2.0),
        ("F4 overlap", F4_O, {"front", "right"}, None, 0.0),
        ("F5 frontal", F5_FR, {"front"}, "front", 10.0),
    ],
)
def test_glossary_7_visible_and_contact_edges(case, attacker, visible, edge, length):
    assert visible_edges(attacker, D) == visible, case
    got_edge, got_len = contact_edge(D, attacker)
    assert got_edge == edge and got_len == pytest.approx(length), case


@pytest.mark.parametrize(
    "case, attacker, wholly_behind",
    [
        ("F2: spans y -3..+1, not wholly behind", F2_A, False),
        ("F3: spans y -2..0", F3_A2, True),
        ("F1: at D's rear", F1_R, True),
        ("F5: in front", F5_FR, False),
    ],
)
def test_glossary_7_behind_extended_front_all(case, attacker, wholly_behind):
    assert behind_ext_front(D, attacker, "all") is wholly_behind, case


@pytest.mark.parametrize("attacker, contact_len", [(F1_R, 6.0), (F2_A, 2.0), (F3_A2, 2.0), (F5_FR, 10.0)])
def test_glossary_g2_base_contact_of_the_fixture_attackers(attacker, contact_len):
    c = base_contact(attacker, D)
    assert c.in_contact and not c.overlap
    assert c.length == pytest.approx(contact_len)
    assert contact_length(D, attacker) == pytest.approx(contact_len)


def test_glossary_g2_corner_to_corner_is_contact_of_length_zero():
    corner = UnitRect((12.0, 2.0), 90.0, 4.0, 2.0)  # its RL corner sits on D's FR corner (10, 0)
    c = base_contact(corner, D)
    assert c.touching and c.length == pytest.approx(0.0)
    assert c.in_contact  # contact_min_len 0 = any contact
    assert not base_contact(corner, D, min_length=0.5).in_contact


def test_glossary_g2_gap_within_eps_touches_and_beyond_does_not():
    assert base_contact(UnitRect((5.0, 0.0 + EPS), 270.0, 10.0, 2.0).translated(0, 0), D).touching
    assert base_contact(D.translated(0.0, 2.0 + EPS), D).touching  # exactly EPS apart counts
    assert not base_contact(D.translated(0.0, 2.0 + EPS + 0.01), D).touching


def test_glossary_g2_overlap_is_flagged():
    c = base_contact(UnitRect((5.0, -1.0), 90.0, 10.0, 2.0), D)
    assert c.touching and c.overlap and not c.in_contact


def test_glossary_g2_contact_length_counts_only_the_shared_part():
    side_by_side = D.translated(10.0, -0.5)  # shares y -2..-0.5 with D's right edge... 1.5 cm
    assert contact_length(side_by_side, D) == pytest.approx(1.5)
    tilted = UnitRect((15.0, 5.0), 0.0, 2.0, 2.0).rotated(5.0, (15.0, 5.0))
    assert contact_length(tilted, D) == 0.0


# -- F6: G-1, G-4 rear line, G-5 as used by the ToE support unit (T-24) -------------------
@pytest.mark.parametrize(
    "case, s_unit, behind_rear, dist",
    [
        ("F6 S behind the rear line", F6_S, True, 4.0),
        ("F6 overlapping D", UnitRect((5.0, -1.0), 90.0, 10.0, 2.0), False, 0.0),
        ("F6 13 cm away", UnitRect((5.0, -15.0), 90.0, 10.0, 2.0), True, 13.0),
    ],
)
def test_glossary_f6_support_geometry(case, s_unit, behind_rear, dist):
    assert behind_ext_rear(D, s_unit) is behind_rear, case
    assert distance(D, s_unit) == pytest.approx(dist), case
    assert lateral_overlap(D, s_unit) == pytest.approx(10.0), case
    # T-24's geometric part: wholly behind the rear, within 10 cm, straight behind
    is_support = behind_ext_rear(D, s_unit) and distance(D, s_unit) <= 10 and lateral_overlap(D, s_unit) > 0
    assert is_support is (case == "F6 S behind the rear line")


def test_glossary_g4_half_planes():
    ahead = UnitRect((5.0, 10.0), 90.0, 4.0, 2.0)  # y 8..10, wholly in front
    straddling = UnitRect((5.0, 1.0), 90.0, 4.0, 2.0)  # y -1..1
    assert in_front_of_ext_front(D, ahead) and not behind_ext_front(D, ahead, "any")
    assert behind_ext_front(D, straddling, "any") and not behind_ext_front(D, straddling, "all")
    assert in_front_of_ext_front(D, straddling)
    assert behind_ext_front(D, F1_R, "front_centre") is True  # R's front midpoint is at s = -2
    assert behind_ext_front(D, F5_FR, "front_centre") is False  # on the extended front: not behind
    assert behind_ext_front(D, F6_S, "front_centre") is True
    with pytest.raises(ValueError, match="front_centre"):
        behind_ext_front(D, F6_S.polygon(), "front_centre")
    with pytest.raises(ValueError, match="mode"):
        behind_ext_front(D, F6_S, "some")  # type: ignore[arg-type]


def test_glossary_g5_lateral_overlap():
    assert lateral_overlap(D, UnitRect((12.0, -5.0), 90.0, 6.0, 2.0)) == pytest.approx(1.0)  # x 9..15
    assert lateral_overlap(D, UnitRect((20.0, -5.0), 90.0, 6.0, 2.0)) == 0.0


# -- G-6 angles ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "u, v, want", [((1, 0), (0, 1), 90.0), ((1, 0), (1, 1), 45.0), ((1, 0), (-2, 0), 180.0), ((0, 3), (0, 1), 0.0)]
)
def test_glossary_g6_angle_between(u, v, want):
    assert angle_between(u, v) == pytest.approx(want)


def test_glossary_g6_cone_is_inclusive_and_wraps():
    assert within_cone((1.0, 1.0), 0.0, 45.0)  # exactly 45 degrees counts (ToE 4.4 forward)
    assert not within_cone((1.0, 1.01), 0.0, 45.0)
    assert within_cone((1.0, -0.5), 360.0 + 10.0, 45.0) == within_cone((1.0, -0.5), 10.0, 45.0)
    with pytest.raises(ValueError, match="zero-length"):
        angle_between((0.0, 0.0), (1.0, 0.0))


# -- G-7 swept areas, F15 pivot cost -------------------------------------------------------
def test_glossary_g7_translation_sweep_is_the_exact_hull():
    swept = swept_translation(D, (0.0, 10.0))
    assert swept.area == pytest.approx(10.0 * 12.0)
    oblique = swept_translation(D, (3.0, 4.0))
    assert oblique.area == pytest.approx(20.0 + 10.0 * 4.0 + 2.0 * 3.0)  # P + front sweep + side sweep


def test_glossary_f15_pivot_sweep_and_cost():
    """§7 F15: +30° about FL, arc cost 10·π/6 = 5.236 cm."""
    sweep = swept_path(D, [Pivot(30.0, "FL")])
    assert sweep.cost == pytest.approx(5.236, abs=1e-3)
    assert sweep.final.corners()[1] == pytest.approx((8.660, 5.0), abs=1e-3)
    exact_sector = math.pi * 10.0**2 * 30.0 / 360.0  # area swept by the front edge
    assert sweep.area.area >= exact_sector - 0.1
    assert sweep.area.contains(D.pivoted(15.0, "FL").polygon().buffer(-1e-6))


def test_glossary_g7_multi_leg_path():
    sweep = swept_path(D, [Translate(0.0, 10.0), Pivot(-90.0, "FR"), Translate(10.0, 0.0)])
    assert sweep.cost == pytest.approx(10.0 + 10.0 * math.pi / 2 + 10.0)
    assert sweep.final.facing == pytest.approx(0.0)
    for a, b in zip(sweep.final.corners(), ((20.0, 20.0), (20.0, 10.0), (18.0, 10.0), (18.0, 20.0)), strict=True):
        assert a == pytest.approx(b, abs=1e-9)
    assert sweep.area.contains(swept_translation(D, (0.0, 10.0)).buffer(-1e-6))


def test_glossary_g7_pivot_sweep_approximates_the_exact_area():
    """D wheels 90° about FL (0, 0). At radius ρ, D covers polar angles [α_min(ρ), α_max(ρ)];
    the sweep covers [α_min, α_max + 90°]. Integrating ρ·Δα gives the exact area."""
    rho = np.linspace(1e-9, math.sqrt(104.0), 200_001)
    a_max = np.where(rho <= 10.0, 0.0, -np.arccos(np.minimum(1.0, 10.0 / rho)))
    a_min = np.where(rho <= 2.0, -math.pi / 2, -np.arcsin(np.minimum(1.0, 2.0 / rho)))
    y = rho * (a_max - a_min + math.pi / 2)
    exact = float(np.sum((y[1:] + y[:-1]) / 2 * np.diff(rho)))
    approx = swept_pivot(D, 90.0, (0.0, 0.0), step=1.0).area
    assert approx == pytest.approx(exact, rel=1e-3)  # chords of 1° arcs cut off a sliver


# -- G-10 first side crossed, F9 ------------------------------------------------------------
F9_Z = Polygon([(0, 0), (15, 0), (15, 15), (0, 15)])  # sides 0 south, 1 east, 2 north, 3 west


@pytest.mark.parametrize("shooter, side", [((7.5, 40.0), 2), ((40.0, 7.5), 1), ((7.5, -30.0), 0), ((-9.0, 7.5), 3)])
def test_glossary_f9_first_side_crossed(shooter, side):
    assert F9_Z.area == 225.0
    assert first_side_crossed(F9_Z, shooter, (7.5, 14.99)) == side


def test_first_side_crossed_none_when_the_segment_stays_outside():
    assert first_side_crossed(F9_Z, (20.0, 20.0), (30.0, 20.0)) is None


# -- G-11 ahead of a moving point, G-12 corridor, F8 -----------------------------------------
def test_glossary_g11_ahead_of_moving_point():
    assert ahead_of_moving_point(box(45, 2, 46, 4), (0.0, 0.0), (1.0, 0.0))
    assert not ahead_of_moving_point(box(-10, 2, -1, 4), (0.0, 0.0), (1.0, 0.0))
    assert not ahead_of_moving_point(box(-10, 2, 0, 4), (0.0, 0.0), (1.0, 0.0))  # touching the line only
    with pytest.raises(ValueError, match="zero length"):
        ahead_of_moving_point(D, (0.0, 0.0), (0.0, 0.0))


@pytest.mark.parametrize("length, half_width", [(8.0, 1.5), (15.0, 1.5), (40.0, 4.0)])
def test_glossary_f8_corridor_widths(length, half_width):
    c = corridor((0.0, 0.0), (length, 0.0), half_width)
    assert c.bounds == pytest.approx((0.0, -half_width, length, half_width))  # flat caps: no overhang
    assert c.area == pytest.approx(2 * half_width * length)
    with pytest.raises(ValueError):
        corridor((1.0, 1.0), (1.0, 1.0), 1.5)


# -- G-13 relative sector ------------------------------------------------------------------
@pytest.mark.parametrize(
    "p, sector",
    [
        ((5, 5), "front"),
        ((-3, -1), "left_flank"),
        ((13, -1), "right_flank"),
        ((5, -5), "rear"),
        ((-3, 5), "front_left"),
        ((13, 5), "front_right"),
        ((-3, -5), "rear_left"),
        ((13, -5), "rear_right"),
        ((5, -1), "inside"),
        ((10, 5), "front"),
        ((12, 0), "right_flank"),
    ],
)
def test_glossary_g13_relative_sector(p, sector):
    assert relative_sector(D, p) == sector


# -- vectorised forms ----------------------------------------------------------------------
def test_distances_matrix_and_within_distance_with_strtree():
    units = [D.translated(30.0 * i, 0.0) for i in range(50)]  # gaps of 20 cm in a row
    m = distances(units[:3], units)
    assert m.shape == (3, 50)
    assert m[0, 1] == pytest.approx(20.0) and m[2, 0] == pytest.approx(50.0) and m[1, 1] == 0.0
    assert list(within_distance(units[10], units, 20.0)) == [9, 10, 11]  # exactly 20 counts
    assert list(within_distance(units[10], units, 19.99)) == [10]
    assert within_distance(D, [], 5.0).size == 0
    with pytest.raises(ValueError, match="limit"):
        within_distance(D, units, -1.0)


def test_pairs_within_answers_many_against_many():
    """Cavalry on a row 20 cm apart against an enemy row 20-22 cm ahead: ToE 5.2.1's 20 cm."""
    ours = [D.translated(30.0 * i, 0.0) for i in range(40)]
    theirs = [UnitRect((5.0 + 30.0 * i, 20.0 + (i % 3)), 270.0, 10.0, 2.0) for i in range(40)]
    pairs = pairs_within(ours, theirs, 20.0)  # gaps of 20, 21, 22 cm straight ahead
    assert [tuple(p) for p in pairs] == [(i, i) for i in range(0, 40, 3)]
    brute = [(i, j) for i in range(40) for j in range(40) if distance(ours[i], theirs[j]) <= 20.0 + 1e-6]
    assert [tuple(p) for p in pairs] == brute
    assert pairs_within([], theirs, 5.0).shape == (0, 2)


# -- degenerate footprints -----------------------------------------------------------------
def test_zero_figure_units_still_measure():
    token = unit_rect((20.0, 0.0), 90.0, "line", 0, 2.0, 1.5)
    assert distance(token, D) == pytest.approx(9.5)
    assert relative_sector(D, token.front) == "right_flank"
    flat = UnitRect((20.0, 0.0), 90.0, 0.0, 0.0)  # no width, no depth: a point
    assert distance(flat, D) == pytest.approx(10.0)
    assert visible_edges(flat, D) == frozenset()  # a zero frontage casts no ray
    assert contact_edge(D, flat) == (None, 0.0)
    assert lateral_overlap(D, flat) == 0.0


# -- hypothesis properties ------------------------------------------------------------------
coord = st.floats(-200, 200, allow_nan=False, allow_subnormal=False)  # table cm; GEOS misreads subnormals
facing = st.floats(0, 360, allow_nan=False)
rects = st.builds(UnitRect, st.tuples(coord, coord), facing, st.floats(1, 40), st.floats(1, 10))
# touching pairs: the second unit faces the first one's front and sits exactly on it
motions = st.tuples(st.floats(-1000, 1000), st.floats(-1000, 1000), st.floats(-720, 720))


def move(r: UnitRect, m) -> UnitRect:
    tx, ty, phi = m
    return r.rotated(phi).translated(tx, ty)


def move_pt(p, m):
    tx, ty, phi = m
    q = rotate_point(p, phi)
    return (q[0] + tx, q[1] + ty)


@st.composite
def facing_pairs(draw):
    """A target and an attacker whose front lies on or near one of the target's edges."""
    t = draw(rects)
    edge = draw(st.sampled_from(["front", "right", "rear", "left"]))
    a_, b_ = t.edges()[edge]
    u = draw(st.floats(0, 1))
    gap = draw(st.sampled_from([0.0, 0.05, 0.5, 3.0]))
    n = t.normal(edge)
    base = (a_[0] + u * (b_[0] - a_[0]) + gap * n[0], a_[1] + u * (b_[1] - a_[1]) + gap * n[1])
    skew = draw(st.sampled_from([0.0, 0.0, 20.0, -35.0]))
    fac = math.degrees(math.atan2(-n[1], -n[0])) + skew
    return t, UnitRect(base, fac, draw(st.floats(1, 30)), draw(st.floats(1, 10)))


@settings(max_examples=300)
@given(facing_pairs(), motions)
def test_rigid_motion_leaves_every_predicate_unchanged(pair, m):
    t, a = pair
    t2, a2 = move(t, m), move(a, m)
    assert distance(t2, a2) == pytest.approx(distance(t, a), abs=1e-6)
    c1, c2 = base_contact(a, t), base_contact(a2, t2)
    assert (c1.touching, c1.overlap) == (c2.touching, c2.overlap)
    assert c2.length == pytest.approx(c1.length, abs=1e-5)
    e1, e2 = contact_edge(t, a), contact_edge(t2, a2)
    assert e1[1] == pytest.approx(e2[1], abs=1e-5)
    if e1[1] > 1e-3:
        assert e1[0] == e2[0]
    v1, v2 = visible_edges(a, t), visible_edges(a2, t2)
    assert v1 == v2 or _grazing(a, t)
    assert lateral_overlap(t, a) == pytest.approx(lateral_overlap(t2, a2), abs=1e-6)


def _grazing(a: UnitRect, t: UnitRect) -> bool:
    """A ray or edge exactly on a tolerance boundary, where rounding may legitimately flip."""
    f = np.asarray(rotate_point((1.0, 0.0), a.facing))
    near_parallel = any(abs(float(np.asarray(t.normal(n)) @ f)) < 1e-6 for n in ("front", "right"))
    s, lat = a.local_array(np.asarray(t.corners()))
    on_edge = np.any(np.abs(np.abs(lat) - a.width / 2) < 1e-6) or np.any(np.abs(s + EPS) < 1e-6)
    return bool(near_parallel or on_edge)


@settings(max_examples=300)
@given(rects, st.tuples(coord, coord), motions)
def test_rigid_motion_leaves_sectors_and_half_planes_unchanged(t, p, m):
    s, lat = t.local(p)
    assume(min(abs(s), abs(s + t.depth), abs(abs(lat) - t.width / 2)) > 1e-5)
    t2, p2 = move(t, m), move_pt(p, m)
    assert relative_sector(t2, p2) == relative_sector(t, p)
    assert t2.local(p2) == pytest.approx(t.local(p), abs=1e-6)
    if math.dist(p, t.front) > 1e-3:
        diff = (t2.bearing(p2) - t.bearing(p) + 180.0) % 360.0 - 180.0
        assert abs(diff) < 1e-6


@settings(max_examples=200)
@given(rects, rects)
def test_distance_is_symmetric_and_matches_the_vectorised_form(a, b):
    assert distance(a, b) == pytest.approx(distance(b, a), abs=1e-9)
    assert distances([a], [b])[0, 0] == pytest.approx(distance(a, b), abs=1e-9)
    assert base_contact(a, b).touching == base_contact(b, a).touching


@settings(max_examples=200)
@given(rects, st.floats(0.5, 100))
def test_exact_thresholds_count(t, gap):
    """A unit exactly ``gap`` cm away is within ``gap`` (and not within ``gap - 0.01``)."""
    f = rotate_point((1.0, 0.0), t.facing)
    # a second rectangle straight ahead, its rear edge ``gap`` cm in front of t's front
    other = UnitRect((t.front[0] + (gap + 2.0) * f[0], t.front[1] + (gap + 2.0) * f[1]), t.facing, t.width, 2.0)
    assert distance(t, other) == pytest.approx(gap, abs=1e-9)
    assert list(within_distance(t, [other], gap)) == [0]
    assert within_distance(t, [other], gap - 0.01).size == 0


@given(rects, st.integers(-2, 2))
def test_facing_wrap_around_changes_nothing(t, k):
    t2 = UnitRect(t.front, t.facing + 360.0 * k, t.width, t.depth)
    probe = LineString([t.front, (t.front[0] + 5.0, t.front[1] + 7.0)])
    assert distance(t, probe) == pytest.approx(distance(t2, probe), abs=1e-6)
    assert visible_edges(t, D) == visible_edges(t2, D) or _grazing(t, D)
    assert (
        relative_sector(t, (0.0, 0.0)) == relative_sector(t2, (0.0, 0.0))
        or min(abs(abs(t.lat((0.0, 0.0))) - t.width / 2), abs(t.s((0.0, 0.0))), abs(t.s((0.0, 0.0)) + t.depth)) < 1e-5
    )
