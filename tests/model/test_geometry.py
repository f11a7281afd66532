"""The table frame, unit rectangles, formation footprints and the figure grid
(geometry-glossary.md §0.1, §1.1–1.4, T-12, T-13; Torden over Europa 1.7, 4.4, 4.5)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import Point as ShapelyPoint

from battlestudio.model.formations import (
    FormationError,
    check_formation,
    figure_cells,
    figures_outline,
    formation_problem,
    fronts,
    has_front,
    reform_anchor,
    reformed_rect,
    turn_on_the_spot,
)
from battlestudio.model.geometry import (
    UnitRect,
    bearing,
    direction_angle,
    front_from_centre,
    grid_shape,
    normalize_angle,
    rotate_point,
    signed_angle,
    square_capacity,
    square_side,
    unit_rect,
)
from battlestudio.model.predicates import behind_ext_front

# The defender of glossary §7: facing north, front y = 0 from x = 0 to 10, rear y = -2.
D = UnitRect((5.0, 0.0), 90.0, 10.0, 2.0)

coord = st.floats(-500, 500, allow_nan=False)
facing = st.floats(-720, 720, allow_nan=False)
rects = st.builds(UnitRect, st.tuples(coord, coord), facing, st.floats(0.5, 60), st.floats(0.5, 20))


def close(p, q, tol=1e-9):
    return math.dist(p, q) <= tol


# -- frame (§0.1, §1.1) ----------------------------------------------------------------
def test_glossary_7_defender_corners_and_lines():
    """§7: D's corners are FL (0,0), FR (10,0), RR (10,-2), RL (0,-2); extended front y = 0."""
    fl, fr, rr, rl = D.corners()
    for got, want in zip((fl, fr, rr, rl), ((0, 0), (10, 0), (10, -2), (0, -2)), strict=True):
        assert close(got, want)
    assert D.s((3.0, 4.0)) == pytest.approx(4.0)  # in front of the extended front
    assert D.s((30.0, -0.5)) == pytest.approx(-0.5)  # behind it, even far to the side
    assert D.lat((8.0, 0.0)) == pytest.approx(3.0)  # +l is the unit's right (east when facing north)
    assert D.centre == pytest.approx((5.0, -1.0))
    assert D.rear_centre == pytest.approx((5.0, -2.0))
    assert D.polygon().area == pytest.approx(20.0)


@pytest.mark.parametrize(
    "name, start, end, normal",
    [
        ("front", (0, 0), (10, 0), (0, 1)),
        ("right", (10, 0), (10, -2), (1, 0)),
        ("rear", (10, -2), (0, -2), (0, -1)),
        ("left", (0, -2), (0, 0), (-1, 0)),
    ],
)
def test_glossary_1_1_edges_and_outward_normals(name, start, end, normal):
    a, b = D.edges()[name]
    assert close(a, start) and close(b, end)
    assert close(D.normal(name), normal)
    assert D.edge(name).length == pytest.approx(math.dist(start, end))


def test_glossary_1_2_extended_lines():
    assert D.extended_front().distance(D.edge("front")) == pytest.approx(0.0)
    s_ends, _ = D.local_array(list(D.extended_front().coords))
    assert s_ends == pytest.approx([0.0, 0.0], abs=1e-9)  # the whole line is s = 0
    assert D.extended_rear().distance(D.edge("rear")) == pytest.approx(0.0)
    left, right = D.extended_flank("left"), D.extended_flank("right")
    assert left.coords[0][0] == pytest.approx(0.0) and right.coords[0][0] == pytest.approx(10.0)
    # the extended front passes far beyond the unit on both sides
    for x in (-5000.0, 5000.0):
        assert D.extended_front().distance(ShapelyPoint(x, 0.0)) == pytest.approx(0.0, abs=1e-9)
    assert D.extended_front().length >= 10_000.0


@pytest.mark.parametrize(
    "p, want", [((5, 10), 0.0), ((-5, 0), 90.0), ((15, 0), -90.0), ((5, -10), 180.0), ((15, 10), -45.0)]
)
def test_bearing_relative_to_facing(p, want):
    assert D.bearing(p) == pytest.approx(want)


def test_bearing_of_the_reference_point_itself_is_an_error():
    with pytest.raises(ValueError, match="no bearing"):
        D.bearing((5.0, 0.0))
    assert D.bearing((5.0, 0.0), origin="centre") == pytest.approx(0.0)


@given(st.floats(-1e4, 1e4, allow_nan=False), st.integers(-5, 5))
def test_angles_wrap_at_360(a, k):
    n = normalize_angle(a)
    assert 0.0 <= n < 360.0
    assert math.isclose(math.cos(math.radians(normalize_angle(a + 360 * k))), math.cos(math.radians(n)), abs_tol=1e-9)
    s = signed_angle(a)
    assert -180.0 < s <= 180.0


@given(rects, st.integers(-3, 3), st.tuples(coord, coord))
def test_facing_plus_whole_turns_gives_the_same_footprint_and_bearings(r, k, p):
    turned = UnitRect(r.front, r.facing + 360.0 * k, r.width, r.depth)
    for a, b in zip(r.corners(), turned.corners(), strict=True):
        assert close(a, b, 1e-6)
    if math.dist(p, r.front) > 1e-3:
        diff = signed_angle(r.bearing(p) - turned.bearing(p))
        assert abs(diff) < 1e-6


def test_direction_angle_and_its_zero_vector():
    assert direction_angle((0.0, -2.0)) == pytest.approx(270.0)
    with pytest.raises(ValueError, match="no direction"):
        direction_angle((0.0, 0.0))


def test_bearing_function_matches_method():
    assert bearing((0, 0), 0.0, (0, 5)) == pytest.approx(90.0)


def test_front_from_centre_inverts_centre():
    r = UnitRect((3.0, 4.0), 37.0, 8.0, 3.0)
    assert close(front_from_centre(r.centre, r.facing, r.depth), r.front)


# -- pivots (T-12, F15) ----------------------------------------------------------------
def test_glossary_f15_pivot_about_fl_wheels_right_wing_forward():
    """§7 F15: D pivots +30° about FL; FR moves to (8.66, 5.00)."""
    p = D.pivoted(30.0, "FL")
    fl, fr, _, _ = p.corners()
    assert close(fl, (0.0, 0.0), 1e-9)
    assert fr == pytest.approx((8.660254, 5.0), abs=1e-5)
    assert p.facing == pytest.approx(120.0)


def test_pivot_about_fr_clockwise_wheels_left_wing_forward():
    p = D.pivoted(-30.0, "FR")
    fl, fr, _, _ = p.corners()
    assert close(fr, (10.0, 0.0), 1e-9)
    assert fl[1] > 0  # the left wing went forward (north)
    with pytest.raises(ValueError, match="corner"):
        D.pivoted(10.0, "RR")  # type: ignore[arg-type]


# -- formation footprints (§1.4, ToE 1.7) -----------------------------------------------
@pytest.mark.parametrize(
    "formation, figures, ranks_choice, shape",
    [
        ("line", 24, 3, (12, 2)),  # line: 2 ranks
        ("line", 5, 3, (3, 2)),
        ("line", 1, 3, (1, 1)),
        ("column", 24, 3, (8, 3)),  # column: 3 or 4 ranks, player's choice
        ("column", 24, 4, (6, 4)),
        ("column", 7, 4, (2, 4)),
        ("march_column", 24, 3, (2, 12)),  # march column: at most 2 figures wide
        ("march_column", 5, 3, (1, 5)),
        ("march_column", 3, 3, (1, 3)),
        ("square", 24, 3, (5, 5)),  # 2-rank hollow square: 8a - 16 = 24
        ("square", 25, 3, (6, 6)),
        ("square", 8, 3, (3, 3)),
        ("square", 14, 3, (5, 5)),  # a 4-side square would need its middle filled
        ("unlimbered", 2, 3, (2, 1)),
        ("none", 10, 3, (4, 3)),
        ("line", 0, 3, (0, 0)),
        ("square", 0, 3, (0, 0)),
    ],
)
def test_glossary_1_4_grid_shape(formation, figures, ranks_choice, shape):
    assert grid_shape(formation, figures, ranks_choice) == shape


@pytest.mark.parametrize("figures", range(1, 200))
def test_march_column_is_never_wider_than_two_figures(figures):
    files, ranks = grid_shape("march_column", figures)
    assert files <= 2 and files * ranks >= figures
    if figures >= 3:
        assert ranks >= 3


@pytest.mark.parametrize("figures", range(1, 120))
def test_square_ring_holds_the_unit_and_stays_open(figures):
    a = square_side(figures)
    assert square_capacity(a) >= figures > square_capacity(a - 1)
    if figures >= 17:
        assert a == math.ceil(figures / 8) + 2  # the glossary's formula
    cells = figure_cells(UnitRect((0, 0), 90, a * 2.0, a * 2.0), "square", figures)
    assert len(cells) == figures
    centre = {(j, k) for j in range(a) for k in range(a) if min(j, k, a - 1 - j, a - 1 - k) >= (2 if a >= 5 else 1)}
    assert centre and not centre & {(c.file, c.rank) for c in cells}


@pytest.mark.parametrize(
    "bad, match",
    [(("line", -1), "figures"), (("wedge", 4), "unknown formation"), (("column", 12, 5), "3 or 4")],
)
def test_grid_shape_rejects_bad_input(bad, match):
    with pytest.raises(ValueError, match=match):
        grid_shape(*bad)


def test_unit_rect_sizes_per_formation():
    """ToE 1.7 with 2 cm x 1.5 cm infantry figures, a 24-figure brigade."""
    assert unit_rect((0, 0), 90, "line", 24, 2.0, 1.5) == UnitRect((0, 0), 90, 24.0, 3.0)
    assert unit_rect((0, 0), 90, "column", 24, 2.0, 1.5, 4) == UnitRect((0, 0), 90, 12.0, 6.0)
    assert unit_rect((0, 0), 90, "march_column", 24, 2.0, 1.5) == UnitRect((0, 0), 90, 4.0, 18.0)
    assert unit_rect((0, 0), 90, "square", 24, 2.0, 1.5) == UnitRect((0, 0), 90, 10.0, 10.0)
    assert unit_rect((0, 0), 90, "skirmish", 24, 2.0, 1.5) == UnitRect((0, 0), 90, 48.0, 3.0)
    # degenerate: no figures is a 1 cm token at its place
    assert unit_rect((7, 8), 90, "line", 0, 2.0, 1.5) == UnitRect((7, 8), 90, 1.0, 1.0)


@pytest.mark.parametrize(
    "formation, figures, problem",
    [
        ("column", 5, "cannot form column"),
        ("column", 6, None),
        ("march_column", 2, "march column"),
        ("march_column", 3, None),
        ("line", 1, None),
        ("square", 4, None),
        ("line", 0, None),
        ("wedge", 6, "unknown formation"),
    ],
)
def test_formation_problem_names_the_rule(formation, figures, problem):
    got = formation_problem(formation, figures)
    assert (got is None) if problem is None else (problem in got)


def test_check_formation_raises_and_column_minimum_is_configurable():
    with pytest.raises(FormationError, match="at least 6"):
        check_formation("column", 4)
    check_formation("column", 4, column_min_figures=4)  # a scenario may lower it (A42)


def test_fronts_square_has_four_fu_mob_none():
    assert fronts(D, "square") == ("front", "right", "rear", "left")
    assert fronts(D, "line") == ("front",)
    assert fronts(D, "none") == () and not has_front("none")


# -- figure grid (§1.4) -------------------------------------------------------------------
def test_figure_grid_addresses_file_from_left_rank_from_front():
    cells = figure_cells(D, "line", 10)  # 5 files x 2 ranks of 2 cm x 1 cm
    assert [(c.file, c.rank) for c in cells[:6]] == [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (0, 1)]
    first = cells[0].polygon
    assert first.bounds == pytest.approx((0.0, -1.0, 2.0, 0.0))  # FL corner at (0, 0)
    last = cells[-1].polygon
    assert last.bounds == pytest.approx((8.0, -2.0, 10.0, -1.0))  # rear rank, rightmost file
    assert sum(c.polygon.area for c in cells) == pytest.approx(D.polygon().area)


def test_figure_grid_odd_line_lacks_rear_right_figure():
    cells = figure_cells(D, "line", 9)
    assert len(cells) == 9 and (4, 1) not in {(c.file, c.rank) for c in cells}


def test_figure_grid_zero_figures_is_empty():
    assert figure_cells(D, "line", 0) == []


def test_figure_grid_skirmish_figures_stand_apart():
    r = unit_rect((0, 0), 90, "skirmish", 4, 2.0, 1.5)
    cells = figure_cells(r, "skirmish", 4)
    assert len(cells) == 4 and cells[0].polygon.distance(cells[1].polygon) == pytest.approx(2.0)


def test_glossary_f4_five_figures_of_the_overlapping_unit_are_behind_the_front():
    """§7 F4: O = UnitRect(12, 0.5, 250, 14, 2), 7 files x 2 ranks: 5 figures behind D's front."""
    o = UnitRect((12.0, 0.5), 250.0, 14.0, 2.0)
    cells = figure_cells(o, "line", 14)
    assert len(cells) == 14
    assert sum(behind_ext_front(D, c.polygon, "any") for c in cells) == 5


# -- formation-change anchoring (§1.4, T-13, ToE 4.5) ------------------------------------
def test_formation_change_keeps_front_midpoint_and_facing():
    line = unit_rect((40, 30), 90, "line", 24, 2.0, 1.5)
    col = reformed_rect(line, "line", "column", 24, 2.0, 1.5, 3)
    assert col.front == line.front and col.facing == 90
    assert (col.width, col.depth) == (16.0, 4.5)


@pytest.mark.parametrize("turn, front, facing", [("right", (52.0, 28.5), 0.0), ("left", (28.0, 28.5), 180.0)])
def test_line_to_march_column_turns_on_the_spot(turn, front, facing):
    line = unit_rect((40, 30), 90, "line", 24, 2.0, 1.5)
    mc = turn_on_the_spot(line, turn)
    assert close(mc.front, front, 1e-9) and mc.facing == pytest.approx(facing)
    assert (mc.width, mc.depth) == (line.depth, line.width)
    assert mc.polygon().symmetric_difference(line.polygon()).area == pytest.approx(0.0, abs=1e-9)
    assert reform_anchor(line, "line", "march_column", turn=turn) == (mc.front, mc.facing)
    back = turn_on_the_spot(mc, "left" if turn == "right" else "right")
    assert close(back.front, line.front, 1e-9) and back.facing == pytest.approx(90.0)


@pytest.mark.parametrize("side, facing", [("front", 90.0), ("right", 0.0), ("rear", 270.0), ("left", 180.0)])
def test_square_may_face_out_of_any_side(side, facing):
    sq = unit_rect((0, 0), 90, "square", 24, 2.0, 1.5)  # 10 x 10, centre (0, -5)
    front, new_facing = reform_anchor(sq, "square", "column", side=side)
    assert new_facing == pytest.approx(facing)
    # the new front midpoint is the middle of that side, 5 cm from the square's centre
    assert math.dist(front, sq.centre) == pytest.approx(5.0)
    col = reformed_rect(sq, "square", "column", 24, 2.0, 1.5, side=side)
    assert col.facing == pytest.approx(facing) and col.front == front


def test_only_a_square_may_change_front():
    line = unit_rect((0, 0), 90, "line", 24, 2.0, 1.5)
    with pytest.raises(ValueError, match="only a square"):
        reform_anchor(line, "line", "column", side="left")
    with pytest.raises(ValueError, match="turn"):
        turn_on_the_spot(line, "about")  # type: ignore[arg-type]


@settings(max_examples=200)
@given(rects, st.sampled_from(["right", "left"]))
def test_turning_on_the_spot_keeps_the_footprint(r, turn):
    t = turn_on_the_spot(r, turn)
    assert t.polygon().symmetric_difference(r.polygon()).area <= 1e-6 * max(1.0, r.width * r.depth)


def test_rotate_point_is_counter_clockwise():
    assert rotate_point((1.0, 0.0), 90.0) == pytest.approx((0.0, 1.0))
    assert rotate_point((3.0, 2.0), 180.0, (2.0, 2.0)) == pytest.approx((1.0, 2.0))


def test_square_figures_leave_the_middle_open():
    """ToE 1.7: a square is 2 ranks, as square as possible, open in the middle."""
    sq = unit_rect((0, 0), 90, "square", 24, 2.0, 1.5)  # 5 x 5 cells of 2 x 2 cm, 24 on the ring
    ring = figures_outline(sq, "square", 24)
    assert ring.area == pytest.approx(96.0)
    assert len(ring.interiors) == 1  # the hollow
    assert ring.interiors[0].envelope.area == pytest.approx(4.0)  # one open cell in the middle
    assert ring.bounds == pytest.approx(sq.polygon().bounds, abs=1e-6)
    assert figures_outline(sq, "square", 0).is_empty


@given(
    st.sampled_from(["line", "column", "march_column", "square", "skirmish", "limbered", "unlimbered", "none"]), rects
)
def test_zero_figures_in_any_formation_is_a_token(formation, r):
    token = unit_rect(r.front, r.facing, formation, 0, 2.0, 1.5)
    assert (token.width, token.depth) == (1.0, 1.0) and token.front == r.front
    assert figure_cells(token, formation, 0) == [] and formation_problem(formation, 0) is None
    assert token.polygon().is_valid and token.polygon().area == pytest.approx(1.0)
