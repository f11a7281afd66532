"""The bundled Auerstedt 1806 battle in the window: it opens from the bundled scenarios with
the whole table in view and no problems in the dock or the status bar, and switching it to each
of the other rulesets in the Properties dock shows the report of what does not carry over and
keeps every unit, commander and parameter (undo brings Torden over Europa back)."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QComboBox

from battlestudio.ui.resources import bundled_scenarios
from tests.ui.window_helpers import make_window

AUERSTEDT = next(p for p in bundled_scenarios() if p.name == "auerstedt-1806.battle.json")


def choose(combo: QComboBox, value) -> None:
    combo.setCurrentIndex(combo.findData(value))
    combo.activated.emit(combo.currentIndex())


def test_auerstedt_opens_clean_with_the_whole_table_in_view(qtbot, tmp_path):
    w = make_window(qtbot, tmp_path)
    assert w.files.open_path(AUERSTEDT)
    sc = w.document.scenario
    assert sc.info.title == "Auerstedt 1806" and len(sc.units) == 44
    panel = w.problems_panel
    assert panel.check() == [] and panel.summary.text() == "No problems found."
    qtbot.waitUntil(lambda: w.problems_label.text() == "No problems", timeout=3000)
    view = w.map_view  # opening a file fits the whole table
    visible = view.mapToScene(view.viewport().rect()).boundingRect()
    assert visible.width() >= sc.info.table_width and visible.height() >= sc.info.table_height


@pytest.mark.parametrize("ruleset", ["gda", "regimental", "belle-alliance"])
def test_switching_auerstedt_to_another_ruleset_reports_what_stays_behind(qtbot, tmp_path, ruleset):
    w = make_window(qtbot, tmp_path)
    assert w.files.open_path(AUERSTEDT)
    doc = w.document
    before = (dict(doc.scenario.units), dict(doc.scenario.commanders), dict(doc.scenario.info.parameters))
    seen = []
    p = w.properties_panel
    p.confirm_switch = lambda report: seen.append(report) or True
    combo: QComboBox = p.editors["info"]["ruleset"].widget
    choose(combo, ruleset)
    assert len(seen) == 1 and seen[0].new == ruleset
    text = "\n".join(seen[0].lines())
    assert "not used by" in text and "toe." in text  # the Torden over Europa values do not carry over
    assert doc.scenario.info.ruleset == ruleset and combo.currentData() == ruleset
    after = (dict(doc.scenario.units), dict(doc.scenario.commanders), dict(doc.scenario.info.parameters))
    assert after[1:] == before[1:]  # commanders and parameters stay
    if ruleset == "regimental":  # the Regimental rules convert the units to their bases (1.1-1.2)
        assert set(after[0]) == set(before[0]) and after[0] != before[0]
    else:
        assert after[0] == before[0]
    doc.undo()
    assert doc.scenario.info.ruleset == "toe"
