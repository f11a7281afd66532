"""The Properties dock: the form follows the selection; with several records selected an edit
applies to all of them as one undo step; invalid text is not committed; scenario info."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QDoubleSpinBox, QLineEdit, QSpinBox

from battlestudio.model import Formation
from battlestudio.ui.panels.properties_panel import PropertiesPanel


@pytest.fixture
def panel(qtbot, document):
    p = PropertiesPanel(document)
    qtbot.addWidget(p)
    p.resize(400, 900)
    p.show()
    qtbot.waitExposed(p)
    return p


def choose(combo: QComboBox, value) -> None:
    """Pick ``value`` the way a user does (the ``activated`` signal)."""
    combo.setCurrentIndex(combo.findData(value))
    combo.activated.emit(combo.currentIndex())


def test_nothing_selected_edits_scenario_info(panel, document, qtbot):
    assert "Scenario" in panel.header.text()
    title: QLineEdit = panel.editors["info"]["title"].widget
    assert title.text() == "Elchingen 1805"
    title.selectAll()
    qtbot.keyClicks(title, "Elchingen, 14 October 1805")
    qtbot.keyClick(title, Qt.Key.Key_Return)
    assert document.scenario.info.title == "Elchingen, 14 October 1805"
    assert document.undo_text == "Set scenario title"
    width: QDoubleSpinBox = panel.editors["info"]["table_width"].widget
    assert width.suffix() == " cm"
    width.setValue(300.0)
    assert document.scenario.info.table_width == 300.0
    document.undo()
    assert width.value() == 240.0


def test_invalid_text_is_marked_and_not_committed(panel, document, qtbot):
    date: QLineEdit = panel.editors["info"]["first_turn"].widget
    date.clear()
    qtbot.keyClicks(date, "25:99")
    qtbot.keyClick(date, Qt.Key.Key_Return)
    assert document.scenario.info.first_turn == "08:00" and not document.can_undo
    document.set_selection({"u-ir8"})
    name: QLineEdit = panel.editors["units"]["name"].widget
    name.clear()
    assert "ffd6d6" in name.styleSheet()
    qtbot.keyClick(name, Qt.Key.Key_Return)
    assert document.scenario.units["u-ir8"].name == "IR 8 Erzherzog Ludwig" and not document.can_undo


def test_edit_applies_to_every_selected_unit_as_one_step(panel, document):
    ids = {"u-39ligne", "u-69ligne", "u-76ligne"}
    document.set_selection(ids)
    assert panel.header.text().endswith("3 units")
    formation: QComboBox = panel.editors["units"]["formation"].widget
    assert formation.font().italic()  # line and column mixed
    choose(formation, Formation.SQUARE)
    s = document.scenario
    assert {s.units[i].formation for i in ids} == {Formation.SQUARE}
    assert document.undo_text == "Set formation of 3 units" and document.undo_count == 1
    assert not formation.font().italic()
    men: QSpinBox = panel.editors["units"]["men"].widget
    men.setValue(1500)
    men.setValue(1600)  # consecutive steps of one field merge
    assert {s.units[i].men for i in ids} == {1600} and document.undo_count == 2
    document.undo()
    assert s.units["u-76ligne"].men == 2300 and s.units["u-39ligne"].formation == Formation.SQUARE
    document.undo()
    assert s.units["u-69ligne"].formation == Formation.COLUMN and s.units["u-39ligne"].formation == Formation.LINE


def test_position_facing_and_optional_fields(panel, document):
    document.set_selection({"u-6leger"})
    eds = panel.editors["units"]
    eds["position.0"].widget.setValue(90.5)
    eds["facing"].widget.setValue(45.0)
    u = document.scenario.units["u-6leger"]
    assert u.position == (90.5, 50.0) and u.facing == 45.0
    ammo: QSpinBox = eds["ammunition"].widget
    assert ammo.text() == "—"
    ammo.setValue(12)
    assert document.scenario.units["u-6leger"].ammunition == 12
    ammo.setValue(ammo.minimum())
    assert document.scenario.units["u-6leger"].ammunition is None


def test_an_optional_number_is_cleared_by_emptying_it(qtbot, panel, document):
    document.set_selection({"u-6leger"})
    ammo: QSpinBox = panel.editors["units"]["ammunition"].widget
    ammo.setValue(12)
    assert document.scenario.units["u-6leger"].ammunition == 12
    panel.show()
    ammo.setFocus()
    ammo.selectAll()
    qtbot.keyClick(ammo, Qt.Key.Key_Backspace)
    qtbot.keyClick(ammo, Qt.Key.Key_Return)
    assert document.scenario.units["u-6leger"].ammunition is None and ammo.text() == "—"
    assert "clear" in ammo.toolTip()
    document.undo()  # edits of one field in a row are one undo step, as a spin box's steps are
    assert document.scenario.units["u-6leger"].ammunition is None and document.undo_count == 0


def test_mixed_kinds_get_one_group_each(panel, document):
    document.set_selection({"u-ir8", "c-loudon", "town-ober", "t-hill-1"})
    assert set(panel.editors) == {"units", "commanders", "terrain", "towns"}
    level: QSpinBox = panel.editors["terrain"]["level"].widget
    level.setValue(2)
    assert document.scenario.terrain["t-hill-1"].level == 2
    cap: QSpinBox = panel.editors["towns"]["capacity"].widget
    cap.setValue(2)
    assert document.scenario.towns["town-ober"].capacity == 2
    assert "225 cm²" in panel.area_label.text()
    echelon: QComboBox = panel.editors["commanders"]["echelon"].widget
    choose(echelon, "corps")
    assert document.scenario.commanders["c-loudon"].echelon == "corps"


def test_form_follows_undo_of_other_edits(panel, document):
    from battlestudio.edits import MoveRecords

    document.set_selection({"u-ir8"})
    document.push(MoveRecords("units", {"u-ir8": (10.0, 20.0)}, None, "Move"))
    assert panel.editors["units"]["position.0"].widget.value() == 10.0
    document.undo()
    assert panel.editors["units"]["position.0"].widget.value() == 84.0


def test_objectives_are_editable(panel, document):
    document.set_selection({"obj-abbey"})
    side: QComboBox = panel.editors["objectives"]["side"].widget
    assert side.currentData() == "french"
    choose(side, "")
    panel.editors["objectives"]["value"].widget.setValue(5)
    o = document.scenario.objectives["obj-abbey"]
    assert o.side == "" and o.value == 5 and document.undo_count == 2


def test_an_emptied_required_number_keeps_its_value(qtbot, panel, document):
    document.set_selection({"u-6leger"})
    men: QSpinBox = panel.editors["units"]["men"].widget
    before = document.scenario.units["u-6leger"].men
    steps = document.undo_count
    panel.show()
    men.setFocus()
    men.selectAll()
    qtbot.keyClick(men, Qt.Key.Key_Backspace)
    qtbot.keyClick(men, Qt.Key.Key_Return)
    assert document.scenario.units["u-6leger"].men == before and men.value() == before
    assert document.undo_count == steps  # nothing was set
