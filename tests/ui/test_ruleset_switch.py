"""Switching a scenario's ruleset from the Properties dock: the report of what does not carry
over is shown before confirming; Cancel changes nothing; Switch is one undoable SetInfo step;
a lossless switch asks nothing."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QComboBox

from battlestudio.edits import SetInfo
from battlestudio.model.orders import Order
from battlestudio.rules.switch import switch_report
from battlestudio.ui.panels.properties_panel import PropertiesPanel
from battlestudio.ui.ruleset_switch import switch_ruleset


@pytest.fixture
def panel(qtbot, document):
    p = PropertiesPanel(document)
    qtbot.addWidget(p)
    p.show()
    qtbot.waitExposed(p)
    return p


def choose(combo: QComboBox, value) -> None:
    combo.setCurrentIndex(combo.findData(value))
    combo.activated.emit(combo.currentIndex())


def test_report_names_what_does_not_carry_over(document):
    s = document.scenario
    assert s.info.ruleset == "toe"
    cid = next(iter(s.commanders))
    s.orders["o1"] = Order("o1", cid, cid, "A")
    rep = switch_report(s, "regimental")
    assert rep.order_types == {"A": ("o1",)}
    assert "O" in rep.unit_states and len(rep.unit_states["O"]) == sum(1 for u in s.units.values() if u.state == "O")
    assert "adjutants.<side>" in rep.needs
    text = rep.text()
    assert "Order type 'A' is not a Regimental rules order: o1" in text and "Unit state 'O' means nothing" in text
    gda = switch_report(s, "gda")
    assert not gda.unit_states  # General d'Armée reads O/U/FU as formed/unformed/routing
    ba = switch_report(s, "belle-alliance")
    assert set(ba.echelons) >= {e for e in {c.echelon for c in s.commanders.values()} if e != "brigade"}
    assert switch_report(s, "toe").lossless


def test_combo_shows_report_and_cancel_keeps_ruleset(panel, document):
    seen = []
    panel.confirm_switch = lambda report: seen.append(report) or False
    combo: QComboBox = panel.editors["info"]["ruleset"].widget
    before = document.undo_count
    choose(combo, "regimental")
    assert len(seen) == 1 and seen[0].new == "regimental" and seen[0].lines()
    assert document.scenario.info.ruleset == "toe" and document.undo_count == before
    assert combo.currentData() == "toe"


def test_confirmed_switch_is_one_undoable_step(panel, document):
    panel.confirm_switch = lambda report: True
    combo: QComboBox = panel.editors["info"]["ruleset"].widget
    params = dict(document.scenario.info.parameters)
    choose(combo, "gda")
    assert document.scenario.info.ruleset == "gda"
    assert document.undo_text == "Switch ruleset to General d'Armée"
    assert document.scenario.info.parameters == params  # nothing is thrown away
    document.undo()
    assert document.scenario.info.ruleset == "toe" and combo.currentData() == "toe"


def test_lossless_switch_asks_nothing_and_unknown_ruleset_is_refused(document):
    asked = []
    document.push(SetInfo({"ruleset": "gda"}))
    ok, rep = switch_ruleset(document, "gda", lambda r: asked.append(r) or True)
    assert not ok and rep.lossless and not asked
    ok, msg = switch_ruleset(document, "no-such-rules", lambda r: True)
    assert not ok and "no ruleset 'no-such-rules' is installed" in msg and document.scenario.info.ruleset == "gda"


def test_combo_lists_every_installed_ruleset_by_its_name(panel, document):
    from battlestudio.rules import available_rulesets

    combo: QComboBox = panel.editors["info"]["ruleset"].widget
    listed = {combo.itemData(i): combo.itemText(i) for i in range(combo.count())}
    assert listed == {rid: rs.describe().name for rid, rs in available_rulesets().items()}
    assert listed["gda"] == "General d'Armée" and combo.currentData() == "toe"


def test_a_scenario_without_a_ruleset_shows_the_default_it_plays(qtbot):
    from battlestudio.document import Document
    from battlestudio.model.scenario import Scenario, ScenarioInfo
    from battlestudio.replay.battle import Battle
    from battlestudio.rules import DEFAULT_RULESET, get_ruleset

    doc = Document(Battle(Scenario(info=ScenarioInfo(title="New"))))
    p = PropertiesPanel(doc)
    qtbot.addWidget(p)
    combo: QComboBox = p.editors["info"]["ruleset"].widget
    assert combo.itemData(0) == "" and combo.currentIndex() == 0
    assert combo.itemText(0) == f"not chosen ({get_ruleset(DEFAULT_RULESET).describe().name})"
    p.confirm_switch = lambda report: True
    choose(combo, "regimental")
    assert doc.scenario.info.ruleset == "regimental"


def test_a_battle_with_a_recorded_game_keeps_its_ruleset(qtbot):
    """Jena's recorded Torden over Europa game, in the editor: switching to the Regimental rules
    is refused with the reason in the dock (a game resumed under another ruleset broke Next
    Phase), and the scenario keeps its ruleset."""
    from battlestudio import store
    from battlestudio.document import Document
    from battlestudio.ui.resources import bundled_scenarios

    jena = next(p for p in bundled_scenarios() if p.name == "jena-1806.battle.json")
    document = Document(store.load(jena))
    assert document.battle.events and document.scenario.info.ruleset == "toe"
    p = PropertiesPanel(document)
    qtbot.addWidget(p)
    p.confirm_switch = lambda report: True
    combo: QComboBox = p.editors["info"]["ruleset"].widget
    choose(combo, "regimental")
    assert document.scenario.info.ruleset == "toe" and combo.currentData() == "toe"
    assert "recorded game" in p.note.text() and "keeps its ruleset" in p.note.text()
    assert not document.is_modified
