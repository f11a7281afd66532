"""Scenario set-up in the window: draw a deployment zone, place objectives (a point, and a
town's outline by clicking in it), make a formation a reinforcement entering at a table edge —
each one undo step, drawn on the map, edited in Properties, listed in the Layers dock and
saved."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QSpinBox

from battlestudio import store
from battlestudio.validate import find_problems
from tests.ui.window_helpers import ELCHINGEN, ModalRecorder, make_window, mouse, px


def click(view, p):
    at = px(view, p)
    mouse(view, "press", at)
    mouse(view, "release", at)


def test_zone_objective_and_reinforcement_tools(qtbot, tmp_path, monkeypatch):
    ModalRecorder(monkeypatch)
    work = tmp_path / "elchingen.battle.json"
    store.save(store.load(ELCHINGEN), work)
    w = make_window(qtbot, tmp_path)
    w.resize(1400, 1000)
    assert w.files.open_path(work)
    view, doc = w.map_view, w.document
    s = doc.scenario
    view.fit_table()
    scene = view.map_scene
    # the file's own deployment zones are drawn, in their side's colour
    assert set(scene.items_by_kind["deployment_zones"]) == {"dz-austrian", "dz-french"}

    # 1. a deployment zone for the selected troops' side (the Austrians)
    doc.set_selection({"austrian-1st-div"})
    w.actions.tools["zone"].trigger()
    view.setFocus()
    steps = doc.undo_count
    for p in [(150.0, 160.0), (200.0, 160.0), (200.0, 175.0), (150.0, 175.0)]:
        click(view, p)
    qtbot.keyClick(view, Qt.Key.Key_Return)
    (zid,) = set(s.deployment_zones) - {"dz-austrian", "dz-french"}
    zone = s.deployment_zones[zid]
    assert zone.side == "austrian" and abs(zone.polygon.area - 50 * 15) < 20
    assert doc.undo_count == steps + 1 and doc.selection == {zid}
    assert scene.items_by_kind["deployment_zones"][zid].isSelected()
    assert "deployment zone" in w.properties_panel.header.text()

    # 2. an objective: in open ground a point, inside Thalfingen the town's outline and name
    w.actions.tools["objective"].trigger()
    click(view, (60.0, 120.0))
    click(view, (17.0, 65.0))
    new = [o for o in s.objectives.values() if o.id not in store.load(ELCHINGEN).scenario.objectives]
    assert [o.geometry.geom_type for o in new] == ["Point", "Polygon"]
    assert new[1].name == "Thalfingen" and new[1].geometry.equals(s.towns["thalfingen"].polygon)
    assert new[0].value == 1 and new[0].side == ""

    # 3. a reinforcement: with nothing suitable selected the tool says what to do
    w.actions.tools["reinforcement"].trigger()
    doc.set_selection(set())
    before = dict(s.reinforcements)
    click(view, (120.0, 176.0))
    assert s.reinforcements == before and "Select the arriving formation" in w.hint_label.text()
    doc.set_selection({"austrian-2nd-div"})
    click(view, (120.0, 176.0))  # 4 cm inside the northern edge: it enters on the edge
    (rid,) = set(s.reinforcements) - set(before)
    rein = s.reinforcements[rid]
    assert rein.formation == "austrian-2nd-div" and rein.side == "austrian"
    assert rein.entry_point == (120.0, 180.0) and (rein.earliest_turn, rein.latest_turn) == (1, s.info.turns)
    item = scene.items_by_kind["reinforcements"][rid]
    assert item.text == f"von Hessen-Homburg: turns 1–{s.info.turns}"

    # the window is narrowed in Properties: the marker's label follows
    texts = {getattr(label, "text", "") for _rect, label in view.placed_labels()}
    assert f"von Hessen-Homburg: turns 1–{s.info.turns}" in texts
    eds = w.properties_panel.editors["reinforcements"]
    earliest: QSpinBox = eds["earliest_turn"].widget
    earliest.setValue(6)
    eds["latest_turn"].widget.setValue(9)
    eds["probability"].widget.setValue(0.5)
    assert (s.reinforcements[rid].earliest_turn, s.reinforcements[rid].latest_turn) == (6, 9)
    assert scene.items_by_kind["reinforcements"][rid].text == "von Hessen-Homburg: turns 6–9, 50 %"
    texts = {getattr(label, "text", "") for _rect, label in view.placed_labels()}
    assert "von Hessen-Homburg: turns 6–9, 50 %" in texts  # the map's placed labels follow the edit
    assert f"von Hessen-Homburg: turns 1–{s.info.turns}" not in texts
    assert not [p for p in find_problems(s) if p.check.startswith("reinforcement")]

    # the Layers dock lists and hides them
    layers = w.layers_panel
    layers.item("reinforcements").setCheckState(0, Qt.CheckState.Unchecked)
    assert not scene.items_by_kind["reinforcements"][rid].isVisible()
    assert layers.item("deployment_zones").text(0) == "Deployment zones"

    # undo takes each back as one step; save and reopen keeps them
    QApplication.processEvents()
    assert w.files.save()
    again = store.load(work).scenario
    assert zid in again.deployment_zones and rid in again.reinforcements and len(again.objectives) == len(s.objectives)


def test_places_dock_lists_the_ground_and_the_set_up(qtbot, tmp_path, monkeypatch):
    ModalRecorder(monkeypatch)
    w = make_window(qtbot, tmp_path)
    assert w.files.open_path(ELCHINGEN)
    s, panel = w.document.scenario, w.places_panel
    groups = {
        panel.list.topLevelItem(k).text(0): panel.list.topLevelItem(k) for k in range(panel.list.topLevelItemCount())
    }
    assert groups["Terrain"].childCount() == len(s.terrain) and groups["Town zones"].childCount() == len(s.towns)
    assert groups["Deployment zones"].childCount() == 2
    row = panel.row("dz-french")
    assert row.text(0) == "South bank of the Danube" and row.text(1) == s.sides["french"].name
    assert panel.row("thalfingen").text(1).startswith("capacity ")

    # a click selects (terrain under units cannot be clicked on the map), a double click centres
    w.docks["places"].show()
    w.docks["places"].raise_()
    qtbot.waitExposed(panel.list)
    # the columns fit their text (a tester found both cut at 180 px): every name and detail shown whole
    metrics = panel.list.fontMetrics()
    rows = [
        panel.list.topLevelItem(k).child(j)
        for k in range(panel.list.topLevelItemCount())
        for j in range(panel.list.topLevelItem(k).childCount())
    ]
    widest = max(metrics.horizontalAdvance(r.text(1)) for r in rows)
    assert panel.list.columnWidth(1) >= widest
    assert panel.list.columnWidth(0) >= min(
        max(metrics.horizontalAdvance(r.text(0)) for r in rows), panel.list.viewport().width() * 2 // 3
    )
    panel.list.scrollToItem(panel.row("thalfingen"))
    qtbot.waitExposed(panel.list)
    rect = panel.list.visualItemRect(panel.row("thalfingen"))
    qtbot.mouseClick(panel.list.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, rect.center())
    assert w.document.selection == {"thalfingen"}
    centred = []
    panel.centre_requested.connect(centred.append)
    qtbot.mouseDClick(panel.list.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, rect.center())
    assert centred == ["thalfingen"]

    # it follows edits, and filters ignoring case and accents
    qtbot.keyClicks(panel.filter, "THALF")
    visible = [
        panel.list.topLevelItem(k).child(j).text(0)
        for k in range(panel.list.topLevelItemCount())
        for j in range(panel.list.topLevelItem(k).childCount())
        if not panel.list.topLevelItem(k).child(j).isHidden()
    ]
    assert visible and all("Thalfingen" in v for v in visible)
