"""The Odds dock: issuer/recipient choosers, the per-zone table with the current zone marked,
modifiers and the what-if line; live while a general is dragged; pair picked from the map
selection; refusals shown as text."""

from __future__ import annotations

from dataclasses import replace

from battlestudio.document import Document
from battlestudio.edits import MoveRecords
from battlestudio.replay.battle import Battle
from battlestudio.ui.panels.odds_panel import OddsPanel
from tests.analysis import known_game


def panel_for(qtbot, scenario=None) -> tuple[OddsPanel, Document]:
    doc = Document(Battle(scenario or known_game.scenario()))
    panel = OddsPanel()
    qtbot.addWidget(panel)
    panel.bind(doc)
    return panel, doc


def cells(panel: OddsPanel) -> list[tuple[str, str]]:
    return [(panel.table.item(r, 0).text(), panel.table.item(r, 1).text()) for r in range(panel.table.rowCount())]


def test_odds_per_zone_with_current_zone_and_what_if(qtbot):
    panel, doc = panel_for(qtbot)
    assert panel.set_pair("french-army", "french-c1")
    assert cells(panel) == [
        ("zone 1 (0–20 cm), needs 4", "70 %"),
        ("zone 2 (20–40 cm), needs 6", "50 %"),
        ("zone 3 (beyond 40 cm), needs 8", "30 %"),
    ]
    assert panel.table.item(1, 0).font().bold() and not panel.table.item(0, 0).font().bold()
    assert panel.modifiers.text() == "Modifiers: +1 command ability (KE) of France army (2.12)"
    assert "from 50 % to 70 %" in panel.what_if.text()
    # recipients offered are the issuer's subordinates only
    offered = [panel.recipient.itemData(i) for i in range(panel.recipient.count())]
    assert offered == ["french-c1", "french-d1", "french-u1", "french-u2"]


def test_odds_follow_a_dragged_general(qtbot):
    panel, doc = panel_for(qtbot)
    panel.set_pair("french-army", "french-c1")
    doc.push(MoveRecords("commanders", {"french-army": (100.0, 25.0)}, None, "Move", merge_key="d"))
    assert panel.odds.zone == 1 and "zone 1: 70 %" in panel.headline.text()
    doc.push(MoveRecords("commanders", {"french-army": (100.0, -20.0)}, None, "Move", merge_key="d"))
    assert panel.odds.zone == 3 and panel.table.item(2, 0).font().bold()
    assert panel.issuer.currentData() == "french-army" and panel.recipient.currentData() == "french-c1"


def test_pair_from_the_map_selection(qtbot):
    panel, doc = panel_for(qtbot)
    doc.set_selection({"prussian-c1", "prussian-army"})
    assert (panel.issuer.currentData(), panel.recipient.currentData()) == ("prussian-army", "prussian-c1")
    doc.set_selection({"prussian-c1", "french-army"})  # not in one chain: the pair stays
    assert panel.issuer.currentData() == "prussian-army"


def test_refusal_is_shown_as_text(qtbot):
    s = known_game.scenario()
    s.info = replace(s.info, parameters={})
    panel, _ = panel_for(qtbot, s)
    panel.set_pair("french-army", "french-c1")
    assert "needs scenario parameter" in panel.headline.text() and panel.table.rowCount() == 0
