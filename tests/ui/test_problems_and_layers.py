"""The Problems dock (live validation, click selects the culprit) and the Layers dock
(check boxes hide and show the map's layers)."""

from __future__ import annotations

from PySide6.QtCore import Qt

from battlestudio.edits import MoveRecords, RemoveRecords
from battlestudio.ui.panels.layers_panel import LayersPanel
from battlestudio.ui.panels.problems_panel import ProblemsPanel


def test_problems_follow_edits_and_select_culprits(qtbot, document):
    panel = ProblemsPanel(document)
    qtbot.addWidget(panel)
    assert [p.check for p in panel.problems] == []
    document.push(MoveRecords("units", {"u-ir8": (250.0, 112.0)}, None, "Move off"))
    document.push(RemoveRecords("units", ["u-pos-bty"], "Delete"))
    with qtbot.waitSignal(panel.count_changed, timeout=2000) as blocker:
        pass
    assert blocker.args == [1, 1]
    codes = [(p.severity, p.check, p.subjects) for p in panel.problems]
    assert codes == [("error", "unit.off_table", ("u-ir8",)), ("warning", "commander.idle", ("c-ulm-art",))]
    assert panel.rows()[0].text(0) == (
        "units['u-ir8'].position: (250, 112) cm puts IR 8 Erzherzog "
        "Ludwig's footprint (x 238.0–262.0, y 112.0–115.0 cm) off the "
        "240 × 180 cm table"
    )
    assert panel.rows()[0].text(1) == "unit.off_table"
    panel.list.show()
    qtbot.waitExposed(panel.list)
    rect = panel.list.visualItemRect(panel.rows()[1])
    qtbot.mouseClick(panel.list.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, rect.center())
    assert document.selection == {"c-ulm-art"}
    document.undo()
    document.undo()
    assert panel.check() == [] and panel.summary.text() == "No problems found."


def test_layers_toggle_map_layers(qtbot, view, document):
    panel = LayersPanel(view.set_layer_visible)
    qtbot.addWidget(panel)
    panel.set_layers(view.layer_names(), {sid: s.name for sid, s in document.scenario.sides.items()})
    item = panel.item("units:austrian")
    assert item.text(0) == "Units: Austria" and item.checkState(0) == Qt.CheckState.Checked
    austrian = view.map_scene.item_for("u-ir8")
    french = view.map_scene.item_for("u-6leger")
    item.setCheckState(0, Qt.CheckState.Unchecked)
    assert not austrian.isVisible() and french.isVisible()
    assert not view.map_scene.is_layer_visible("units:austrian")
    woods = panel.item("terrain:woods")
    assert woods.parent().text(0) == "Terrain"
    woods.setCheckState(0, Qt.CheckState.Unchecked)
    assert not view.map_scene.item_for("t-wood-haslach").isVisible()
    # rebuilding the list (e.g. after a side was renamed) keeps what was hidden
    panel.set_layers(view.layer_names(), {"french": "France", "austrian": "Austria"})
    assert panel.item("units:austrian").checkState(0) == Qt.CheckState.Unchecked
    panel.item("units:austrian").setCheckState(0, Qt.CheckState.Checked)
    assert austrian.isVisible()


def test_a_flood_of_problems_is_listed_in_part_but_counted_in_full(qtbot, document, monkeypatch):
    from battlestudio.ui.panels import problems_panel

    monkeypatch.setattr(problems_panel, "MAX_LISTED", 3)
    # stack eight French brigades on one spot: every pair overlaps
    ids = ["u-6leger", "u-39ligne", "u-69ligne", "u-76ligne", "u-25leger", "u-27ligne", "u-50ligne", "u-59ligne"]
    document.push(MoveRecords("units", {i: (120.0, 60.0) for i in ids}, None, "Stack"))
    panel = ProblemsPanel(document)
    qtbot.addWidget(panel)
    overlaps = [p for p in panel.problems if p.check == "unit.overlap"]
    assert len(overlaps) == 8 * 7 // 2
    assert len(panel.rows()) == 3
    assert panel.summary.text().endswith("(the first 3 are listed)")


def test_problems_are_grouped_by_check_filtered_and_a_group_selects_all(qtbot, document):
    # 28 overlap warnings from eight stacked brigades, and one unit off the table (an error)
    ids = ["u-6leger", "u-39ligne", "u-69ligne", "u-76ligne", "u-25leger", "u-27ligne", "u-50ligne", "u-59ligne"]
    document.push(MoveRecords("units", {i: (120.0, 60.0) for i in ids}, None, "Stack"))
    document.push(MoveRecords("units", {"u-ir8": (250.0, 112.0)}, None, "Move off"))
    panel = ProblemsPanel(document)
    qtbot.addWidget(panel)
    panel.show()
    qtbot.waitExposed(panel)
    groups = [panel.list.topLevelItem(k) for k in range(panel.list.topLevelItemCount())]
    checks = [g.text(1) for g in groups]
    assert checks[0] == "unit.off_table"  # the group with an error comes first
    overlap = groups[checks.index("unit.overlap")]
    assert overlap.childCount() == 28 and overlap.text(0) == "Unit overlap: 28 problems"
    assert len(panel.rows()) == len(panel.problems)  # every problem is a row of some group

    # a click on the group selects the records of all its problems
    panel.list.scrollToItem(overlap)
    rect = panel.list.visualItemRect(overlap)
    qtbot.mouseClick(panel.list.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, rect.center())
    assert document.selection == set(ids)

    # only errors: the overlap group is hidden
    panel.severity.setCurrentText("Errors")
    assert overlap.isHidden() and not groups[0].isHidden()
    panel.severity.setCurrentText("All")
    # typed text filters by message, ignoring case and accents; the group says how many it shows
    qtbot.keyClicks(panel.filter, "6E LEGER")
    shown = [overlap.child(j) for j in range(overlap.childCount()) if not overlap.child(j).isHidden()]
    assert len(shown) == 7 and all("6e léger" in c.text(0).casefold() for c in shown)
    assert overlap.text(0) == "Unit overlap: 7 of 28 problems shown"
    assert groups[0].isHidden()  # the off-table problem does not name the 6e Léger
    panel.filter.clear()
    assert not groups[0].isHidden() and overlap.text(0) == "Unit overlap: 28 problems"
