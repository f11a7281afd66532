"""The map tools driven by real mouse and key events: every gesture becomes undoable edits."""

from __future__ import annotations

import copy
import math

import pytest
from PySide6.QtCore import QPoint, Qt

from battlestudio.model.terrain import TerrainKind
from battlestudio.ui.tools import make_tool, tool_names
from battlestudio.ui.tools.rotate import HANDLE_PX

SHIFT = Qt.KeyboardModifier.ShiftModifier


def snapshot(scenario):
    """Everything an edit may change, as comparable values."""
    return (
        dict(scenario.units),
        dict(scenario.commanders),
        dict(scenario.terrain),
        dict(scenario.towns),
        dict(scenario.objectives),
        set(scenario.oob.graph.edges),
    )


def zoom_on(view, point, zoom=8.0):
    view.set_zoom(zoom)
    view.centre_on_table(point)


def test_every_tool_name_builds_a_tool_with_a_hint():
    names = tool_names()
    assert {"select", "rotate", "vertices", "town", "measure", "delete"} <= set(names)
    for kind in TerrainKind:
        assert f"draw:{kind.value}" in names
    for name in names:
        tool = make_tool(name)
        assert tool.name == name and tool.hint
    with pytest.raises(ValueError, match="unknown tool"):
        make_tool("lasso")
    with pytest.raises(ValueError, match="terrain kind"):
        make_tool("draw:lava")


def test_draw_a_wood_polygon_with_clicks_and_enter(view, document, mouse):
    zoom_on(view, (60.0, 80.0))
    view.set_tool(make_tool("draw:woods"))
    hints = []
    view.hint_changed.connect(hints.append)
    corners = [(50.0, 70.0), (70.0, 70.0), (72.0, 88.0), (52.0, 90.0)]
    for c in corners:
        mouse.click(mouse.px(c))
    assert document.undo_count == 0  # nothing is pushed while drawing
    assert "4 points" in hints[-1]
    mouse.key(Qt.Key.Key_Return)
    assert document.undo_text == "Draw wood"
    (fid,) = document.selection
    wood = document.scenario.terrain[fid]
    assert wood.kind == TerrainKind.WOODS
    drawn = list(wood.geometry.exterior.coords)[:-1]
    tol = 1.0 / view.zoom() + 1e-6
    for got, want in zip(drawn, corners, strict=True):
        assert got == pytest.approx(want, abs=tol)
    assert view.map_scene.item_for(fid) is not None
    document.undo()
    assert fid not in document.scenario.terrain and view.map_scene.item_for(fid) is None


def test_draw_a_river_finishes_on_double_click_and_backspace_removes_a_point(view, document, mouse):
    zoom_on(view, (120.0, 90.0), 4.0)
    view.set_tool(make_tool("draw:river"))
    for p in [(100.0, 60.0), (120.0, 70.0), (140.0, 65.0)]:
        mouse.click(mouse.px(p))
    mouse.key(Qt.Key.Key_Backspace)
    mouse.double_click(mouse.px((150.0, 80.0)))
    fid = next(iter(document.selection))
    river = document.scenario.terrain[fid]
    assert river.kind == TerrainKind.RIVER and river.geometry.geom_type == "LineString"
    assert len(river.geometry.coords) == 3  # 140,65 was taken back; the double click added 150,80
    assert river.geometry.coords[-1] == pytest.approx((150.0, 80.0), abs=0.5)
    assert document.undo_text == "Draw river"


def test_escape_cancels_a_drawing_and_too_few_points_are_refused(view, document, mouse):
    zoom_on(view, (120.0, 90.0), 4.0)
    view.set_tool(make_tool("draw:marsh"))
    mouse.click(mouse.px((100.0, 60.0)))
    mouse.click(mouse.px((110.0, 60.0)))
    mouse.key(Qt.Key.Key_Return)
    assert document.undo_count == 0
    assert "at least 3" in view.tool.hint
    mouse.key(Qt.Key.Key_Escape)
    assert view.tool.vertices == []
    assert document.undo_count == 0


def test_drag_moves_a_unit_as_one_undo_step(view, document, mouse):
    s = document.scenario
    before = s.units["u-ir15"]
    zoom_on(view, before.rect().centre)
    start = mouse.px(before.rect().centre)
    mouse.drag(start, start + QPoint(80, 40), steps=8)
    after = s.units["u-ir15"]
    assert after.position[0] - before.position[0] == pytest.approx(10.0, abs=0.2)
    assert after.position[1] - before.position[1] == pytest.approx(-5.0, abs=0.2)
    assert after.facing == before.facing
    assert document.undo_count == 1 and document.undo_text == "Move IR 15 Riese"
    document.undo()
    assert s.units["u-ir15"] == before


def test_drag_moves_the_whole_selection_units_and_commanders(view, document, mouse):
    s = document.scenario
    zoom_on(view, (100.0, 120.0), 5.0)
    document.set_selection({"u-ir15", "u-ir8", "c-loudon"})
    originals = {i: s.record(i).position for i in document.selection}
    start = mouse.px(s.units["u-ir8"].rect().centre)
    mouse.drag(start, start + QPoint(50, 0), steps=5)
    for i, (x, y) in originals.items():
        assert s.record(i).position == pytest.approx((x + 10.0, y), abs=0.25)
    assert document.undo_count == 1 and document.undo_text == "Move 3 items"


def test_grid_snapping_puts_the_dragged_unit_on_the_grid(view, document, mouse):
    view.snap_to_grid = True
    zoom_on(view, (84.0, 112.0))
    start = mouse.px(document.scenario.units["u-ir8"].rect().centre)
    mouse.drag(start, start + QPoint(37, 11), steps=3)
    x, y = document.scenario.units["u-ir8"].position
    assert x % 5.0 == pytest.approx(0.0, abs=1e-6) and y % 5.0 == pytest.approx(0.0, abs=1e-6)


def test_rotate_with_the_handle_in_15_degree_steps(view, document, mouse):
    s = document.scenario
    unit = s.units["u-6leger"]
    zoom_on(view, unit.rect().centre, 8.0)
    document.set_selection({"u-6leger"})
    view.set_tool(make_tool("rotate"))
    handle = view.tool.handle_point()
    assert math.dist(handle, unit.position) == pytest.approx(HANDLE_PX / view.zoom(), rel=1e-6)
    centre = unit.rect().centre
    # drag the handle round to the left of the centre: about 150° (north-west-west), Shift snaps
    target = (centre[0] - 30.0 * math.cos(math.radians(28)), centre[1] + 30.0 * math.sin(math.radians(28)))
    mouse.drag(mouse.px(handle), mouse.px(target), steps=6, modifiers=SHIFT)
    turned = s.units["u-6leger"]
    assert turned.facing == pytest.approx(150.0)
    assert turned.rect().centre == pytest.approx(centre, abs=1e-6)  # wheeled about its centre
    assert document.undo_count == 1 and document.undo_text == "Rotate 6e Léger"
    mouse.key(Qt.Key.Key_BracketRight)
    assert s.units["u-6leger"].facing == pytest.approx(135.0)
    document.undo()
    document.undo()
    assert s.units["u-6leger"] == unit


def test_arrow_keys_nudge_the_selection(view, document, mouse):
    s = document.scenario
    document.set_selection({"u-ir42", "town-ober"})
    u0, t0 = s.units["u-ir42"].position, s.towns["town-ober"].polygon.bounds
    mouse.key(Qt.Key.Key_Up)
    mouse.key(Qt.Key.Key_Right, SHIFT)
    assert s.units["u-ir42"].position == pytest.approx((u0[0] + 10.0, u0[1] + 1.0))
    b = s.towns["town-ober"].polygon.bounds
    assert b == pytest.approx((t0[0] + 10.0, t0[1] + 1.0, t0[2] + 10.0, t0[3] + 1.0))
    assert document.undo_count == 2 and document.undo_text == "Nudge 2 items"


def test_rubber_band_selects_what_it_touches_and_shift_adds(view, document, mouse):
    s = document.scenario
    zoom_on(view, (100.0, 40.0), 5.0)
    # a band over Loison's two front regiments (6e Léger at x≈84, 39e at x≈104, y≈50), from empty ground
    a, b = mouse.px((70.0, 56.0)), mouse.px((108.0, 49.0))
    mouse.drag(a, b, steps=4)
    assert document.selection == {"u-6leger", "u-39ligne"}
    a, b = mouse.px((145.0, 47.0)), mouse.px((175.0, 41.0))
    mouse.drag(a, b, steps=4, modifiers=SHIFT)
    # the second band also crosses the Mühlbach between the two regiments: it is touched too
    assert document.selection == {"u-6leger", "u-39ligne", "u-25leger", "u-27ligne", "t-stream"}
    mouse.click(mouse.px((20.0, 110.0)))  # empty ground clears
    assert document.selection == frozenset()
    assert document.undo_count == 0
    assert s.units["u-6leger"].position == (84.0, 50.0)


def test_shift_click_toggles_and_escape_clears(view, document, mouse):
    s = document.scenario
    zoom_on(view, (100.0, 120.0), 5.0)
    mouse.click(mouse.px(s.units["u-ir8"].rect().centre))
    mouse.click(mouse.px(s.units["u-ir15"].rect().centre), modifiers=SHIFT)
    assert document.selection == {"u-ir8", "u-ir15"}
    mouse.click(mouse.px(s.units["u-ir8"].rect().centre), modifiers=SHIFT)
    assert document.selection == {"u-ir15"}
    mouse.key(Qt.Key.Key_Escape)
    assert document.selection == frozenset()


def test_measure_shows_table_cm_and_ground_metres(view, document, mouse):
    zoom_on(view, (120.0, 90.0), 4.0)
    view.set_tool(make_tool("measure"))
    hints = []
    view.hint_changed.connect(hints.append)
    a, b = mouse.px((100.0, 80.0)), mouse.px((130.0, 120.0))
    mouse.drag(a, b, steps=5)
    start, end, length = view.tool.last
    assert length == pytest.approx(50.0, abs=0.6)  # a 30-40-50 triangle
    assert hints[-1] == f"Distance {length:.1f} cm = {length * 30.0:.0f} m"
    assert document.undo_count == 0


def test_vertex_editing_moves_inserts_and_deletes(view, document, mouse):
    s = document.scenario
    wood0 = s.terrain["t-wood-w"]
    zoom_on(view, (20.0, 75.0), 8.0)
    view.set_tool(make_tool("vertices"))
    mouse.click(mouse.px((20.0, 75.0)))  # pick the wood
    assert document.selection == {"t-wood-w"}
    v0 = tuple(wood0.geometry.exterior.coords[0])
    mouse.drag(mouse.px(v0), mouse.px((v0[0] - 3.0, v0[1] - 4.0)), steps=4)
    moved = list(s.terrain["t-wood-w"].geometry.exterior.coords)
    assert moved[0] == pytest.approx((v0[0] - 3.0, v0[1] - 4.0), abs=0.2)
    assert len(moved) == len(wood0.geometry.exterior.coords)
    assert document.undo_count == 1
    # double-click the middle of the second edge to insert a vertex there
    a, b = moved[1], moved[2]
    mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    mouse.double_click(mouse.px(mid))
    inserted = list(s.terrain["t-wood-w"].geometry.exterior.coords)
    assert len(inserted) == len(moved) + 1
    assert inserted[2] == pytest.approx(mid, abs=0.2)
    # right-click the new vertex to delete it
    mouse.click(mouse.px(inserted[2]), button=Qt.MouseButton.RightButton)
    assert len(s.terrain["t-wood-w"].geometry.exterior.coords) == len(moved)
    for _ in range(3):
        document.undo()
    assert s.terrain["t-wood-w"] == wood0


def test_town_tool_adds_a_225_cm2_square_and_resizes_it(view, document, mouse):
    s = document.scenario
    zoom_on(view, (200.0, 60.0), 8.0)
    view.set_tool(make_tool("town"))
    mouse.click(mouse.px((200.0, 40.0)))
    (tid,) = document.selection
    town = s.towns[tid]
    assert town.area == pytest.approx(225.0)
    assert town.polygon.centroid.coords[0] == pytest.approx((200.0, 40.0), abs=0.2)
    x0, y0, x1, y1 = town.polygon.bounds
    mouse.drag(mouse.px((x1, y1)), mouse.px((x1 + 5.0, y1 + 3.0)), steps=4)
    resized = s.towns[tid].polygon
    assert resized.bounds == pytest.approx((x0, y0, x1 + 5.0, y1 + 3.0), abs=0.2)
    assert resized.area == pytest.approx(20.0 * 18.0, rel=0.03)  # still a rectangle
    assert document.undo_count == 2


def test_delete_tool_and_undo(view, document, mouse):
    s = document.scenario
    zoom_on(view, (120.0, 120.0), 5.0)
    view.set_tool(make_tool("delete"))
    mouse.click(mouse.px(s.units["u-ir15"].rect().centre))
    assert "u-ir15" not in s.units and "u-ir15" not in s.oob
    assert document.undo_text == "Delete IR 15 Riese"
    document.undo()
    assert "u-ir15" in s.units and s.oob.superior("u-ir15") == "c-loudon"


def test_a_session_of_gestures_undoes_to_an_identical_scenario_and_redoes(view, document, mouse):
    s = document.scenario
    original = copy.deepcopy(snapshot(s))
    zoom_on(view, (100.0, 60.0), 5.0)
    # draw a wood
    view.set_tool(make_tool("draw:woods"))
    for p in [(60.0, 62.0), (75.0, 60.0), (78.0, 75.0), (62.0, 78.0)]:
        mouse.click(mouse.px(p))
    mouse.key(Qt.Key.Key_Enter)
    # move a unit, rotate it, nudge it
    view.set_tool(make_tool("select"))
    start = mouse.px(s.units["u-39ligne"].rect().centre)
    mouse.drag(start, start + QPoint(-30, -25), steps=6)
    view.set_tool(make_tool("rotate"))
    mouse.key(Qt.Key.Key_BracketLeft)
    view.set_tool(make_tool("select"))
    mouse.key(Qt.Key.Key_Left)
    # measure (no edit), add a town, delete a hedge
    view.set_tool(make_tool("measure"))
    mouse.drag(mouse.px((90.0, 40.0)), mouse.px((110.0, 40.0)))
    view.set_tool(make_tool("town"))
    mouse.click(mouse.px((140.0, 75.0)))
    document.set_selection({"t-hedge-1"})
    from battlestudio.ui.tools import delete_selection

    assert delete_selection(document)
    final = snapshot(s)
    steps = document.undo_count
    assert steps == 6
    assert final != original
    while document.can_undo:
        document.undo()
    assert snapshot(s) == original
    for kind in ("units", "commanders", "terrain", "towns"):
        assert set(view.map_scene.items_by_kind[kind]) == set(getattr(s, kind))
    while document.can_redo:
        document.redo()
    assert snapshot(s) == final
