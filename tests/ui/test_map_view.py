"""The map mirrors the document: items by id, footprints, selection, layers, zoom, labels, drops."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt
from PySide6.QtGui import QColor, QDragEnterEvent, QDragMoveEvent, QDropEvent, QWheelEvent
from PySide6.QtWidgets import QApplication

from battlestudio.edits import MoveRecords, PutRecords, RemoveRecords
from battlestudio.model import Arm, Formation, Unit
from battlestudio.ui.coords import geometry_path, scene_to_table, table_to_scene
from battlestudio.ui.items import CommanderItem, TerrainItem, TownItem, UnitItem
from battlestudio.ui.map_view import FIT_MARGIN_PX, MIME_IDS


def test_coords_flip_y_and_round_trip():
    assert table_to_scene(10.0, 20.0) == QPointF(10.0, -20.0)
    for p in [(0.0, 0.0), (240.0, 180.0), (12.5, -3.25)]:
        assert scene_to_table(table_to_scene(*p)) == pytest.approx(p)


def test_far_table_edge_is_at_the_top_of_the_screen(view, mouse):
    near, far = mouse.px((120.0, 10.0)), mouse.px((120.0, 170.0))
    assert far.y() < near.y()
    assert mouse.px((200.0, 90.0)).x() > mouse.px((40.0, 90.0)).x()


def test_every_record_has_an_item(view, scenario):
    scene = view.map_scene
    for kind in ("units", "commanders", "terrain", "towns", "objectives"):
        assert set(scene.items_by_kind[kind]) == set(getattr(scenario, kind)), kind
    assert isinstance(scene.item_for("u-ir15"), UnitItem)
    assert isinstance(scene.item_for("c-ney"), CommanderItem)
    assert isinstance(scene.item_for("t-danube"), TerrainItem)
    assert isinstance(scene.item_for("town-ober"), TownItem)


@pytest.mark.parametrize("uid", ["u-ir15", "u-69ligne", "u-loison-bty", "u-blank6"])
def test_unit_item_is_its_true_footprint(view, scenario, uid):
    item = view.map_scene.item_for(uid)
    poly = item.shape().toFillPolygon()
    corners = sorted(scene_to_table(item.mapToScene(p)) for p in list(poly)[:4])
    expected = sorted(scenario.units[uid].rect().corners())
    for got, want in zip(corners, expected, strict=True):
        assert got == pytest.approx(want, abs=1e-6)


def test_terrain_path_follows_the_geometry(scenario):
    wood = scenario.terrain["t-wood-haslach"].geometry
    path = geometry_path(wood)
    assert path.boundingRect().width() == pytest.approx(wood.bounds[2] - wood.bounds[0])
    inside = wood.representative_point()
    assert path.contains(table_to_scene(inside.x, inside.y))


def test_edits_create_sync_and_remove_only_touched_items(view, document, scenario, monkeypatch):
    synced = []
    original = UnitItem.sync
    monkeypatch.setattr(UnitItem, "sync", lambda self, rec: (synced.append(self.id), original(self, rec)))
    item = view.map_scene.item_for("u-ir15")
    document.push(MoveRecords("units", {"u-ir15": (60.0, 100.0)}, text="Move IR 15"))
    assert synced == ["u-ir15"]
    assert view.map_scene.item_for("u-ir15") is item
    assert scene_to_table(item.pos()) == pytest.approx(scenario.units["u-ir15"].rect().centre)

    new = Unit("u-new", "Fresh battalion", "french", "France", figures=8, position=(30.0, 60.0))
    document.push(PutRecords("units", {"u-new": new}, "Add unit"))
    assert isinstance(view.map_scene.item_for("u-new"), UnitItem)
    document.undo()
    assert view.map_scene.item_for("u-new") is None
    document.push(RemoveRecords("units", ["u-ir8"], "Delete IR 8"))
    assert view.map_scene.item_for("u-ir8") is None
    document.undo()
    assert view.map_scene.item_for("u-ir8") is not None
    assert synced.count("u-ir15") == 1


def test_show_state_reconciles_from_any_mapping(view, scenario, monkeypatch):
    units = dict(scenario.units)
    units["u-ir15"] = units["u-ir15"].moved((50.0, 60.0), 0.0)
    del units["u-ir8"]
    synced = []
    original = UnitItem.sync
    monkeypatch.setattr(UnitItem, "sync", lambda self, rec: (synced.append(self.id), original(self, rec)))
    view.show_state(units, scenario.commanders)
    arrays = view.map_scene.unit_arrays
    # a replay step writes the unit's row and leaves its item until it is read
    assert synced == []
    assert "u-ir8" not in arrays.row
    row = arrays.centre[arrays.row["u-ir15"]]
    assert scene_to_table(QPointF(*row)) == pytest.approx(units["u-ir15"].rect().centre)
    assert view.map_scene.item_for("u-ir8") is None
    centre = view.map_scene.item_for("u-ir15").pos()
    assert synced == ["u-ir15"]  # untouched records are the same objects: not synced again
    assert scene_to_table(centre) == pytest.approx(units["u-ir15"].rect().centre)


def test_selection_follows_the_document_both_ways(view, document, mouse):
    document.set_selection({"u-ir15", "c-ney"})
    assert view.map_scene.item_for("u-ir15").isSelected()
    assert view.map_scene.item_for("c-ney").isSelected()
    assert not view.map_scene.item_for("u-ir8").isSelected()
    mouse.click(mouse.px(document.scenario.units["u-ir8"].rect().centre))
    assert document.selection == {"u-ir8"}
    assert not view.map_scene.item_for("u-ir15").isSelected()


def test_layers_hide_units_per_side_terrain_kinds_labels_and_grid(view, scenario):
    names = view.layer_names()
    for name in (
        "terrain:woods",
        "terrain:hill",
        "towns",
        "units:french",
        "units:austrian",
        "commanders",
        "labels",
        "grid",
    ):
        assert name in names
    view.set_layer_visible("units:austrian", False)
    assert not view.map_scene.item_for("u-ir15").isVisible()
    assert view.map_scene.item_for("u-6leger").isVisible()
    view.set_layer_visible("terrain:woods", False)
    assert not view.map_scene.item_for("t-wood-haslach").isVisible()
    assert view.map_scene.item_for("t-hill-1").isVisible()
    view.set_layer_visible("units:austrian", True)
    assert view.map_scene.item_for("u-ir15").isVisible()
    assert view.placed_labels()
    view.set_layer_visible("labels", False)
    assert view.placed_labels() == []
    view.set_layer_visible("grid", False)
    assert not view.map_scene.grid_visible


def test_labels_never_overlap_and_narrow_units_get_theirs_only_when_zoomed_in(view):
    view.fit_table()
    placed = view.placed_labels()
    rects = [r for r, _ in placed]
    for i, a in enumerate(rects):
        for b in rects[i + 1 :]:
            assert not a.intersects(b)
    texts = {label.text for _, label in placed}
    assert "Oberelchingen" in texts  # towns first
    view.set_zoom(2.0)
    assert "Schwarzenberg Uhlans" not in {label.text for _, label in view.placed_labels()}
    view.set_zoom(20.0)
    view.centre_on_table(view.document.scenario.units["u-schwarz2"].position)
    assert "Schwarzenberg Uhlans" in {label.text for _, label in view.placed_labels()}


def test_wheel_zooms_about_the_cursor(view, mouse):
    view.set_zoom(6.0)
    view.centre_on_table((120.0, 90.0))
    at = mouse.px((100.0, 80.0))
    before = view.table_pos(at)
    ev = QWheelEvent(
        QPointF(at),
        QPointF(view.viewport().mapToGlobal(at)),
        QPoint(0, 0),
        QPoint(0, 120),
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    zooms = []
    view.zoom_changed.connect(zooms.append)
    QApplication.sendEvent(view.viewport(), ev)
    assert view.zoom() == pytest.approx(6.0 * 1.2)
    assert zooms == [pytest.approx(7.2)]
    assert view.table_pos(at) == pytest.approx(before, abs=0.3)


def test_middle_drag_and_space_drag_pan(view, mouse, qtbot):
    view.set_zoom(8.0)
    view.centre_on_table((120.0, 90.0))
    start = QPoint(600, 450)
    before = view.table_pos(start)
    mouse.drag(start, QPoint(500, 400), button=Qt.MouseButton.MiddleButton)
    after = view.table_pos(start)
    assert after[0] - before[0] == pytest.approx(100 / 8.0, abs=0.3)  # content moved left: we see further east
    assert after[1] - before[1] == pytest.approx(-50 / 8.0, abs=0.3)  # content moved up: we see further south
    qtbot.keyPress(view, Qt.Key.Key_Space)
    mouse.drag(start, QPoint(560, 450))
    qtbot.keyRelease(view, Qt.Key.Key_Space)
    assert view.table_pos(start)[0] - after[0] == pytest.approx(40 / 8.0, abs=0.3)
    assert view.document.undo_count == 0  # panning is no edit


def test_cursor_moved_reports_table_cm(view, mouse):
    got = []
    view.cursor_moved.connect(lambda x, y: got.append((x, y)))
    at = mouse.px((33.0, 44.0))
    mouse.move(at)
    assert got[-1] == pytest.approx((33.0, 44.0), abs=1.0 / view.zoom() + 1e-6)


def test_fit_table_shows_the_whole_table(view, mouse):
    view.set_zoom(30.0)
    view.fit_table()
    rect = view.viewport().rect()
    for corner in [(0.0, 0.0), (240.0, 180.0), (0.0, 180.0), (240.0, 0.0)]:
        assert rect.contains(mouse.px(corner))


def _table_in_view(view, mouse) -> tuple[bool, float]:
    """Whether the whole table is in the viewport, and the share of the viewport less the fit's
    margins it fills along its tighter dimension (1.0 = touching both margins)."""
    rect = view.viewport().rect()
    inside = all(rect.contains(mouse.px(c)) for c in [(0.0, 0.0), (240.0, 180.0), (0.0, 180.0), (240.0, 0.0)])
    w, h = mouse.px((240.0, 0.0)).x() - mouse.px((0.0, 0.0)).x(), mouse.px((0.0, 0.0)).y() - mouse.px((0.0, 180.0)).y()
    m = 2 * min(FIT_MARGIN_PX, rect.width() / 8.0, rect.height() / 8.0)
    return inside, max(w / (rect.width() - m), h / (rect.height() - m))


def test_fit_is_kept_when_the_view_is_resized_until_the_user_zooms(view, mouse, qtbot):
    view.resize(500, 300)  # a window shown after the file was opened: the viewport gets its size late
    qtbot.waitUntil(lambda: view.viewport().width() < 500)
    inside, share = _table_in_view(view, mouse)
    assert inside and share > 0.9
    view.resize(1400, 1000)
    qtbot.waitUntil(lambda: view.viewport().width() > 1300)
    inside, share = _table_in_view(view, mouse)
    assert inside and share > 0.9
    view.zoom_by(2.0)  # the user's own zoom is kept from now on
    zoom = view.zoom()
    view.resize(900, 700)
    qtbot.waitUntil(lambda: view.viewport().width() < 900)
    assert view.zoom() == zoom and not _table_in_view(view, mouse)[0]


def test_render_shows_nation_colours_on_unit_footprints(view, document):
    view.set_zoom(8.0)
    view.centre_on_table((120.0, 110.0))
    image = view.viewport().grab().toImage()
    for uid, nation_rgb in [("u-ir15", QColor("#e8e4d8")), ("u-ir42", QColor("#e8e4d8"))]:
        u = document.scenario.units[uid]
        # a point inside the footprint away from glyph lines: a quarter of the way along the front
        fl, fr, rr, rl = u.rect().corners()
        p = (0.5 * fl[0] + 0.25 * rr[0] + 0.25 * fr[0], 0.5 * fl[1] + 0.25 * rr[1] + 0.25 * fr[1])
        p = (p[0] * 0.8 + u.rect().centre[0] * 0.2, p[1] * 0.8 + u.rect().centre[1] * 0.2)
        px = view.mapFromScene(table_to_scene(*p))
        c = image.pixelColor(px)
        assert abs(c.red() - nation_rgb.red()) < 25 and abs(c.blue() - nation_rgb.blue()) < 25, (uid, c.name())


def test_dropping_ids_from_the_tree_places_units_in_one_undo_step(view, document, mouse, monkeypatch):
    s = document.scenario
    s.units["u-ir8"] = replace(s.units["u-ir8"], formation=Formation.COLUMN, facing=0.0)
    before = document.undo_count
    mime = QMimeData()
    mime.setData(MIME_IDS, b"u-ir8\nu-blank6\nc-mecsery\n")
    at = mouse.px((60.0, 60.0))
    args = (Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    text = QMimeData()
    text.setText("u-ir8")
    refused = QDragEnterEvent(
        at, Qt.DropAction.CopyAction, text, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    )
    QApplication.sendEvent(view.viewport(), refused)
    assert not refused.isAccepted()
    enter = QDragEnterEvent(at, *args)
    QApplication.sendEvent(view.viewport(), enter)
    assert enter.isAccepted()
    QApplication.sendEvent(view.viewport(), QDragMoveEvent(at, *args))
    QApplication.sendEvent(view.viewport(), QDropEvent(QPointF(at), *args))
    assert document.undo_count == before + 1
    ir8, blank = s.units["u-ir8"], s.units["u-blank6"]
    # no deployment zones here: the Austrians face the French units' centre, to the nearest 15°
    french = [u.position for u in s.units.values() if u.side == "french"]
    cx, cy = sum(p[0] for p in french) / len(french), sum(p[1] for p in french) / len(french)
    towards = round(math.degrees(math.atan2(cy - 60.0, cx - 60.0)) / 15.0) * 15.0 % 360.0
    assert towards == 330.0  # south-east, where the French stand; not north up the table
    assert ir8.formation == Formation.LINE and ir8.facing == towards
    assert blank.facing == towards
    fx, fy = math.cos(math.radians(towards)), math.sin(math.radians(towards))
    corners = [*ir8.footprint().exterior.coords, *blank.footprint().exterior.coords]
    along = [(x - 60.0) * fy - (y - 60.0) * fx for x, y in corners]  # along the unit's right
    gap = (ir8.position[0] - blank.position[0], ir8.position[1] - blank.position[1])
    assert gap[0] * fx + gap[1] * fy == pytest.approx(0.0, abs=1e-6)  # one front line
    assert not ir8.footprint().intersects(blank.footprint())
    back = (60.0 - 6.0 * math.cos(math.radians(towards)), 60.0 - 6.0 * math.sin(math.radians(towards)))
    assert math.dist(s.commanders["c-mecsery"].position, back) < 1.0
    assert (min(along) + max(along)) / 2 == pytest.approx(0.0, abs=1.0 / view.zoom() + 1e-6)  # centred on the drop
    assert document.selection == {"u-ir8", "u-blank6", "c-mecsery"}
    assert document.undo_text.startswith("Place 3")
    document.undo()
    assert s.units["u-ir8"].formation == Formation.COLUMN


def test_placing_artillery_unlimbers_it(document):
    from battlestudio.ui.tools.place import place_records

    s = document.scenario
    s.units["u-pos-bty"] = replace(s.units["u-pos-bty"], formation=Formation.LIMBERED)
    place_records(document, ["u-pos-bty"], (100.0, 150.0))
    bty = s.units["u-pos-bty"]
    assert bty.arm == Arm.ARTILLERY and bty.formation == Formation.UNLIMBERED
    assert bty.facing == 285.0  # towards the French units' centre (130, 30), to the nearest 15°
    assert bty.position == pytest.approx((100.0, 150.0))
