"""Switching Elchingen to the Regimental rules from the Properties dock converts its units to
the Regimental bases (1.1-1.2) in the same undoable step; the confirmation lists the
conversion; Undo restores the Torden over Europa figures."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QComboBox

from battlestudio import store
from battlestudio.document import Document
from battlestudio.ui.panels.properties_panel import PropertiesPanel

ELCHINGEN = Path(__file__).resolve().parents[2] / "scenarios" / "elchingen-1805.battle.json"


def test_switch_to_regimental_converts_the_units_in_one_undo_step(qtbot):
    document = Document(store.load(ELCHINGEN))
    assert document.scenario.info.ruleset == "toe" and not document.battle.events
    panel = PropertiesPanel(document)
    qtbot.addWidget(panel)
    panel.show()
    qtbot.waitExposed(panel)
    seen = []
    panel.confirm_switch = lambda report: seen.append(report) or True
    before = document.scenario.units["austrian-avantgarde"]
    combo: QComboBox = panel.editors["info"]["ruleset"].widget
    combo.setCurrentIndex(combo.findData("regimental"))
    combo.activated.emit(combo.currentIndex())
    assert seen and any("converted to the Regimental rules scale" in line for line in seen[0].lines())
    av = document.scenario.units["austrian-avantgarde"]
    assert document.scenario.info.ruleset == "regimental"
    assert (av.figures, av.bases) == (round(before.men / 75), 8)
    assert document.undo_text == "Switch ruleset to Regimental rules"
    document.undo()
    assert document.scenario.info.ruleset == "toe"
    assert document.scenario.units["austrian-avantgarde"] == before
