"""Edit ▸ Georeference… and the Properties dock's Georeference row: typed, or from two table
points picked on the map and the places they stand for; one undo step; the saved file shows it
in ``battlestudio info``. File ▸ Export GeoJSON… writes the troops where the window shows them."""

from __future__ import annotations

import json

import pytest
from shapely.geometry import shape

from battlestudio.cli import main
from battlestudio.model.georef import Georeference, to_lonlat
from battlestudio.ui.georef_dialog import GeorefDialog
from tests.ui.conftest import Mouse
from tests.ui.window_helpers import ELCHINGEN, ModalRecorder, make_window

JENA = ELCHINGEN.parent / "jena-1806.battle.json"
TRUTH = Georeference(10.0893, 48.4653, 75.0)  # Elchingen's table, its +x axis 15° north of east


@pytest.fixture
def modals(monkeypatch) -> ModalRecorder:
    return ModalRecorder(monkeypatch)


@pytest.fixture
def window(qtbot, tmp_path, modals):
    w = make_window(qtbot, tmp_path)
    w.resize(1400, 900)
    assert w.files.open_path(ELCHINGEN)
    return w


def _open(window, qtbot) -> GeorefDialog:
    window.actions["georeference"].trigger()
    dialog = window.findChild(GeorefDialog)
    assert dialog is not None
    qtbot.waitExposed(dialog)
    return dialog


def test_typed_georeference_is_one_undo_step_and_info_shows_it_after_save(window, qtbot, tmp_path, capsys):
    doc = window.document
    field = window.properties_panel.editors["info"]["georef"]
    assert field.label.text() == "not georeferenced"
    dialog = _open(window, qtbot)
    dialog.lon.setValue(10.0893)
    dialog.lat.setValue(48.4653)
    dialog.bearing.setValue(75.0)
    dialog.buttons.accepted.emit()  # OK
    assert not dialog.isVisible()
    assert doc.scenario.info.georef == TRUTH
    assert doc.undo_text == "Set georeference"
    assert field.label.text() == "10.0893° E 48.4653° N, +x at 75.0°"
    window.actions["undo"].trigger()
    assert doc.scenario.info.georef is None and not doc.can_undo
    assert field.label.text() == "not georeferenced"
    window.actions["redo"].trigger()
    assert doc.scenario.info.georef == TRUTH
    path = tmp_path / "placed.battle"
    assert window.files.save_to(path)
    capsys.readouterr()
    assert main(["info", str(path)]) == 0
    assert "georeference: origin 10.0893 E 48.4653 N, +x bearing 75.0 deg" in capsys.readouterr().out


def test_two_points_picked_on_the_map_place_the_table(window, qtbot):
    doc = window.document
    scale = doc.scenario.info.ground_scale
    field = window.properties_panel.editors["info"]["georef"]
    field.button.click()  # the Properties dock's row opens the dialog too
    dialog = field.dialog
    qtbot.waitExposed(dialog)
    mouse = Mouse(qtbot, window.map_view)
    picked = []
    for i, table_point in enumerate([(40.0, 30.0), (200.0, 150.0)]):
        dialog.pick_buttons[i].click()
        assert not dialog.isVisible() and window.map_view.tool.name == "pick"
        mouse.click(mouse.px(table_point))
        assert dialog.isVisible() and window.map_view.tool.name != "pick"
        p = dialog.points[i]
        picked.append((p["x"].value(), p["y"].value()))
        assert picked[-1] == pytest.approx(table_point, abs=0.5)
        lon, lat = to_lonlat(TRUTH, scale, [picked[-1]])[0]
        p["lon"].setValue(lon)
        p["lat"].setValue(lat)
    g = dialog.place_from_points()
    assert dialog.ratio == pytest.approx(1.0, abs=1e-5)  # the spin boxes keep 7 decimals: about 1 cm
    assert (g.lon, g.lat) == pytest.approx((TRUTH.lon, TRUTH.lat), abs=1e-7)
    assert g.bearing == pytest.approx(TRUTH.bearing, abs=1e-4)
    assert (dialog.lon.value(), dialog.lat.value()) == pytest.approx((TRUTH.lon, TRUTH.lat), abs=1e-7)
    assert "Scale ratio 1.000" in dialog.message.text() and "Warning" not in dialog.message.text()
    dialog.buttons.accepted.emit()
    placed = doc.scenario.info.georef
    assert placed is not None and placed.bearing == pytest.approx(75.0, abs=1e-3)  # the spin box's 3 decimals
    assert doc.undo_text == "Set georeference" and doc.undo_count == 1
    doc.undo()
    assert doc.scenario.info.georef is None


def test_places_too_far_apart_for_the_ground_scale_are_warned_of(window, qtbot):
    dialog = _open(window, qtbot)
    scale = window.document.scenario.info.ground_scale
    dialog.set_point(0, (0.0, 0.0), (10.0, 48.0))
    far = to_lonlat(Georeference(10.0, 48.0, 90.0), scale * 1.06, [(100.0, 0.0)])[0]  # 6 % farther
    dialog.set_point(1, (100.0, 0.0), (far[0], far[1]))
    dialog.place_button.click()
    assert dialog.ratio == pytest.approx(1.06, abs=1e-3)
    assert "Warning: the places are 6.0% farther apart" in dialog.message.text()
    assert "b00000" in dialog.message.styleSheet()
    dialog.set_point(1, (0.0, 0.0))  # the same table point twice: refused, saying why
    assert dialog.place_from_points() is None
    assert "the same point" in dialog.message.text()


def test_not_georeferenced_removes_it(window, qtbot):
    doc = window.document
    dialog = _open(window, qtbot)
    dialog.buttons.accepted.emit()
    assert doc.scenario.info.georef == Georeference(0.0, 0.0, 90.0)
    dialog = _open(window, qtbot)
    assert (dialog.lon.value(), dialog.bearing.value()) == (0.0, 90.0)
    dialog.clear_button.click()
    assert doc.scenario.info.georef is None and doc.undo_text == "Remove georeference"


def test_export_geojson_from_the_editor_and_at_the_replay_cursor(window, qtbot, modals, tmp_path):
    out = tmp_path / "elchingen.geojson"
    modals.save_name = str(tmp_path / "elchingen")  # the suffix is added
    window.actions["export_geojson"].trigger()
    data = json.loads(out.read_text(encoding="utf-8"))
    s = window.document.scenario
    units = [f for f in data["features"] if f["properties"]["kind"] == "unit"]
    assert len(units) == len(s.units) and "crs" in data and data["battlestudio"]["position"] == 0
    assert all(shape(f["geometry"]).is_valid for f in data["features"])

    assert window.files.open_path(JENA, ask=False)
    play = window.document
    play.timeline.seek(len(play.log) // 2)
    modals.save_name = str(tmp_path / "jena.geojson")
    window.actions["export_geojson"].trigger()
    data = json.loads((tmp_path / "jena.geojson").read_text(encoding="utf-8"))
    state = play.log.state_at(play.timeline.position)
    units = {f["id"]: f for f in data["features"] if f["properties"]["kind"] == "unit"}
    assert data["battlestudio"]["position"] == play.timeline.position > 0
    assert set(units) == {u for u in state.units if u not in state.off_table}
    some = next(iter(units))
    assert shape(units[some]["geometry"]).equals(state.units[some].footprint())

    modals.save_name = str(tmp_path / "no" / "such" / "x.geojson")
    window.actions["export_geojson"].trigger()
    ((kind, title, text),) = modals.of("critical")
    assert title == "Could not export GeoJSON" and "does not exist" in text
    assert not (tmp_path / "no").exists()


def test_a_latitude_typed_out_of_range_is_refused_by_name_not_clamped(window, qtbot):
    from PySide6.QtCore import Qt

    dialog = _open(window, qtbot)
    dialog.lat.setFocus()
    dialog.lat.selectAll()
    qtbot.keyClicks(dialog.lat, "95")
    qtbot.keyClick(dialog.lat, Qt.Key.Key_Return)  # the value is read, and Return is the dialog's OK
    assert dialog.lat.value() == 95.0  # what was typed, not 9.0
    assert dialog.isVisible() and window.document.scenario.info.georef is None
    assert "georef.lat: 95.0 is not a latitude in -90..90 degrees" in dialog.message.text()


def test_the_dialog_is_read_only_while_a_game_is_shown(window, qtbot):
    assert window.files.open_path(JENA, ask=False)
    dialog = _open(window, qtbot)
    assert not dialog.lat.isEnabled() and not dialog.lon.isEnabled() and not dialog.points[0]["x"].isEnabled()
    assert not dialog.buttons.button(dialog.buttons.StandardButton.Ok).isEnabled()
    assert "Back to Scenario Editor" in dialog.message.text()
